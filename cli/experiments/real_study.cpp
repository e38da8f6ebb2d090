// experiment real-study (SPEC 6.1): the fair optimizer comparison on real images. The plan, the
// runs and the table are the core's (attnsvm/experiments/real_study.hpp; the lab's workers run the
// same); here only the threads, the progress and the JSON/CSV.
#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <sstream>
#include <thread>

#include "attnsvm/base/errors.hpp"
#include "attnsvm/experiments/real_study.hpp"
#include "common.hpp"
#include "json_io.hpp"

namespace attnsvm::cli {

namespace {

// The settings: the defaults, then --settings (a JSON object, or @file), then the common options.
RealStudySettings studySettings(const ExperimentOptions& o) {
  RealStudySettings s;
  if (!o.settings.empty()) {
    s = fieldsFromJson<RealStudySettings>(settingsOption(o.settings), "settings");
  }
  if (!o.classes.empty()) {
    if (o.classes.size() != 2)
      throw InputError("--classes needs two classes A,B (0..9), got " +
                       std::to_string(o.classes.size()));
    s.tasks = std::to_string(o.classes[0]) + "v" + std::to_string(o.classes[1]);
  }
  if (o.seeds != -1) {
    s.seeds = o.seeds;
    s.tuneSeeds = std::min(s.tuneSeeds, s.seeds);
  }
  if (o.seedBase != 0) s.seedBase = o.seedBase;
  s.nTrain = pick(o.nTrain, s.nTrain);
  s.nTest = pick(o.nTest, s.nTest);
  if (o.iters != -1) s.epochs = o.iters;
  if (o.tokenDim != -1) s.dim = o.tokenDim;
  return s;
}

struct Timed {
  double cpuSeconds = 0;
};

// Runs the plan on `threads` threads: each takes a run, runs it, submits it; a thread that finds
// nothing to take while runs are in flight waits for a result (which may extend a grid).
void runStudy(RealStudy& study, const RealStudyImages& images, int threads, bool progress,
              std::vector<Timed>& timing) {
  std::mutex mutex;
  std::condition_variable changed;
  std::exception_ptr error;
  Progress bar("real-study", study.plannedRuns(), progress);
  auto worker = [&]() {
    for (;;) {
      RealStudyRun run;
      {
        std::unique_lock<std::mutex> lock(mutex);
        for (;;) {
          if (error || study.done()) return;
          std::vector<RealStudyRun> got = study.take(1);
          if (!got.empty()) {
            run = got[0];
            break;
          }
          changed.wait(lock);
        }
      }
      RealStudyRunResult result;
      const double t0 = threadCpuSeconds();
      try {
        result = runRealStudyRun(images, run);
      } catch (...) {
        std::lock_guard<std::mutex> lock(mutex);
        if (!error) error = std::current_exception();
        changed.notify_all();
        return;
      }
      const double seconds = threadCpuSeconds() - t0;
      {
        std::lock_guard<std::mutex> lock(mutex);
        if (static_cast<int>(timing.size()) <= run.id) timing.resize(run.id + 1);
        timing[run.id].cpuSeconds = seconds;
        study.submit(result);
        bar.setTotal(study.plannedRuns());
        changed.notify_all();
      }
      bar.advance();
    }
  };
  std::vector<std::thread> pool;
  for (int t = 0; t < std::max(1, threads); ++t) pool.emplace_back(worker);
  for (auto& th : pool) th.join();
  bar.finish();
  if (error) std::rethrow_exception(error);
}

std::string studyCsv(const std::vector<RealStudyRow>& rows) {
  std::ostringstream os;
  os << "task,setting,method,lr,gridMin,gridMax,extendedDown,extendedUp,atEdge,seeds,"
        "testAccuracyBest/mean,testAccuracyBest/std,testAccuracyFinal/mean,testAccuracyFinal/std,"
        "vsGdBest/mean,vsGdBest/lo,vsGdBest/hi,vsGdFinal/mean,vsGdFinal/lo,vsGdFinal/hi,"
        "testLossBest/mean,testLossBest/std,sparsity/mean,sparsity/std,maxSoftmax/mean,"
        "maxSoftmax/std,gammaOptimal/mean,gammaOptimal/std,validationAccuracy/mean,"
        "trainAccuracy/mean,epochs/mean,bestEpoch/mean,reachedStop,diverged,vsGdSparsity/mean,"
        "vsGdSparsity/lo,vsGdSparsity/hi,vsGdMaxSoftmax/mean,vsGdMaxSoftmax/lo,vsGdMaxSoftmax/hi,"
        "vsGdGammaOptimal/mean,vsGdGammaOptimal/lo,vsGdGammaOptimal/hi\n";
  for (const RealStudyRow& r : rows) {
    const bool gd = r.vsGdBest.n > 0;
    os << r.task << "," << r.setting << "," << r.method << "," << csvNum(r.lr) << ","
       << csvNum(r.grid.front()) << "," << csvNum(r.grid.back()) << "," << r.extendedDown << ","
       << r.extendedUp << "," << (r.atEdge ? 1 : 0) << "," << r.testAccuracyBest.n << ","
       << csvNum(r.testAccuracyBest.mean) << "," << csvNum(r.testAccuracyBest.std) << ","
       << csvNum(r.testAccuracyFinal.mean) << "," << csvNum(r.testAccuracyFinal.std) << ","
       << (gd ? csvNum(r.vsGdBest.mean) : "") << "," << (gd ? csvNum(r.vsGdBest.lo) : "") << ","
       << (gd ? csvNum(r.vsGdBest.hi) : "") << "," << (gd ? csvNum(r.vsGdFinal.mean) : "") << ","
       << (gd ? csvNum(r.vsGdFinal.lo) : "") << "," << (gd ? csvNum(r.vsGdFinal.hi) : "") << ","
       << csvNum(r.testLossBest.mean) << "," << csvNum(r.testLossBest.std) << ","
       << csvNum(r.sparsity.mean) << "," << csvNum(r.sparsity.std) << ","
       << csvNum(r.maxSoftmax.mean) << "," << csvNum(r.maxSoftmax.std) << ","
       << csvNum(r.gammaOptimal.mean) << "," << csvNum(r.gammaOptimal.std) << ","
       << csvNum(r.validationAccuracy.mean) << "," << csvNum(r.trainAccuracy.mean) << ","
       << csvNum(r.epochs.mean) << "," << csvNum(r.bestEpoch.mean) << "," << r.reachedStop << ","
       << r.diverged;
    for (const RealDifference* d : {&r.vsGdSparsity, &r.vsGdMaxSoftmax, &r.vsGdGammaOptimal})
      os << "," << (d->n ? csvNum(d->mean) : "") << "," << (d->n ? csvNum(d->lo) : "") << ","
         << (d->n ? csvNum(d->hi) : "");
    os << "\n";
  }
  return os.str();
}

}  // namespace

ExperimentResult realStudyExperiment(const ExperimentOptions& o) {
  const auto t0 = std::chrono::steady_clock::now();
  const RealStudySettings settings = studySettings(o);
  RealStudy study(settings);  // checks the settings before the files are read
  const int threads = resolveThreads(o.threads);
  RealStudyImages images{readFashionMnist("train", o.dataDir), readFashionMnist("t10k", o.dataDir)};
  std::vector<Timed> timing;
  runStudy(study, images, threads, o.progress, timing);
  std::vector<double> cpuSeconds;
  for (const Timed& t : timing) cpuSeconds.push_back(t.cpuSeconds);
  return realStudyResult(study, o, threads, cpuSeconds, secondsSince(t0));
}

ExperimentResult realStudyResult(const RealStudy& study, const ExperimentOptions& o, int threads,
                                 const std::vector<double>& cpuSeconds, double seconds) {
  const RealStudySettings& settings = study.settings();
  ExperimentResult res;
  json& j = res.json;
  json s = settingsJson("real-study", o, settings.seeds, -1, threads);
  s.update(fieldsToJson(settings));
  s["model"] =
      "cross attention, z_i = mean token, linear head v, logistic loss; W and v trained jointly "
      "with one optimizer and step (attnsvm/train/real_train.hpp)";
  s["split"] =
      "seed k: train and validation from the first max(1000, nTrain) images of each class of the "
      "training file (Fisher-Yates with Rng(k); seed 0: file order), train the first nTrain/2, "
      "validation the next nValidation/2 of each class; test binarySubset of the test file";
  s["choice"] =
      "per (task, setting, method): the step with the best mean (over the tuning seeds) of each "
      "run's best validation accuracy; a grid whose best step is at an edge is extended there";
  s["difference"] =
      "paired over seeds with md:2 (GD) of the same task and setting, mean and 95% t interval";
  j["settings"] = std::move(s);
  const std::vector<RealStudyRow> rows = study.table();
  json table = json::array();
  for (const RealStudyRow& r : rows) table.push_back(fieldsToJson(r));
  j["table"] = std::move(table);
  json runs = json::array();
  double cpu = 0;
  for (const RealStudyRun& r : study.runs()) {
    json run = fieldsToJson(r);
    run["result"] = fieldsToJson(study.results()[r.id]);
    const double sec = r.id < static_cast<int>(cpuSeconds.size()) ? cpuSeconds[r.id] : 0.0;
    run["cpuSeconds"] = sec;
    cpu += sec;
    runs.push_back(std::move(run));
  }
  j["runs"] = std::move(runs);
  j["runCount"] = study.runs().size();
  j["cpuSeconds"] = cpu;
  j["seconds"] = seconds;
  res.csv = studyCsv(rows);
  return res;
}

}  // namespace attnsvm::cli
