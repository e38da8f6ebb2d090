// ||a - b|| / ||b||: the relative error of a computed matrix a against the expected b.
#pragma once
#include <algorithm>

#include "attnsvm/base/types.hpp"

namespace attnsvm::test {

inline double relErr(const Mat& a, const Mat& b) {
  return (a - b).norm() / std::max(1e-300, b.norm());
}

}  // namespace attnsvm::test
