// Token-selection analysis (SPEC section 4): optimal tokens, feasibility and local optimality of
// a selection, the verdict on a trained W, and the enumeration of locally optimal selections.
#pragma once
#include <string>
#include <vector>

#include "attnsvm/solvers/margin.hpp"

namespace attnsvm {

// Boundary: the selection's SVM is numerically on the boundary of feasibility (solver status
// boundary: no certified solution and no checked Farkas certificate, the feasibility margin proven
// <= 1e-6); Undecided: its solver ended without deciding (status max_iterations). A verdict is only
// ever what the solver certified: Infeasible needs a checked Farkas certificate, the first three an
// optimal (certified) SVM.
enum class Verdict { GloballyOptimal, LocallyOptimal, Neither, Infeasible, Boundary, Undecided };
const char* toString(Verdict verdict);

// Per unit: a sequence (cross, self, prompt) or a (sequence, query) pair, unit i*T + k
// (sequence-to-sequence and causal; a causal query k chooses among tokens t <= k).
struct SelectionReport {
  std::vector<int> selection;
  std::vector<int> optimal;            // opt per unit (argmax of gamma_it over its tokens)
  std::vector<std::vector<int>> ties;  // tokens tied with opt, per unit
  bool feasible = false;
  Verdict verdict = Verdict::Neither;
  std::vector<std::vector<int>> supportTokens;  // T_i per unit
  std::vector<std::pair<int, int>> violators;   // (unit, t): support token scoring >= selected one
  MarginSolution svm;       // Frobenius SVM of the selection (Att-SVM, seq2seq or prompt)
  std::string explanation;  // one or two sentences for a person
};

// Any attention kind: one unit per sequence (cross, self) or per (sequence, query)
// (sequence-to-sequence, causal); the scores are gamma_it = Y_i v^T x_it for every unit of
// sequence i.
SelectionReport analyzeSelection(const Dataset& data, AttentionKind kind,
                                 const std::vector<int>& selection,
                                 const SolverSettings& settings = {});

// Prompt attention: the prompt SVM (p^T Wk (x_{i,alpha_i} - x_it) >= 1) decides feasibility and
// the support tokens; one unit per sequence.
SelectionReport analyzePromptSelection(const Dataset& data, const Mat& Wk,
                                       const std::vector<int>& selection,
                                       const SolverSettings& settings = {});

// Selection of a trained W (cross or self): argmax of the softmax per sequence, then
// analyzeSelection.
SelectionReport analyzeWeights(const Dataset& data, AttentionKind kind, const Mat& W,
                               const SolverSettings& settings = {});

// All feasible and locally optimal selections, by enumeration of T^n selections. Throws
// InputError above maxSelections with a message naming the count.
std::vector<SelectionReport> enumerateLocallyOptimal(const Dataset& data, AttentionKind kind,
                                                     long long maxSelections = 200000);

}  // namespace attnsvm
