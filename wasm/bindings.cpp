// The embind layer: thin wrappers over the core, no maths here. Every entry point catches
// exceptions and returns a status object ({ok: true, ...result} or {ok: false, error, kind});
// the JS wrapper (web/src/engine/engine.js) turns failures into Errors. Exceptions never unwind
// into JS: an escaped C++ exception leaks its allocation and the shadow stack (TOOLCHAIN.md §3).
#include <emscripten/bind.h>
#include <emscripten/val.h>
#include <malloc.h>

#include <cmath>

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "attnsvm/analysis/selection.hpp"
#include "attnsvm/base/errors.hpp"
#include "attnsvm/data/dataset.hpp"
#include "attnsvm/experiments/experiment_reg_path.hpp"
#include "attnsvm/experiments/scenarios.hpp"
#include "attnsvm/model/model.hpp"
#include "attnsvm/solvers/margin.hpp"
#include "attnsvm/train/optimizers.hpp"
#include "attnsvm/train/train.hpp"
#include "attnsvm/vocab/fields.hpp"
#include "attnsvm/vocab/names.hpp"
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

// Status of calls without a result payload (crosses as a plain JS object).
struct Status {
  bool ok = true;
  std::string error;
  std::string kind;  // "input" | "numerical" | "internal"
};

// Runs body(context) and converts any exception into a failure status; out of line (one copy of
// the catch clause for all the Status entry points).
__attribute__((noinline)) Status guardedStatusCall(void (*body)(void*), void* context) {
  try {
    body(context);
    return {};
  } catch (...) {
    const wire::CaughtError e = wire::caughtError();
    return {false, e.message, e.kind};
  }
}

template <class F>
Status guardedStatus(F&& f) {
  return guardedStatusCall(&wire::Thunk<std::remove_reference_t<F>>::call, wire::thunkContext(f));
}

#define ATTNSVM_STR2(x) #x
#define ATTNSVM_STR(x) ATTNSVM_STR2(x)
std::string version() {
  return "attnsvm 0.1.0 (wasm, emscripten " ATTNSVM_STR(__EMSCRIPTEN_major__) "." ATTNSVM_STR(
      __EMSCRIPTEN_minor__) "." ATTNSVM_STR(__EMSCRIPTEN_tiny__) ")";
}

// Bytes currently allocated by malloc in the wasm heap (leak tests: the heap's size never shrinks,
// but this does).
double heapUsed() { return static_cast<double>(mallinfo().uordblks); }

val scenarioNamesW() {
  return guarded([] { return wire::namesObject(scenarioNames()); });
}

// The core's vocabulary (attnsvm/vocab/names.hpp, attnsvm/vocab/fields.hpp): canonical names of
// every public enum and the field lists of the public structs, so that the JS side (and the test
// that checks attnsvm.d.ts against them) never keeps its own copy.
val vocabularyW() {
  return guarded([] {
    const auto list = wire::strings;
    val o = val::object();
    put(o, "attention", list(wireNames<AttentionKind>()));
    put(o, "param", list(wireNames<Parameterization>()));
    put(o, "head", list(wireNames<HeadKind>()));
    put(o, "loss", list(wireNames<LossKind>()));
    put(o, "optimizer", list(wireNames<Optimizer>()));
    put(o, "init", list(wireNames<InitKind>()));
    put(o, "norm", list(wireNames<NormKind>()));
    put(o, "problem", list(wireNames<SvmProblemKind>()));
    put(o, "status", list(wireNames<SolveStatus>()));
    put(o, "verdict", list(wireNames<Verdict>()));
    // The optimizer registry's properties (attnsvm/train/optimizers.hpp), for the lab's controls.
    val optimizers = val::array();
    for (const OptimizerInfo& info : optimizerRegistry()) {
      val e = val::object();
      put(e, "name", val(info.names[0]));
      put(e, "mirror", val(info.mirror));
      put(e, "normalized", val(isNormalizedOptimizer(info.kind)));
      put(e, "batched", val(info.notBatched == nullptr));
      optimizers.call<void>("push", e);
    }
    put(o, "optimizers", optimizers);
    // The field lists (attnsvm/vocab/fields.hpp), by the .d.ts interface they type.
    put(o, "fields", wire::fieldLists());
    // Keys a dataset file may hold beside the dataset's fields (the lab's Dataset JSON box).
    put(o, "datasetFileExtras",
        list({std::begin(kDatasetFileExtras), std::end(kDatasetFileExtras)}));
    return o;
  });
}

