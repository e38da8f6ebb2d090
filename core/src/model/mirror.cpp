// Mirror map of psi(W) = (1/p)||W||_p^p (entrywise) and its inverse; entrywise l_p norms.
#include <algorithm>
#include <cmath>
#include <string>

#include "attnsvm/base/errors.hpp"
#include "attnsvm/base/portable_math.hpp"
#include "attnsvm/model/mirror.hpp"
#include "model/mirror_internal.hpp"

namespace attnsvm {

void requireMirrorExponent(double p, const char* what) {
  if (!(p > 1.0) || !std::isfinite(p))
    throw InputError(std::string(what) + " = " + std::to_string(p) +
                     ": the mirror-descent exponent must be finite and > 1");
}

namespace {
// sign(x)|x|^e; exact for e = 1 so that p = 2 is bit-for-bit GD. p = 3 (e = 2 and e = 1/2, the
// mirror-descent paper's longest runs: 20000 iterations) uses x|x| and sqrt instead of pow, which
// is most of the cost of an MD step at d = 10; both are correctly rounded, as glibc's pow is.
void signedPower(Eigen::Ref<Mat> x, double e) {
  if (e == 1.0) return;
  if (e == 2.0) {
    x.array() *= x.array().abs();
    return;
  }
  if (e == 0.5) {
    for (Index c = 0; c < x.cols(); ++c)
      for (Index r = 0; r < x.rows(); ++r)
        x(r, c) = std::copysign(std::sqrt(std::abs(x(r, c))), x(r, c));
    return;
  }
  for (Index c = 0; c < x.cols(); ++c)
    for (Index r = 0; r < x.rows(); ++r) {
      const double v = x(r, c);
      x(r, c) = std::copysign(pmath::pow(std::abs(v), e), v);
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
  if (p == 1.5) {  // the dual norm of p = 3 (normalized MD): |y|^1.5 = |y| sqrt|y|
    for (Index c = 0; c < x.cols(); ++c)
      for (Index r = 0; r < x.rows(); ++r) {
        const double y = std::abs(x(r, c)) / top;
        sum += y * std::sqrt(y);
      }
  } else {
    for (Index c = 0; c < x.cols(); ++c)
      for (Index r = 0; r < x.rows(); ++r) sum += pmath::pow(std::abs(x(r, c)) / top, p);
  }
  return top * pmath::pow(sum, 1.0 / p);
}

namespace {
// D_p(sa a, sb b) for scalars sa, sb >= 0 without forming the scaled matrices (trace frames
// call this and must not allocate). |y|^p is |y| |y|^{p-1}: one pow per entry for psi(B) and
// grad psi(B); p = 2 uses no pow at all.
double scaledBregman(const ConstMatRef& a, double sa, const ConstMatRef& b, double sb, double p) {
  double psiA = 0.0, psiB = 0.0, cross = 0.0;
  for (Index c = 0; c < a.cols(); ++c)
    for (Index r = 0; r < a.rows(); ++r) {
      const double x = sa * a(r, c), y = sb * b(r, c);
      const double ay = std::abs(y), gy = std::copysign(p == 2.0 ? ay : pmath::pow(ay, p - 1.0), y);
      psiA += p == 2.0 ? x * x : pmath::pow(std::abs(x), p);
      psiB += ay * std::abs(gy);  // |y|^p
      cross += gy * x;
    }
  // Rounding can leave a tiny negative value for (nearly) equal arguments; D is >= 0.
  return std::max(0.0, psiA / p + (p - 1.0) / p * psiB - cross);
}

void requireSameShape(const ConstMatRef& a, const ConstMatRef& b) {
  if (a.rows() != b.rows() || a.cols() != b.cols())
    throw InputError("Bregman divergence of a " + std::to_string(a.rows()) + " x " +
                     std::to_string(a.cols()) + " and a " + std::to_string(b.rows()) + " x " +
                     std::to_string(b.cols()) + " matrix");
}

// 1 / ||x||_p, or 0 for a zero (or non-finite) norm: the zero matrix has the zero direction.
double inverseNorm(const ConstMatRef& x, double p) {
  const double n = lpNorm(x, p);
  return n > 0.0 && std::isfinite(n) ? 1.0 / n : 0.0;
}
}  // namespace

double bregmanDivergence(const ConstMatRef& a, const ConstMatRef& b, double p) {
  requireMirrorExponent(p, "p");
  requireSameShape(a, b);
  return scaledBregman(a, 1.0, b, 1.0, p);
}

double directionDivergence(const ConstMatRef& a, const ConstMatRef& b, double p) {
  requireMirrorExponent(p, "p");
  requireSameShape(a, b);
  return scaledBregman(a, inverseNorm(a, p), b, inverseNorm(b, p), p);
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
