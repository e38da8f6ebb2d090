// The (d, n) phase diagram of the SVM regime on real images (SPEC 6.5 with 6.2): the regime ladder
// (real_ladder.hpp) run for every token dimension d (embedTokens) with a step budget that does not
// depend on n (the same `steps` for every cell; a run ends at that budget or when the trainer stops
// it, and each run records which), frozen and joint head, NGD and normalized l_1.1 MD, >= 3 seeds.
// Per cell (d, head, method, n): the ladder's row (training accuracy, the certified feasibility of
// the Att-SVM of the reached selection, corr and D_p with it, min / mean selected softmax, the
// gamma-optimal share, the failing conditions, degenerate runs counted apart); per (d, head,
// method): the largest n up to which every seed reaches the limit, and what fails at the first n
// beyond it.
//
// Its runs are RealLadderRun (with their dim), run by RealLadderRunner: the CLI's threads and the
// page's workers run a phase exactly as a ladder.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "attnsvm/experiments/real_ladder.hpp"
#include "attnsvm/vocab/fields.hpp"

namespace attnsvm {

struct RealPhaseSettings {
  int classA = 7, classB = 9;
  std::vector<int> dims = {18, 32, 64, 128, 256, 512};         // token dimensions d
  std::vector<int> sizes = {16, 32, 64, 128, 256, 512, 1000};  // n (even)
  std::uint64_t embedSeed = 0;                                 // one feature map per d
  std::string heads = "frozen,joint";
  std::string methods = "nmd:2,nmd:1.1";
  double lr = 0.1;
  double normEpsilon = 0.0;  // the pure normalized step (see RealLadderSettings)
  int headSteps = 1000;      // frozen head: NGD on v alone with W = 0
  int steps = 2000;          // every run's budget, the same for every n and d
  int snapshotsPerDecade = 10;
  int seeds = 3;
  std::uint64_t seedBase = 1;
  double certifyTol = 1e-6;
  double corrTarget = 0.99;
};

// Its field list: classA, classB, dims, sizes, embedSeed, heads, methods, lr, normEpsilon,
// headSteps, steps, snapshotsPerDecade, seeds, seedBase, certifyTol, corrTarget.
template <class S, class V>
auto visitFields(S& s, V& v) -> detail::IfStruct<S, RealPhaseSettings> {
  v("classA", s.classA);
  v("classB", s.classB);
  v("dims", s.dims);
  v("sizes", s.sizes);
  v("embedSeed", s.embedSeed);
  v("heads", s.heads);
  v("methods", s.methods);
  v("lr", s.lr);
  v("normEpsilon", s.normEpsilon);
  v("headSteps", s.headSteps);
  v("steps", s.steps);
  v("snapshotsPerDecade", s.snapshotsPerDecade);
  v("seeds", s.seeds);
  v("seedBase", s.seedBase);
  v("certifyTol", s.certifyTol);
  v("corrTarget", s.corrTarget);
}

// One cell: its d and the ladder's row (which counts the runs ended by the budget and the
// degenerate ones). "degenerate" repeats row.failDegenerate under the phase's first name for it.
struct RealPhaseRow {
  int dim = 18;
  RealLadderRow row;
};

template <class Visitor>
void visitFields(const RealPhaseRow& r, Visitor& v) {
  v("dim", r.dim);
  visitFields(r.row, v);
  v("degenerate", r.row.failDegenerate);
}

// Per (d, head, method): the ladder's summary of that d (largest n, first failing n and what fails
// there).
struct RealPhaseSummary {
  int dim = 18;
  RealLadderSummary ladder;
};

template <class Visitor>
void visitFields(const RealPhaseSummary& s, Visitor& v) {
  v("dim", s.dim);
  visitFields(s.ladder, v);
}

// The plan (the largest d and n first) and the aggregation; results in any order.
class RealPhase {
 public:
  explicit RealPhase(const RealPhaseSettings& settings);
  const RealPhaseSettings& settings() const;
  std::vector<RealLadderRun> take(int count);  // run ids are the phase's (0 .. plannedRuns - 1)
  void submit(const RealLadderRunResult& result);
  bool done() const;
  int submitted() const;
  int plannedRuns() const;
  std::vector<RealPhaseRow> table() const;  // InputError unless done()
  std::vector<RealPhaseSummary> summary() const;
  std::vector<RealLadderRun> runs() const;
  std::vector<RealLadderRunResult> results() const;

 private:
  struct Impl;
  std::shared_ptr<Impl> impl_;
};

}  // namespace attnsvm
