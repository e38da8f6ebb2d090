// Common linear-algebra aliases. Column-major Eigen types throughout; tokens are rows.
#pragma once
#include <Eigen/Dense>
#include <cstdint>
#include <vector>

namespace attnsvm {

using Mat = Eigen::MatrixXd;
using Vec = Eigen::VectorXd;
using MatRef = Eigen::Ref<Mat>;
using ConstMatRef = Eigen::Ref<const Mat>;
using VecRef = Eigen::Ref<Vec>;
using ConstVecRef = Eigen::Ref<const Vec>;
using Index = Eigen::Index;

}  // namespace attnsvm
