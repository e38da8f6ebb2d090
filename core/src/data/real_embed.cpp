// Tokens of a chosen dimension d for real images (SPEC 6.5): a fixed, seeded random ReLU feature
// map of each patch's 18 numbers. Overparameterization is the theory's way into its regime
// (TF-as-SVM: with d^2 unknowns against n (T - 1) constraints the Att-SVM becomes feasible); the
// map is drawn once per seed and applied to every image, training and test alike, so that it is
// part of the data, not of the model. Every number is computed in an order written here with
// correctly rounded operations and the portable log (PortableGaussian), so the tokens are the same
// bits natively and in wasm (SPEC 6.4).
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "attnsvm/base/errors.hpp"
#include "attnsvm/base/rng.hpp"
#include "attnsvm/data/real_images.hpp"

namespace attnsvm {

namespace {

bool isOfferedTokenDim(int dim) {
  return std::find(std::begin(kTokenDims), std::end(kTokenDims), dim) != std::end(kTokenDims);
}

std::string offeredTokenDims() {
  std::string s;
  for (int d : kTokenDims) s += (s.empty() ? "" : ", ") + std::to_string(d);
  return s;
}

}  // namespace

Dataset embedTokens(const Dataset& patches, int dim, std::uint64_t seed) {
  if (!isOfferedTokenDim(dim))
    throw InputError("token dimension dim = " + std::to_string(dim) + " is not offered: one of " +
                     offeredTokenDims() + " (SPEC 6.5)");
  const int d0 = patches.d;
  if (dim == d0) return patches;  // x = u: today's tokens, bit for bit
  const int n = patches.n, T = patches.T;
  if (patches.X.rows() != static_cast<Index>(n) * T || patches.X.cols() != d0)
    throw InputError("embedTokens: X is " + std::to_string(patches.X.rows()) + " x " +
                     std::to_string(patches.X.cols()) +
                     ", expected n T = " + std::to_string(static_cast<long>(n) * T) +
                     " rows of d = " + std::to_string(d0));
  // R (d0 x dim) row by row, then b: one stream, so that R does not depend on how b is drawn.
  PortableGaussian gauss(seed);
  std::vector<double> R(static_cast<std::size_t>(d0) * dim), b(static_cast<std::size_t>(dim));
  for (double& r : R) r = gauss.next();
  for (double& x : b) x = 0.5 * gauss.next();  // N(0, 1/4)
  const double scale = std::sqrt(2.0 / dim);   // E |x|^2 about E |u|^2 + 1/4 for ReLU features

  Dataset out = patches;
  out.d = dim;
  out.X = Mat::Zero(static_cast<Index>(n) * T, dim);
  out.Z = Mat::Zero(n, dim);
  out.v = Vec::Zero(dim);  // v0 = 0, as patchDataset's
  std::vector<double> u(static_cast<std::size_t>(d0));
  for (Index row = 0; row < static_cast<Index>(n) * T; ++row) {
    for (int j = 0; j < d0; ++j) u[j] = patches.X(row, j);
    for (int k = 0; k < dim; ++k) {
      double a = 0.0;  // (R^T u)_k summed over j in order, then + b_k
      for (int j = 0; j < d0; ++j) a += u[j] * R[static_cast<std::size_t>(j) * dim + k];
      a += b[k];
      out.X(row, k) = a > 0.0 ? scale * a : 0.0;
    }
  }
  // z_i = (sum_t x_it) / T summed over t in order, as patchDataset's (no SIMD-dependent mean).
  for (int i = 0; i < n; ++i)
    for (int k = 0; k < dim; ++k) {
      double sum = 0.0;
      for (int t = 0; t < T; ++t) sum += out.X(static_cast<Index>(i) * T + t, k);
      out.Z(i, k) = sum / T;
    }
  return out;
}

}  // namespace attnsvm
