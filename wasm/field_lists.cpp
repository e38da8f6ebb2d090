// The core's field lists as data (see convert.hpp): their names (engine.vocabulary().fields, the
// experiments module's experimentVocabulary()) and the read-and-write-back round trip of the tests.
#include <string>

#include "attnsvm/base/errors.hpp"
#include "attnsvm/experiments/seed_spread.hpp"
#include "attnsvm/vocab/fields.hpp"
#include "cold.hpp"
#include "convert.hpp"

ATTNSVM_COLD_BEGIN  // cold code: optimized for size in wasm (core/hints/cold.hpp)
    namespace attnsvm::wire {
  namespace {
  template <class T>
  val roundTrip(const val& value, const std::string& name) {
    return writeFields(readFields<T>(value, name));
  }
  }  // namespace

  val roundTripFields(const std::string& name, const val& value) {
    static const struct {
      const char* name;
      val (*roundTrip)(const val&, const std::string&);
    } lists[] = {
        {"dataset", &roundTrip<Dataset>},     {"model", &roundTrip<ModelSpec>},
        {"train", &roundTrip<TrainSettings>}, {"params", &roundTrip<Params>},
        {"init", &roundTrip<InitSettings>},   {"solver", &roundTrip<SolverSettings>},
        {"solve", &roundTrip<SolveRequest>},  {"scenarioOptions", &roundTrip<ScenarioOptions>}};
    for (const auto& list : lists)
      if (name == list.name) {
        val o = val::object();
        put(o, "value", list.roundTrip(value, name));
        return o;
      }
    throw InputError("fieldsRoundTrip: no field list named '" + name + "'");
  }

  namespace {
  // Collects a list's names into a JS array (no struct value is read).
  struct NameList {
    val& out;
    [[gnu::noinline]] void add(const char* name) noexcept { out.call<void>("push", val(name)); }
    template <class T>
    void operator()(const char* name, T&&, bool = true) noexcept {
      add(name);
    }
    template <class Fn>
    void object(const char* name, Fn&&, bool = true) noexcept {
      add(name);
    }
  };
  template <class T, class... Extra>
  val names(const Extra&... extra) {
    val a = val::array();
    const T s{};
    NameList v{a};
    visitFields(s, extra..., v);
    return a;
  }
  }  // namespace

  val fieldLists() {
    val o = val::object();
    put(o, "dataset", names<Dataset>());
    put(o, "model", names<ModelSpec>());
    put(o, "train", names<TrainSettings>());
    put(o, "params", names<Params>());
    put(o, "init", names<InitSettings>());
    put(o, "solve", names<SolveRequest>());
    put(o, "scenarioOptions", names<ScenarioOptions>());
    put(o, "solution", names<MarginSolution>(MarginProblem{}));
    put(o, "report", names<SelectionReport>(MarginProblem{}));
    return o;
  }

  val experimentFieldLists() {
    val o = val::object();
    put(o, "experimentSeeds", names<SeedsRequest>());
    put(o, "basinMap", names<BasinMapRequest>());
    put(o, "realImagesSettings", names<RealImagesSettings>());
    put(o, "realImagesFrame", names<RealImagesFrame>());
    put(o, "realImagesAnalysis", names<RealImagesAnalysis>());
    put(o, "realStudySettings", names<RealStudySettings>());
    put(o, "realStudyRun", names<RealStudyRun>());
    put(o, "realStudyRunResult", names<RealStudyRunResult>());
    put(o, "realStudyRow", names<RealStudyRow>());
    put(o, "realTrainSettings", names<RealTrainSettings>());
    put(o, "realLadderSettings", names<RealLadderSettings>());
    put(o, "realLadderRun", names<RealLadderRun>());
    put(o, "realLadderRunResult", names<RealLadderRunResult>());
    put(o, "realLadderRow", names<RealLadderRow>());
    put(o, "realLadderSummary", names<RealLadderSummary>());
    put(o, "seriesSpread", names<SeriesSpreadRequest>());
    put(o, "seriesSpreadResult", names<SeriesSpread>());
    return o;
  }

}  // namespace attnsvm::wire
ATTNSVM_COLD_END
