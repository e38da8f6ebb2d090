// The planner of the real-images study (attnsvm/experiments/real_study.hpp): the configurations of
// the design, their step grids, the choice of a step on mean validation accuracy with the extension
// of a grid whose choice sits at an edge, the final seeds at the chosen step, and the table.
//
// A grid point is an integer k: the step center * ratio^k (the portable pow: the same steps
// everywhere). The initial grid is k = -(g-1)/2 .. g/2 (g points); an extension adds k_min - 1 or
// k_max + 1, at most maxExtensions times per direction, when the best step is that edge alone. The
// choice maximizes the mean over the tuning seeds of each run's best validation accuracy (the
// smallest of tied steps).
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <sstream>
#include <string>

#include "attnsvm/base/errors.hpp"
#include "attnsvm/base/portable_math.hpp"
#include "attnsvm/experiments/real_study.hpp"
#include "attnsvm/vocab/names.hpp"
#include "experiments/experiment_internal.hpp"
#include "experiments/real_run_queue.hpp"

namespace attnsvm {

namespace {

constexpr double kStudyNaN = std::numeric_limits<double>::quiet_NaN();

using experiment_detail::parseNumber;
using experiment_detail::splitList;
using Method = experiment_detail::RealMethod;  // "md:1.1", "nmd:2", "adam"

Method parseMethod(const std::string& text, const std::string& field) {
  return experiment_detail::parseRealMethod(text, field, true);
}

std::vector<Method> parseMethods(const std::string& list, const std::string& field) {
  std::vector<Method> out;
  for (const std::string& m : splitList(list, ',')) {
    Method x = parseMethod(m, field);
    for (const Method& y : out)
      if (y.name == x.name) throw InputError(field + ": '" + m + "' is listed twice");
    out.push_back(x);
  }
  if (out.empty()) throw InputError(field + " is empty");
  return out;
}

double defaultCenter(const Method& m) {
  if (m.optimizer == Optimizer::Adam) return 0.01;
  if (m.optimizer == Optimizer::MD) return 1.0;
  if (m.p == 1.1) return 0.01;
  if (m.p == 2.0) return 0.1;
  return 0.03;
}

struct Task {
  std::string name;
  int classA, classB;
};

std::vector<Task> parseTasks(const std::string& list) {
  std::vector<Task> out;
  for (const std::string& t : splitList(list, ',')) {
    const auto v = t.find('v');
    if (v == std::string::npos)
      throw InputError("tasks: '" + t + "' is not a task (classA v classB, e.g. 7v9)");
    const double a = parseNumber(t.substr(0, v), "tasks '" + t + "'");
    const double b = parseNumber(t.substr(v + 1), "tasks '" + t + "'");
    if (a != std::floor(a) || b != std::floor(b) || a < 0 || a > 9 || b < 0 || b > 9 || a == b)
      throw InputError("tasks: '" + t + "' needs two different classes in 0..9");
    out.push_back({t, static_cast<int>(a), static_cast<int>(b)});
  }
  if (out.empty()) throw InputError("tasks is empty");
  return out;
}

struct Setting {
  std::string name;
  int batch;
  double initScale;
  std::vector<Method> methods;
};

// One (task, setting, method): its grid and runs.
struct Config {
  Task task;
  std::string setting;
  Method method;
  int batch = 0;
  double initScale = 0;
  double center = 1;
  int kMin = 0, kMax = 0;  // the grid's points
  int extendedDown = 0, extendedUp = 0;
  bool chosen = false, atEdge = false;
  int kChosen = 0;
  std::map<int, std::vector<int>> tuning;  // k -> run ids (tuning seeds, seed order)
  std::vector<int> finals;                 // run ids of the seeds beyond the tuning seeds
  int pendingTuning = 0;                   // tuning runs not yet submitted
  int pendingFinal = 0;
};

void checkStudySettings(const RealStudySettings& s) {
  auto bad = [](const std::string& m) { throw InputError(m); };
  if (s.nTrain < 2 || s.nTrain % 2)
    bad("nTrain = " + std::to_string(s.nTrain) + ": must be even and >= 2");
  if (s.nValidation < 2 || s.nValidation % 2)
    bad("nValidation = " + std::to_string(s.nValidation) + ": must be even and >= 2");
  if (s.nTest < 2 || s.nTest % 2)
    bad("nTest = " + std::to_string(s.nTest) + ": must be even and >= 2");
  if (s.batch < 1) bad("batch = " + std::to_string(s.batch) + ": the minibatch size must be >= 1");
  if (!(s.initScale > 0.0) || !std::isfinite(s.initScale))
    bad("initScale = " + std::to_string(s.initScale) + ": must be finite and > 0");
  if (s.epochs < 1 || s.epochs > 1000000)
    bad("epochs = " + std::to_string(s.epochs) + ": must be in 1..1000000");
  if (!(s.stopAccuracy > 0.0 && s.stopAccuracy <= 1.0)) bad("stopAccuracy must be in (0, 1]");
  if (s.evalEvery < 1) bad("evalEvery must be >= 1");
  if (s.seeds < 2 || s.seeds > 10000)
    bad("seeds = " + std::to_string(s.seeds) + ": must be in 2..10000");
  if (s.tuneSeeds < 1 || s.tuneSeeds > s.seeds)
    bad("tuneSeeds = " + std::to_string(s.tuneSeeds) +
        ": must be in 1..seeds = " + std::to_string(s.seeds));
  if (s.gridPoints < 2 || s.gridPoints > 50)
    bad("gridPoints = " + std::to_string(s.gridPoints) + ": must be in 2..50");
  if (!(s.gridRatio > 1.0) || !std::isfinite(s.gridRatio)) bad("gridRatio must be finite and > 1");
  if (s.maxExtensions < 0 || s.maxExtensions > 50) bad("maxExtensions must be in 0..50");
  if (s.design != "main" && s.design != "full" && s.design != "main-only")
    bad("design = '" + s.design + "': expected main, full or main-only");
}

RealStat statOf(const std::vector<double>& x) {
  RealStat s;
  double sum = 0;
  for (double v : x)
    if (std::isfinite(v)) {
      sum += v;
      ++s.n;
    }
  if (s.n == 0) return {kStudyNaN, kStudyNaN, 0};
  s.mean = sum / s.n;
  double sq = 0;
  for (double v : x)
    if (std::isfinite(v)) sq += (v - s.mean) * (v - s.mean);
  s.std = s.n > 1 ? std::sqrt(sq / (s.n - 1)) : kStudyNaN;
  return s;
}

RealDifference differenceOf(const std::vector<double>& a, const std::vector<double>& b) {
  std::vector<double> d;
  for (std::size_t k = 0; k < a.size() && k < b.size(); ++k) d.push_back(a[k] - b[k]);
  const RealStat s = statOf(d);
  RealDifference r;
  r.n = s.n;
  r.mean = s.mean;
  if (s.n < 2) {
    r.lo = r.hi = kStudyNaN;
    return r;
  }
  const double half = studentT975(s.n - 1) * s.std / std::sqrt(static_cast<double>(s.n));
  r.lo = s.mean - half;
  r.hi = s.mean + half;
  return r;
}

}  // namespace

struct RealStudy::Impl {
  RealStudySettings s;
  std::vector<Config> configs;
  // The runs by id, handed out in order, their results (valid where received) checked in once.
  experiment_detail::RealRunQueue<RealStudyRun, RealStudyRunResult> queue;
  std::vector<int> runConfig;  // by id

