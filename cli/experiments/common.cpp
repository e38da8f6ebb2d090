// Internals shared by the experiments (see common.hpp) and the experiment registry.
#include "common.hpp"

#include <time.h>

#include <atomic>
#include <cmath>
#include <mutex>
#include <thread>

#include "attnsvm/base/errors.hpp"
#include "json_io.hpp"

namespace attnsvm::cli {

int resolveThreads(int threads) {
  if (threads > 0) return threads;
  const unsigned hw = std::thread::hardware_concurrency();
  return hw == 0 ? 1 : static_cast<int>(std::min<unsigned>(hw, kMaxThreads));
}

void parallelFor(int count, int threads, Progress& progress, const std::function<void(int)>& fn) {
  if (count <= 0) return;
  std::vector<std::exception_ptr> errors(count);
  std::atomic<int> next{0};
  std::atomic<bool> failed{false};
  auto worker = [&]() {
    for (;;) {
      const int k = next.fetch_add(1);
      if (k >= count || failed.load() || cancelRequested()) return;
      try {
        fn(k);
      } catch (...) {
        errors[k] = std::current_exception();
        failed.store(true);
      }
      progress.advance();
    }
  };
  const int n = std::max(1, std::min(threads, count));
  if (n == 1) {
    worker();
  } else {
    std::vector<std::thread> pool;
    pool.reserve(n);
    for (int t = 0; t < n; ++t) pool.emplace_back(worker);
    for (auto& th : pool) th.join();
  }
  if (cancelRequested()) throw Cancelled();  // the host's request (progress.hpp), not an error
  for (auto& e : errors)
    if (e) std::rethrow_exception(e);
}

std::string csvNum(double x) {
  if (!std::isfinite(x)) return "";
  std::ostringstream os;
  os.precision(17);
  os << x;
  return os.str();
}

std::string seriesCsv(const std::vector<int>& iteration, const std::vector<std::string>& names,
                      const std::vector<std::vector<double>>& means,
                      const std::vector<std::vector<double>>& stds, const std::string& prefixColumn,
                      const std::string& prefixValue, bool header) {
  std::ostringstream os;
  if (header) {
    if (!prefixColumn.empty()) os << prefixColumn << ",";
    os << "iteration";
    for (const auto& n : names)
      os << "," << columnName({n, "mean"}) << "," << columnName({n, "std"});
    os << "\n";
  }
  for (std::size_t k = 0; k < iteration.size(); ++k) {
    if (!prefixColumn.empty()) os << prefixValue << ",";
    os << iteration[k];
    for (std::size_t m = 0; m < names.size(); ++m)
      os << "," << (k < means[m].size() ? csvNum(means[m][k]) : "") << ","
         << (k < stds[m].size() ? csvNum(stds[m][k]) : "");
    os << "\n";
  }
  return os.str();
}

void checkRange(int value, int lo, int hi, const std::string& option) {
  if (value < lo || value > hi)
    throw InputError(option + " = " + std::to_string(value) + " is out of range " +
                     std::to_string(lo) + ".." + std::to_string(hi) +
                     (value == 0 && lo > 0 ? " (zero runs)" : ""));
}

int pick(int value, int fallback) { return value == -1 ? fallback : value; }

double threadCpuSeconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

json settingsOption(const std::string& option) {
  return option[0] == '@' ? readJsonFile(option.substr(1)) : parseJsonText(option, "--settings");
}

json settingsJson(const std::string& name, const ExperimentOptions& o, int seeds, int iters,
                  int threads) {
  json s;
  s["experiment"] = name;
  if (seeds >= 0) s["seeds"] = seeds;
  if (iters >= 0) s["iters"] = iters;
  s["seedBase"] = o.seedBase;
  s["threads"] = threads;
  return s;
}

// The CLI's experiments, in the order `attnsvm experiment --list` prints them: name and formatter
// (tests/cli/experiments_test.cpp checks that every seeded experiment of the core's registry,
// seedExperimentRegistry(), has its line here).
const std::vector<CliExperiment>& experimentRegistry() {
  using O = const ExperimentOptions&;
  static const std::vector<CliExperiment> registry = {
      {"local-convergence", &localConvergenceExperiment},
      {"rank", &rankExperiment},
      {"multitoken", &multitokenExperiment},
      {"prompt-global-local", &promptGlobalLocalExperiment},
      {"loss-function", &lossFunctionExperiment},
      {"joint-pv", &jointPvExperiment},
      {"mirror-descent", &mirrorDescentExperiment},
      {"overparam", &overparamExperiment},
      {"basin-map", &basinMapExperiment},
      {"rates", &ratesExperiment},
      {"paths2d", [](O o) { return paths2dExperiment(o, false); }},
      {"paths2d-t5", [](O o) { return paths2dExperiment(o, true); }},
      {"md-convergence", &mdConvergenceExperiment},  // mirror.cpp
      {"joint-wv", &jointWvExperiment},
      {"real-images", &realImagesExperiment},
      {"real-study", &realStudyExperiment},
      {"real-ladder", &realLadderExperiment},
      {"real-phase", &realPhaseExperiment},                    // real_phase.cpp
      {"reg-path", &regPathExperiment},                        // reg_path.cpp
      {"seq2seq-convergence", &seq2seqConvergenceExperiment},  // seq2seq.cpp
      {"hierarchy", &hierarchyExperiment},                     // hierarchy.cpp
  };
  return registry;
}

std::vector<std::string> experimentNames() {
  std::vector<std::string> names;
  for (const CliExperiment& e : experimentRegistry()) names.emplace_back(e.name);
  return names;
}

ExperimentResult runExperiment(const std::string& name, const ExperimentOptions& o) {
  if (o.seeds != -1) checkRange(o.seeds, 1, kMaxSeeds, "--seeds");
  if (o.iters != -1) checkRange(o.iters, 1, kMaxIters, "--iters");
  if (o.threads != 0) checkRange(o.threads, 1, kMaxThreads, "--threads");
  if (o.grid != -1) checkRange(o.grid, 2, kMaxGrid, "--grid");
  if (o.every != -1) checkRange(o.every, 1, kMaxIters, "--every");
  for (std::size_t k = 0; k < o.dims.size(); ++k)
    checkRange(o.dims[k], 1, kMaxDim, "--dims[" + std::to_string(k) + "]");
  for (std::size_t k = 0; k < o.ps.size(); ++k)
    if (!(o.ps[k] > 1.0) || !std::isfinite(o.ps[k]) || o.ps[k] > 1e3)
      throw InputError("--ps[" + std::to_string(k) + "] = " + csvNum(o.ps[k]) +
                       " is out of range: p must be in (1, 1000]");
  if (!(o.rankTol > 0.0)) throw InputError("--rank-tol must be > 0");
  if (o.nTrain != -1) checkRange(o.nTrain, 2, 60000, "--train");
  if (o.nTest != -1) checkRange(o.nTest, 2, 10000, "--test");
  if (o.nSvm != -1) checkRange(o.nSvm, 1, 60000, "--n-svm");
  for (double lr : {o.lr, o.adamLr})
    if (!(lr >= 0.0) || !std::isfinite(lr))
      throw InputError("--lr / --adam-lr must be finite and > 0");
  for (const CliExperiment& e : experimentRegistry())
    if (name == e.name) return e.run(o);
  std::string list;
  for (const auto& n : experimentNames()) list += (list.empty() ? "" : ", ") + n;
  throw InputError("unknown experiment '" + name + "'; expected one of: " + list);
}

}  // namespace attnsvm::cli

