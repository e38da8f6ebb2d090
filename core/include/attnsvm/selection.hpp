// Token-selection analysis (SPEC section 4): optimal tokens, feasibility and local optimality of
// a selection, the verdict on a trained W, and the enumeration of locally optimal selections.
#pragma once
#include <string>
#include <vector>

#include "attnsvm/margin.hpp"

namespace attnsvm {

enum class Verdict { GloballyOptimal, LocallyOptimal, Neither, Infeasible };
const char* toString(Verdict verdict);

struct SelectionReport {
  std::vector<int> selection;
  std::vector<int> optimal;                 // opt_i
  std::vector<std::vector<int>> ties;       // tokens tied with opt_i
  bool feasible = false;
  Verdict verdict = Verdict::Neither;
  std::vector<std::vector<int>> supportTokens;  // T_i per sequence
  std::vector<std::pair<int, int>> violators;   // (i, t): support token scoring >= selected one
  MarginSolution svm;                       // Frobenius Att-SVM of the selection
  std::string explanation;                  // one or two sentences for a person
};

// Cross or self attention (one unit per sequence).
SelectionReport analyzeSelection(const Dataset& data, AttentionKind kind,
                                 const std::vector<int>& selection,
                                 const SolverSettings& settings = {});

// Selection of a trained W: argmax of the softmax per sequence, then analyzeSelection.
SelectionReport analyzeWeights(const Dataset& data, AttentionKind kind, const Mat& W,
                               const SolverSettings& settings = {});

// All feasible and locally optimal selections, by enumeration of T^n selections. Throws
// InputError above maxSelections with a message naming the count.
std::vector<SelectionReport> enumerateLocallyOptimal(const Dataset& data, AttentionKind kind,
                                                     long long maxSelections = 200000);

}  // namespace attnsvm
