// What the experiment drivers (experiment_*.cpp) share and the public headers do not show.
#pragma once
#include <limits>

#include "attnsvm/base/types.hpp"

namespace attnsvm::experiment_detail {

// "Undefined" in a column (no SVM of the selection, a run that stopped early, ...).
inline constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Fraction of entries of W at or below 1% of its largest |entry| (SPEC section 6's sparsity of W);
// NaN for an empty or zero W.
double sparsity(const Mat& W);

}  // namespace attnsvm::experiment_detail
