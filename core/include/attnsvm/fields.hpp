// The wire field lists of the public result structs: for each struct one function that calls a
// visitor once per field, in output order, with the field's wire name (camelCase, the convention of
// the CLI's JSON and the JS API alike; README "Names"). The CLI's JSON writer (cli/json_io.cpp) and
// the wasm conversions (wasm/convert.cpp) are visitors over these lists, so a field is named and
// shaped in one place. A visitor provides
//   v(name, double) v(name, int) v(name, bool) v(name, const std::string&)
//   v(name, const Mat&) v(name, const Vec&) v(name, const std::vector<int>&)
//   v(name, const std::vector<std::vector<int>>&)   ragged lists (e.g. support tokens per sequence)
//   v(name, const IndexPairs&)                      (i, t) pairs
//   v.object(name, fn)  a nested object whose fields fn(visitor) emits
#pragma once
#include <array>
#include <string>
#include <vector>

#include "attnsvm/margin.hpp"
#include "attnsvm/names.hpp"
#include "attnsvm/selection.hpp"
#include "attnsvm/train.hpp"

namespace attnsvm {

struct IndexPairs {
  std::vector<std::array<int, 2>> pairs;
};

// MarginSolution: status, W, lambda, objective, lowerBound, gap, maxViolation, support ((sequence,
// token) pairs of the active constraints), supportQuery (the query position k of each, -1 unless
// seq2seq/causal), supportIndex (the constraint index j of each), iterations, seconds, message,
// constraints (m), and when infeasible farkas (one weight per constraint: lambda >= 0 with
// sum lambda_j A_j = 0 and sum lambda_j b_j > 0).
template <class Visitor>
void visitFields(const MarginSolution& s, const MarginProblem& problem, Visitor& v) {
  IndexPairs support;
  std::vector<int> supportQuery, supportIndex;
  for (int j : s.support) {
    if (j < 0 || j >= static_cast<int>(problem.label.size())) continue;
    const ConstraintLabel& l = problem.label[j];
    support.pairs.push_back({l.sequence, l.token});
    supportQuery.push_back(l.query);
    supportIndex.push_back(j);
  }
  v("status", std::string(wireName(s.status)));
  v("W", s.W);
  v("lambda", s.lambda);
  v("objective", s.objective);
  v("lowerBound", s.lowerBound);
  v("gap", s.gap);
  v("maxViolation", s.maxViolation);
  v("support", support);
  v("supportQuery", supportQuery);
  v("supportIndex", supportIndex);
  v("iterations", s.iterations);
  v("seconds", s.seconds);
  v("message", s.message);
  v("constraints", problem.constraints());
  if (s.farkas.size() > 0) v("farkas", s.farkas);
}

// SelectionReport: selection, optimal, ties, feasible, verdict, supportTokens (per sequence),
// violators ((sequence, token) pairs), explanation, svm (the MarginSolution of the selection).
template <class Visitor>
void visitFields(const SelectionReport& r, const MarginProblem& problem, Visitor& v) {
  IndexPairs violators;
  for (const auto& [i, t] : r.violators) violators.pairs.push_back({i, t});
  v("selection", r.selection);
  v("optimal", r.optimal);
  v("ties", r.ties);
  v("feasible", r.feasible);
  v("verdict", std::string(wireName(r.verdict)));
  v("supportTokens", r.supportTokens);
  v("violators", violators);
  v("explanation", r.explanation);
  v.object("svm", [&](Visitor& sub) { visitFields(r.svm, problem, sub); });
}

// TrainSettings: optimizer, lr, p, balance, trainHead, headOptimizer, headLr, headP, adamBeta1,
// adamBeta2, adamEps, traceEvery, traceSoftmax, traceP, maxNorm (the meaning of each in train.hpp).
template <class Visitor>
void visitFields(const TrainSettings& s, Visitor& v) {
  v("optimizer", std::string(wireName(s.optimizer)));
  v("lr", s.lr);
  v("p", s.p);
  v("balance", s.balance);
  v("trainHead", s.trainHead);
  v("headOptimizer", std::string(wireName(s.headOptimizer)));
  v("headLr", s.headLr);
  v("headP", s.headP);
  v("adamBeta1", s.adamBeta1);
  v("adamBeta2", s.adamBeta2);
  v("adamEps", s.adamEps);
  v("traceEvery", s.traceEvery);
  v("traceSoftmax", s.traceSoftmax);
  v("traceP", s.traceP);
  v("maxNorm", s.maxNorm);
}

}  // namespace attnsvm
