// The (d, n) phase diagram (attnsvm/experiments/real_phase.hpp): one regime ladder per token
// dimension d, every run with the same step budget (the ladder's "fixed" budget), handed out as one
// plan, dearest first, and aggregated per (d, head, method, n).
#include <algorithm>
#include <numeric>
#include <string>

#include "attnsvm/base/errors.hpp"
#include "attnsvm/experiments/real_phase.hpp"
#include "experiments/real_run_queue.hpp"

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

}  // namespace

struct RealPhase::Impl {
  RealPhaseSettings s;
  std::vector<RealLadder> ladders;  // one per d, in dims' order: their plans and tables
  experiment_detail::RealRunQueue<RealLadderRun, RealLadderRunResult> queue;  // the phase's ids
  std::vector<std::pair<int, int>> origin;  // phase id -> (ladder, the ladder's id)

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
      r.id = static_cast<int>(queue.runs.size());
      queue.runs.push_back(r);
    }
    queue.seal();
  }
};

RealPhase::RealPhase(const RealPhaseSettings& settings) : impl_(std::make_shared<Impl>(settings)) {}
const RealPhaseSettings& RealPhase::settings() const { return impl_->s; }

std::vector<RealLadderRun> RealPhase::take(int count) { return impl_->queue.take(count); }

void RealPhase::submit(const RealLadderRunResult& r) {
  Impl& m = *impl_;
  m.queue.accept(r);
  RealLadderRunResult local = r;
  local.id = m.origin[r.id].second;
  m.ladders[m.origin[r.id].first].submit(local);
}

bool RealPhase::done() const { return impl_->queue.done(); }
int RealPhase::submitted() const { return impl_->queue.submitted; }
int RealPhase::plannedRuns() const { return static_cast<int>(impl_->queue.runs.size()); }
std::vector<RealLadderRun> RealPhase::runs() const { return impl_->queue.runs; }
std::vector<RealLadderRunResult> RealPhase::results() const { return impl_->queue.results; }

std::vector<RealPhaseRow> RealPhase::table() const {
  const Impl& m = *impl_;
  m.queue.requireDone("the phase diagram's table");
  std::vector<RealPhaseRow> out;
  for (std::size_t k = 0; k < m.ladders.size(); ++k)
    for (RealLadderRow& row : m.ladders[k].table()) out.push_back({m.s.dims[k], std::move(row)});
  return out;
}

std::vector<RealPhaseSummary> RealPhase::summary() const {
  const Impl& m = *impl_;
  m.queue.requireDone("the phase diagram's summary");
  std::vector<RealPhaseSummary> out;
  for (std::size_t k = 0; k < m.ladders.size(); ++k)
    for (RealLadderSummary& l : m.ladders[k].summary()) out.push_back({m.s.dims[k], std::move(l)});
  return out;
}

}  // namespace attnsvm
