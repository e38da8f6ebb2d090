// Mirror map of psi(W) = (1/p)||W||_p^p (entrywise) and its inverse; entrywise l_p norms.
#include <algorithm>
#include <cmath>
#include <string>

#include "attnsvm/errors.hpp"
#include "attnsvm/train.hpp"
#include "mirror_internal.hpp"

namespace attnsvm {

void requireMirrorExponent(double p, const char* what) {
  if (!(p > 1.0) || !std::isfinite(p))
    throw InputError(std::string(what) + " = " + std::to_string(p) +
                     ": the mirror-descent exponent must be finite and > 1");
}

namespace {
// sign(x)|x|^e; exact for e = 1 so that p = 2 is bit-for-bit GD.
void signedPower(Eigen::Ref<Mat> x, double e) {
  if (e == 1.0) return;
  for (Index c = 0; c < x.cols(); ++c)
    for (Index r = 0; r < x.rows(); ++r) {
      const double v = x(r, c);
      x(r, c) = std::copysign(std::pow(std::abs(v), e), v);
    }
}
}  // namespace

void mirrorInPlace(Eigen::Ref<Mat> x, double p) { signedPower(x, p - 1.0); }
void inverseMirrorInPlace(Eigen::Ref<Mat> u, double p) { signedPower(u, 1.0 / (p - 1.0)); }

double lpNorm(const Eigen::Ref<const Mat>& x, double p) {
  if (x.size() == 0) return 0.0;
  if (p == 2.0) return x.norm();
  if (p == 1.0) return x.cwiseAbs().sum();
  // Scale by the largest entry: (sum (|x|/top)^p)^(1/p) * top never overflows.
  const double top = x.cwiseAbs().maxCoeff();
  if (!(top > 0.0) || !std::isfinite(top)) return top;
  double sum = 0.0;
  for (Index c = 0; c < x.cols(); ++c)
    for (Index r = 0; r < x.rows(); ++r) sum += std::pow(std::abs(x(r, c)) / top, p);
  return top * std::pow(sum, 1.0 / p);
}

double bregmanDivergence(const ConstMatRef& a, const ConstMatRef& b, double p) {
  requireMirrorExponent(p, "p");
  if (a.rows() != b.rows() || a.cols() != b.cols())
    throw InputError("Bregman divergence of a " + std::to_string(a.rows()) + " x " + std::to_string(a.cols()) +
                     " and a " + std::to_string(b.rows()) + " x " + std::to_string(b.cols()) + " matrix");
  double psiA = 0.0, psiB = 0.0, cross = 0.0;
  for (Index c = 0; c < a.cols(); ++c)
    for (Index r = 0; r < a.rows(); ++r) {
      const double x = a(r, c), y = b(r, c);
      const double ay = std::abs(y), gy = std::copysign(p == 2.0 ? ay : std::pow(ay, p - 1.0), y);
      psiA += p == 2.0 ? x * x : std::pow(std::abs(x), p);
      psiB += ay * std::abs(gy);  // |y|^p
      cross += gy * x;
    }
  // Rounding can leave a tiny negative value for (nearly) equal arguments; D is >= 0.
  return std::max(0.0, psiA / p + (p - 1.0) / p * psiB - cross);
}

double directionDivergence(const ConstMatRef& a, const ConstMatRef& b, double p) {
  requireMirrorExponent(p, "p");
  const double na = lpNorm(a, p), nb = lpNorm(b, p);
  const Mat ah = na > 0.0 && std::isfinite(na) ? Mat(a / na) : Mat::Zero(a.rows(), a.cols());
  const Mat bh = nb > 0.0 && std::isfinite(nb) ? Mat(b / nb) : Mat::Zero(b.rows(), b.cols());
  return bregmanDivergence(ah, bh, p);
}

Mat mirrorMap(const ConstMatRef& w, double p) {
  requireMirrorExponent(p, "p");
  Mat out = w;
  mirrorInPlace(out, p);
  return out;
}

Mat inverseMirrorMap(const ConstMatRef& u, double p) {
  requireMirrorExponent(p, "p");
  Mat out = u;
  inverseMirrorInPlace(out, p);
  return out;
}

}  // namespace attnsvm
