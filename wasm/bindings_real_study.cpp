// The real-images study (SPEC 6.1) and regime ladder (6.2) entry points, linked only into the
// attnsvm-experiments module: thin wrappers over the core (attnsvm/experiments/real_study.hpp,
// real_ladder.hpp), so that the page's worker pool runs what the native CLI runs, with the same
// bits (the kernel and the portable functions) and the same plan, step choices and table (the
// planner is the core's). Every entry point catches (guarded) and returns a status object.
//
// Driving (web/src/engine/real-study.js wraps these; scripts/bench-real-study.mjs is a node pool):
//   a coordinator holds a RealStudyPlanner (or RealLadderPlanner): init(settings), then
//   take(count) hands out runs (plain objects, RealStudyRun / RealLadderRun field lists) and
//   submit(result) takes their results in any order; done() and table() at the end;
//   each worker holds the two classes' images and, per run, a RealStudyRunHandle
//   (init({train, test, run}), advance(epochs) in chunks, result()) or a RealLadderRunHandle
//   (init({train, run}), advance(steps) in chunks, analyze() (the solves: one chunk), result()).
// Image sets are {rows, cols, pixels: Uint8Array, labels: Int32Array} in file order (the site's
// asset holds each class's pool: the same split as the CLI's for every seed).
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <memory>
#include <string>
#include <vector>

#include "attnsvm/base/errors.hpp"
#include "attnsvm/experiments/real_ladder.hpp"
#include "attnsvm/experiments/real_phase.hpp"
#include "attnsvm/experiments/real_study.hpp"
#include "cold.hpp"
#include "convert.hpp"
#include "guarded.hpp"
#include "plumbing.hpp"

ATTNSVM_COLD_BEGIN  // cold code: optimized for size in wasm (core/hints/cold.hpp)
    using emscripten::val;
using namespace attnsvm;

namespace {

using wire::guarded;
using wire::put;

template <class T>
val listOf(const std::vector<T>& items) {
  val a = val::array();
  for (const T& x : items) a.call<void>("push", wire::writeFields(x));
  return a;
}

// ---- the planners: one handle for both (they differ only in their types, their name in messages,
// the study's count of runs in flight and the ladder's summary table)

struct StudyPlan {
  using Planner = RealStudy;
  using Settings = RealStudySettings;
  using RunResult = RealStudyRunResult;
  static constexpr const char* name = "real-images study";
  static void addStatus(const RealStudy& s, val& o) { put(o, "inFlight", val(s.inFlight())); }
  static void addTable(const RealStudy&, val&) {}
};

struct LadderPlan {
  using Planner = RealLadder;
  using Settings = RealLadderSettings;
  using RunResult = RealLadderRunResult;
  static constexpr const char* name = "real-images ladder";
  static void addStatus(const RealLadder&, val&) {}
  static void addTable(const RealLadder& l, val& o) { put(o, "summary", listOf(l.summary())); }
};

// The (d, n) phase diagram (SPEC 6.5): its runs are the ladder's (RealLadderRunHandle runs them).
struct PhasePlan {
  using Planner = RealPhase;
  using Settings = RealPhaseSettings;
  using RunResult = RealLadderRunResult;
  static constexpr const char* name = "real-images phase diagram";
  static void addStatus(const RealPhase&, val&) {}
  static void addTable(const RealPhase& p, val& o) { put(o, "summary", listOf(p.summary())); }
};

template <class Plan>
class PlannerHandle {
 public:
  val init(const val& settings) {
    return guarded([&] {
      planner_ = std::make_unique<typename Plan::Planner>(
          wire::readFields<typename Plan::Settings>(settings, "settings"));
      return status();
    });
  }
  val take(int count) {
    return guarded([&] {
      if (count < 0) throw InputError("take(count): count must be >= 0");
      val o = status();
      put(o, "runs", listOf(planner().take(count)));
      return o;
    });
  }
  val submit(const val& result) {
    return guarded([&] {
      planner().submit(wire::readFields<typename Plan::RunResult>(result, "result"));
      return status();
    });
  }
  val progress() {
    return guarded([&] { return status(); });
  }
  val table() {
    return guarded([&] {
      val o = val::object();
      put(o, "settings", wire::writeFields(planner().settings()));
      put(o, "rows", listOf(planner().table()));
      Plan::addTable(planner(), o);
      return o;
    });
  }
  // Every run handed out and every result received (in run order; a result of a run not yet
  // submitted has id -1), for a record of the whole plan.
  val record() {
    return guarded([&] {
      val o = val::object();
      put(o, "runs", listOf(planner().runs()));
      put(o, "results", listOf(planner().results()));
      return o;
    });
  }