val scenarioW(const std::string& name, const val& options) {
  return guarded([&] {
    const Scenario sc = makeScenario(name, wire::readFields<ScenarioOptions>(options, "options"));
    InitSettings init;
    init.kind = InitKind::Given;
    init.given = sc.init;
    val o = val::object();
    put(o, "name", val(sc.name));
    put(o, "title", val(sc.title));
    put(o, "dataset", val(wire::dataset(sc.data, sc.model.attention)));
    put(o, "model", val(wire::writeFields(sc.model)));
    put(o, "train", val(wire::writeFields(sc.train)));
    put(o, "init", val(wire::writeFields(init)));
    put(o, "iterations", val(sc.iterations));
    return o;
  });
}

val sphereW(int n, int T, int d, double seed) {
  return guarded([&] {
    val o = val::object();
    put(o, "dataset",
        val(wire::dataset(sphereDataset(n, T, d, wire::seedValue(seed)), AttentionKind::Cross)));
    return o;
  });
}

Status validateW(const val& data, const std::string& attention) {
  return guardedStatus([&] { validate(wire::dataset(data), wire::attentionKind(attention)); });
}

val scoresW(const val& data) {
  return guarded([&] {
    const Dataset d = wire::dataset(data);
    validate(d, AttentionKind::SeqToSeq);  // sizes and finiteness only: no query is involved
    const OptimalTokens opt = optimalTokens(d);
    val o = val::object();
    put(o, "gamma", val(wire::matrix(tokenScores(d))));
    put(o, "optimal", val(wire::i32(opt.opt)));
    put(o, "ties", val(wire::ragged(opt.ties)));
    return o;
  });
}

// Parameters for a model: the caller's fields over zero parameters; the head defaults to the data's
// v.
Params paramsFor(const Model& model, const val& given) {
  Params p = model.zeroParams();
  const Params g = wire::readFields<Params>(given, "params");
  if (g.W.size() > 0) p.W = g.W;
  if (g.K.size() > 0) p.K = g.K;
  if (g.Q.size() > 0) p.Q = g.Q;
  if (g.p.size() > 0) p.p = g.p;
  if (g.v.size() > 0) p.v = g.v;
  if (p.v.size() == 0) p.v = model.data().v;
  return p;
}

val forwardW(const val& data, const val& spec, const val& params) {
  return guarded([&] {
    const Model model(wire::dataset(data), wire::readFields<ModelSpec>(spec, "model"));
    return wire::forward(model.forward(paramsFor(model, params)));
  });
}

// A solve / analyze request: the core's SolveRequest (attnsvm/vocab/fields.hpp) and the entry
// point's own fields (read by the caller with the same reader), then finish() rejects any other
// key.
SolveRequest readRequest(wire::Reader& r) {
  SolveRequest req;
  visitFields(req, r);
  return req;
}

val solveW(const val& obj) {
  return guarded([&] {
    wire::Reader r(obj, "");
    const SolveRequest req = readRequest(r);
    r.finish();
    const MarginProblem problem = svmProblem(req);
    return wire::solution(solveMargin(problem, req.solver), problem);
  });
}

// The analysis of a selection: the request's (or the core's default), or with W the selection
// of those weights; for problem "prompt" the prompt SVM's analysis.
val analyzeW(const val& obj) {
  return guarded([&] {
    wire::Reader r(obj, "");
    const SolveRequest req = readRequest(r);
    Mat W;
    r("W", W);
    r.finish();
    const Dataset& d = req.dataset;
    if (req.problem == SvmProblemKind::Prompt) {
      validate(d, AttentionKind::SeqToSeq);
      if (req.Wk.size() == 0) throw InputError("the prompt analysis needs the key matrix Wk");
      const SelectionReport rep = analyzePromptSelection(d, req.Wk, selectionOf(req), req.solver);
      return wire::selectionReport(rep, promptSvmProblem(d, req.Wk, rep.selection));
    }
    if (req.problem != SvmProblemKind::Attention)
      throw InputError(std::string("analyze takes problem attention or prompt, not ") +
                       wireName(req.problem));
    const AttentionKind kind = attentionOf(req);
    const SelectionReport rep = W.size() > 0
                                    ? analyzeWeights(d, kind, W, req.solver)
                                    : analyzeSelection(d, kind, selectionOf(req), req.solver);
    // Rebuilt only to label the SVM's support constraints with (sequence, token).
    return wire::selectionReport(rep, attentionSvmProblem(d, kind, rep.selection));
  });
}