namespace attnsvm::cli {

void SeriesBlock::add(const std::string& name, const std::vector<std::vector<double>>& perSeed) {
  names.push_back(name);
  SeriesSpread s = seriesSpread(perSeed, iteration.size());
  means.push_back(s.mean);
  stds.push_back(s.std);
  spreads.push_back(std::move(s));
}

namespace {
// Writes a SeriesSpread's fields through its field list (seed_spread.hpp), those of `names` only.
struct SpreadJson {
  json& out;
  bool all;
  void operator()(const char* name, const std::vector<double>& v) {
    if (all || std::string(name) == "mean" || std::string(name) == "std") out[name] = v;
  }
};
}  // namespace

json SeriesBlock::toJson() const {
  json j;
  j["iteration"] = iteration;
  for (std::size_t m = 0; m < names.size(); ++m) {
    json s = json::object();
    SpreadJson v{s, quantiles};
    visitFields(spreads[m], v);
    j[names[m]] = std::move(s);
  }
  return j;
}

std::string SeriesBlock::csv(const std::string& prefixColumn, const std::string& prefixValue,
                             bool header) const {
  return seriesCsv(iteration, names, means, stds, prefixColumn, prefixValue, header);
}

Stats stats(const std::vector<double>& values) {
  Stats s;
  double sum = 0.0;
  for (double x : values)
    if (std::isfinite(x)) {
      if (s.count == 0) s.min = s.max = x;
      s.min = std::min(s.min, x);
      s.max = std::max(s.max, x);
      sum += x;
      ++s.count;
    }
  if (s.count == 0) {
    s.mean = s.std = s.min = s.max = kNaN;
    return s;
  }
  s.mean = sum / s.count;
  double q = 0.0;
  for (double x : values)
    if (std::isfinite(x)) q += (x - s.mean) * (x - s.mean);
  s.std = std::sqrt(q / s.count);
  return s;
}

json statsJson(const Stats& s) {
  return json{{"mean", s.mean}, {"std", s.std}, {"min", s.min}, {"max", s.max}, {"count", s.count}};
}

}  // namespace attnsvm::cli
