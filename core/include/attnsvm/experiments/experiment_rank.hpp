// The rank experiment (SPEC section 5) one instance at a time: a seed of the sphere data of one
// grid cell (n, T, d) in, feasibility and the ranks of the Frobenius and nuclear Att-SVM solutions
// out. The CLI keeps the first `instances` feasible seeds of each cell (trying seeds in order, at
// most rankMaxAttempts); the lab's workers compute instances in chunks and keep the same ones, so a
// cell's instances do not depend on the thread or worker count.
#pragma once
#include <cstdint>
#include <utility>
#include <vector>

#include "attnsvm/base/types.hpp"
#include "attnsvm/solvers/margin.hpp"

namespace attnsvm {

// The paper's grid: d in {1,2,3,4,5,10,15,20}; (n, T) in {(5,5),(10,5),(15,5),(5,10),(5,15)}.
std::vector<int> rankDefaultDims();
std::vector<std::pair<int, int>> rankConfigs();
constexpr int kRankDefaultInstances = 100;
constexpr double kRankDefaultTol = 1e-7;
// Seeds tried per cell before giving up (d = 1 cells are mostly infeasible).
int rankMaxAttempts(int instances);

// Number of singular values above tol (0 for an empty matrix).
int matrixRank(const Mat& W, double tol);

struct RankInstance {
  bool feasible = false;  // the Frobenius solve is Optimal with W meeting the constraints
  SolveStatus statusFro = SolveStatus::MaxIterations;
  SolveStatus statusNuclear = SolveStatus::MaxIterations;  // meaningful only when feasible
  int rankFro = -1;                                        // -1 when not feasible
  int rankNuclear = -1;     // -1 when not feasible or the nuclear solve failed (not
                            // Optimal, or violating the constraints)
  double gapNuclear = 0.0;  // NaN when rankNuclear is -1
};
// Throws InputError for n, T, d out of range (n, T in 1..1024, T >= 2; d in 1..1024) or tol <= 0.
RankInstance rankInstance(std::uint64_t seed, int n, int T, int d, double tol = kRankDefaultTol);

}  // namespace attnsvm
