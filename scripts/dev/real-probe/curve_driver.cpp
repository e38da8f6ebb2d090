// Training curves of single real-images runs (the study's split, tokens and trainer:
// RealStudyRunner's data path), for the "why not 99.5 %" probes of issue 41.
// usage: curve_driver DIM CLASSA CLASSB OPT(md|nmd|adam) P LR EPOCHS BATCH(0 = full) SEED EVERY
//        [TRAINHEAD=1] [NTRAIN=1000] [TRAINW=1]
#include <cstdio>
#include <ctime>
#include <string>

#include "attnsvm/data/real_images.hpp"
#include "attnsvm/train/real_train.hpp"

using namespace attnsvm;

static double cpu() {
  timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

int main(int argc, char** argv) {
  const int dim = std::stoi(argv[1]), a = std::stoi(argv[2]), b = std::stoi(argv[3]);
  const std::string opt = argv[4];
  RealTrainSettings s;
  s.optimizer = opt == "md" ? Optimizer::MD : opt == "adam" ? Optimizer::Adam : Optimizer::NMD;
  s.p = std::stod(argv[5]);
  s.lr = std::stod(argv[6]);
  const int epochs = std::stoi(argv[7]);
  s.batch = std::stoi(argv[8]);
  s.seed = std::stoull(argv[9]);
  const int every = std::stoi(argv[10]);
  s.trainHead = argc > 11 ? std::stoi(argv[11]) != 0 : true;
  const int nTrain = argc > 12 ? std::stoi(argv[12]) : 1000;
  s.trainW = argc > 13 ? std::stoi(argv[13]) != 0 : true;
  s.initScale = 0.01;
  const ImageSet images = readFashionMnist("train");
  const SplitIndices split = splitIndices(images, a, b, nTrain, 500, s.seed);
  auto data = [&](const ImageSet& im) {
    return realData(embedTokens(patchDataset(im, a, b), dim, 0));
  };
  auto train = data(imageSubset(images, split.train));
  auto validation = data(imageSubset(images, split.validation));
  RealTrainer trainer(train, s);
  const double t0 = cpu();
  std::printf("epoch\tepochAcc\tepochLoss\ttrainAcc\ttrainLoss\tvalAcc\tmaxSoftmax\tcpu\n");
  for (int e = 1; e <= epochs; ++e) {
    trainer.stepEpoch();
    if (!trainer.stopReason().empty()) {
      std::printf("# stopped: %s\n", trainer.stopReason().c_str());
      break;
    }
    if (e % every == 0 || e == epochs || trainer.epochAccuracy() >= 0.995) {
      const RealEvaluation t = trainer.evaluate(*train), v = trainer.evaluate(*validation);
      std::printf("%d\t%.4f\t%.4f\t%.4f\t%.4f\t%.4f\t%.3f\t%.1f\n", e, trainer.epochAccuracy(),
                  trainer.epochLoss(), t.accuracy, t.loss, v.accuracy, t.maxSoftmax, cpu() - t0);
      std::fflush(stdout);
      if (trainer.epochAccuracy() >= 0.995) break;
    }
  }
}
