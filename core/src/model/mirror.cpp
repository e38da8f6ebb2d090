// Mirror map of psi(W) = (1/p)||W||_p^p (entrywise) and its inverse; entrywise l_p norms.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "attnsvm/base/errors.hpp"
#include "attnsvm/base/portable_math.hpp"
#include "attnsvm/base/portable_math_array.hpp"
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
// D_p from its sums: psiA = sum |x|^p, psiB = sum |y|^p, cross = <grad psi(y), x>. Rounding can
// leave a tiny negative value for (nearly) equal arguments; D is >= 0.
double bregmanFromSums(double psiA, double psiB, double cross, double p) {
  return std::max(0.0, psiA / p + (p - 1.0) / p * psiB - cross);
}

// D_p(sa a, sb b) for scalars sa, sb >= 0 without forming the scaled matrices (trace frames
// call this and must not allocate). |y|^p is |y| |y|^{p-1}: one pow per entry for psi(B) and
// grad psi(B); p = 2 uses no pow at all, p = 3 products only (|y|^2 = y y, correctly rounded as
// pow's result is meant to be; |x|^3 = (|x| |x|) |x|). (lpNorm keeps pow for p = 3: the
// regularization path's l_3 iterates are sensitive to its last bits.) directionDivergences (below)
// has the same sums in the same order.
double scaledBregman(const ConstMatRef& a, double sa, const ConstMatRef& b, double sb, double p) {
  double psiA = 0.0, psiB = 0.0, cross = 0.0;
  const bool cube = p == 3.0;
  for (Index c = 0; c < a.cols(); ++c)
    for (Index r = 0; r < a.rows(); ++r) {
      const double x = sa * a(r, c), y = sb * b(r, c), ax = std::abs(x), ay = std::abs(y);
      const double gy = std::copysign(p == 2.0 ? ay : cube ? ay * ay : pmath::pow(ay, p - 1.0), y);
      psiA += p == 2.0 ? x * x : cube ? ax * ax * ax : pmath::pow(ax, p);
      psiB += ay * std::abs(gy);  // |y|^p
      cross += gy * x;
    }
  return bregmanFromSums(psiA, psiB, cross, p);
}

void requireSameShape(const ConstMatRef& a, const ConstMatRef& b) {
  if (a.rows() != b.rows() || a.cols() != b.cols())
    throw InputError("Bregman divergence of a " + std::to_string(a.rows()) + " x " +
                     std::to_string(a.cols()) + " and a " + std::to_string(b.rows()) + " x " +
                     std::to_string(b.cols()) + " matrix");
}

// 1 / n for a norm n, or 0 for a zero (or non-finite) one: the zero matrix has the zero direction.
double inverseOf(double n) { return n > 0.0 && std::isfinite(n) ? 1.0 / n : 0.0; }
double inverseNorm(const ConstMatRef& x, double p) { return inverseOf(lpNorm(x, p)); }

// lpNorm(x, p), the same bits, with its general branch's powers four at a time (pmath::powInPlace
// in `powers`, x's entries in lpNorm's order); the other branches are lpNorm's own. For the
// experiments' series (directionDivergences), not the page's single-run code: see the header.
double lpNormByLanes(const ConstMatRef& x, double p, std::vector<double>& powers) {
  if (x.size() == 0 || p == 2.0 || p == 1.0 || p == 1.5) return lpNorm(x, p);
  const double top = x.cwiseAbs().maxCoeff();  // lpNorm's scaling
  if (!(top > 0.0) || !std::isfinite(top)) return top;
  powers.resize(static_cast<std::size_t>(x.size()));
  for (Index c = 0, i = 0; c < x.cols(); ++c)
    for (Index r = 0; r < x.rows(); ++r, ++i) powers[i] = std::abs(x(r, c)) / top;
  pmath::powInPlace(powers.data(), powers.size(), p);
  double sum = 0.0;
  for (double v : powers) sum += v;
  return top * pmath::pow(sum, 1.0 / p);
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

std::vector<double> directionDivergences(const ConstMatRef& a, const std::vector<Mat>& bs,
                                         double p) {
  requireMirrorExponent(p, "p");
  std::vector<double> out;
  out.reserve(bs.size());
  if (bs.empty()) return out;
  for (const Mat& b : bs) requireSameShape(a, b);
  const std::size_t size = static_cast<std::size_t>(a.size());
  // scaledBregman's products for p = 2 and 3 stay theirs; the other powers of the divergence go
  // through pow's vector core, and so do the norms' (lpNormByLanes).
  const bool cube = p == 3.0, general = p != 2.0 && !cube;
  // psi(sa a) summed once (its own sum in scaledBregman: the same terms in the same order).
  const double sa = inverseNorm(a, p);
  std::vector<double> pa(size), pb(general ? size : 0), pn;
  for (Index c = 0, i = 0; c < a.cols(); ++c)
    for (Index r = 0; r < a.rows(); ++r, ++i) pa[i] = std::abs(sa * a(r, c));
  if (general) pmath::powInPlace(pa.data(), size, p);
  double psiA = 0.0;
  for (std::size_t i = 0; i < size; ++i) {
    const double ax = pa[i];
    psiA += p == 2.0 ? ax * ax : cube ? ax * ax * ax : ax;
  }
  for (const Mat& b : bs) {
    const double sb = inverseOf(lpNormByLanes(b, p, pn));  // inverseNorm(b, p)
    // scaledBregman's psiB and cross, grad psi's powers four at a time (p = 2, 3: products below).
    if (general) {
      for (std::size_t i = 0; i < size; ++i) pb[i] = std::abs(sb * b(i));
      pmath::powInPlace(pb.data(), size, p - 1.0);
    }
    double psiB = 0.0, cross = 0.0;
    for (Index c = 0, i = 0; c < a.cols(); ++c)
      for (Index r = 0; r < a.rows(); ++r, ++i) {
        const double x = sa * a(r, c), y = sb * b(i), ay = std::abs(y);
        const double gy = std::copysign(p == 2.0 ? ay : cube ? ay * ay : pb[i], y);
        psiB += ay * std::abs(gy);
        cross += gy * x;
      }
    out.push_back(bregmanFromSums(psiA, psiB, cross, p));
  }
  return out;
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
