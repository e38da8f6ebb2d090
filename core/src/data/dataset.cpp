// Validation and token scores of a Dataset (SPEC section 1).
#include "attnsvm/data/dataset.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include "base/text.hpp"

#include "attnsvm/base/errors.hpp"
#include "cold.hpp"

ATTNSVM_COLD_BEGIN  // cold code: optimized for size in wasm (core/hints/cold.hpp)
    namespace attnsvm {
  namespace {

  std::string describeNonFinite(double x) { return std::isnan(x) ? "NaN" : "infinite"; }

  [[noreturn]] void fail(const std::string& message) { throw InputError(message); }

  void checkSizes(const Dataset& data) {
    if (data.n < 1) fail("n = " + std::to_string(data.n) + ": need at least one sequence");
    if (data.T < 1)
      fail("T = " + std::to_string(data.T) + ": need at least one token per sequence");
    if (data.d < 1) fail("d = " + std::to_string(data.d) + ": need dimension d >= 1");
    const Index rows = static_cast<Index>(data.n) * data.T;
    if (data.X.rows() != rows || data.X.cols() != data.d) {
      detail::Text os;
      os << "X is " << data.X.rows() << " x " << data.X.cols() << ", expected (n*T) x d = " << rows
         << " x " << data.d;
      fail(os.str());
    }
    if (data.Y.size() != data.n)
      fail("Y has " + std::to_string(data.Y.size()) +
           " labels, expected n = " + std::to_string(data.n));
    if (data.v.size() != data.d)
      fail("v has " + std::to_string(data.v.size()) +
           " entries, expected d = " + std::to_string(data.d));
  }

  void checkTokens(const Dataset& data) {
    for (int i = 0; i < data.n; ++i)
      for (int t = 0; t < data.T; ++t)
        for (int k = 0; k < data.d; ++k) {
          const double x = data.X(static_cast<Index>(i) * data.T + t, k);
          if (!std::isfinite(x)) {
            detail::Text os;
            os << "X[" << i << "][" << t << "][" << k << "] (sequence " << i << ", token " << t
               << ", coordinate " << k << ") is " << describeNonFinite(x);
            fail(os.str());
          }
        }
  }

  void checkLabelsAndHead(const Dataset& data) {
    for (int i = 0; i < data.n; ++i) {
      const double y = data.Y[i];
      if (!std::isfinite(y)) fail("Y[" + std::to_string(i) + "] is " + describeNonFinite(y));
      // Labels are +-1 in the papers; any nonzero finite value is usable (it scales the margin),
      // but 0 would make the sequence carry no information and its sign undefined.
      if (y == 0.0) fail("Y[" + std::to_string(i) + "] is 0; labels must be nonzero (+1 or -1)");
    }
    for (int k = 0; k < data.d; ++k)
      if (!std::isfinite(data.v[k]))
        fail("v[" + std::to_string(k) + "] is " + describeNonFinite(data.v[k]));
  }

  void checkCrossQueries(const Dataset& data) {
    if (data.Z.rows() != data.n || data.Z.cols() != data.d) {
      detail::Text os;
      os << "Z is " << data.Z.rows() << " x " << data.Z.cols() << ", expected n x d = " << data.n
         << " x " << data.d << " (one cross-attention query per sequence)";
      fail(os.str());
    }
    for (int i = 0; i < data.n; ++i) {
      for (int k = 0; k < data.d; ++k)
        if (!std::isfinite(data.Z(i, k))) {
          detail::Text os;
          os << "Z[" << i << "][" << k << "] (query of sequence " << i << ", coordinate " << k
             << ") is " << describeNonFinite(data.Z(i, k));
          fail(os.str());
        }
      // A zero query gives the same score to every token whatever W is: nothing can be learned.
      if (data.Z.row(i).squaredNorm() == 0.0)
        fail("Z row " + std::to_string(i) + " has zero norm (query of sequence " +
             std::to_string(i) + "): attention cannot depend on W");
    }
  }

  void checkSelfQuery(const Dataset& data) {
    if (data.query < 0 || data.query >= data.T)
      fail("query = " + std::to_string(data.query) + " is out of range 0.." +
           std::to_string(data.T - 1));
    for (int i = 0; i < data.n; ++i)
      if (data.token(i, data.query).squaredNorm() == 0.0)
        fail("query token X[" + std::to_string(i) + "][" + std::to_string(data.query) +
             "] (sequence " + std::to_string(i) + ") has zero norm: attention cannot depend on W");
  }

  void checkSelection(const Dataset& data) {
    if (data.alpha.empty()) return;
    if (static_cast<int>(data.alpha.size()) != data.n)
      fail("alpha has " + std::to_string(data.alpha.size()) +
           " entries, expected n = " + std::to_string(data.n) + " (or none)");
    for (int i = 0; i < data.n; ++i)
      if (data.alpha[i] < 0 || data.alpha[i] >= data.T)
        fail("alpha[" + std::to_string(i) + "] = " + std::to_string(data.alpha[i]) +
             " is out of range 0.." + std::to_string(data.T - 1));
  }

  }  // namespace

  void validate(const Dataset& data, AttentionKind kind) {
    checkSizes(data);
    checkTokens(data);
    checkLabelsAndHead(data);
    if (kind == AttentionKind::Cross) checkCrossQueries(data);
    if (kind == AttentionKind::Self) checkSelfQuery(data);
    // Seq2seq / causal: every token is a query; zero tokens are allowed there (they attend
    // uniformly), so only the sizes and finiteness above apply.
    checkSelection(data);
  }

  Mat tokenScores(const Dataset& data) {
    Mat gamma(data.n, data.T);
    for (int i = 0; i < data.n; ++i) {
      const Vec c = data.tokens(i) * data.v;
      gamma.row(i) = data.Y[i] * c.transpose();
    }
    return gamma;
  }

  OptimalTokens optimalTokens(const Dataset& data, double tieTol) {
    const Mat gamma = tokenScores(data);
    OptimalTokens out;
    out.opt.resize(data.n);
    out.ties.resize(data.n);
    for (int i = 0; i < data.n; ++i) {
      Index best = 0;
      gamma.row(i).maxCoeff(&best);  // first maximum
      const double top = gamma(i, best);
      const double tol = tieTol * std::max(1.0, std::abs(top));
      out.opt[i] = static_cast<int>(best);
      for (int t = 0; t < data.T; ++t)
        if (std::abs(gamma(i, t) - top) <= tol) out.ties[i].push_back(t);
    }
    return out;
  }

  AttentionKind defaultAttention(const Dataset& data) {
    return data.Z.size() > 0 ? AttentionKind::Cross : AttentionKind::Self;
  }

  std::vector<int> defaultSelection(const Dataset& data, AttentionKind kind) {
    if (kind == AttentionKind::Cross || kind == AttentionKind::Self)
      return data.alpha.empty() ? optimalTokens(data).opt : data.alpha;
    const Mat gamma = tokenScores(data);
    std::vector<int> units;
    units.reserve(static_cast<std::size_t>(data.n) * data.T);
    for (int i = 0; i < data.n; ++i)
      for (int k = 0; k < data.T; ++k) {
        const int tau = kind == AttentionKind::Causal ? k + 1 : data.T;
        Index best = 0;
        gamma.row(i).head(tau).maxCoeff(&best);
        units.push_back(static_cast<int>(best));
      }
    return units;
  }

}  // namespace attnsvm
ATTNSVM_COLD_END