// All feasible and locally optimal selections (enumeration; capped by maxSelections).
val enumerateW(const val& obj) {
  return guarded([&] {
    wire::Reader r(obj, "");
    Dataset d;
    r.required("dataset", d);
    std::optional<AttentionKind> attention;
    r("attention", attention);
    double cap = 200000;
    r("maxSelections", cap);
    r.finish();
    const AttentionKind kind = attention.value_or(defaultAttention(d));
    validate(d, kind);
    val reports = val::array();
    for (const SelectionReport& rep : enumerateLocallyOptimal(d, kind, static_cast<long long>(cap)))
      reports.call<void>("push",
                         wire::selectionReport(rep, attentionSvmProblem(d, kind, rep.selection)));
    val o = val::object();
    put(o, "reports", val(reports));
    return o;
  });
}

// Generalized SVM of a softmax (nonlinear heads): selected sets, W_dir, W_fin, and R for a W.
val generalizedW(const val& obj) {
  return guarded([&] {
    wire::Reader r(obj, "");
    Dataset d;
    r.required("dataset", d);
    Mat softmax, W;
    r.required("softmax", softmax);
    double threshold = 1e-3;
    r("threshold", threshold);
    SolverSettings settings;
    visitFields(settings, r);
    r("W", W);
    r.finish();
    validate(d, AttentionKind::SeqToSeq);  // sizes and finiteness; the softmax carries the queries
    const GeneralizedSvm g = generalizedSvm(d, softmax, threshold, settings);
    val o = val::object();
    put(o, "selectedSets", val(wire::ragged(g.selectedSets)));
    put(o, "direction", val(wire::solution(g.direction, MarginProblem{})));
    put(o, "finite", val(wire::matrix(g.finite)));
    if (W.size() > 0) put(o, "radius", val(fitRadius(g, W)));
    return o;
  });
}

// Regularization path W(R) for increasing radii: the matrices stacked in one array (count, rows,
// cols, data) and per radius the certificate fields of PathPoint (attnsvm/train/path.hpp) in
// `points` (the CLI's `attnsvm path` writes the same list; W is in `data`, not repeated there).
val pathW(const val& obj) {
  return guarded([&] {
    wire::Reader r(obj, "");
    Dataset d;
    r.required("dataset", d);
    ModelSpec spec;
    r("model", spec);
    PathSettings ps;
    NormKind norm = NormKind::Frobenius;
    r("norm", norm);
    r("p", ps.p);
    r("iterationsPerRadius", ps.iterationsPerRadius);
    double gapTolerance = kPathGapTolerance;
    r("gapTolerance", gapTolerance);
    Vec radii;
    r("radii", radii);
    // warmStart: a guess of W(R) per radius, stacked row-major as the answer's `data` (path.hpp)
    std::vector<double> warm;
    r("warmStart", warm);
    r.finish();
    if (radii.size() == 0) throw InputError("radii (increasing ball radii) are missing");
    const Model model(d, spec);
    std::vector<Mat> warmStarts;
    if (!warm.empty()) {
      const Index rows = d.d, cols = spec.param == Parameterization::Prompt ? 1 : d.d;
      const std::size_t each = static_cast<std::size_t>(rows * cols);
      if (warm.size() != each * static_cast<std::size_t>(radii.size()))
        throw InputError("warmStart has " + std::to_string(warm.size()) + " numbers, expected " +
                         std::to_string(radii.size()) + " radii x " + std::to_string(rows) + " x " +
                         std::to_string(cols));
      using RowMat = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
      for (Index k = 0; k < radii.size(); ++k)
        warmStarts.push_back(Eigen::Map<const RowMat>(warm.data() + k * each, rows, cols));
    }
    ps.norm = norm == NormKind::Nuclear ? BallNorm::Nuclear
              : norm == NormKind::Lp    ? BallNorm::Lp
                                        : BallNorm::Frobenius;
    if (norm != NormKind::Lp) ps.p = 2.0;
    std::vector<PathPoint> path = regularizationPathPoints(
        model, std::vector<double>(radii.data(), radii.data() + radii.size()), ps, gapTolerance,
        &warmStarts);
    annotatePath(d, spec, norm, ps.p, path);
    std::vector<double> data;
    int rows = 0, cols = 0;
    val points = val::array();
    for (const PathPoint& pt : path) {
      const Mat& w = pt.W;
      rows = static_cast<int>(w.rows());
      cols = static_cast<int>(w.cols());
      for (Index i = 0; i < w.rows(); ++i)
        for (Index j = 0; j < w.cols(); ++j) data.push_back(w(i, j));  // row-major, as the wire
      val p = wire::writeFields(pt);
      p.delete_("W");
      p.set("rank", relativeRank(w));
      points.call<void>("push", p);
    }
    val o = val::object();
    put(o, "count", val(static_cast<int>(path.size())));
    put(o, "rows", val(rows));
    put(o, "cols", val(cols));
    put(o, "data", val(wire::f64(data)));
    put(o, "points", points);
    return o;
  });
}

