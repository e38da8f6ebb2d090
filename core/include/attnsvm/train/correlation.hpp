// correlation (train.hpp) of many matrices against one: the snapshot series of the experiments.
#pragma once
#include "attnsvm/base/types.hpp"

namespace attnsvm {

// correlation(a, b) of many a against one b, with the same bits: b / ||b||_F is computed once
// (recomputing it for each of 201 snapshots was most of local-convergence's correlation time).
class CorrelationWith {
 public:
  explicit CorrelationWith(const ConstMatRef& b);
  double operator()(const ConstMatRef& a) const;

 private:
  Mat unit_;           // b / ||b||_F
  bool zero_ = false;  // ||b||_F is not > 0 (zero or not finite): every correlation is 0
};

}  // namespace attnsvm
