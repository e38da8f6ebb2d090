// The two-layer attention model (two_layer.hpp): forward pass and exact gradient by the chain rule,
// one sequence at a time. Per sequence (X = X_i, T x d):
//   A1 = X W1 X^T       A1(t, k) = x_t^T W1 x_k: column k holds query k's scores
//   S1 = columnwise softmax(A1),  H = S1^T X   (row k of H is h_k = X^T s1_k)
//   u = W2 h_0,  a2 = H u,  s2 = softmax(a2),  r = H^T s2,  f = v^T r
// Backward with g = l'(Y f) Y / n:
//   dv = g r,  dr = g v,  dH = s2 dr^T + da2 u^T (+ dq^T in row 0),  da2 = J(s2) H dr,
//   dW2 = (H^T da2) h_0^T,  dq = W2^T H^T da2,  dA1(:, k) = J(s1_k) X dh_k,  dW1 = X^T dA1 X
// where J(s) c = s .* (c - s.c) is the softmax Jacobian, evaluated as softmaxBackward below.
#include "attnsvm/model/two_layer.hpp"

#include <cmath>

#include "attnsvm/base/errors.hpp"
#include "attnsvm/base/portable_math.hpp"
#include "model/model_internal.hpp"

namespace attnsvm {

namespace {

// Stable softmax of a (into s); returns the argmax (first on ties) and writes 1 - s_max as the sum
// of the other probabilities.
int softmaxInto(const Eigen::Ref<const Vec>& a, Eigen::Ref<Vec> s, double& residual) {
  Index top = 0;
  const double mx = a.maxCoeff(&top);
  double sum = 0.0;
  for (Index t = 0; t < a.size(); ++t) {
    s[t] = pmath::exp(a[t] - mx);
    sum += s[t];
  }
  s /= sum;
  residual = 0.0;
  for (Index t = 0; t < a.size(); ++t)
    if (t != top) residual += s[t];
  return static_cast<int>(top);
}

// J(s) ds = s .* (ds - s.ds), written as s_t (c_t - sum_u s_u c_u) with c_u = ds_u - ds_alpha
// (c_alpha = 0): no 1 - s_alpha is formed, so the result keeps its relative accuracy when s
// saturates on alpha.
void softmaxBackward(const Eigen::Ref<const Vec>& s, const Eigen::Ref<const Vec>& ds, int alpha,
                     Eigen::Ref<Vec> da) {
  const double ref = ds[alpha];
  double m = 0.0;
  for (Index u = 0; u < s.size(); ++u)
    if (u != alpha) m += s[u] * (ds[u] - ref);
  for (Index t = 0; t < s.size(); ++t) da[t] = s[t] * ((t == alpha ? 0.0 : ds[t] - ref) - m);
}

}  // namespace

TwoLayerModel::TwoLayerModel(const Dataset& data, LossKind loss) : data_(data), loss_(loss) {
  validate(data_, AttentionKind::SeqToSeq);
  if (data_.v.size() != data_.d)
    throw InputError("two-layer model: v has " + std::to_string(data_.v.size()) +
                     " entries, expected d = " + std::to_string(data_.d));
}

TwoLayerParams TwoLayerModel::zeroParams() const {
  TwoLayerParams p;
  p.W1 = Mat::Zero(data_.d, data_.d);
  p.W2 = Mat::Zero(data_.d, data_.d);
  p.v = data_.v;
  return p;
}

void TwoLayerModel::checkParams(const TwoLayerParams& p) const {
  const Index d = data_.d;
  auto square = [&](const Mat& m, const char* name) {
    if (m.rows() != d || m.cols() != d)
      throw InputError(std::string("two-layer model: ") + name + " is " + std::to_string(m.rows()) +
                       " x " + std::to_string(m.cols()) +
                       ", expected d x d = " + std::to_string(d) + " x " + std::to_string(d));
    if (!m.allFinite())
      throw InputError(std::string("two-layer model: ") + name + " is not finite");
  };
  square(p.W1, "W1");
  square(p.W2, "W2");
  if (p.v.size() != d || !p.v.allFinite())
    throw InputError("two-layer model: v must have d = " + std::to_string(d) + " finite entries");
}

TwoLayerForward TwoLayerModel::forward(const TwoLayerParams& p) const {
  checkParams(p);
  const int n = data_.n, T = data_.T;
  const Index d = data_.d;
  TwoLayerForward fw;
  fw.H.resize(static_cast<Index>(n) * T, d);
  fw.softmax1.resize(static_cast<Index>(n) * T, T);
  fw.softmax2.resize(n, T);
  fw.output.resize(n);
  fw.selected1.resize(static_cast<std::size_t>(n) * T);
  fw.selected2.resize(n);
  fw.residual1.resize(static_cast<Index>(n) * T);
  fw.residual2.resize(n);
  Mat A1(T, T);
  Vec s(T), u(d), a2(T);
  double total = 0.0;
  for (int i = 0; i < n; ++i) {
    const auto X = data_.tokens(i);
    A1.noalias() = X * p.W1 * X.transpose();
    for (int k = 0; k < T; ++k) {
      const Index row = static_cast<Index>(i) * T + k;
      fw.selected1[row] = softmaxInto(A1.col(k), s, fw.residual1[row]);
      fw.softmax1.row(row) = s.transpose();
      fw.H.row(row).noalias() = s.transpose() * X;
    }
    const auto H = fw.H.middleRows(static_cast<Index>(i) * T, T);
    u.noalias() = p.W2 * H.row(0).transpose();
    a2.noalias() = H * u;
    fw.selected2[i] = softmaxInto(a2, s, fw.residual2[i]);
    fw.softmax2.row(i) = s.transpose();
    fw.output[i] = p.v.dot(H.transpose() * s);
    total += lossValue(loss_, data_.Y[i] * fw.output[i]);
  }
  fw.loss = total / n;
  return fw;
}

double TwoLayerModel::loss(const TwoLayerParams& p) const { return forward(p).loss; }

void TwoLayerModel::gradient(const TwoLayerParams& p, TwoLayerGradient& out) const {
  checkParams(p);
  const int n = data_.n, T = data_.T;
  const Index d = data_.d;
  out.W1.setZero(d, d);
  out.W2.setZero(d, d);
  out.v.setZero(d);
  Mat A1(T, T), S1(T, T), H(T, d), dH(T, d), dA1(T, T);
  Vec s2(T), a2(T), u(d), r(d), ds(T), da(T), q(d);
  std::vector<int> alpha1(T);
  double total = 0.0, residual = 0.0;
  for (int i = 0; i < n; ++i) {
    const auto X = data_.tokens(i);
    // Forward (as in forward(), keeping what the backward pass needs).
    A1.noalias() = X * p.W1 * X.transpose();
    for (int k = 0; k < T; ++k) alpha1[k] = softmaxInto(A1.col(k), S1.col(k), residual);
    H.noalias() = S1.transpose() * X;
    q = H.row(0).transpose();
    u.noalias() = p.W2 * q;
    a2.noalias() = H * u;
    const int alpha2 = softmaxInto(a2, s2, residual);
    r.noalias() = H.transpose() * s2;
    const double y = data_.Y[i], f = p.v.dot(r);
    total += lossValue(loss_, y * f);
    // l' < 0 for every loss here: l'(u) = -exp(log|l'(u)|).
    const double g = -pmath::exp(logAbsLossDerivative(loss_, y * f)) * y / n;
    // Head and layer 2.
    out.v.noalias() += g * r;
    dH.noalias() = s2 * (g * p.v).transpose();
    ds.noalias() = H * (g * p.v);
    softmaxBackward(s2, ds, alpha2, da);
    dH.noalias() += da * u.transpose();
    const Vec Hda = H.transpose() * da;
    out.W2.noalias() += Hda * q.transpose();
    dH.row(0).noalias() += (p.W2.transpose() * Hda).transpose();
    // Layer 1: column k of dA1 from dh_k = row k of dH.
    for (int k = 0; k < T; ++k) {
      ds.noalias() = X * dH.row(k).transpose();
      softmaxBackward(S1.col(k), ds, alpha1[k], dA1.col(k));
    }
    out.W1.noalias() += X.transpose() * dA1 * X;
  }
  out.loss = total / n;
}

}  // namespace attnsvm