// A training run owned by JS: created empty (constructors cannot report errors), then init().
// JS must call delete() (Run.dispose() in the wrapper).
class RunHandle {
 public:
  Status init(const val& cfg) {
    return guardedStatus([&] {
      wire::Reader r(cfg, "");
      Dataset data;
      r.required("dataset", data);
      ModelSpec spec;
      r("model", spec);
      TrainSettings settings;
      r("train", settings);
      InitSettings init;
      r("init", init);
      r.accept("references");  // added by the JS wrapper (Run.addReference)
      r.finish();
      model_ = std::make_unique<Model>(std::move(data), spec);
      settings_ = settings;
      init_ = initialParams(*model_, init);
      references_.clear();
      restart();
    });
  }

  val step(int k) {
    return guarded([&] {
      Trainer& t = trainer();
      if (k < 0) throw InputError("step(k): k = " + std::to_string(k) + " must be >= 0");
      const int taken = t.step(k);
      const Trace tr = t.takeTrace();
      val o = val::object();
      put(o, "taken", val(taken));
      put(o, "frames", val(tr.frames()));
      put(o, "units", val(tr.units));
      put(o, "references", val(tr.references));
      put(o, "T", val(tr.T));
      put(o, "iteration", val(wire::i32(tr.iteration)));
      put(o, "loss", val(wire::f64(tr.loss)));
      put(o, "normFro", val(wire::f64(tr.normFro)));
      put(o, "normNuc", val(wire::f64(tr.normNuc)));
      put(o, "normLp", val(wire::f64(tr.normLp)));
      put(o, "selected", val(wire::i32(tr.selected)));
      put(o, "selectedProbability", val(wire::f64(tr.selectedProbability)));
      put(o, "corr", val(wire::f64(tr.corr)));
      put(o, "divergence", val(wire::f64(tr.divergence)));
      put(o, "softmax", val(wire::f64(tr.softmax)));
      put(o, "weights", val(wire::matrix(t.weights())));
      put(o, "stopped", val(t.stopped()));
      put(o, "stopReason", val(t.stopReason()));
      put(o, "iterationNow", val(t.iteration()));
      return o;
    });
  }

  val params() {
    return guarded([&] {
      val o = val::object();
      put(o, "params", val(wire::writeFields(trainer().params())));
      return o;
    });
  }

  val weights() {
    return guarded([&] {
      val o = val::object();
      put(o, "weights", val(wire::matrix(trainer().weights())));
      return o;
    });
  }

  Status addReference(const std::string& name, const val& W) {
    return guardedStatus([&] {
      Mat m = wire::matrix(W, "reference " + name);
      trainer().addReference(name, m);
      references_.emplace_back(name, std::move(m));
    });
  }

  // Back to the initial parameters with the same references (a fresh Trainer).
  Status reset() {
    return guardedStatus([&] {
      if (!model_) throw InputError("run is not initialized");
      restart();
      for (const auto& [name, m] : references_) trainer_->addReference(name, m);
    });
  }

  int iteration() const { return trainer_ ? trainer_->iteration() : 0; }

 private:
  Trainer& trainer() { return wire::live(trainer_, "run"); }
  void restart() { trainer_ = std::make_unique<Trainer>(*model_, settings_, init_); }

  std::unique_ptr<Model> model_;
  TrainSettings settings_;
  Params init_;
  std::vector<std::pair<std::string, Mat>> references_;
  std::unique_ptr<Trainer> trainer_;
};

}  // namespace

EMSCRIPTEN_BINDINGS(attnsvm) {
  using namespace emscripten;
  value_object<Status>("Status")
      .field("ok", &Status::ok)
      .field("error", &Status::error)
      .field("kind", &Status::kind);
  function("version", &version);
  function("heapUsed", &heapUsed);
  function("scenarioNames", &scenarioNamesW);
  function("vocabulary", &vocabularyW);
  function("scenario", &scenarioW);
  function("sphere", &sphereW);
  function("validate", &validateW);
  function("scores", &scoresW);
  function("forward", &forwardW);
  function("solve", &solveW);
  function("analyze", &analyzeW);
  function("enumerate", &enumerateW);
  function("generalized", &generalizedW);
  function("path", &pathW);
  wire::runHandleClass<RunHandle>("Run")
      .function("weights", &RunHandle::weights)
      .function("addReference", &RunHandle::addReference)
      .function("reset", &RunHandle::reset);
}
ATTNSVM_COLD_END
