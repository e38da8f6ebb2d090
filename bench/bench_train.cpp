// Training throughput: iterations per second of the trainer's inner loop (gradient + step), with
// an estimated flop rate, and a GEMM reference for this machine's attainable peak.
// Run: build/h-engine-rel/bench/bench_train --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include "attnsvm/scenarios.hpp"
#include "attnsvm/train.hpp"

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

void runTrainer(benchmark::State& state, Parameterization param, Optimizer opt, double p, int traceEvery) {
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
  state.counters["flops"] = benchmark::Counter(iterations * flopsPerIteration(n, T, d, param == Parameterization::KQ),
                                               benchmark::Counter::kIsRate);
}

void BM_NGD_W(benchmark::State& s) { runTrainer(s, Parameterization::W, Optimizer::NGD, 2.0, 1 << 30); }
void BM_NGD_W_TraceEvery1(benchmark::State& s) { runTrainer(s, Parameterization::W, Optimizer::NGD, 2.0, 1); }
void BM_NGD_KQ(benchmark::State& s) { runTrainer(s, Parameterization::KQ, Optimizer::NGD, 2.0, 1 << 30); }
void BM_MD_p3_W(benchmark::State& s) { runTrainer(s, Parameterization::W, Optimizer::MD, 3.0, 1 << 30); }

BENCHMARK(BM_NGD_W)->Args({6, 8, 10})->Args({32, 32, 32})->Args({128, 64, 64});
BENCHMARK(BM_NGD_W_TraceEvery1)->Args({6, 8, 10});
BENCHMARK(BM_NGD_KQ)->Args({6, 8, 10});
BENCHMARK(BM_MD_p3_W)->Args({6, 8, 10});

// Attainable double-precision rate of this build on this machine: a 256^3 Eigen GEMM.
void BM_PeakGemm(benchmark::State& state) {
  const Index N = 256;
  const Mat A = Mat::Random(N, N), B = Mat::Random(N, N);
  Mat C(N, N);
  for (auto _ : state) {
    C.noalias() = A * B;
    benchmark::DoNotOptimize(C.data());
  }
  state.counters["flops"] =
      benchmark::Counter(static_cast<double>(state.iterations()) * 2.0 * N * N * N, benchmark::Counter::kIsRate);
}
BENCHMARK(BM_PeakGemm);

}  // namespace
}  // namespace attnsvm

BENCHMARK_MAIN();
