// Building blocks of the seeded experiments (see experiment.hpp): training with snapshots, SVM
// directions and verdicts of a selection, the SeedResult accessors.
#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <string>

#include "attnsvm/base/errors.hpp"
#include "attnsvm/experiments/experiment.hpp"
#include "attnsvm/experiments/train_batched_run.hpp"
#include "attnsvm/solvers/norms.hpp"
#include "experiments/experiment_internal.hpp"

namespace attnsvm {

RunRecord runTraining(const Dataset& data, const ModelSpec& spec, const TrainSettings& settingsIn,
                      const Params& init, int iters, int every, bool recordHead,
                      const std::vector<int>* schedule) {
  TrainSettings settings = settingsIn;
  settings.traceEvery = std::max(1, iters);  // we take our own snapshots
  settings.traceSoftmax = false;
  Trainer trainer(Model(data, spec), settings, init);
  RunRecord rec;
  const int units = trainer.model().units();
  std::vector<int> sel(units);
  Vec prob(units);
  auto snap = [&]() {
    trainer.model().selection(trainer.params(), sel, prob);
    rec.iteration.push_back(trainer.iteration());
    rec.weights.push_back(trainer.weights());
    if (recordHead) rec.heads.push_back(trainer.params().v);
    rec.meanProb.push_back(prob.mean());
    rec.minProb.push_back(prob.minCoeff());
  };
  every = std::max(1, every);
  const bool snapshots = schedule || every < iters;
  if (snapshots) {
    // One slot per planned snapshot, so the loop does not grow the vectors.
    const std::size_t planned =
        schedule ? schedule->size() + 1 : static_cast<std::size_t>(iters / every) + 2;
    rec.iteration.reserve(planned);
    rec.weights.reserve(planned);
    rec.meanProb.reserve(planned);
    rec.minProb.reserve(planned);
  }
  std::size_t nextSched = 0;
  if (snapshots) snap();
  while (trainer.iteration() < iters && !trainer.stopped()) {
    int target;
    if (schedule) {
      while (nextSched < schedule->size() && (*schedule)[nextSched] <= trainer.iteration())
        ++nextSched;
      target = nextSched < schedule->size() ? std::min((*schedule)[nextSched], iters) : iters;
    } else {
      target = std::min(iters, trainer.iteration() + every);
    }
    const int want = target - trainer.iteration();
    const int took = trainer.step(want);
    if (took < want && trainer.stopped()) break;
    if (snapshots) snap();
  }
  if (!snapshots) snap();  // a single snapshot at the end
  if (rec.iteration.back() != trainer.iteration()) snap();
  const Forward fw = trainer.model().forward(trainer.params());
  rec.finalSelection = fw.selected;
  rec.finalProb = fw.selectedProbability;
  rec.finalSoftmax = fw.softmax;
  rec.finalLoss = fw.loss;
  rec.finalParams = trainer.params();
  rec.stopReason = trainer.stopReason();
  return rec;
}

std::vector<int> logSchedule(int iters, int perDecade) {
  std::vector<int> out{0};
  double x = 1.0;
  const double f = std::pow(10.0, 1.0 / perDecade);
  while (x < iters) {
    const int k = static_cast<int>(std::lround(x));
    if (k > out.back()) out.push_back(k);
    x *= f;
  }
  if (out.back() != iters) out.push_back(iters);
  return out;
}

int defaultEvery(int iters, int every) {
  if (every > 0) return every;
  return std::max(1, iters / 200);
}

std::optional<Mat> svmDirection(const Dataset& data, const ModelSpec& spec,
                                const std::vector<int>& selection, NormKind norm, double p,
                                MarginSolution* out) {
  SolverSettings settings;
  settings.norm = norm;
  settings.p = normInfo(norm).usesP ? p : 2.0;
  const MarginProblem problem = spec.param == Parameterization::Prompt
                                    ? promptSvmProblem(data, spec.Wk, selection)
                                    : attentionSvmProblem(data, spec.attention, selection);
  MarginSolution sol;
  try {
    sol = solveMargin(problem, settings);
  } catch (const NumericalError& e) {
    sol.status = SolveStatus::MaxIterations;
    sol.message = e.what();
  }
  std::optional<Mat> result;
  if (sol.status == SolveStatus::Optimal) result = sol.W;
  if (out) *out = std::move(sol);
  return result;
}

bool isGloballyOptimal(const Dataset& data, const std::vector<int>& sel) {
  if (static_cast<int>(sel.size()) != data.n) return false;
  const OptimalTokens opt = optimalTokens(data);
  for (int i = 0; i < data.n; ++i) {
    bool ok = false;
    for (int t : opt.ties[i]) ok = ok || t == sel[i];
    if (!ok) return false;
  }
  return true;
}

std::string verdictName(const Dataset& data, const ModelSpec& spec,
                        const std::vector<int>& selection) {
  if (spec.param != Parameterization::Prompt &&
      (spec.attention == AttentionKind::Cross || spec.attention == AttentionKind::Self)) {
    return toString(analyzeSelection(data, spec.attention, selection).verdict);
  }
  if (static_cast<int>(selection.size()) == data.n)
    return isGloballyOptimal(data, selection) ? toString(Verdict::GloballyOptimal)
                                              : "not_globally_optimal";
  return "unknown";
}

std::string columnName(std::initializer_list<std::string> parts) {
  std::string out;
  for (const std::string& part : parts) {
    if (!out.empty()) out += '/';
    out += part;
  }
  return out;
}

std::string indexedName(const std::string& name, std::initializer_list<long long> indices) {
  std::string out = name;
  for (long long k : indices) out += "[" + std::to_string(k) + "]";
  return out;
}

void SeedResult::addSeries(const std::string& name, std::vector<double> s) {
  seriesNames.push_back(name);
  series.push_back(std::move(s));
}
void SeedResult::addValue(const std::string& name, double v) {
  valueNames.push_back(name);
  values.push_back(v);
}
void SeedResult::addLabel(const std::string& name, const std::string& v) {
  labelNames.push_back(name);
  labels.push_back(v);
}

double experiment_detail::sparsity(const Mat& W) {
  if (W.size() == 0) return kNaN;
  const double m = W.cwiseAbs().maxCoeff();
  if (!(m > 0)) return kNaN;
  return static_cast<double>((W.cwiseAbs().array() <= 1e-2 * m).count()) /
         static_cast<double>(W.size());
}

double SeedResult::value(const std::string& name) const {
  for (std::size_t k = 0; k < valueNames.size(); ++k)
    if (valueNames[k] == name) return values[k];
  return std::numeric_limits<double>::quiet_NaN();
}

const std::string& SeedResult::label(const std::string& name) const {
  static const std::string empty;
  for (std::size_t k = 0; k < labelNames.size(); ++k)
    if (labelNames[k] == name) return labels[k];
  return empty;
}

const std::vector<double>& SeedResult::seriesOf(const std::string& name) const {
  for (std::size_t k = 0; k < seriesNames.size(); ++k)
    if (seriesNames[k] == name) return series[k];
  throw InputError("experiment " + experiment + " has no series '" + name + "'");
}

}  // namespace attnsvm

