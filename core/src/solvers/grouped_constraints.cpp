// GroupedConstraints: the W-space operators of rank-one constraints grouped by their shared w
// (grouped_constraints.hpp). The loops over a group's rows are written out: a group has a few dozen
// rows of a few dozen entries, where a library call per group costs more than its arithmetic.
#include "solvers/grouped_constraints.hpp"

#include <algorithm>
#include <map>

#include "solvers/lanes.hpp"

namespace attnsvm {
namespace detail {
namespace {

// The kernel of gram(): Gs (C2 x R2) = P^T Q over the groups, hand-blocked because Eigen 3.4 has
// no WebAssembly SIMD GEMM (without SSE2 it multiplies scalars there): a kRowBlock x kColBlock tile
// of Gs in two-lane vectors (lanes.hpp), from P and Q packed panel by panel so that every step of
// the depth loop reads two contiguous rows.
// A tile is square (the S_g of gram() are built from tiles too); 4 x 4 (eight two-lane
// accumulators) was the fastest natively and in wasm, against 4 x 6, 6 x 4, 8 x 4 and 2 x 8.
constexpr Index kRowBlock = 4;  // rows of a tile (entries of P, broadcast)
constexpr Index kColLanes = 2;  // two-lane vectors per tile row (entries of Q)
constexpr Index kColBlock = 2 * kColLanes;
constexpr Index kTile = kRowBlock;
static_assert(kColBlock == kRowBlock, "square tiles");
constexpr Index kDepth = 256;  // groups per pass over the tiles

Index panels(Index n, Index block) { return (n + block - 1) / block; }
// Entry (group g, column k) of a matrix packed in panels of `block` columns, each panel G rows of
// `block` contiguous entries.
std::size_t packed(Index k, Index g, Index G, Index block) {
  return static_cast<std::size_t>(((k / block) * G + g) * block + k % block);
}

// out (kRowBlock x kColBlock, leading dimension ld) += sum_{k < depth} p_k q_k^T, where p_k =
// p[k sp .. k sp + kRowBlock) and q_k = q[k sq .. k sq + kColBlock).
void gemmTile(const double* p, Index sp, const double* q, Index sq, Index depth, double* out,
              Index ld) {
  Lanes acc[kRowBlock][kColLanes];
  ATTNSVM_UNROLL for (Index i = 0; i < kRowBlock; ++i)
      ATTNSVM_UNROLL for (Index v = 0; v < kColLanes; ++v) acc[i][v] = splat(0.0);
  for (Index k = 0; k < depth; ++k, p += sp, q += sq) {
    Lanes qv[kColLanes];
    ATTNSVM_UNROLL for (Index v = 0; v < kColLanes; ++v) qv[v] = load(q + 2 * v);
    ATTNSVM_UNROLL for (Index i = 0; i < kRowBlock; ++i) {
      const Lanes pv = splat(p[i]);
      ATTNSVM_UNROLL for (Index v = 0; v < kColLanes; ++v) acc[i][v] += pv * qv[v];
    }
  }
  ATTNSVM_UNROLL for (Index i = 0; i < kRowBlock; ++i)
      ATTNSVM_UNROLL for (Index v = 0; v < kColLanes; ++v) {
    double* o = out + i * ld + 2 * v;
    Lanes sum = load(o);
    sum += acc[i][v];
    store(o, sum);
  }
}

// sum_r u[r] t[r] over rp (even) entries.
double dot(const double* u, const double* t, Index rp) {
  Lanes acc = splat(0.0);
  for (Index r = 0; r < rp; r += 2) acc += load(u + r) * load(t + r);
  return lane(acc, 0) + lane(acc, 1);
}

// Mp (rp x cols, column-major) += acc w^T, w = row g of Wg (rp even).
void addOuter(double* Mp, Index rp, const double* acc, const Mat& Wg, Index g) {
  for (Index col = 0; col < Wg.cols(); ++col) {
    const Lanes w = splat(Wg(g, col));
    double* Mc = Mp + col * rp;
    for (Index r = 0; r < rp; r += 2) {
      Lanes v = load(Mc + r);
      v += w * load(acc + r);
      store(Mc + r, v);
    }
  }
}

// acc (rp) = sum_{i < size} y[i] u_i, u_i the rows u0 + i rp (rp a multiple of 4): four entries of
// acc at a time, in two registers, over the rows.
void combineRows(const double* u0, Index rp, const double* y, Index size, double* acc) {
  for (Index r = 0; r < rp; r += 4) {
    Lanes a0 = splat(0.0), a1 = splat(0.0);
    const double* u = u0 + r;
    for (Index i = 0; i < size; ++i, u += rp) {
      const Lanes yi = splat(y[i]);
      a0 += yi * load(u);
      a1 += yi * load(u + 2);
    }
    store(acc + r, a0);
    store(acc + r + 2, a1);
  }
}

// Wp (rp x cols, column-major, zero in the padding) = W.
std::vector<double> padded(const ConstMatRef& W, Index rp) {
  std::vector<double> Wp(static_cast<std::size_t>(rp * W.cols()), 0.0);
  for (Index col = 0; col < W.cols(); ++col)
    for (Index r = 0; r < W.rows(); ++r) Wp[static_cast<std::size_t>(col * rp + r)] = W(r, col);
  return Wp;
}

// t (rp) = W w, w = row g of Wg, from W padded (Wp).
void timesW(const std::vector<double>& Wp, Index rp, const Mat& Wg, Index g, double* t) {
  for (Index r = 0; r < rp; r += 2) {
    Lanes s = splat(0.0);
    for (Index col = 0; col < Wg.cols(); ++col)
      s += splat(Wg(g, col)) * load(&Wp[static_cast<std::size_t>(col * rp + r)]);
    store(t + r, s);
  }
}

// M (rows x cols) = the first rows of Mp (rp x cols, column-major).
void unpad(const std::vector<double>& Mp, Index rp, int rows, int cols, Mat& M) {
  M.resize(rows, cols);
  for (int col = 0; col < cols; ++col)
    for (int r = 0; r < rows; ++r) M(r, col) = Mp[static_cast<std::size_t>(col * rp + r)];
}

}  // namespace

GroupedConstraints::GroupedConstraints(const MarginProblem& pb, const std::vector<Index>& rows,
                                       const Vec& scale)
    : R_(pb.rows), C_(pb.cols) {
  std::vector<Index> list = rows;
  if (list.empty())
    for (Index j = 0; j < pb.b.size(); ++j) list.push_back(j);
  m_ = static_cast<Index>(list.size());
  // Group by equal w. The constraints of one sequence are consecutive in every builder, so a run
  // of equal rows joins the previous group without a lookup.
  std::map<std::vector<double>, Index> where;
  group_.assign(static_cast<std::size_t>(m_), 0);
  std::vector<double> key(static_cast<std::size_t>(C_));
  for (Index k = 0; k < m_; ++k) {
    const Index j = list[static_cast<std::size_t>(k)];
    if (k > 0 && pb.Wq.row(j) == pb.Wq.row(list[static_cast<std::size_t>(k - 1)])) {
      group_[static_cast<std::size_t>(k)] = group_[static_cast<std::size_t>(k - 1)];
      continue;
    }
    for (int c = 0; c < C_; ++c) key[static_cast<std::size_t>(c)] = pb.Wq(j, c);
    auto it = where.find(key);
    if (it == where.end()) it = where.emplace(key, static_cast<Index>(where.size())).first;
    group_[static_cast<std::size_t>(k)] = it->second;
  }
  const Index G = static_cast<Index>(where.size());
  start_.assign(static_cast<std::size_t>(G + 1), 0);
  for (Index k = 0; k < m_; ++k)
    ++start_[static_cast<std::size_t>(group_[static_cast<std::size_t>(k)] + 1)];
  for (Index g = 0; g < G; ++g)
    start_[static_cast<std::size_t>(g + 1)] += start_[static_cast<std::size_t>(g)];
  pos_.assign(static_cast<std::size_t>(m_), 0);
  std::vector<Index> fill(start_.begin(), start_.end() - 1);
  Rp_ = panels(R_, kTile) * kTile;
  U_.setZero(m_, Rp_);
  Wg_.resize(G, C_);
  norms_.resize(m_);
  for (Index k = 0; k < m_; ++k) {
    const Index g = group_[static_cast<std::size_t>(k)];
    const Index row = fill[static_cast<std::size_t>(g)]++;
    const Index j = list[static_cast<std::size_t>(k)];
    pos_[static_cast<std::size_t>(row)] = k;
    U_.row(row).head(R_) = (scale.size() ? scale(k) : 1.0) * pb.U.row(j);
    Wg_.row(g) = pb.Wq.row(j);
    norms_(k) = U_.row(row).norm() * pb.Wq.row(j).norm();
  }
  // P: products w_g[c] w_g[c'] for c <= c' (column index of the pair: its position in the upper
  // triangle, column by column), packed for the kernel (zero in the padding).
  const Index C2 = static_cast<Index>(C_) * (C_ + 1) / 2;
  Pp_.assign(static_cast<std::size_t>(panels(C2, kRowBlock) * kRowBlock * G), 0.0);
  for (Index g = 0; g < G; ++g) {
    Index k = 0;
    for (int c2 = 0; c2 < C_; ++c2)
      for (int c1 = 0; c1 <= c2; ++c1, ++k)
        Pp_[packed(k, g, G, kRowBlock)] = Wg_(g, c1) * Wg_(g, c2);
  }
}

// values() and adjoint() run several times per interior-point iteration (the residuals, every
// Newton direction): in two-lane vectors over the padded rows (Rp_ entries, a multiple of 4), W
// and the per-group sums held padded so that no loop has a scalar tail.
void GroupedConstraints::values(const ConstMatRef& W, Vec& c) const {
  c.resize(m_);
  const std::vector<double> Wp = padded(W, Rp_);
  std::vector<double> t(static_cast<std::size_t>(Rp_));  // W w_g
  for (Index g = 0; g < groups(); ++g) {
    timesW(Wp, Rp_, Wg_, g, t.data());
    for (Index row = start_[static_cast<std::size_t>(g)];
         row < start_[static_cast<std::size_t>(g + 1)]; ++row)
      c(pos_[static_cast<std::size_t>(row)]) = dot(U_.row(row).data(), t.data(), Rp_);
  }
}

void GroupedConstraints::adjoint(const Vec& y, Mat& M) const {
  // Mp (Rp x cols, padded) accumulates the rank-one terms acc_g w_g^T, acc_g = sum_{k in g} y_k
  // u_k.
  std::vector<double> Mp(static_cast<std::size_t>(Rp_ * C_), 0.0), yg,
      acc(static_cast<std::size_t>(Rp_));
  for (Index g = 0; g < groups(); ++g) {
    const Index first = start_[static_cast<std::size_t>(g)];
    const Index size = start_[static_cast<std::size_t>(g + 1)] - first;
    yg.resize(static_cast<std::size_t>(size));
    for (Index i = 0; i < size; ++i)
      yg[static_cast<std::size_t>(i)] = y(pos_[static_cast<std::size_t>(first + i)]);
    combineRows(U_.row(first).data(), Rp_, yg.data(), size, acc.data());
    addOuter(Mp.data(), Rp_, acc.data(), Wg_, g);
  }
  unpad(Mp, Rp_, R_, C_, M);
}

void GroupedConstraints::valuesAndAdjoint(const ConstMatRef& W, Vec& c, const Vec& y,
                                          Mat& M) const {
  c.resize(m_);
  const std::vector<double> Wp = padded(W, Rp_);
  std::vector<double> t(static_cast<std::size_t>(Rp_)), acc(static_cast<std::size_t>(Rp_));
  std::vector<double> Mp(static_cast<std::size_t>(Rp_ * C_), 0.0);
  for (Index g = 0; g < groups(); ++g) {
    timesW(Wp, Rp_, Wg_, g, t.data());
    std::fill(acc.begin(), acc.end(), 0.0);
    for (Index row = start_[static_cast<std::size_t>(g)];
         row < start_[static_cast<std::size_t>(g + 1)]; ++row) {
      const double* u = U_.row(row).data();
      const Index k = pos_[static_cast<std::size_t>(row)];
      c(k) = dot(u, t.data(), Rp_);
      const Lanes yk = splat(y(k));
      for (Index r = 0; r < Rp_; r += 2) {
        Lanes v = load(&acc[static_cast<std::size_t>(r)]);
        v += yk * load(u + r);
        store(&acc[static_cast<std::size_t>(r)], v);
      }
    }
    addOuter(Mp.data(), Rp_, acc.data(), Wg_, g);
  }
  unpad(Mp, Rp_, R_, C_, M);
}

void GroupedConstraints::groupSums(const Vec& x, Vec& out) const {
  out.setZero(groups());
  for (Index k = 0; k < m_; ++k) out(group_[static_cast<std::size_t>(k)]) += x(k);
}

void GroupedConstraints::gram(const Vec& d, Mat& H, const std::vector<char>* include, Mat* dSum) {
  const Index G = groups(), R2 = static_cast<Index>(R_) * (R_ + 1) / 2;
  const Index C2 = static_cast<Index>(C_) * (C_ + 1) / 2;
  const Index rowPanels = panels(C2, kRowBlock), colPanels = panels(R2, kColBlock);
  const std::size_t qSize = static_cast<std::size_t>(colPanels * kColBlock * G);
  if (Qp_.size() != qSize) Qp_.assign(qSize, 0.0);  // the padding stays zero
  // Q, packed: the upper triangle of S_g = V_g^T U_g (V_g = diag(d) U_g: the group's rows of U
  // scaled by d), column by column (r1 <= r2), from the tiles of S_g on and above the diagonal.
  const Index blocks = Rp_ / kTile;
  sg_.resize(static_cast<std::size_t>(Rp_ * Rp_));
  std::vector<double> sumP, acc;  // dSum padded (Rp x cols) and one group's sum_k d_k u_k
  std::vector<double> dg;         // the group's d_k
  if (dSum) {
    sumP.assign(static_cast<std::size_t>(Rp_ * C_), 0.0);
    acc.resize(static_cast<std::size_t>(Rp_));
  }
  for (Index g = 0; g < G; ++g) {
    const Index first = start_[static_cast<std::size_t>(g)];
    const Index size = start_[static_cast<std::size_t>(g + 1)] - first;
    std::fill(sg_.begin(), sg_.end(), 0.0);
    if (!include || (*include)[static_cast<std::size_t>(g)]) {
      vg_.resize(size, Rp_);
      dg.resize(static_cast<std::size_t>(size));
      for (Index i = 0; i < size; ++i) {
        dg[static_cast<std::size_t>(i)] = d(pos_[static_cast<std::size_t>(first + i)]);
        vg_.row(i) = dg[static_cast<std::size_t>(i)] * U_.row(first + i);
      }
      if (dSum) {  // adjoint(d)'s term of this group
        combineRows(U_.row(first).data(), Rp_, dg.data(), size, acc.data());
        addOuter(sumP.data(), Rp_, acc.data(), Wg_, g);
      }
      for (Index a = 0; a < blocks; ++a)
        for (Index b = a; b < blocks; ++b)
          gemmTile(vg_.data() + a * kTile, Rp_, U_.row(first).data() + b * kTile, Rp_, size,
                   &sg_[static_cast<std::size_t>(a * kTile * Rp_ + b * kTile)], Rp_);
    }
    Index k = 0;
    for (int r2 = 0; r2 < R_; ++r2)
      for (int r1 = 0; r1 <= r2; ++r1, ++k)
        Qp_[packed(k, g, G, kColBlock)] = sg_[static_cast<std::size_t>(r1 * Rp_ + r2)];
  }
  // Gs = P^T Q (C2 x R2, row-major with leading dimension colPanels kColBlock), by blocks of
  // kDepth groups so that a panel of P and the panels of Q it meets stay in cache.
  const Index ld = colPanels * kColBlock;
  Gs_.assign(static_cast<std::size_t>(rowPanels * kRowBlock * ld), 0.0);
  for (Index g0 = 0; g0 < G; g0 += kDepth) {
    const Index depth = std::min(kDepth, G - g0);
    for (Index a = 0; a < rowPanels; ++a)
      for (Index b = 0; b < colPanels; ++b)
        gemmTile(&Pp_[packed(a * kRowBlock, g0, G, kRowBlock)], kRowBlock,
                 &Qp_[packed(b * kColBlock, g0, G, kColBlock)], kColBlock, depth,
                 &Gs_[static_cast<std::size_t>(a * kRowBlock * ld + b * kColBlock)], ld);
  }
  if (dSum) unpad(sumP, Rp_, R_, C_, *dSum);
  const Index n = static_cast<Index>(R_) * C_;
  H.resize(n, n);
  auto pair = [](int a, int b) {  // position of (min, max) in the upper triangle, column-major
    const int lo = a < b ? a : b, hi = a < b ? b : a;
    return static_cast<Index>(hi) * (hi + 1) / 2 + lo;
  };
  for (int c2 = 0; c2 < C_; ++c2)
    for (int c1 = 0; c1 < C_; ++c1) {
      const double* gs = &Gs_[static_cast<std::size_t>(pair(c1, c2) * ld)];
      for (int r2 = 0; r2 < R_; ++r2)
        for (int r1 = 0; r1 < R_; ++r1)
          H(r1 + static_cast<Index>(R_) * c1, r2 + static_cast<Index>(R_) * c2) = gs[pair(r1, r2)];
    }
}

}  // namespace detail
}  // namespace attnsvm
