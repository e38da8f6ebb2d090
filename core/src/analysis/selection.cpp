// Token-selection analysis (SPEC section 4): optimal tokens and ties, feasibility, support tokens
// and local optimality of a selection, the verdict on a trained W, and the enumeration of all
// feasible and locally optimal selections (the possible directional limits of gradient descent).
#include <cmath>
#include "base/text.hpp"

#include "analysis/verdict_names.hpp"
#include "attnsvm/analysis/selection.hpp"
#include "attnsvm/base/errors.hpp"
#include "cold.hpp"

ATTNSVM_COLD_BEGIN  // cold code: optimized for size in wasm (core/hints/cold.hpp)
    namespace attnsvm {
  namespace {

  void checkKind(AttentionKind kind) {
    if (kind != AttentionKind::Cross && kind != AttentionKind::Self)
      throw InputError(
          "selection analysis needs cross or self attention (one selection per sequence)");
  }

  // gamma_it = Y_i v^T x_it, with checks naming the field.
  Mat scores(const Dataset& data) {
    if (data.v.size() != data.d)
      throw InputError("v has " + std::to_string(data.v.size()) +
                       " entries, expected d = " + std::to_string(data.d));
    if (data.Y.size() != data.n)
      throw InputError("Y has " + std::to_string(data.Y.size()) +
                       " entries, expected n = " + std::to_string(data.n));
    for (int k = 0; k < data.d; ++k)
      if (!std::isfinite(data.v(k))) throw InputError("v[" + std::to_string(k) + "] is not finite");
    for (int i = 0; i < data.n; ++i)
      if (!std::isfinite(data.Y(i))) throw InputError("Y[" + std::to_string(i) + "] is not finite");
    Mat g(data.n, data.T);
    for (int i = 0; i < data.n; ++i) g.row(i) = data.Y(i) * (data.tokens(i) * data.v).transpose();
    return g;
  }

  // The units a selection picks one token for: sequences (cross, self, prompt), or (sequence,
  // query) pairs i-major for sequence-to-sequence and causal attention, where query k of a causal
  // unit can only pick t <= k.
  struct Units {
    bool perQuery = false;
    int T = 0;
    std::vector<int> sequence, query, last;  // per unit; query -1 when one unit per sequence
    std::size_t size() const { return sequence.size(); }
    int of(const ConstraintLabel& l) const {
      return perQuery ? l.sequence * T + l.query : l.sequence;
    }
    std::string name(std::size_t u) const {
      return "sequence " + std::to_string(sequence[u]) +
             (perQuery ? ", query " + std::to_string(query[u]) : "");
    }
  };

  Units unitsOf(const Dataset& data, AttentionKind kind, bool prompt) {
    Units u;
    u.T = data.T;
    u.perQuery = !prompt && (kind == AttentionKind::SeqToSeq || kind == AttentionKind::Causal);
    for (int i = 0; i < data.n; ++i)
      for (int k = 0; k < (u.perQuery ? data.T : 1); ++k) {
        u.sequence.push_back(i);
        u.query.push_back(u.perQuery ? k : -1);
        u.last.push_back(kind == AttentionKind::Causal && !prompt ? k : data.T - 1);
      }
    return u;
  }

  // SPEC section 4 for any unit structure: optimal tokens (and ties) from the scores, the
  // Frobenius SVM of `pb` (feasibility, support tokens per unit), then the verdict: globally
  // optimal if every unit selects its strictly best token, locally optimal if every support token
  // scores strictly lower than the selected one, else neither.
  SelectionReport analyzeUnits(const Dataset& data, const MarginProblem& pb, const Units& units,
                               const std::vector<int>& selection, const SolverSettings& settings) {
    const Mat gamma = scores(data);
    const std::size_t m = units.size();
    SelectionReport rep;
    rep.selection = selection;
    rep.optimal.resize(m);
    rep.ties.resize(m);
    bool strictOptimal = true, isOpt = true;
    std::vector<int> notOpt;
    for (std::size_t u = 0; u < m; ++u) {
      const int i = units.sequence[u], last = units.last[u];
      Index best = 0;
      const double top = gamma.row(i).head(last + 1).maxCoeff(&best);
      rep.optimal[u] = static_cast<int>(best);
      const double tol = 1e-12 * std::max(1.0, std::abs(top));
      for (int t = 0; t <= last; ++t)
        if (std::abs(gamma(i, t) - top) <= tol) rep.ties[u].push_back(t);
      const bool tied = rep.ties[u].size() > 1;
      const bool atBest = std::abs(gamma(i, selection[u]) - top) <= tol;
      if (tied) strictOptimal = false;
      if (!atBest) isOpt = false;
      if (tied || !atBest) notOpt.push_back(static_cast<int>(u));
    }

    SolverSettings st = settings;
    st.norm = NormKind::Frobenius;
    rep.svm = solveMargin(pb, st);
    rep.feasible = rep.svm.status == SolveStatus::Optimal;
    rep.supportTokens.assign(m, {});
    if (!rep.feasible) {
      // Only what the solver certified (issue 26: a solver that stopped undecided was reported
      // "infeasible").
      switch (rep.svm.status) {
        case SolveStatus::Infeasible:
          rep.verdict = Verdict::Infeasible;
          rep.explanation = "The selection cannot be separated: " + rep.svm.message;
          break;
        case SolveStatus::Boundary:
          rep.verdict = Verdict::Boundary;
          rep.explanation =
              "The selection is numerically on the boundary of separability: " + rep.svm.message;
          break;
        default:
          rep.verdict = Verdict::Undecided;
          rep.explanation = "The solver did not decide whether the selection can be separated: " +
                            rep.svm.message;
      }
      return rep;
    }
    for (int j : rep.svm.support) {
      const ConstraintLabel& l = pb.label[static_cast<std::size_t>(j)];
      rep.supportTokens[static_cast<std::size_t>(units.of(l))].push_back(l.token);
    }
    for (std::size_t u = 0; u < m; ++u) {
      const int i = units.sequence[u], a = selection[u];
      // Strictly lower score required; "equal" within the tie tolerance counts as a violation.
      for (int t : rep.supportTokens[u])
        if (gamma(i, t) >= gamma(i, a) - 1e-12 * std::max(1.0, std::abs(gamma(i, a))))
          rep.violators.emplace_back(static_cast<int>(u), t);
    }
    const char* unit = units.perQuery ? "(sequence, query) unit" : "sequence";
    detail::Text os;
    if (isOpt && strictOptimal) {
      rep.verdict = Verdict::GloballyOptimal;
      os << "Every " << unit
         << " selects its strictly highest-scoring token, so this is the globally "
            "optimal selection; its SVM is feasible (margin norm "
         << rep.svm.objective << ").";
    } else if (rep.violators.empty()) {
      rep.verdict = Verdict::LocallyOptimal;
      std::vector<std::string> names;
      for (int u : notOpt)
        names.push_back(units.perQuery
                            ? "(" + std::to_string(units.sequence[static_cast<std::size_t>(u)]) +
                                  ", " + std::to_string(units.query[static_cast<std::size_t>(u)]) +
                                  ")"
                            : std::to_string(u));
      detail::Text which;
      for (std::size_t k = 0; k < names.size(); ++k) which << (k ? ", " : "") << names[k];
      os << "Locally optimal: the SVM is feasible and every support token scores strictly lower "
            "than the selected token, so gradient descent started in its cone converges to this "
            "selection; it is not globally optimal ("
         << unit << (notOpt.size() > 1 ? "s " : " ") << which.str()
         << (notOpt.size() > 1 ? " do" : " does") << " not select a strict best token).";
    } else {
      rep.verdict = Verdict::Neither;
      const auto& v = rep.violators.front();
      const std::size_t u = static_cast<std::size_t>(v.first);
      const int i = units.sequence[u];
      os << "Not locally optimal: in " << units.name(u) << " the support token " << v.second
         << " scores at least as high as the selected token " << selection[u] << " ("
         << gamma(i, v.second) << " vs " << gamma(i, selection[u]) << ")";
      if (rep.violators.size() > 1)
        os << ", and " << rep.violators.size() - 1 << " more such support token(s)";
      os << ".";
    }
    rep.explanation = os.str();
    return rep;
  }

  }  // namespace

  // The wire names of Verdict, beside the enum (attnsvm/vocab/names.hpp reads the table).
  WireTable verdictNames() {
    static constexpr WireRow rows[] = {
        {static_cast<int>(Verdict::GloballyOptimal), {"globally_optimal"}},
        {static_cast<int>(Verdict::LocallyOptimal), {"locally_optimal"}},
        {static_cast<int>(Verdict::Neither), {"neither"}},
        {static_cast<int>(Verdict::Infeasible), {"infeasible"}},
        {static_cast<int>(Verdict::Boundary), {"boundary"}},
        {static_cast<int>(Verdict::Undecided), {"undecided"}},
    };
    return {rows, static_cast<int>(sizeof(rows) / sizeof(rows[0]))};
  }
  const char* toString(Verdict verdict) {
    return canonicalName(verdictNames(), static_cast<int>(verdict));
  }

  SelectionReport analyzeSelection(const Dataset& data, AttentionKind kind,
                                   const std::vector<int>& selection,
                                   const SolverSettings& settings) {
    const MarginProblem pb = attentionSvmProblem(data, kind, selection);  // checks X, Z, selection
    return analyzeUnits(data, pb, unitsOf(data, kind, false), selection, settings);
  }

  SelectionReport analyzePromptSelection(const Dataset& data, const Mat& Wk,
                                         const std::vector<int>& selection,
                                         const SolverSettings& settings) {
    const MarginProblem pb = promptSvmProblem(data, Wk, selection);  // checks X, Wk, selection
    return analyzeUnits(data, pb, unitsOf(data, AttentionKind::Cross, true), selection, settings);
  }

  SelectionReport analyzeWeights(const Dataset& data, AttentionKind kind, const Mat& W,
                                 const SolverSettings& settings) {
    checkKind(kind);
    if (W.rows() != data.d || W.cols() != data.d)
      throw InputError("W has shape " + std::to_string(W.rows()) + " x " +
                       std::to_string(W.cols()) + ", expected d x d = " + std::to_string(data.d) +
                       " x " + std::to_string(data.d));
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
      if (count > (1LL << 62) / data.T)
        huge = true;
      else
        count *= data.T;
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
ATTNSVM_COLD_END