namespace attnsvm::experiment_detail {

// Correlation of every snapshot with ref (or 1 - correlation); NaN everywhere without a ref.
std::vector<double> corrSeries(const RunRecord& r, const Mat* ref, bool oneMinus) {
  std::vector<double> s(r.weights.size(), kNaN);
  if (!ref) return s;
  for (std::size_t k = 0; k < r.weights.size(); ++k) {
    const double c = correlation(r.weights[k], *ref);
    s[k] = oneMinus ? 1.0 - c : c;
  }
  return s;
}

ScenarioOptions scenarioOptions(std::uint64_t seed, int d) {
  ScenarioOptions so;
  so.seed = seed;
  if (d > 0) so.d = d;
  return so;
}

void describe(SeedResult& r, const Scenario& sc, int iters, int every) {
  r.n = sc.data.n;
  r.T = sc.data.T;
  r.d = sc.data.d;
  r.iters = iters;
  r.every = every;
}

// Seeds first .. first + count - 1 of a one-run-per-seed experiment: every seed's run planned, the
// runs trained together (runTrainingBatched: all seeds share the model and settings), then each
// seed finished with its record.
std::vector<SeedResult> oneRunSeeds(std::uint64_t first, int count, const SeedOptions& o,
                                    PlanRun plan, FinishRun finish) {
  std::vector<PlannedRun> plans;
  plans.reserve(count);
  for (int k = 0; k < count; ++k) plans.push_back(plan(first + k, o));
  std::vector<const Dataset*> data;
  std::vector<Params> inits;
  for (const PlannedRun& pr : plans) {
    data.push_back(&pr.sc.data);
    inits.push_back(pr.sc.init);
  }
  const PlannedRun& p0 = plans[0];
  const std::vector<RunRecord> recs =
      runTrainingBatched(data, p0.sc.model, p0.ts, inits, p0.iters, p0.every);
  std::vector<SeedResult> out;
  out.reserve(count);
  for (int k = 0; k < count; ++k) out.push_back(finish(first + k, o, &recs[k]));
  return out;
}

std::vector<std::string> splitList(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, sep)) {
    const auto b = item.find_first_not_of(' '), e = item.find_last_not_of(' ');
    if (b != std::string::npos) out.push_back(item.substr(b, e - b + 1));
  }
  return out;
}

double parseNumber(const std::string& text, const std::string& what) {
  std::istringstream is(text);
  double x = 0;
  if (!(is >> x) || !is.eof() || !std::isfinite(x))
    throw InputError(what + ": '" + text + "' is not a number");
  return x;
}

RealMethod parseRealMethod(const std::string& text, const std::string& field, bool adam) {
  if (adam && text == "adam") return {"adam", Optimizer::Adam, 2.0};
  const auto colon = text.find(':');
  const std::string opt = text.substr(0, colon);
  if ((opt != "md" && opt != "nmd") || colon == std::string::npos)
    throw InputError(
        field + ": '" + text + "' is not a method (" +
        (adam ? "md:p, nmd:p or adam, e.g. md:1.1" : "md:p or nmd:p, e.g. nmd:2 for NGD") + ")");
  const double p = parseNumber(text.substr(colon + 1), field + " '" + text + "'");
  if (!(p > 1.0) || p > 1000.0)
    throw InputError(field + ": '" + text + "': p must be in (1, 1000]");
  std::ostringstream name;
  name << opt << ":" << p;
  return {name.str(), opt == "md" ? Optimizer::MD : Optimizer::NMD, p};
}

}  // namespace attnsvm::experiment_detail
