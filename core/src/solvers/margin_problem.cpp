// Builders of the max-margin problems of SPEC section 3 in the general rank-one form of
// margin.hpp. Every constraint is <u_j w_j^T, W> >= b_j; the labels keep (sequence, query, token)
// so that supports and infeasibility explanations can name tokens.
#include <cmath>
#include <string>

#include "attnsvm/base/errors.hpp"
#include "attnsvm/solvers/margin.hpp"
#include "cold.hpp"
#include "solvers/solvers_internal.hpp"
#include "solvers/wire_names.hpp"

ATTNSVM_COLD_BEGIN  // cold code: optimized for size in wasm (core/hints/cold.hpp)
    namespace attnsvm {
  namespace {

  std::string str(long long v) { return std::to_string(v); }

  // Own checks (not validate(): the builders need only the fields they use, and must name them).
  void checkShape(const Dataset& data) {
    if (data.n <= 0)
      throw InputError("n = " + str(data.n) + " must be positive (empty set of sequences)");
    if (data.T <= 0) throw InputError("T = " + str(data.T) + " must be positive (empty sequences)");
    if (data.d <= 0) throw InputError("d = " + str(data.d) + " must be positive");
    if (data.X.rows() != static_cast<Index>(data.n) * data.T || data.X.cols() != data.d)
      throw InputError("X has shape " + str(data.X.rows()) + " x " + str(data.X.cols()) +
                       ", expected (n*T) x d = " + str(static_cast<long long>(data.n) * data.T) +
                       " x " + str(data.d));
    for (int i = 0; i < data.n; ++i)
      for (int t = 0; t < data.T; ++t)
        for (int k = 0; k < data.d; ++k)
          if (!std::isfinite(data.X(static_cast<Index>(i) * data.T + t, k)))
            throw InputError("X[" + str(i) + "][" + str(t) + "][" + str(k) + "] is not finite");
  }

  void checkQueries(const Dataset& data, AttentionKind kind) {
    if (kind == AttentionKind::Cross) {
      if (data.Z.rows() != data.n || data.Z.cols() != data.d)
        throw InputError("Z has shape " + str(data.Z.rows()) + " x " + str(data.Z.cols()) +
                         ", expected n x d = " + str(data.n) + " x " + str(data.d));
      for (int i = 0; i < data.n; ++i)
        for (int k = 0; k < data.d; ++k)
          if (!std::isfinite(data.Z(i, k)))
            throw InputError("Z[" + str(i) + "][" + str(k) + "] is not finite");
    } else if (kind == AttentionKind::Self) {
      if (data.query < 0 || data.query >= data.T)
        throw InputError("query = " + str(data.query) + " is out of range 0.." + str(data.T - 1));
    }
  }

  void checkSelection(const std::vector<int>& selection, std::size_t expected, int T,
                      const char* what) {
    if (selection.size() != expected)
      throw InputError(std::string(what) + " has " + str(static_cast<long long>(selection.size())) +
                       " entries, expected " + str(static_cast<long long>(expected)));
    for (std::size_t i = 0; i < selection.size(); ++i)
      if (selection[i] < 0 || selection[i] >= T)
        throw InputError(std::string(what) + "[" + str(static_cast<long long>(i)) +
                         "] = " + str(selection[i]) + " is out of range 0.." + str(T - 1));
  }

  void checkLabels(const Dataset& data) {
    if (data.Y.size() != data.n)
      throw InputError("Y has " + str(data.Y.size()) + " entries, expected n = " + str(data.n));
    for (int i = 0; i < data.n; ++i)
      if (!std::isfinite(data.Y(i))) throw InputError("Y[" + str(i) + "] is not finite");
  }

  void checkKey(const Dataset& data, const Mat& Wk) {
    if (Wk.rows() <= 0 || Wk.cols() != data.d)
      throw InputError("Wk has shape " + str(Wk.rows()) + " x " + str(Wk.cols()) +
                       ", expected k x d with d = " + str(data.d));
    for (Index r = 0; r < Wk.rows(); ++r)
      for (Index c = 0; c < Wk.cols(); ++c)
        if (!std::isfinite(Wk(r, c)))
          throw InputError("Wk[" + str(r) + "][" + str(c) + "] is not finite");
  }

  // Rows are appended into preallocated U / Wq; `count` is the number written so far.
  struct Builder {
    MarginProblem pb;
    Index count = 0;
    Builder(int rows, int cols, Index capacity) {
      pb.rows = rows;
      pb.cols = cols;
      pb.U.resize(capacity, rows);
      pb.Wq.resize(capacity, cols);
      pb.b.resize(capacity);
      pb.equality.reserve(static_cast<std::size_t>(capacity));
      pb.label.reserve(static_cast<std::size_t>(capacity));
    }
    template <class UExpr, class WExpr>
    void add(const UExpr& u, const WExpr& w, double rhs, ConstraintLabel label, bool eq = false) {
      pb.U.row(count) = u;
      pb.Wq.row(count) = w;
      pb.b(count) = rhs;
      pb.equality.push_back(eq);
      pb.label.push_back(label);
      ++count;
    }
    MarginProblem finish() {
      pb.U.conservativeResize(count, pb.rows);
      pb.Wq.conservativeResize(count, pb.cols);
      pb.b.conservativeResize(count);
      return std::move(pb);
    }
  };

  }  // namespace

  MarginProblem attentionSvmProblem(const Dataset& data, AttentionKind kind,
                                    const std::vector<int>& selection) {
    checkShape(data);
    checkQueries(data, kind);
    const int n = data.n, T = data.T, d = data.d;
    if (kind == AttentionKind::Cross || kind == AttentionKind::Self) {
      checkSelection(selection, static_cast<std::size_t>(n), T, "alpha");
      Builder bld(d, d, static_cast<Index>(n) * (T - 1));
      for (int i = 0; i < n; ++i) {
        const int a = selection[static_cast<std::size_t>(i)];
        const Vec z = kind == AttentionKind::Cross ? Vec(data.Z.row(i).transpose())
                                                   : Vec(data.token(i, data.query).transpose());
        for (int t = 0; t < T; ++t) {
          if (t == a) continue;
          bld.add(data.token(i, a) - data.token(i, t), z.transpose(), 1.0, {i, -1, t, -1, a});
        }
      }
      return bld.finish();
    }
    // Sequence-to-sequence / causal: unit (i, k) is entry i*T + k of the selection.
    const bool causal = kind == AttentionKind::Causal;
    checkSelection(selection, static_cast<std::size_t>(n) * static_cast<std::size_t>(T), T,
                   "alpha");
    if (causal)
      for (int i = 0; i < n; ++i)
        for (int k = 0; k < T; ++k) {
          const int a = selection[static_cast<std::size_t>(i) * T + k];
          if (a > k)
            throw InputError("alpha[" + str(static_cast<long long>(i) * T + k) + "] = " + str(a) +
                             " (sequence " + str(i) + ", query " + str(k) +
                             ") is out of the causal range 0.." + str(k));
        }
    const Index capacity =
        causal ? static_cast<Index>(n) * T * (T - 1) / 2 : static_cast<Index>(n) * T * (T - 1);
    Builder bld(d, d, capacity);
    for (int i = 0; i < n; ++i)
      for (int k = 0; k < T; ++k) {
        const int a = selection[static_cast<std::size_t>(i) * T + k];
        const int last = causal ? k : T - 1;  // causal query k attends to t <= k only
        for (int t = 0; t <= last; ++t) {
          if (t == a) continue;
          bld.add(data.token(i, a) - data.token(i, t), data.token(i, k), 1.0, {i, k, t, -1, a});
        }
      }
    return bld.finish();
  }

  MarginProblem promptSvmProblem(const Dataset& data, const Mat& Wk,
                                 const std::vector<int>& selection) {
    checkShape(data);
    checkKey(data, Wk);
    checkSelection(selection, static_cast<std::size_t>(data.n), data.T, "alpha");
    const int n = data.n, T = data.T;
    Builder bld(static_cast<int>(Wk.rows()), 1, static_cast<Index>(n) * (T - 1));
    Eigen::Matrix<double, 1, 1> one;
    one(0, 0) = 1.0;
    for (int i = 0; i < n; ++i) {
      const int a = selection[static_cast<std::size_t>(i)];
      for (int t = 0; t < T; ++t) {
        if (t == a) continue;
        const Vec u = Wk * (data.token(i, a) - data.token(i, t)).transpose();
        bld.add(u.transpose(), one, 1.0, {i, -1, t, -1, a});
      }
    }
    return bld.finish();
  }

  MarginProblem headSvmProblem(const Dataset& data, const std::vector<int>& selection) {
    checkShape(data);
    checkLabels(data);
    checkSelection(selection, static_cast<std::size_t>(data.n), data.T, "alpha");
    Builder bld(data.d, 1, data.n);
    Eigen::Matrix<double, 1, 1> one;
    one(0, 0) = 1.0;
    for (int i = 0; i < data.n; ++i) {
      const int a = selection[static_cast<std::size_t>(i)];
      bld.add(data.Y(i) * data.token(i, a), one, 1.0, {i, -1, a, -1, a});
    }
    return bld.finish();
  }

  MarginProblem relaxedPromptSvmProblem(const Dataset& data, const Mat& Wk,
                                        const std::vector<int>& selection,
                                        const std::vector<int>& headSupportSequences) {
    MarginProblem pb = promptSvmProblem(data, Wk, selection);
    std::vector<bool> isSupport(static_cast<std::size_t>(data.n), false);
    for (std::size_t s = 0; s < headSupportSequences.size(); ++s) {
      const int i = headSupportSequences[s];
      if (i < 0 || i >= data.n)
        throw InputError("headSupportSequences[" + str(static_cast<long long>(s)) +
                         "] = " + str(i) + " is out of range 0.." + str(data.n - 1));
      isSupport[static_cast<std::size_t>(i)] = true;
    }
    for (int j = 0; j < pb.constraints(); ++j)
      if (!isSupport[static_cast<std::size_t>(pb.label[static_cast<std::size_t>(j)].sequence)])
        pb.b(j) = 0.0;
    return pb;
  }

  AttentionKind attentionOf(const SolveRequest& request) {
    return request.attention.value_or(defaultAttention(request.dataset));
  }

  std::vector<int> selectionOf(const SolveRequest& request) {
    if (!request.selection.empty()) return request.selection;
    // per (sequence, query) unit only for the attention problem of seq2seq / causal attention
    return defaultSelection(request.dataset, request.problem == SvmProblemKind::Attention
                                                 ? attentionOf(request)
                                                 : AttentionKind::Cross);
  }

  MarginProblem svmProblem(const SolveRequest& request) {
    const Dataset& d = request.dataset;
    if (request.problem == SvmProblemKind::Attention) {
      const AttentionKind kind = attentionOf(request);
      validate(d, kind);
      return attentionSvmProblem(d, kind, selectionOf(request));
    }
    validate(d,
             AttentionKind::SeqToSeq);  // prompt/head problems use no query: sizes and finiteness
    if (request.problem == SvmProblemKind::Head) return headSvmProblem(d, selectionOf(request));
    if (request.Wk.size() == 0)
      throw InputError(std::string("the ") + toString(request.problem) +
                       " problem needs the key matrix Wk");
    if (request.problem == SvmProblemKind::Prompt)
      return promptSvmProblem(d, request.Wk, selectionOf(request));
    if (request.headSupport.empty())
      throw InputError(
          "the relaxed-prompt problem needs headSupport (the head SVM's support sequences)");
    return relaxedPromptSvmProblem(d, request.Wk, selectionOf(request), request.headSupport);
  }

  namespace detail {

  void checkProblem(const MarginProblem& pb) {
    const Index m = pb.b.size();
    if (pb.rows <= 0 || pb.cols <= 0)
      throw InputError("problem shape " + str(pb.rows) + " x " + str(pb.cols) +
                       " must be positive");
    if (pb.U.rows() != m || pb.U.cols() != pb.rows)
      throw InputError("problem U has shape " + str(pb.U.rows()) + " x " + str(pb.U.cols()) +
                       ", expected " + str(m) + " x " + str(pb.rows));
    if (pb.Wq.rows() != m || pb.Wq.cols() != pb.cols)
      throw InputError("problem Wq has shape " + str(pb.Wq.rows()) + " x " + str(pb.Wq.cols()) +
                       ", expected " + str(m) + " x " + str(pb.cols));
    if (!pb.equality.empty() && static_cast<Index>(pb.equality.size()) != m)
      throw InputError("problem equality has " + str(static_cast<long long>(pb.equality.size())) +
                       " flags, expected " + str(m));
    if (!pb.label.empty() && static_cast<Index>(pb.label.size()) != m)
      throw InputError("problem label has " + str(static_cast<long long>(pb.label.size())) +
                       " entries, expected " + str(m));
    for (Index j = 0; j < m; ++j) {
      if (!std::isfinite(pb.b(j))) throw InputError("problem b[" + str(j) + "] is not finite");
      if (!pb.U.row(j).allFinite()) throw InputError("problem U row " + str(j) + " is not finite");
      if (!pb.Wq.row(j).allFinite())
        throw InputError("problem Wq row " + str(j) + " is not finite");
    }
  }

  ATTNSVM_COLD_END  // constraintValues, restrictTo and combine run inside the solvers' iterations

      namespace {
    // constraintValues and combine walk the constraints in runs of equal w_j (every builder lists
    // the constraints of one sequence together, and they share its query: T - 1 rows per run in
    // the Att-SVM), so that the rows x cols work is done once per run: O(m rows + runs rows cols)
    // instead of the O(m rows cols) of (U W) and U^T diag(lambda) Wq (a 48,000 x 18 x 18 product
    // at the real-image size, scalar in wasm, in every certificate check). Any row order is
    // correct; a run of one row costs what the product did.
    bool sameW(const MarginProblem& pb, Index j, Index k) { return pb.Wq.row(j) == pb.Wq.row(k); }
    // Below this many constraints Eigen's blocked products win natively (the working sets' small
    // restricted problems, whose runs are short: the walk made the issue-16 l_p medians 25 %
    // slower; with this bound they are 8-10 % faster and Frobenius (m = 210) 17 % faster than the
    // products).
    constexpr Index kRunWalkMinConstraints = 128;
  }  // namespace

  Vec constraintValues(const MarginProblem& pb, const ConstMatRef& W) {
    // c_j = u_j^T (W w_j).
    const Index m = pb.U.rows();
    if (m < kRunWalkMinConstraints) return (pb.U * W).cwiseProduct(pb.Wq).rowwise().sum();
    Vec c(m), t(pb.rows);
    for (Index j = 0; j < m; ++j) {
      if (j == 0 || !sameW(pb, j, j - 1)) t.noalias() = W * pb.Wq.row(j).transpose();
      c(j) = pb.U.row(j).dot(t);
    }
    return c;
  }

  MarginProblem restrictTo(const MarginProblem& pb, const std::vector<Index>& S) {
    MarginProblem sub;
    sub.rows = pb.rows;
    sub.cols = pb.cols;
    const Index k = static_cast<Index>(S.size());
    sub.U.resize(k, pb.rows);
    sub.Wq.resize(k, pb.cols);
    sub.b.resize(k);
    for (Index i = 0; i < k; ++i) {
      const Index j = S[static_cast<std::size_t>(i)];
      sub.U.row(i) = pb.U.row(j);
      sub.Wq.row(i) = pb.Wq.row(j);
      sub.b(i) = pb.b(j);
      sub.equality.push_back(!pb.equality.empty() && pb.equality[static_cast<std::size_t>(j)]);
    }
    return sub;
  }

  Mat combine(const MarginProblem& pb, const ConstVecRef& lambda) {
    // sum_j lambda_j u_j w_j^T = sum over runs of (sum_{j in run} lambda_j u_j) w_run^T.
    const Index m = pb.U.rows();
    if (m < kRunWalkMinConstraints) return pb.U.transpose() * (lambda.asDiagonal() * pb.Wq);
    Mat M = Mat::Zero(pb.rows, pb.cols);
    Vec acc = Vec::Zero(pb.rows);
    for (Index j = 0; j < m; ++j) {
      if (lambda(j) != 0.0) acc.noalias() += lambda(j) * pb.U.row(j).transpose();
      if (j + 1 == m || !sameW(pb, j + 1, j)) {
        M.noalias() += acc * pb.Wq.row(j);
        acc.setZero();
      }
    }
    return M;
  }

  }  // namespace detail
}  // namespace attnsvm
