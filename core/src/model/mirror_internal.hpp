// In-place mirror maps for the training inner loop (no allocation). Not installed.
#pragma once
#include <vector>

#include "attnsvm/base/types.hpp"

namespace attnsvm {

// x <- sign(x)|x|^{p-1}  (grad psi for psi = (1/p)||.||_p^p); identity for p = 2.
void mirrorInPlace(Eigen::Ref<Mat> x, double p);
// u <- sign(u)|u|^{1/(p-1)}  (inverse of the above); identity for p = 2.
void inverseMirrorInPlace(Eigen::Ref<Mat> u, double p);
// Entrywise l_p norm (p >= 1) without overflow or underflow of |x|^p.
double lpNorm(const Eigen::Ref<const Mat>& x, double p);
// directionDivergence(a, b, p) (train.hpp) for every b in bs, the same bits: a's norm and psi once,
// and the entries' powers four at a time where they are pows (pmath::powInPlace). For the
// experiments' series of snapshots against one SVM direction; the page's module, which has no
// experiments, keeps the scalar directionDivergence alone.
std::vector<double> directionDivergences(const ConstMatRef& a, const std::vector<Mat>& bs,
                                         double p);
// Throws InputError unless p > 1 and finite.
void requireMirrorExponent(double p, const char* what);

}  // namespace attnsvm
