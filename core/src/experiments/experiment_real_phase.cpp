// The (d, n) phase diagram (attnsvm/experiments/real_phase.hpp): one regime ladder per token
// dimension d, every run with the same step budget (the ladder's "fixed" budget), handed out as one
// plan, dearest first, and aggregated per (d, head, method, n).
#include <algorithm>
#include <numeric>
#include <string>

#include "attnsvm/base/errors.hpp"
#include "attnsvm/experiments/real_phase.hpp"

namespace attnsvm {

namespace {

void checkPhaseSettings(const RealPhaseSettings& s) {
  if (s.dims.empty()) throw InputError("dims is empty");
  for (std::size_t k = 0; k < s.dims.size(); ++k)
    for (std::size_t j = 0; j < k; ++j)
      if (s.dims[j] == s.dims[k])
        throw InputError("dims[" + std::to_string(k) + "] = " + std::to_string(s.dims[k]) +
                         " is listed twice");
  if (s.steps < 1) throw InputError("steps must be >= 1 (the budget of every run)");
}

// About the flops of one step per image (the kernel's 11 T d + 4 d^2, T = 49): the plan's order.
double phaseRunCost(const RealLadderRun& r) {
  const double d = r.dim;
  return static_cast<double>(r.n) * r.steps * (11.0 * 49.0 * d + 4.0 * d * d);
}

std::string phaseFailingText(const RealLadderRow& r) {
  std::string s;
  auto add = [&](const char* name, int count) {
    if (count > 0) s += (s.empty() ? "" : ", ") + std::string(name) + " " + std::to_string(count);
  };
  add("degenerate", r.failDegenerate);
  add("infeasible", r.failInfeasible);
  add("undecided", r.failUndecided);
  add("no positive token", r.failNoPositiveToken);
  add("head faster", r.failHeadFaster);
  add("selection moving", r.failSelectionMoving);
  add("not separated", r.failNotSeparated);
  add("slow", r.failSlow);
  return s;
}

}  // namespace

struct RealPhase::Impl {
  RealPhaseSettings s;
  std::vector<RealLadder> ladders;          // one per d, in dims' order
  std::vector<RealLadderRun> runs;          // the phase's ids
  std::vector<std::pair<int, int>> origin;  // phase id -> (ladder, the ladder's id)
  std::vector<RealLadderRunResult> results;
  std::vector<char> handedOut, received;
  int next = 0, submittedCount = 0;

  explicit Impl(const RealPhaseSettings& settings) : s(settings) {
    checkPhaseSettings(s);
    std::vector<std::pair<int, RealLadderRun>> all;
    for (int dim : s.dims) {
      RealLadderSettings l;
      l.classA = s.classA;
      l.classB = s.classB;
      l.sizes = s.sizes;
      l.dim = dim;
      l.embedSeed = s.embedSeed;
      l.heads = s.heads;
      l.methods = s.methods;
      l.lr = s.lr;
      l.normEpsilon = s.normEpsilon;
      l.headSteps = s.headSteps;
      l.budget = "fixed";
      l.maxSteps = s.steps;
      l.minSteps = s.steps;
      l.snapshotsPerDecade = s.snapshotsPerDecade;
      l.seeds = s.seeds;
      l.seedBase = s.seedBase;
      l.certifyTol = s.certifyTol;
      l.corrTarget = s.corrTarget;
      ladders.emplace_back(l);  // checks the rest (embedTokens checks dim at the run)
      for (const RealLadderRun& r : ladders.back().take(ladders.back().plannedRuns()))
        all.emplace_back(static_cast<int>(ladders.size()) - 1, r);
    }
    std::stable_sort(all.begin(), all.end(), [](const auto& a, const auto& b) {
      return phaseRunCost(a.second) > phaseRunCost(b.second);
    });
    for (auto& [ladder, r] : all) {
      origin.emplace_back(ladder, r.id);
      r.id = static_cast<int>(runs.size());
      runs.push_back(r);
    }
    results.resize(runs.size());
    handedOut.assign(runs.size(), 0);
    received.assign(runs.size(), 0);
  }

  void requireDone() const {
    if (submittedCount != static_cast<int>(runs.size()))
      throw InputError("the phase diagram's table is not ready: runs are still to come");
  }
};

RealPhase::RealPhase(const RealPhaseSettings& settings) : impl_(std::make_shared<Impl>(settings)) {}
const RealPhaseSettings& RealPhase::settings() const { return impl_->s; }

std::vector<RealLadderRun> RealPhase::take(int count) {
  Impl& m = *impl_;
  std::vector<RealLadderRun> out;
  while (static_cast<int>(out.size()) < count && m.next < static_cast<int>(m.runs.size())) {
    m.handedOut[m.next] = 1;
    out.push_back(m.runs[m.next++]);
  }
  return out;
}

void RealPhase::submit(const RealLadderRunResult& r) {
  Impl& m = *impl_;
  if (r.id < 0 || r.id >= static_cast<int>(m.runs.size()) || !m.handedOut[r.id])
    throw InputError("result for run " + std::to_string(r.id) + ": no such run was handed out");
  if (m.received[r.id])
    throw InputError("result for run " + std::to_string(r.id) + " submitted twice");
  m.received[r.id] = 1;
  m.results[r.id] = r;
  ++m.submittedCount;
  RealLadderRunResult local = r;
  local.id = m.origin[r.id].second;
  m.ladders[m.origin[r.id].first].submit(local);
}

bool RealPhase::done() const {
  return impl_->submittedCount == static_cast<int>(impl_->runs.size());
}
int RealPhase::submitted() const { return impl_->submittedCount; }
int RealPhase::plannedRuns() const { return static_cast<int>(impl_->runs.size()); }
std::vector<RealLadderRun> RealPhase::runs() const { return impl_->runs; }
std::vector<RealLadderRunResult> RealPhase::results() const { return impl_->results; }

std::vector<RealPhaseRow> RealPhase::table() const {
  const Impl& m = *impl_;
  m.requireDone();
  std::vector<RealPhaseRow> out;
  for (std::size_t k = 0; k < m.ladders.size(); ++k)
    for (const RealLadderRow& row : m.ladders[k].table()) {
      RealPhaseRow p;
      p.dim = m.s.dims[k];
      p.row = row;
      p.degenerate = row.failDegenerate;
      for (std::size_t g = 0; g < m.runs.size(); ++g) {
        const RealLadderRun& r = m.runs[g];
        if (m.origin[g].first == static_cast<int>(k) && r.head == row.head &&
            r.method == row.method && r.n == row.n)
          p.endedByBudget += m.results[g].endedBy == "budget";
      }
      out.push_back(std::move(p));
    }
  return out;
}

std::vector<RealPhaseSummary> RealPhase::summary() const {
  const Impl& m = *impl_;
  m.requireDone();
  std::vector<RealPhaseSummary> out;
  for (std::size_t k = 0; k < m.ladders.size(); ++k) {
    const std::vector<RealLadderRow> rows = m.ladders[k].table();
    for (const RealLadderSummary& l : m.ladders[k].summary()) {
      RealPhaseSummary s;
      s.dim = m.s.dims[k];
      s.head = l.head;
      s.method = l.method;
      s.largestN = l.largestN;
      // the first row (by n) of this (head, method) where some seed misses the limit
      for (const RealLadderRow& r : rows)
        if (r.head == l.head && r.method == l.method && r.limitReached < r.seeds) {
          s.firstFailingN = r.n;
          s.failingBeyond = phaseFailingText(r);
          break;
        }
      out.push_back(std::move(s));
    }
  }
  return out;
}

}  // namespace attnsvm
