// Training throughput: iterations per second of the trainer's inner loop (gradient + step), with
// an estimated flop rate, and a GEMM reference for this machine's attainable peak.
// Run: build/h-engine-rel/bench/bench_train --benchmark_repetitions=5
// --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include "attnsvm/data/real_images.hpp"
#include "attnsvm/experiments/real_run.hpp"
#include "attnsvm/experiments/scenarios.hpp"
#include "attnsvm/train/train.hpp"
#include "attnsvm/train/train_batched.hpp"

namespace attnsvm {
namespace {

// Flops of one cross-attention W iteration (see docs/NUMERICS.md, "Cost"): queries 2nd^2, five
// passes over the tokens (scores, score differences, output, head contrasts, direction) 10nTd,
// gradient product 2nd^2, step and norms ~5d^2.
double flopsPerIteration(int n, int T, int d, bool kq) {
  double f = 4.0 * n * d * d + 10.0 * n * T * d + 5.0 * d * d;
  if (kq) f += 2.0 * n * d * d + 4.0 * d * d * d + 5.0 * d * d;  // Q^T z, grad_K, grad_Q, balance
  return f;
}

void runTrainer(benchmark::State& state, Parameterization param, Optimizer opt, double p,
                int traceEvery) {
  const int n = static_cast<int>(state.range(0)), T = static_cast<int>(state.range(1)),
            d = static_cast<int>(state.range(2));
  ScenarioOptions o;
  o.n = n;
  o.T = T;
  o.d = d;
  o.seed = 1;
  Scenario sc = makeScenario("sphere", o);
  sc.model.param = param;
  sc.train.optimizer = opt;
  sc.train.p = p;
  sc.train.traceEvery = traceEvery;
  sc.train.maxNorm = 1e300;
  const Model model(sc.data, sc.model);
  Trainer trainer(model, sc.train, sc.init);
  constexpr int kBatch = 64;  // iterations per timed call (amortizes the loop bookkeeping)
  for (auto _ : state) {
    const int taken = trainer.step(kBatch);
    if (taken != kBatch) state.SkipWithError(trainer.stopReason().c_str());
    if (trainer.iteration() % 65536 == 0) trainer.takeTrace();  // keep the recorded trace bounded
  }
  const double iterations = static_cast<double>(state.iterations()) * kBatch;
  state.SetItemsProcessed(static_cast<int64_t>(iterations));
  state.counters["flops"] =
      benchmark::Counter(iterations * flopsPerIteration(n, T, d, param == Parameterization::KQ),
                         benchmark::Counter::kIsRate);
}

void BM_NGD_W(benchmark::State& s) {
  runTrainer(s, Parameterization::W, Optimizer::NGD, 2.0, 1 << 30);
}
void BM_NGD_W_TraceEvery1(benchmark::State& s) {
  runTrainer(s, Parameterization::W, Optimizer::NGD, 2.0, 1);
}
void BM_NGD_KQ(benchmark::State& s) {
  runTrainer(s, Parameterization::KQ, Optimizer::NGD, 2.0, 1 << 30);
}
void BM_MD_p3_W(benchmark::State& s) {
  runTrainer(s, Parameterization::W, Optimizer::MD, 3.0, 1 << 30);
}
void BM_Adam_W(benchmark::State& s) {
  runTrainer(s, Parameterization::W, Optimizer::Adam, 2.0, 1 << 30);
}

BENCHMARK(BM_NGD_W)->Args({6, 8, 10})->Args({32, 32, 32})->Args({128, 64, 64});
BENCHMARK(BM_NGD_W_TraceEvery1)->Args({6, 8, 10});
BENCHMARK(BM_NGD_KQ)->Args({6, 8, 10});
BENCHMARK(BM_MD_p3_W)->Args({6, 8, 10});
BENCHMARK(BM_Adam_W)->Args({6, 8, 10});

// Batched trainer: `runs` runs of the shape (seeds 1..runs of the sphere scenario) advanced
// together; items = steps of single runs (runs x iterations), so items_per_second compares
// directly with BM_NGD_W's.
void runBatched(benchmark::State& state, Parameterization param, Optimizer opt, double p) {
  const int n = static_cast<int>(state.range(0)), T = static_cast<int>(state.range(1)),
            d = static_cast<int>(state.range(2)), runs = static_cast<int>(state.range(3));
  std::vector<Model> models;
  std::vector<Params> inits;
  TrainSettings settings;
  for (int r = 0; r < runs; ++r) {
    ScenarioOptions o;
    o.n = n;
    o.T = T;
    o.d = d;
    o.seed = 1 + r;
    Scenario sc = makeScenario("sphere", o);
    sc.model.param = param;
    models.emplace_back(sc.data, sc.model);
    inits.push_back(sc.init);
    settings = sc.train;
  }
  settings.optimizer = opt;
  settings.p = p;
  settings.traceEvery = 1 << 30;
  settings.maxNorm = 1e300;
  BatchedTrainer trainer(std::move(models), settings, inits);
  const int kBatch = n * T * d > 100000 ? 1 : 16;  // iterations per timed call
  for (auto _ : state) {
    trainer.step(kBatch);
    if (trainer.stopped(0)) state.SkipWithError(trainer.stopReason(0).c_str());
  }
  const double steps = static_cast<double>(state.iterations()) * kBatch * runs;
  state.SetItemsProcessed(static_cast<int64_t>(steps));
  state.counters["flops"] =
      benchmark::Counter(steps * flopsPerIteration(n, T, d, param == Parameterization::KQ),
                         benchmark::Counter::kIsRate);
}

void BM_Batched_NGD_W(benchmark::State& s) {
  runBatched(s, Parameterization::W, Optimizer::NGD, 2.0);
}
void BM_Batched_NGD_KQ(benchmark::State& s) {
  runBatched(s, Parameterization::KQ, Optimizer::NGD, 2.0);
}
void BM_Batched_MD_p3_W(benchmark::State& s) {
  runBatched(s, Parameterization::W, Optimizer::MD, 3.0);
}
void BM_Batched_Adam_W(benchmark::State& s) {
  runBatched(s, Parameterization::W, Optimizer::Adam, 2.0);
}
// (n, T, d, runs): the papers' shape at several batch sizes, (15, 15, 20), the real-images shape
// (SPEC section 6: n = 1000 images, T = 49 patches, d = 18).
BENCHMARK(BM_Batched_NGD_W)
    ->Args({6, 8, 10, 4})
    ->Args({6, 8, 10, 8})
    ->Args({6, 8, 10, 16})
    ->Args({6, 8, 10, 32})
    ->Args({6, 8, 10, 64})
    ->Args({15, 15, 20, 16})
    ->Args({1000, 49, 18, 8});
BENCHMARK(BM_Batched_NGD_KQ)->Args({6, 8, 10, 16});
BENCHMARK(BM_Batched_MD_p3_W)->Args({6, 8, 10, 16});
BENCHMARK(BM_Batched_Adam_W)->Args({6, 8, 10, 16});
BENCHMARK(BM_NGD_W)->Args({15, 15, 20})->Args({1000, 49, 18});

// The real-images run (SPEC section 6) at its defaults: 1000 training images of Fashion-MNIST 7 vs
// 9 (T = 49 patches, d = 18), W and v trained jointly, one full-batch iteration per item. Needs
// Debian's dataset-fashion-mnist (skipped with an error otherwise).
void runRealImages(benchmark::State& state, Optimizer opt, double p) {
  static const ImageSet* trainAll = [] {
    try {
      return new ImageSet(readFashionMnist("train"));
    } catch (const std::exception&) {
      return static_cast<ImageSet*>(nullptr);
    }
  }();
  if (!trainAll) {
    state.SkipWithError("Fashion-MNIST not found (apt-get install dataset-fashion-mnist)");
    return;
  }
  RealImagesSettings s;
  s.optimizer = opt;
  s.p = p;
  s.lr = opt == Optimizer::Adam ? 0.01 : 0.1;
  const Dataset train = patchDataset(binarySubset(*trainAll, 7, 9, 1000), 7, 9);
  const Dataset test = patchDataset(binarySubset(*trainAll, 7, 9, 2), 7, 9);
  s.nTest = 2;
  RealImagesRun run(train, test, s);
  constexpr int kBatch = 10;
  for (auto _ : state) {
    if (run.step(kBatch) != kBatch) state.SkipWithError(run.stopReason().c_str());
  }
  const double iterations = static_cast<double>(state.iterations()) * kBatch;
  state.SetItemsProcessed(static_cast<int64_t>(iterations));
  state.counters["flops"] = benchmark::Counter(iterations * flopsPerIteration(1000, 49, 18, false),
                                               benchmark::Counter::kIsRate);
}
void BM_RealImages_NMD_p1_1(benchmark::State& s) { runRealImages(s, Optimizer::NMD, 1.1); }
void BM_RealImages_NMD_p2(benchmark::State& s) { runRealImages(s, Optimizer::NMD, 2.0); }
void BM_RealImages_NMD_p3(benchmark::State& s) { runRealImages(s, Optimizer::NMD, 3.0); }
void BM_RealImages_Adam(benchmark::State& s) { runRealImages(s, Optimizer::Adam, 2.0); }
BENCHMARK(BM_RealImages_NMD_p1_1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_RealImages_NMD_p2)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_RealImages_NMD_p3)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_RealImages_Adam)->Unit(benchmark::kMillisecond);

// Attainable double-precision rate of this build on this machine: a 256^3 Eigen GEMM.
void BM_PeakGemm(benchmark::State& state) {
  const Index N = 256;
  const Mat A = Mat::Random(N, N), B = Mat::Random(N, N);
  Mat C(N, N);
  for (auto _ : state) {
    C.noalias() = A * B;
    benchmark::DoNotOptimize(C.data());
  }
  state.counters["flops"] = benchmark::Counter(
      static_cast<double>(state.iterations()) * 2.0 * N * N * N, benchmark::Counter::kIsRate);
}
BENCHMARK(BM_PeakGemm);

}  // namespace
}  // namespace attnsvm

BENCHMARK_MAIN();
