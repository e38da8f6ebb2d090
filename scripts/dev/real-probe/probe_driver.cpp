// A one-thread driver of the core's real-images study (the same RealStudy plan and
// runRealStudyRun as `attnsvm experiment real-study --threads 1`), used while the CLI was still
// building: prints one line per run and one per (task, method) row.
#include <cstdio>
#include <ctime>
#include <string>

#include "attnsvm/experiments/real_study.hpp"

using namespace attnsvm;

static double cpu() {
  timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

int main(int argc, char** argv) {
  RealStudySettings s;
  s.dim = std::stoi(argv[1]);
  s.design = "main-only";
  s.methods = "nmd:2,md:2";
  s.seeds = 2;
  s.tuneSeeds = 2;
  RealStudy study(s);
  RealStudyImages images{readFashionMnist("train"), readFashionMnist("t10k")};
  std::printf(
      "run\ttask\tmethod\tlr\tseed\tepochs\treached\tmaxEpochTrainAcc\ttrainAcc\ttestAccBest\ttestA"
      "ccFinal\tcpu\n");
  while (!study.done()) {
    auto got = study.take(1);
    if (got.empty()) break;
    const RealStudyRun& r = got[0];
    const double t0 = cpu();
    RealStudyRunResult res = runRealStudyRun(images, r);
    const double t = cpu() - t0;
    study.submit(res);
    std::printf("%d\t%dv%d\t%s\t%.6g\t%llu\t%d\t%d\t%.4f\t%.4f\t%.4f\t%.4f\t%.2f\n", r.id, r.classA,
                r.classB, r.method.c_str(), r.train.lr, (unsigned long long)r.train.seed,
                res.epochs, res.reachedStop ? 1 : 0, res.maxEpochTrainAccuracy, res.trainAccuracy,
                res.testAccuracyBest, res.testAccuracyFinal, t);
    std::fflush(stdout);
  }
  std::printf("#row\ttask\tmethod\tlr\treached\tepochs\ttrainAcc\ttestAccBest\ttestLossBest\n");
  for (const RealStudyRow& w : study.table())
    std::printf("#row\t%s\t%s\t%.6g\t%d/%d\t%.1f\t%.4f\t%.4f\t%.4f\n", w.task.c_str(),
                w.method.c_str(), w.lr, w.reachedStop, w.testAccuracyBest.n, w.epochs.mean,
                w.trainAccuracy.mean, w.testAccuracyBest.mean, w.testLossBest.mean);
}
