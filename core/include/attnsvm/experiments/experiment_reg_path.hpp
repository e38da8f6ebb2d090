// The regularization-path experiment (SPEC section 5.3, TF-as-SVM's first result): per seed the
// Frank-Wolfe path W(R) on the Frobenius, nuclear and l_p (p = 1.75, 3) balls, each radius
// compared with the Att-SVM of its selection in every one of these norms, and with the limits of
// normalized GD on W and on (K, Q) of the same seed (local-convergence's runs).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "attnsvm/experiments/experiment.hpp"
#include "attnsvm/train/path.hpp"

namespace attnsvm {

// One ball of the experiment: its column name ("fro", "nuclear", "p1.75", "p3": the exponent scope
// of docs/NAMES.md), the ball and the SVM norm that the theory pairs with it.
struct RegPathBall {
  const char* name;
  BallNorm ball;
  double p;
  NormKind svmNorm;
};
const std::vector<RegPathBall>& regPathBalls();

// Frank-Wolfe iterations per radius unless SeedOptions::iters says otherwise (the time budget).
inline constexpr int kRegPathIterations = 300;

// Radii 1, 10^(1/4), ..., 10^4 (4 per decade, 17 radii).
std::vector<double> regPathRadii();

// Fills corrOwn, corrGlobal and globallyOptimal of each point: corr of W(R) with the SVM, in the
// norm of `svmNorm` (p for l_p), of W(R)'s own selection and of the globally optimal selection
// (cross / self attention and prompts; NaN where a selection's SVM is infeasible). Solves each
// distinct selection once.
void annotatePath(const Dataset& data, const ModelSpec& spec, NormKind svmNorm, double p,
                  std::vector<PathPoint>& points);

// Numerical rank of W: singular values above tol times the largest (0 for W = 0).
int relativeRank(const Mat& W, double tol = 1e-7);

// One seed. options.method names the data: "local-convergence" (the default: n = 6, T = 8,
// d = 10, sphere), "paths2d" or "paths2d-t5" (the 2-D scenarios of that seed). Series over the
// radius index k (SeedResult::iteration = k; series "radius"): per ball b and SVM norm c
// "b/oneMinusCorr/c" (1 - corr(W(R), SVM_c of W(R)'s selection)), "b/rank", "b/global" (1 if the
// selection is globally optimal), "b/relativeGap", "b/certified", "b/lossResolved". Values at the
// largest radius: "b/oneMinusCorrOwn", "b/global", "b/rank", "b/relativeGap", and against GD
// (W-GD for fro and the l_p balls, (K,Q)-GD for nuclear): "b/sameSelectionAsGd",
// "b/oneMinusCorrWithGd" (1 - corr(W(R_max), GD's final W)); "gd/W/global", "gd/KQ/global".
SeedResult regPathSeed(std::uint64_t seed, const SeedOptions& options);

}  // namespace attnsvm
