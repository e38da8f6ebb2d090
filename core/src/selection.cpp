// Token-selection analysis (SPEC section 4): optimal tokens and ties, feasibility, support tokens
// and local optimality of a selection, the verdict on a trained W, and the enumeration of all
// feasible and locally optimal selections (the possible directional limits of gradient descent).
#include <cmath>
#include "text.hpp"

#include "attnsvm/errors.hpp"
#include "attnsvm/selection.hpp"

namespace attnsvm {
namespace {

void checkKind(AttentionKind kind) {
  if (kind != AttentionKind::Cross && kind != AttentionKind::Self)
    throw InputError("selection analysis needs cross or self attention (one selection per sequence)");
}

// gamma_it = Y_i v^T x_it, with checks naming the field.
Mat scores(const Dataset& data) {
  if (data.v.size() != data.d)
    throw InputError("v has " + std::to_string(data.v.size()) + " entries, expected d = " + std::to_string(data.d));
  if (data.Y.size() != data.n)
    throw InputError("Y has " + std::to_string(data.Y.size()) + " entries, expected n = " + std::to_string(data.n));
  for (int k = 0; k < data.d; ++k)
    if (!std::isfinite(data.v(k))) throw InputError("v[" + std::to_string(k) + "] is not finite");
  for (int i = 0; i < data.n; ++i)
    if (!std::isfinite(data.Y(i))) throw InputError("Y[" + std::to_string(i) + "] is not finite");
  Mat g(data.n, data.T);
  for (int i = 0; i < data.n; ++i) g.row(i) = data.Y(i) * (data.tokens(i) * data.v).transpose();
  return g;
}

std::string list(const std::vector<int>& v) {
  detail::Text os;
  for (std::size_t k = 0; k < v.size(); ++k) os << (k ? ", " : "") << v[k];
  return os.str();
}

}  // namespace

const char* toString(Verdict verdict) {
  switch (verdict) {
    case Verdict::GloballyOptimal: return "globally_optimal";
    case Verdict::LocallyOptimal: return "locally_optimal";
    case Verdict::Neither: return "neither";
    case Verdict::Infeasible: return "infeasible";
  }
  return "unknown";
}

SelectionReport analyzeSelection(const Dataset& data, AttentionKind kind,
                                 const std::vector<int>& selection, const SolverSettings& settings) {
  checkKind(kind);
  const MarginProblem pb = attentionSvmProblem(data, kind, selection);  // checks X, Z, selection
  const Mat gamma = scores(data);
  SelectionReport rep;
  rep.selection = selection;
  rep.optimal.resize(static_cast<std::size_t>(data.n));
  rep.ties.resize(static_cast<std::size_t>(data.n));
  bool strictOptimal = true, isOpt = true;
  for (int i = 0; i < data.n; ++i) {
    Index best = 0;
    const double top = gamma.row(i).maxCoeff(&best);
    rep.optimal[static_cast<std::size_t>(i)] = static_cast<int>(best);
    for (int t = 0; t < data.T; ++t)
      if (std::abs(gamma(i, t) - top) <= 1e-12 * std::max(1.0, std::abs(top)))
        rep.ties[static_cast<std::size_t>(i)].push_back(t);
    if (rep.ties[static_cast<std::size_t>(i)].size() > 1) strictOptimal = false;
    if (std::abs(gamma(i, selection[static_cast<std::size_t>(i)]) - top) > 1e-12 * std::max(1.0, std::abs(top)))
      isOpt = false;
  }

  SolverSettings st = settings;
  st.norm = NormKind::Frobenius;
  rep.svm = solveMargin(pb, st);
  rep.feasible = rep.svm.status == SolveStatus::Optimal;
  rep.supportTokens.assign(static_cast<std::size_t>(data.n), {});
  if (!rep.feasible) {
    rep.verdict = Verdict::Infeasible;
    rep.explanation = "The selection cannot be separated: " + rep.svm.message;
    return rep;
  }
  for (int j : rep.svm.support) {
    const ConstraintLabel& l = pb.label[static_cast<std::size_t>(j)];
    rep.supportTokens[static_cast<std::size_t>(l.sequence)].push_back(l.token);
  }
  for (int i = 0; i < data.n; ++i) {
    const int a = selection[static_cast<std::size_t>(i)];
    // Strictly lower score required; "equal" within the tie tolerance counts as a violation.
    for (int t : rep.supportTokens[static_cast<std::size_t>(i)])
      if (gamma(i, t) >= gamma(i, a) - 1e-12 * std::max(1.0, std::abs(gamma(i, a))))
        rep.violators.emplace_back(i, t);
  }
  detail::Text os;
  if (isOpt && strictOptimal) {
    rep.verdict = Verdict::GloballyOptimal;
    os << "Every sequence selects its strictly highest-scoring token, so this is the globally "
          "optimal selection; its Att-SVM is feasible (margin norm "
       << rep.svm.objective << ").";
  } else if (rep.violators.empty()) {
    rep.verdict = Verdict::LocallyOptimal;
    std::vector<int> notOpt;
    for (int i = 0; i < data.n; ++i)
      if (gamma(i, selection[static_cast<std::size_t>(i)]) < gamma.row(i).maxCoeff() ||
          rep.ties[static_cast<std::size_t>(i)].size() > 1)
        notOpt.push_back(i);
    os << "Locally optimal: the Att-SVM is feasible and every support token scores strictly lower "
          "than the selected token, so gradient descent started in its cone converges to this "
          "selection; it is not globally optimal (sequence"
       << (notOpt.size() > 1 ? "s " : " ") << list(notOpt)
       << (notOpt.size() > 1 ? " do" : " does") << " not select a strict best token).";
  } else {
    rep.verdict = Verdict::Neither;
    const auto& v = rep.violators.front();
    os << "Not locally optimal: in sequence " << v.first << " the support token " << v.second
       << " scores at least as high as the selected token " << selection[static_cast<std::size_t>(v.first)]
       << " (" << gamma(v.first, v.second) << " vs " << gamma(v.first, selection[static_cast<std::size_t>(v.first)])
       << ")";
    if (rep.violators.size() > 1) os << ", and " << rep.violators.size() - 1 << " more such support token(s)";
    os << ".";
  }
  rep.explanation = os.str();
  return rep;
}

SelectionReport analyzeWeights(const Dataset& data, AttentionKind kind, const Mat& W,
                               const SolverSettings& settings) {
  checkKind(kind);
  if (W.rows() != data.d || W.cols() != data.d)
    throw InputError("W has shape " + std::to_string(W.rows()) + " x " + std::to_string(W.cols()) +
                     ", expected d x d = " + std::to_string(data.d) + " x " + std::to_string(data.d));
  for (Index r = 0; r < W.rows(); ++r)
    for (Index c = 0; c < W.cols(); ++c)
      if (!std::isfinite(W(r, c)))
        throw InputError("W[" + std::to_string(r) + "][" + std::to_string(c) + "] is not finite");
  // Validate shapes before indexing (attentionSvmProblem would too, but we need Z/query first).
  (void)attentionSvmProblem(data, kind, std::vector<int>(static_cast<std::size_t>(data.n), 0));
  std::vector<int> sel(static_cast<std::size_t>(data.n));
  for (int i = 0; i < data.n; ++i) {
    const Vec z = kind == AttentionKind::Cross ? Vec(data.Z.row(i).transpose())
                                               : Vec(data.token(i, data.query).transpose());
    const Vec a = data.tokens(i) * (W * z);  // softmax argmax = score argmax (first on ties)
    Index best = 0;
    a.maxCoeff(&best);
    sel[static_cast<std::size_t>(i)] = static_cast<int>(best);
  }
  return analyzeSelection(data, kind, sel, settings);
}

std::vector<SelectionReport> enumerateLocallyOptimal(const Dataset& data, AttentionKind kind,
                                                     long long maxSelections) {
  checkKind(kind);
  if (data.n <= 0 || data.T <= 0)
    throw InputError("enumeration needs n > 0 and T > 0 (got n = " + std::to_string(data.n) +
                     ", T = " + std::to_string(data.T) + ")");
  // T^n, exact while it fits in 62 bits (only used for the message beyond that).
  long long count = 1;
  bool huge = false;
  for (int i = 0; i < data.n && !huge; ++i) {
    if (count > (1LL << 62) / data.T) huge = true;
    else count *= data.T;
  }
  if (huge || count > maxSelections) {
    detail::Text os;
    os << "enumerating all selections needs T^n = " << data.T << "^" << data.n;
    if (!huge) os << " = " << count;
    os << " selections, above the cap of " << maxSelections
       << "; use fewer sequences or tokens (or raise the cap)";
    throw InputError(os.str());
  }
  std::vector<SelectionReport> out;
  std::vector<int> sel(static_cast<std::size_t>(data.n), 0);
  for (long long k = 0; k < count; ++k) {
    long long rest = k;
    for (int i = data.n - 1; i >= 0; --i) {
      sel[static_cast<std::size_t>(i)] = static_cast<int>(rest % data.T);
      rest /= data.T;
    }
    SelectionReport rep = analyzeSelection(data, kind, sel);
    if (rep.verdict == Verdict::GloballyOptimal || rep.verdict == Verdict::LocallyOptimal)
      out.push_back(std::move(rep));
  }
  return out;
}

}  // namespace attnsvm