 private:
  typename Plan::Planner& planner() const { return wire::live(planner_, Plan::name); }
  val status() const {
    const auto& p = planner();
    val o = val::object();
    put(o, "planned", val(p.plannedRuns()));
    put(o, "submitted", val(p.submitted()));
    Plan::addStatus(p, o);
    put(o, "done", val(p.done()));
    return o;
  }
  std::unique_ptr<typename Plan::Planner> planner_;
};

using RealStudyPlannerHandle = PlannerHandle<StudyPlan>;
using RealLadderPlannerHandle = PlannerHandle<LadderPlan>;
using RealPhasePlannerHandle = PlannerHandle<PhasePlan>;

// ---- the runs

class RealStudyRunHandle {
 public:
  // {train, test, run}: the training and the test file's images (at least the two classes' pools)
  // and the run (RealStudyRun's list).
  val init(const val& req) {
    return guarded([&] {
      wire::Reader in(req, "");
      in.accept("train");
      in.accept("test");
      RealStudyRun run;
      in.object("run", [&](wire::Reader& sub) { visitFields(run, sub); });
      in.finish();
      images_ = std::make_unique<RealStudyImages>(RealStudyImages{
          wire::imageSet(req["train"], "train"), wire::imageSet(req["test"], "test")});
      runner_ = std::make_unique<RealStudyRunner>(*images_, run);
      return state();
    });
  }
  val advance(int epochs) {
    return guarded([&] {
      if (epochs < 0) throw InputError("advance(epochs): epochs must be >= 0");
      runner().advance(epochs);
      return state();
    });
  }
  val result() {
    return guarded([&] {
      val o = state();
      put(o, "result", wire::writeFields(runner().result()));
      return o;
    });
  }

 private:
  RealStudyRunner& runner() const { return wire::live(runner_, "real-images study run"); }
  val state() const {
    val o = val::object();
    put(o, "epoch", val(runner().epoch()));
    put(o, "epochs", val(runner().run().epochs));
    put(o, "done", val(runner().done()));
    return o;
  }
  std::unique_ptr<RealStudyImages> images_;
  std::unique_ptr<RealStudyRunner> runner_;
};

class RealLadderRunHandle {
 public:
  // {train, run}: the training file's images (at least the two classes' pools) and the run.
  val init(const val& req) {
    return guarded([&] {
      wire::Reader in(req, "");
      in.accept("train");
      RealLadderRun run;
      in.object("run", [&](wire::Reader& sub) { visitFields(run, sub); });
      in.finish();
      runner_ = std::make_unique<RealLadderRunner>(wire::imageSet(req["train"], "train"), run);
      steps_ = run.steps;
      return state();
    });
  }
  val advance(int steps) {
    return guarded([&] {
      if (steps < 0) throw InputError("advance(steps): steps must be >= 0");
      runner().advance(steps);
      return state();
    });
  }
  val analyze() {
    return guarded([&] {
      runner().analyze();
      return state();
    });
  }
  val result() {
    return guarded([&] {
      val o = state();
      put(o, "result", wire::writeFields(runner().result()));
      return o;
    });
  }

 private:
  RealLadderRunner& runner() const { return wire::live(runner_, "real-images ladder run"); }
  val state() const {
    val o = val::object();
    put(o, "step", val(runner().step()));
    put(o, "steps", val(steps_));
    put(o, "trained", val(runner().trained()));
    put(o, "done", val(runner().done()));
    return o;
  }
  std::unique_ptr<RealLadderRunner> runner_;
  int steps_ = 0;
};

// The three planners' JS classes: one list of methods (PlannerHandle's).
template <class Handle>
void bindPlanner(const char* name) {
  emscripten::class_<Handle>(name)
      .template constructor<>()
      .function("init", &Handle::init)
      .function("take", &Handle::take)
      .function("submit", &Handle::submit)
      .function("progress", &Handle::progress)
      .function("table", &Handle::table)
      .function("record", &Handle::record);
}

}  // namespace

EMSCRIPTEN_BINDINGS(attnsvm_real_study) {
  using namespace emscripten;
  bindPlanner<RealStudyPlannerHandle>("RealStudyPlanner");
  bindPlanner<RealLadderPlannerHandle>("RealLadderPlanner");
  bindPlanner<RealPhasePlannerHandle>("RealPhasePlanner");
  class_<RealStudyRunHandle>("RealStudyRunHandle")
      .constructor<>()
      .function("init", &RealStudyRunHandle::init)
      .function("advance", &RealStudyRunHandle::advance)
      .function("result", &RealStudyRunHandle::result);
  class_<RealLadderRunHandle>("RealLadderRunHandle")
      .constructor<>()
      .function("init", &RealLadderRunHandle::init)
      .function("advance", &RealLadderRunHandle::advance)
      .function("analyze", &RealLadderRunHandle::analyze)
      .function("result", &RealLadderRunHandle::result);
}
ATTNSVM_COLD_END