  double step(const Config& c, int k) const { return c.center * pmath::pow(s.gridRatio, k); }

  int addRun(int config, int k, std::uint64_t seed) {
    const Config& c = configs[config];
    RealStudyRun r;
    r.classA = c.task.classA;
    r.classB = c.task.classB;
    r.nTrain = s.nTrain;
    r.nValidation = s.nValidation;
    r.nTest = s.nTest;
    r.dim = s.dim;
    r.embedSeed = s.embedSeed;
    r.setting = c.setting;
    r.method = c.method.name;
    r.train.optimizer = c.method.optimizer;
    r.train.p = c.method.optimizer == Optimizer::Adam ? 2.0 : c.method.p;
    r.train.lr = step(c, k);
    r.train.batch = c.batch;
    r.train.initScale = c.initScale;
    r.train.seed = seed;
    // Full batch takes one step per epoch, a minibatch epoch ceil(nTrain / batch): the full-batch
    // settings get that many times the epochs (and validate at the same updates), so that every
    // setting has the same number of updates (the first study gave full batch 10x fewer).
    const int updatesPerEpoch = c.batch > 0 ? 1 : (s.nTrain + s.batch - 1) / s.batch;
    r.epochs = s.epochs * updatesPerEpoch;
    r.stopAccuracy = s.stopAccuracy;
    r.evalEvery = s.evalEvery * updatesPerEpoch;
    runConfig.push_back(config);
    return queue.add(r);
  }

  void addPoint(int config, int k) {
    auto& ids = configs[config].tuning[k];
    for (int j = 0; j < s.tuneSeeds; ++j) ids.push_back(addRun(config, k, s.seedBase + j));
    configs[config].pendingTuning += s.tuneSeeds;
  }

