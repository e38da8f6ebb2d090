// Before/after check of the study plan's queue refactor: a reduced study (both ablations, grid
// extensions, final seeds) run in a fixed order, every run's plan and result printed to 17 digits,
// the table's rows, and the messages of a result submitted twice and of a run never handed out.
#include <cstdio>
#include <string>

#include "attnsvm/experiments/real_study.hpp"

using namespace attnsvm;

int main() {
  RealStudySettings s;
  s.tasks = "7v9";
  s.nTrain = 100;
  s.nValidation = 50;
  s.nTest = 100;
  s.epochs = 30;
  s.seeds = 3;
  s.tuneSeeds = 2;
  s.gridPoints = 2;
  s.maxExtensions = 1;
  s.methods = "md:2,nmd:2";
  s.ablationMethods = "md:2,nmd:2";
  RealStudy study(s);
  RealStudyImages images{readFashionMnist("train"), readFashionMnist("t10k")};
  try {
    study.submit(RealStudyRunResult{});
  } catch (const std::exception& e) {
    std::printf("E %s\n", e.what());
  }
  while (!study.done()) {
    auto got = study.take(2);  // two in flight, submitted in reverse order
    std::printf("planned %d inflight %d\n", study.plannedRuns(), study.inFlight());
    for (int k = static_cast<int>(got.size()) - 1; k >= 0; --k) {
      const RealStudyRun& r = got[k];
      RealStudyRunResult x = runRealStudyRun(images, r);
      std::printf("%d %s %s %.17g %llu %d %d %.17g %.17g %.17g %.17g\n", r.id, r.setting.c_str(),
                  r.method.c_str(), r.train.lr, (unsigned long long)r.train.seed, r.epochs,
                  x.epochs, x.testAccuracyBest, x.testLossBest, x.sparsityBest, x.maxSoftmaxBest);
      study.submit(x);
      if (r.id == 0) {
        try {
          study.submit(x);
        } catch (const std::exception& e) {
          std::printf("E %s\n", e.what());
        }
      }
    }
  }
  for (const RealStudyRow& w : study.table())
    std::printf("row %s %s %.17g %.17g %.17g %.17g %d\n", w.setting.c_str(), w.method.c_str(), w.lr,
                w.testAccuracyBest.mean, w.vsGdBest.mean, w.vsNgdBest.mean, w.reachedStop);
  std::printf("runs %zu results %zu submitted %d\n", study.runs().size(), study.results().size(),
              study.submitted());
}
