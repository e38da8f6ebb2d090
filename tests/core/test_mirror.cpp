// Normalized l_p mirror descent as the mirror-descent paper runs it (dual-norm step, SPEC section
// 2) and the Bregman divergence of SPEC section 4: hand-computed steps (W, (K,Q) per factor, the
// head v), p = 2 against normalized GD, the eps regime and underflow, and the divergence's closed
// forms.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "attnsvm/base/errors.hpp"
#include "attnsvm/base/rng.hpp"
#include "attnsvm/experiments/scenarios.hpp"
#include "attnsvm/train/train.hpp"
#include "model/mirror_internal.hpp"
#include "relative_error.hpp"

namespace attnsvm {
namespace {

constexpr double kEps = std::numeric_limits<double>::epsilon();

TrainSettings nmd(double lr, double p) {
  TrainSettings s;
  s.optimizer = Optimizer::NMD;
  s.lr = lr;
  s.p = p;
  return s;
}

// sum |x|^q, by hand.
double powSum(const Mat& x, double q) {
  double s = 0.0;
  for (Index k = 0; k < x.size(); ++k) s += std::pow(std::abs(x(k)), q);
  return s;
}

// The paper's step written out entry by entry: U = sign(W)|W|^{p-1} - lr g / (||g||_q + eps),
// W' = sign(U)|U|^{1/(p-1)}, g the true gradient.
Mat handStep(const Mat& W, const Mat& g, double lr, double p) {
  const double q = p / (p - 1.0);
  const double dual = std::pow(powSum(g, q), 1.0 / q);
  Mat out(W.rows(), W.cols());
  for (Index k = 0; k < W.size(); ++k) {
    const double u =
        std::copysign(std::pow(std::abs(W(k)), p - 1.0), W(k)) - lr * g(k) / (dual + kEps);
    out(k) = std::copysign(std::pow(std::abs(u), 1.0 / (p - 1.0)), u);
  }
  return out;
}

using test::relErr;

TEST(NormalizedMirrorDescent, StepOnWMatchesTheHandComputedDualNormStep) {
  const Dataset data = sphereDataset(4, 5, 3, 11);
  const Model model(data, ModelSpec{});
  Rng rng(7);
  Params init = model.zeroParams();
  init.W = rng.normalMatrix(3, 3);
  for (double p : {1.75, 3.0, 1.3}) {
    Trainer tr(model, nmd(0.1, p), init);
    tr.step(1);
    Gradient g;
    model.gradient(init, g);
    const Mat expected = handStep(init.W, std::exp(g.logScale) * g.W, 0.1, p);
    EXPECT_LE(relErr(tr.params().W, expected), 1e-13) << "p = " << p;
    // Not the Frobenius-normalized step (the old meaning of nmd, now nmd-fro), which differs.
    TrainSettings fro = nmd(0.1, p);
    fro.optimizer = Optimizer::NMDFro;
    Trainer old(model, fro, init);
    old.step(1);
    EXPECT_GT(relErr(old.params().W, expected), 1e-4) << "p = " << p;
  }
}

TEST(NormalizedMirrorDescent, DualSpaceStepHasLengthLrInTheDualNorm) {
  // grad psi(W') - grad psi(W) = -lr g / (||g||_q + eps): its l_q norm is lr while ||g||_q >> eps.
  const Dataset data = sphereDataset(6, 8, 10, 3);
  const Model model(data, ModelSpec{});
  Rng rng(1);
  Params init = model.zeroParams();
  init.W = rng.normalMatrix(10, 10);
  const double p = 1.75, q = p / (p - 1.0);
  Trainer tr(model, nmd(0.1, p), init);
  tr.step(1);
  const Mat du = mirrorMap(tr.params().W, p) - mirrorMap(init.W, p);
  EXPECT_NEAR(std::pow(powSum(du, q), 1.0 / q), 0.1, 1e-12);
}

TEST(NormalizedMirrorDescent, EachFactorAndTheHeadUseTheirOwnDualNorm) {
  const Dataset data = sphereDataset(3, 4, 3, 9);
  ModelSpec spec;
  spec.param = Parameterization::KQ;
  const Model model(data, spec);
  InitSettings init;
  init.kind = InitKind::Random;
  init.seed = 4;
  init.scale = 0.5;
  const Params p0 = initialParams(model, init);
  TrainSettings s = nmd(0.05, 3.0);
  s.balance = 0.0;
  Trainer tr(model, s, p0);
  tr.step(1);
  Gradient g;
  model.gradient(p0, g);
  const double scale = std::exp(g.logScale);
  EXPECT_LE(relErr(tr.params().K, handStep(p0.K, scale * g.K, 0.05, 3.0)), 1e-13);
  EXPECT_LE(relErr(tr.params().Q, handStep(p0.Q, scale * g.Q, 0.05, 3.0)), 1e-13);

  // Joint (W, v): W with p = 1.75, v with its own p = 3 and its own dual norm.
  const Model wm(data, ModelSpec{});
  Rng rng(5);
  Params w0 = wm.zeroParams();
  w0.W = rng.normalMatrix(3, 3);
  w0.v = rng.normalVector(3);
  TrainSettings joint = nmd(0.1, 1.75);
  joint.trainHead = true;
  joint.headOptimizer = Optimizer::NMD;
  joint.headLr = 0.2;
  joint.headP = 3.0;
  Trainer jt(wm, joint, w0);
  jt.step(1);
  Gradient gj;
  wm.gradient(w0, gj, true);
  EXPECT_LE(relErr(jt.params().W, handStep(w0.W, std::exp(gj.logScale) * gj.W, 0.1, 1.75)), 1e-13);
  const Mat v1 = handStep(Mat(w0.v), Mat(std::exp(gj.logScaleHead) * gj.v), 0.2, 3.0);
  EXPECT_LE(relErr(Mat(jt.params().v), v1), 1e-13);
}

TEST(NormalizedMirrorDescent, WithP2ItIsNormalizedGDBitForBitWhileTheGradientDwarfsEps) {
  // ||g||_2 + eps rounds to ||g||_2 when eps is below half an ulp of ||g||_2, which ||g||_2 > 4
  // guarantees (ulp(x) >= 2^-53 x): then the dual-norm step at p = 2 is normalized GD bit for bit.
  // Large tokens and a small step keep the gradient in that range for the whole run.
  Dataset data = sphereDataset(4, 5, 3, 2);
  data.X *= 10.0;
  data.Z *= 10.0;
  const Model model(data, ModelSpec{});
  TrainSettings ngd;
  ngd.optimizer = Optimizer::NGD;
  ngd.lr = 0.001;
  Trainer a(model, nmd(0.001, 2.0), model.zeroParams());
  Trainer b(model, ngd, model.zeroParams());
  for (int k = 0; k < 40; ++k) {
    Gradient g;
    model.gradient(b.params(), g);
    ASSERT_GT(std::exp(g.logScale) * g.W.norm(), 4.0)
        << "iteration " << k << ": outside the tested regime";
    a.step(1);
    b.step(1);
    ASSERT_EQ(a.params().W, b.params().W) << "iteration " << k;
  }
  // On unit-norm data the gradient is below 2 and eps shows in the last bits only.
  const Dataset unit = sphereDataset(4, 5, 3, 2);
  const Model um(unit, ModelSpec{});
  TrainSettings ngd5 = ngd;
  ngd5.lr = 0.5;
  Trainer c(um, nmd(0.5, 2.0), um.zeroParams()), e(um, ngd5, um.zeroParams());
  c.step(50);
  e.step(50);
  EXPECT_LE(relErr(c.params().W, e.params().W), 1e-12);
}

TEST(NormalizedMirrorDescent, StepShrinksNearEpsAndIsExactlyZeroAfterUnderflow) {
  const Dataset data = sphereDataset(6, 8, 10, 0);
  const Model model(data, ModelSpec{});
  TrainSettings fast;
  fast.optimizer = Optimizer::NGD;
  fast.lr = 0.5;
  Trainer warm(model, fast, model.zeroParams());
  warm.step(300);
  const Mat Wdir = warm.params().W / warm.params().W.norm();
  // Scale the direction until the true gradient's l_q norm is about eps / 10.
  const double p = 3.0, q = 1.5, lr = 0.1;
  Params at = model.zeroParams();
  double gq = 0.0;
  Gradient g;
  for (double r = 1.0; r < 1e6; r *= 1.05) {
    at.W = r * Wdir;
    model.gradient(at, g);
    gq = std::exp(g.logScale) * std::pow(powSum(g.W, q), 1.0 / q);
    if (gq < kEps / 10) break;
  }
  ASSERT_LT(gq, kEps / 10);
  ASSERT_GT(gq, kEps / 1000);
  Trainer tr(model, nmd(lr, p), at);
  tr.step(1);
  const Mat du = mirrorMap(tr.params().W, p) - mirrorMap(at.W, p);
  const double len = std::pow(powSum(du, q), 1.0 / q);
  // The authors' step: lr ||g||_q / (||g||_q + eps), here about lr / 11; NMDFro would take lr.
  EXPECT_NEAR(len, lr * gq / (gq + kEps), 1e-6 * lr);
  EXPECT_LT(len, lr / 5);

  // Far beyond: the true gradient is below the double range, the step is exactly zero, the run
  // is not stopped and its trace has no NaN.
  Params far = at;
  far.W = 1e4 * Wdir;
  model.gradient(far, g);
  ASSERT_LT(g.logScale, -800.0);
  TrainSettings s = nmd(lr, p);
  Trainer zero(model, s, far);
  zero.addReference("self", far.W);
  EXPECT_EQ(zero.step(5), 5);
  EXPECT_FALSE(zero.stopped());
  EXPECT_EQ(zero.params().W, far.W);
  const Trace t = zero.takeTrace();
  for (double x : t.divergence) EXPECT_EQ(x, 0.0);
  for (double x : t.loss) EXPECT_TRUE(std::isfinite(x));
}

TEST(NormalizedMirrorDescent, ZeroGradientIsAZeroStepNotAStop) {
  // Joint (W, v) from W = 0, v = 0: grad_W = 0 at the start (the head is zero), the head moves;
  // the authors' eps makes the W step an exact zero instead of 0/0.
  const Dataset data = sphereDataset(3, 4, 3, 4);
  const Model model(data, ModelSpec{});
  Params z = model.zeroParams();
  z.v.setZero();
  TrainSettings s = nmd(0.1, 1.75);
  s.trainHead = true;
  s.headOptimizer = Optimizer::NMD;
  s.headP = 1.75;
  Trainer tr(model, s, z);
  EXPECT_EQ(tr.step(1), 1);
  EXPECT_EQ(tr.params().W.norm(), 0.0);
  EXPECT_GT(tr.params().v.norm(), 0.0);
  EXPECT_EQ(tr.step(20), 20);
  EXPECT_GT(tr.params().W.norm(), 0.0);  // once v != 0 the attention gradient is nonzero
}

// ---- Bregman divergence (SPEC section 4) ----

TEST(Bregman, DefinitionAndClosedForms) {
  Rng rng(3);
  for (double p : {1.1, 1.5, 1.75, 2.0, 3.0, 4.0}) {
    for (int trial = 0; trial < 200; ++trial) {
      const Mat A = rng.normalMatrix(4, 3), B = (trial % 3 + 0.5) * rng.normalMatrix(4, 3);
      // psi(A) - psi(B) - <grad psi(B), A - B>, by hand.
      const double psiA = powSum(A, p) / p, psiB = powSum(B, p) / p;
      const double def = psiA - psiB - mirrorMap(B, p).cwiseProduct(A - B).sum();
      const double d = bregmanDivergence(A, B, p);
      EXPECT_NEAR(d, def, 1e-12 * (1.0 + psiA + psiB)) << "p = " << p;
      EXPECT_GE(d, 0.0);
      const double dd = directionDivergence(A, B, p);
      EXPECT_GE(dd, 0.0);
      EXPECT_LE(dd, 2.0 + 1e-14);
      // Scale invariance of the directions.
      EXPECT_NEAR(directionDivergence(3.0 * A, 0.25 * B, p), dd, 1e-13);
    }
    const Mat A = rng.normalMatrix(3, 3);
    EXPECT_EQ(bregmanDivergence(A, A, p), 0.0) << "p = " << p;
    EXPECT_NEAR(directionDivergence(A, 7.0 * A, p), 0.0, 1e-14) << "p = " << p;
    EXPECT_NEAR(directionDivergence(A, -A, p), 2.0, 1e-14) << "p = " << p;
    // The zero matrix has the zero direction.
    EXPECT_NEAR(directionDivergence(Mat::Zero(3, 3), A, p), (p - 1.0) / p, 1e-14);
    EXPECT_NEAR(directionDivergence(A, Mat::Zero(3, 3), p), 1.0 / p, 1e-14);
  }
  // p = 2: half the squared Euclidean distance (of the unit vectors for directions).
  for (int trial = 0; trial < 50; ++trial) {
    const Mat A = rng.normalMatrix(5, 2), B = rng.normalMatrix(5, 2);
    EXPECT_NEAR(bregmanDivergence(A, B, 2.0), 0.5 * (A - B).squaredNorm(),
                1e-13 * (A.squaredNorm() + B.squaredNorm()));
    EXPECT_NEAR(directionDivergence(A, B, 2.0), 0.5 * (A / A.norm() - B / B.norm()).squaredNorm(),
                1e-14);
    EXPECT_NEAR(directionDivergence(A, B, 2.0), 1.0 - correlation(A, B), 1e-14);
  }
  // A hand example: A = (1, 0), B = (0, 1) at p = 3: (1/3) 1 + (2/3) 1 - 0 = 1.
  EXPECT_NEAR(bregmanDivergence(Mat(Eigen::Vector2d(1, 0)), Mat(Eigen::Vector2d(0, 1)), 3.0), 1.0,
              1e-15);
  // A = (2, 0), B = (1, 1) at p = 3: (1/3) 8 + (2/3) 2 - <(1, 1), (2, 0)> = 8/3 + 4/3 - 2 = 2.
  EXPECT_NEAR(bregmanDivergence(Mat(Eigen::Vector2d(2, 0)), Mat(Eigen::Vector2d(1, 1)), 3.0), 2.0,
              1e-14);
  EXPECT_THROW(bregmanDivergence(Mat::Zero(2, 2), Mat::Zero(3, 2), 2.0), InputError);
  EXPECT_THROW(directionDivergence(Mat::Zero(2, 2), Mat::Zero(2, 2), 1.0), InputError);
}

// The experiments' series of divergences (directionDivergences: the reference's norm and psi once,
// the powers four at a time) give directionDivergence's bits for every snapshot: shapes with a
// ragged tail of four, the entries pow treats apart (0, -0, +-1, subnormals) and huge and tiny
// ones, zero and non-finite snapshots, every md-convergence exponent and the ones with own forms.
TEST(Bregman, DivergenceSeriesGivesTheSingleDivergenceBits) {
  auto same = [](double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; };
  const double inf = std::numeric_limits<double>::infinity();
  const double special[] = {0.0, -0.0, 1.0, -1.0, 4e-310, -1e-300, 1e300, 2.5, -1e-20};
  Rng rng(11);
  for (auto [rows, cols] : {std::pair{1, 1}, {3, 1}, {2, 2}, {3, 3}, {10, 10}, {7, 5}, {1, 13}}) {
    Mat A = rng.normalMatrix(rows, cols);
    std::vector<Mat> snaps;
    for (int k = 0; k < 6; ++k) snaps.push_back((k + 0.25) * rng.normalMatrix(rows, cols));
    for (Index k = 0; k < A.size(); k += 3) A(k) = special[(k / 3) % 9];
    for (Index k = 1; k < snaps[1].size(); k += 2) snaps[1](k) = special[(k / 2) % 9];
    snaps[2] = A;                      // D = 0
    snaps[3] = Mat::Zero(rows, cols);  // the zero direction
    snaps[4](0) = inf;                 // a non-finite norm: the zero direction
    snaps.push_back(1e-160 * rng.normalMatrix(rows, cols));  // |b|^p underflows in parts
    for (double p : {1.1, 1.5, 1.75, 2.0, 3.0, 4.0, 7.0 / 3.0}) {
      const std::vector<double> got = directionDivergences(A, snaps, p);
      ASSERT_EQ(got.size(), snaps.size());
      for (std::size_t k = 0; k < snaps.size(); ++k)
        EXPECT_TRUE(same(got[k], directionDivergence(A, snaps[k], p)))
            << rows << " x " << cols << ", p = " << p << ", snapshot " << k << ": " << got[k]
            << " vs " << directionDivergence(A, snaps[k], p);
      EXPECT_TRUE(directionDivergences(A, {}, p).empty());
    }
    const double zero = directionDivergences(Mat::Zero(rows, cols), snaps, 1.75)[0];
    EXPECT_TRUE(same(zero, directionDivergence(Mat::Zero(rows, cols), snaps[0], 1.75)));
  }
  EXPECT_THROW(directionDivergences(Mat::Zero(2, 2), {Mat::Zero(3, 2)}, 1.75), InputError);
  EXPECT_THROW(directionDivergences(Mat::Zero(2, 2), {Mat::Zero(2, 2)}, 1.0), InputError);
}

// p = 3's divergence by products (|y|^2 = y y, |x|^3 = (|x| |x|) |x|) instead of pow: close to
// the definition in long double on random entries of every scale (directions: A / ||A||_3).
TEST(Bregman, CubeFormsAreAccurate) {
  Rng rng(17);
  for (int trial = 0; trial < 300; ++trial) {
    const double scale = std::ldexp(1.0, static_cast<int>(trial % 40) * 10 - 200);
    const Mat A = scale * rng.normalMatrix(4, 3), B = rng.normalMatrix(4, 3);
    // D_3(A, B) = |A|^3/3 + (2/3)|B|^3 - <B|B|, A>, in long double.
    long double pa = 0, pb = 0, cr = 0;
    const Mat U = A / lpNorm(A, 3.0);
    for (Index k = 0; k < A.size(); ++k) {
      const long double x = U(k), y = B(k);
      pa += std::fabs(x * x * x);
      pb += std::fabs(y * y * y);
      cr += y * std::fabs(y) * x;
    }
    const long double want = pa / 3 + 2 * pb / 3 - cr;
    EXPECT_NEAR(bregmanDivergence(U, B, 3.0), (double)want, 1e-14 * (double)(pa + pb));
  }
}

TEST(Bregman, TraceRecordsTheDivergenceInTheTraceP) {
  const Dataset data = sphereDataset(3, 4, 3, 8);
  const Model model(data, ModelSpec{});
  Rng rng(2);
  const Mat ref = rng.normalMatrix(3, 3);
  Params init = model.zeroParams();
  init.W = rng.normalMatrix(3, 3);
  for (auto [opt, p, expectP] :
       {std::tuple{Optimizer::NMD, 3.0, 3.0}, std::tuple{Optimizer::NGD, 3.0, 2.0}}) {
    TrainSettings s = nmd(0.1, p);
    s.optimizer = opt;
    s.traceEvery = 5;
    Trainer tr(model, s, init);
    tr.addReference("random", ref);
    tr.addReference("minus", -ref);
    tr.step(20);
    const Trace t = tr.takeTrace();
    ASSERT_EQ(t.divergence.size(), t.corr.size());
    ASSERT_EQ(t.divergence.size(), 2u * t.frames());
    EXPECT_NEAR(t.divergence[0], directionDivergence(ref, init.W, expectP), 1e-14);
    EXPECT_NEAR(t.divergence[t.divergence.size() - 2],
                directionDivergence(ref, tr.weights(), expectP), 1e-14);
    EXPECT_NEAR(t.divergence.back(), directionDivergence(-ref, tr.weights(), expectP), 1e-14);
  }
}

}  // namespace
}  // namespace attnsvm
