// Solver timings (docs/BENCHMARKS.md, "Max-margin solvers, natively").
#include <benchmark/benchmark.h>

#include <Eigen/Cholesky>
#include <map>
#include <random>

#include "../tests/core/real_svm_data.hpp"
#include "../tests/core/svm_test_data.hpp"
#include "attnsvm/experiments/scenarios.hpp"
#include "attnsvm/solvers/margin.hpp"
#include "solvers/dense_cholesky.hpp"

using namespace attnsvm;

namespace {

// First feasible sphere instance at or after `seed`.
MarginProblem instance(int n, int T, int d, std::uint64_t seed) {
  for (;; ++seed) {
    const Dataset data = svmtest::sphere(n, T, d, seed);
    MarginProblem pb = attentionSvmProblem(data, AttentionKind::Cross, data.alpha);
    if (solveMargin(pb, SolverSettings{}).status == SolveStatus::Optimal) return pb;
  }
}

void run(benchmark::State& state, NormKind norm, double p) {
  const int n = static_cast<int>(state.range(0)), T = static_cast<int>(state.range(1)),
            d = static_cast<int>(state.range(2));
  const MarginProblem pb = instance(n, T, d, 1);
  SolverSettings st;
  st.norm = norm;
  st.p = p;
  double gap = 0.0, viol = 0.0;
  int iters = 0;
  for (auto _ : state) {
    const MarginSolution sol = solveMargin(pb, st);
    benchmark::DoNotOptimize(sol.W.data());
    gap = sol.gap;
    viol = sol.maxViolation;
    iters = sol.iterations;
  }
  state.counters["m"] = pb.constraints();
  state.counters["gap"] = gap;
  state.counters["viol"] = viol;
  state.counters["iters"] = iters;
}

// The two instances of issue 16 (`attnsvm generate sphere`), on which the dual barrier method
// stalled (certified gaps 4.9e-4 and 6.9e-5): range(0) selects the instance.
void BM_NuclearIssue16(benchmark::State& state) {
  const bool first = state.range(0) == 0;
  const Dataset data = first ? sphereDataset(9, 12, 14, 65271) : sphereDataset(15, 6, 18, 384512);
  const MarginProblem pb = attentionSvmProblem(data, AttentionKind::Cross, data.alpha);
  SolverSettings st;
  st.norm = NormKind::Nuclear;
  MarginSolution sol;
  for (auto _ : state) {
    sol = solveMargin(pb, st);
    benchmark::DoNotOptimize(sol.W.data());
  }
  state.counters["m"] = pb.constraints();
  state.counters["gap"] = sol.gap;
  state.counters["optimal"] = sol.status == SolveStatus::Optimal ? 1 : 0;
  state.counters["iters"] = sol.iterations;
}

void BM_Frobenius(benchmark::State& s) { run(s, NormKind::Frobenius, 2.0); }
void BM_Nuclear(benchmark::State& s) { run(s, NormKind::Nuclear, 2.0); }
// The six p of the tests: p < 2 dual interior point, p > 2 primal-dual interior point on the
// primal.
void BM_Lp11(benchmark::State& s) { run(s, NormKind::Lp, 1.1); }
void BM_Lp15(benchmark::State& s) { run(s, NormKind::Lp, 1.5); }
void BM_Lp175(benchmark::State& s) { run(s, NormKind::Lp, 1.75); }
void BM_Lp3(benchmark::State& s) { run(s, NormKind::Lp, 3.0); }
void BM_Lp4(benchmark::State& s) { run(s, NormKind::Lp, 4.0); }
void BM_Lp10(benchmark::State& s) { run(s, NormKind::Lp, 10.0); }

// Issue 26: the Fashion-MNIST Att-SVM (tests/core/real_svm_data.hpp; 7 vs 9, the first n/2 of
// each class, T = 49, d = 18, the default optimal selection, or the selection of a trained W
// when range(1) = 1: 100 iterations of normalized GD). range(0) = n; the decision (optimal /
// infeasible / boundary) is a counter. Skipped without the data.
const MarginProblem& realProblem(int n, bool trained) {
  static std::map<std::pair<int, bool>, MarginProblem> cache;
  auto it = cache.find({n, trained});
  if (it == cache.end()) {
    svmtest::RealSvmSpec s;
    s.n = n;
    s.trainIterations = trained ? 100 : 0;
    const Dataset data = svmtest::realSvmDataset(s);
    it = cache
             .emplace(std::make_pair(n, trained),
                      attentionSvmProblem(data, AttentionKind::Cross, data.alpha))
             .first;
  }
  return it->second;
}

void runReal(benchmark::State& state, NormKind norm, double p) {
  if (!svmtest::haveFashionData()) {
    state.SkipWithError("Fashion-MNIST is not installed");
    return;
  }
  const MarginProblem& pb = realProblem(static_cast<int>(state.range(0)), state.range(1) != 0);
  SolverSettings st;
  st.norm = norm;
  st.p = p;
  MarginSolution sol;
  for (auto _ : state) {
    sol = solveMargin(pb, st);
    benchmark::DoNotOptimize(sol.W.data());
  }
  state.counters["m"] = pb.constraints();
  state.counters["status"] =
      static_cast<double>(sol.status);  // 0 optimal, 1 infeasible, 3 boundary
  state.counters["gap"] = sol.gap;
  state.counters["viol"] = sol.maxViolation;
  state.counters["iters"] = sol.iterations;
}
void BM_RealFrobenius(benchmark::State& s) { runReal(s, NormKind::Frobenius, 2.0); }
void BM_RealNuclear(benchmark::State& s) { runReal(s, NormKind::Nuclear, 2.0); }
void BM_RealLp11(benchmark::State& s) { runReal(s, NormKind::Lp, 1.1); }
void BM_RealLp15(benchmark::State& s) { runReal(s, NormKind::Lp, 1.5); }
void BM_RealLp3(benchmark::State& s) { runReal(s, NormKind::Lp, 3.0); }
void realSizes(benchmark::internal::Benchmark* b) {
  for (int n : {100, 300, 1000}) b->Args({n, 0});
  for (int n : {500, 1000}) b->Args({n, 1});
  b->Unit(benchmark::kMillisecond);
}

void sizes(benchmark::internal::Benchmark* b) {
  b->Args({6, 8, 10})->Args({15, 15, 20});
  // Size sweep (n = T, d = 20 and n = 15, T = 15, growing d).
  for (int n : {3, 5, 10, 20}) b->Args({n, n, 20});
  for (int d : {5, 10, 30}) b->Args({15, 15, d});
  b->Unit(benchmark::kMillisecond);
}

// Issues 41/42: the interior points' dense Newton matrices (n = 324 at the real-image d = 18, n =
// d^2 = 4096 at d = 64). A seeded random SPD matrix G G^T / n + I (well conditioned, so every
// pivot is positive); GFLOP/s counts n^3 / 3 flops per factorization.
Mat randomSpd(Index n) {
  std::mt19937_64 rng(42);
  std::normal_distribution<double> normal;
  Mat G(n, n);
  for (Index j = 0; j < n; ++j)
    for (Index i = 0; i < n; ++i) G(i, j) = normal(rng);
  Mat A = G * G.transpose() / static_cast<double>(n);
  A.diagonal().array() += 1.0;
  return A;
}

void choleskyCounters(benchmark::State& state, Index n) {
  const double flops = static_cast<double>(n) * static_cast<double>(n) * static_cast<double>(n) / 3;
  state.counters["GFLOP/s"] =
      benchmark::Counter(flops * 1e-9, benchmark::Counter::kIsIterationInvariantRate);
}

void BM_DenseCholesky(benchmark::State& state) {
  const Index n = state.range(0);
  const Mat A = randomSpd(n);
  detail::DenseCholesky chol;
  for (auto _ : state) {
    if (!chol.compute(A)) state.SkipWithError("not positive definite");
    benchmark::ClobberMemory();
  }
  choleskyCounters(state, n);
}

void BM_EigenLLT(benchmark::State& state) {
  const Index n = state.range(0);
  const Mat A = randomSpd(n);
  Eigen::LLT<Mat> llt(n);
  for (auto _ : state) {
    llt.compute(A);
    benchmark::DoNotOptimize(llt.matrixLLT().data());
    benchmark::ClobberMemory();
  }
  choleskyCounters(state, n);
}

void choleskySizes(benchmark::internal::Benchmark* b) {
  for (int n : {324, 1024, 2048, 4096}) b->Arg(n);
  b->Unit(benchmark::kMillisecond);
}

}  // namespace

BENCHMARK(BM_DenseCholesky)->Apply(choleskySizes);
BENCHMARK(BM_EigenLLT)->Apply(choleskySizes);
BENCHMARK(BM_Frobenius)->Apply(sizes);
BENCHMARK(BM_Nuclear)->Apply(sizes);
BENCHMARK(BM_NuclearIssue16)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Lp11)->Apply(sizes);
BENCHMARK(BM_Lp15)->Apply(sizes);
BENCHMARK(BM_Lp175)->Apply(sizes);
BENCHMARK(BM_Lp3)->Apply(sizes);
BENCHMARK(BM_Lp4)->Apply(sizes);
BENCHMARK(BM_Lp10)->Apply(sizes);
BENCHMARK(BM_RealFrobenius)->Apply(realSizes);
BENCHMARK(BM_RealNuclear)->Apply(realSizes);
BENCHMARK(BM_RealLp11)->Apply(realSizes);
BENCHMARK(BM_RealLp15)->Apply(realSizes);
BENCHMARK(BM_RealLp3)->Apply(realSizes);
BENCHMARK_MAIN();