  explicit Impl(const RealStudySettings& settings) : s(settings) {
    checkStudySettings(s);
    const std::vector<Task> tasks = parseTasks(s.tasks);
    const std::vector<Method> main = parseMethods(s.methods, "methods");
    std::vector<Setting> settingsList;
    if (s.design == "full") {
      settingsList = {{"mini-random", s.batch, s.initScale, main},
                      {"full-random", 0, s.initScale, main},
                      {"mini-zero", s.batch, 0.0, main},
                      {"full-zero", 0, 0.0, main}};
    } else {
      settingsList = {{"mini-random", s.batch, s.initScale, main}};
      if (s.design == "main") {
        const std::vector<Method> abl = parseMethods(s.ablationMethods, "ablationMethods");
        settingsList.push_back({"full-random", 0, s.initScale, abl});
        settingsList.push_back({"mini-zero", s.batch, 0.0, abl});
      }
    }
    std::map<std::string, double> centers;
    for (const std::string& item : splitList(s.gridCenters, ',')) {
      const auto eq = item.find('=');
      if (eq == std::string::npos)
        throw InputError("gridCenters: '" + item + "' is not method=step (e.g. md:1.1=0.3)");
      const Method m = parseMethod(item.substr(0, eq), "gridCenters");
      const double c = parseNumber(item.substr(eq + 1), "gridCenters '" + item + "'");
      if (!(c > 0.0)) throw InputError("gridCenters: '" + item + "': the step must be > 0");
      centers[m.name] = c;
    }
    for (const Task& t : tasks)
      for (const Setting& st : settingsList)
        for (const Method& m : st.methods) {
          Config c;
          c.task = t;
          c.setting = st.name;
          c.method = m;
          c.batch = st.batch;
          c.initScale = st.initScale;
          c.center = centers.count(m.name) ? centers[m.name] : defaultCenter(m);
          c.kMin = -(s.gridPoints - 1) / 2;
          c.kMax = c.kMin + s.gridPoints - 1;
          configs.push_back(c);
        }
    for (int ci = 0; ci < static_cast<int>(configs.size()); ++ci)
      for (int k = configs[ci].kMin; k <= configs[ci].kMax; ++k) addPoint(ci, k);
  }

  void decide(int ci) {
    Config& c = configs[ci];
    double best = -1;
    int kBest = c.kMin, ties = 0;
    for (const auto& [k, ids] : c.tuning) {
      double sum = 0;
      for (int id : ids) sum += queue.results[id].bestValidationAccuracy;
      const double mean = sum / static_cast<double>(ids.size());
      if (mean > best) {
        best = mean;
        kBest = k;
        ties = 1;
      } else if (mean == best) {
        ++ties;
      }
    }
    // Extended only where the edge is the unique best: a tie (e.g. a flat grid where no step
    // learns within the budget) says nothing about the steps beyond the edge.
    if (kBest == c.kMin && ties == 1 && c.extendedDown < s.maxExtensions) {
      ++c.extendedDown;
      addPoint(ci, --c.kMin);
      return;
    }
    if (kBest == c.kMax && ties == 1 && c.extendedUp < s.maxExtensions) {
      ++c.extendedUp;
      addPoint(ci, ++c.kMax);
      return;
    }
    c.chosen = true;
    c.kChosen = kBest;
    c.atEdge = kBest == c.kMin || kBest == c.kMax;
    for (int j = s.tuneSeeds; j < s.seeds; ++j)
      c.finals.push_back(addRun(ci, kBest, s.seedBase + j));
    c.pendingFinal = s.seeds - s.tuneSeeds;
  }

  void submit(const RealStudyRunResult& r) {
    queue.accept(r);
    Config& c = configs[runConfig[r.id]];
    if (!c.chosen) {
      if (--c.pendingTuning == 0) decide(runConfig[r.id]);
    } else {
      --c.pendingFinal;
    }
  }

  bool done() const {
    for (const Config& c : configs)
      if (!c.chosen || c.pendingFinal > 0) return false;
    return true;
  }

  // Results at the chosen step, in seed order (tuning seeds then the final seeds).
  std::vector<const RealStudyRunResult*> chosenResults(const Config& c) const {
    std::vector<const RealStudyRunResult*> out;
    for (int id : c.tuning.at(c.kChosen)) out.push_back(&queue.results[id]);
    for (int id : c.finals) out.push_back(&queue.results[id]);
    return out;
  }

  const Config* find(const Config& like, const std::string& method) const {
    for (const Config& c : configs)
      if (c.task.name == like.task.name && c.setting == like.setting && c.method.name == method)
        return &c;
    return nullptr;
  }

