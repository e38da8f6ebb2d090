// The regularization path with its certificates (SPEC section 5.3): for each radius R the
// Frank-Wolfe iterate W(R) on the ball ||W|| <= R and the Frank-Wolfe gap that certifies it.
//
// The problem is non-convex, so W(R) is a stationary point, not a proven minimizer. What a point
// guarantees is its gap: g(R) = max_{||S|| <= R} <-grad L(W), S - W> = R ||grad L||_dual +
// <grad L, W> >= 0, zero iff W is stationary on the ball (first-order KKT). The relative gap
// g / (R ||grad L||_dual) is in [0, 2] and is scale-free: it is computed from the model's
// log-domain gradient direction (model.hpp), so it stays exact after the true gradient underflows
// double precision (R beyond a few hundred divided by the margin). The loss itself does not:
// once R ||grad L||_dual < eps * L the change of the loss over the whole ball is below its
// rounding, and the reported loss is its saturated limit (lossResolved = false).
#pragma once
#include <limits>
#include <vector>

#include "attnsvm/train/train.hpp"

namespace attnsvm {

// One radius of the path.
struct PathPoint {
  double radius = 0.0;
  Mat W;                       // W(R) (prompt: d x 1)
  double loss = 0.0;           // L(W(R))
  std::vector<int> selection;  // argmax of the softmax per unit at W(R)
  // corr(W(R), SVM) in the ball's norm: of the SVM of W(R)'s own selection, and of the globally
  // optimal selection (NaN when that selection's SVM is infeasible or not computed; the core's
  // path leaves them NaN, annotatePath fills them).
  double corrOwn = std::numeric_limits<double>::quiet_NaN();
  double corrGlobal = std::numeric_limits<double>::quiet_NaN();
  bool globallyOptimal = false;  // the selection is a globally optimal one (annotatePath)
  double gap = 0.0;              // g(R) (true scale; 0 when it underflows)
  double relativeGap = 0.0;      // g / (R ||grad L||_dual), in [0, 2]
  double logGradDual = 0.0;      // ln ||grad L(W(R))||_dual (finite after the gradient underflows)
  double norm = 0.0;             // ||W(R)|| in the ball's norm (<= R)
  int iterations = 0;            // Frank-Wolfe iterations spent at this radius
  bool certified = false;        // relativeGap <= the gapTolerance of the call
  bool lossResolved = true;      // R ||grad L||_dual >= eps L: the loss still tells points apart
};

// Frank-Wolfe from W = 0 at the first radius, each later radius warm-started at the previous
// W(R) (feasible: the balls are nested) or at W(R_prev) R / R_prev when that has the lower loss.
// The step is backtracked until the loss falls, the losses compared in a split log-domain form
// that resolves them long after their plain difference is below rounding (path.cpp). On the
// nuclear ball the step is a projected-gradient step (Frank-Wolfe's rank-one atoms crawl there);
// the certificate is the same Frank-Wolfe gap. A radius stops at relativeGap <=
// gapTolerance or after settings.iterationsPerRadius iterations (then certified = false).
// The default bound of the certificate (the relative gap at which a radius stops).
inline constexpr double kPathGapTolerance = 1e-3;
// warmStarts (optional, one matrix per radius or none): a guess of each W(R), e.g. the path of a
// slightly different problem (the lab's view while a token is dragged: the previous answer's
// W(R)). At each radius the start is the one of lower loss among the path's own warm start and
// the guess (scaled into the ball if it lies outside); the certificate is computed as always, so a
// guess changes how many iterations a radius takes, never what a certified point means.
std::vector<PathPoint> regularizationPathPoints(const Model& model,
                                                const std::vector<double>& radii,
                                                const PathSettings& settings,
                                                double gapTolerance = kPathGapTolerance,
                                                const std::vector<Mat>* warmStarts = nullptr);

// Geometric radii r0, r0 q, ..., r1 (count >= 2 values, r0 < r1; count = 1 gives r0).
std::vector<double> geometricRadii(double r0, double r1, int count);

}  // namespace attnsvm