  std::vector<RealStudyRow> table() const {
    if (!done()) throw InputError("the study's table is not ready: runs are still to come");
    std::vector<RealStudyRow> rows;
    auto column = [](const std::vector<const RealStudyRunResult*>& rs, auto get) {
      std::vector<double> out;
      for (const RealStudyRunResult* r : rs) out.push_back(static_cast<double>(get(*r)));
      return out;
    };
    for (const Config& c : configs) {
      RealStudyRow row;
      row.task = c.task.name;
      row.classA = c.task.classA;
      row.classB = c.task.classB;
      row.setting = c.setting;
      row.method = c.method.name;
      for (const auto& [k, ids] : c.tuning) {
        row.grid.push_back(step(c, k));
        double sum = 0;
        for (int id : ids) sum += queue.results[id].bestValidationAccuracy;
        row.gridValidation.push_back(sum / static_cast<double>(ids.size()));
      }
      row.extendedDown = c.extendedDown;
      row.extendedUp = c.extendedUp;
      row.atEdge = c.atEdge;
      row.lr = step(c, c.kChosen);
      for (int j = 0; j < s.seeds; ++j) row.seedList.push_back(s.seedBase + j);
      const auto rs = chosenResults(c);
      using R = RealStudyRunResult;
      const auto best = column(rs, [](const R& r) { return r.testAccuracyBest; });
      const auto final = column(rs, [](const R& r) { return r.testAccuracyFinal; });
      row.testAccuracyBest = statOf(best);
      row.testAccuracyFinal = statOf(final);
      row.testLossBest = statOf(column(rs, [](const R& r) { return r.testLossBest; }));
      row.testLossFinal = statOf(column(rs, [](const R& r) { return r.testLossFinal; }));
      row.sparsity = statOf(column(rs, [](const R& r) { return r.sparsityBest; }));
      row.maxSoftmax = statOf(column(rs, [](const R& r) { return r.maxSoftmaxBest; }));
      row.gammaOptimal = statOf(column(rs, [](const R& r) { return r.gammaOptimalBest; }));
      row.sparsityFinal = statOf(column(rs, [](const R& r) { return r.sparsityFinal; }));
      row.maxSoftmaxFinal = statOf(column(rs, [](const R& r) { return r.maxSoftmaxFinal; }));
      row.gammaOptimalFinal = statOf(column(rs, [](const R& r) { return r.gammaOptimalFinal; }));
      row.validationAccuracy =
          statOf(column(rs, [](const R& r) { return r.bestValidationAccuracy; }));
      row.trainAccuracy = statOf(column(rs, [](const R& r) { return r.trainAccuracy; }));
      row.epochs = statOf(column(rs, [](const R& r) { return r.epochs; }));
      row.bestEpoch = statOf(column(rs, [](const R& r) { return r.bestEpoch; }));
      for (const R* r : rs) {
        row.reachedStop += r->reachedStop ? 1 : 0;
        row.diverged += r->stopReason.empty() ? 0 : 1;
      }
      auto paired = [&](const std::string& ref, RealDifference& dBest, RealDifference& dFinal) {
        const Config* other = find(c, ref);
        if (!other || other == &c) return;
        const auto ro = chosenResults(*other);
        dBest = differenceOf(best, column(ro, [](const R& r) { return r.testAccuracyBest; }));
        dFinal = differenceOf(final, column(ro, [](const R& r) { return r.testAccuracyFinal; }));
      };
      paired("md:2", row.vsGdBest, row.vsGdFinal);
      if (c.method.optimizer == Optimizer::NMD) paired("nmd:2", row.vsNgdBest, row.vsNgdFinal);
      if (const Config* gd = find(c, "md:2"); gd && gd != &c) {
        const auto ro = chosenResults(*gd);
        auto diff = [&](auto get) { return differenceOf(column(rs, get), column(ro, get)); };
        row.vsGdSparsity = diff([](const R& r) { return r.sparsityBest; });
        row.vsGdMaxSoftmax = diff([](const R& r) { return r.maxSoftmaxBest; });
        row.vsGdGammaOptimal = diff([](const R& r) { return r.gammaOptimalBest; });
      }
      rows.push_back(std::move(row));
    }
    return rows;
  }
};

RealStudy::RealStudy(const RealStudySettings& settings) : impl_(std::make_shared<Impl>(settings)) {}
const RealStudySettings& RealStudy::settings() const { return impl_->s; }

std::vector<RealStudyRun> RealStudy::take(int count) { return impl_->queue.take(count); }

void RealStudy::submit(const RealStudyRunResult& result) { impl_->submit(result); }
bool RealStudy::done() const { return impl_->done(); }
int RealStudy::submitted() const { return impl_->queue.submitted; }
int RealStudy::inFlight() const { return impl_->queue.inFlight(); }
int RealStudy::plannedRuns() const {
  int n = static_cast<int>(impl_->queue.runs.size());
  for (const Config& c : impl_->configs)
    if (!c.chosen) n += impl_->s.seeds - impl_->s.tuneSeeds;
  return n;
}
std::vector<RealStudyRow> RealStudy::table() const { return impl_->table(); }
const std::vector<RealStudyRun>& RealStudy::runs() const { return impl_->queue.runs; }
const std::vector<RealStudyRunResult>& RealStudy::results() const { return impl_->queue.results; }

}  // namespace attnsvm
