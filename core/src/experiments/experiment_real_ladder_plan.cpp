// The plan and the table of the regime ladder (attnsvm/experiments/real_ladder.hpp).
#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <string>

#include "attnsvm/base/errors.hpp"
#include "attnsvm/experiments/real_ladder.hpp"
#include "experiments/experiment_internal.hpp"
#include "experiments/real_run_queue.hpp"

namespace attnsvm {

namespace {

constexpr double kLadderPlanNaN = std::numeric_limits<double>::quiet_NaN();

using LadderMethod = experiment_detail::RealMethod;  // "md:p" or "nmd:p" (no adam)

void checkLadderSettings(const RealLadderSettings& s) {
  auto bad = [](const std::string& m) { throw InputError(m); };
  if (s.classA < 0 || s.classA > 9 || s.classB < 0 || s.classB > 9 || s.classA == s.classB)
    bad("classA, classB: two different classes in 0..9");
  if (s.sizes.empty()) bad("sizes is empty");
  for (std::size_t k = 0; k < s.sizes.size(); ++k)
    if (s.sizes[k] < 2 || s.sizes[k] % 2 || s.sizes[k] > 60000)
      bad("sizes[" + std::to_string(k) + "] = " + std::to_string(s.sizes[k]) +
          ": must be even and in 2..60000");
  if (!(s.lr > 0.0) || !std::isfinite(s.lr)) bad("lr must be finite and > 0");
  if (!(s.normEpsilon >= 0.0) || !std::isfinite(s.normEpsilon))
    bad("normEpsilon must be finite and >= 0");
  if (s.headSteps < 0) bad("headSteps must be >= 0");
  if (s.minSteps < 1 || s.maxSteps < s.minSteps) bad("need 1 <= minSteps <= maxSteps");
  if (!(s.work > 0.0)) bad("work must be > 0");
  if (s.snapshotsPerDecade < 1 || s.snapshotsPerDecade > 100)
    bad("snapshotsPerDecade must be in 1..100");
  if (s.seeds < 1 || s.seeds > 1000) bad("seeds must be in 1..1000");
  if (!(s.certifyTol > 0.0)) bad("certifyTol must be > 0");
  if (!(s.corrTarget > 0.0 && s.corrTarget <= 1.0)) bad("corrTarget must be in (0, 1]");
  if (s.budget != "by-n" && s.budget != "fixed")
    bad("budget = '" + s.budget + "': expected by-n or fixed");
}

// The failing conditions of a row, runs per condition: "degenerate 2, selection moving 3".
std::string failingText(const RealLadderRow& r) {
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

struct RealLadder::Impl {
  RealLadderSettings s;
  experiment_detail::RealRunQueue<RealLadderRun, RealLadderRunResult> queue;
  std::vector<RealLadderRun>& runs = queue.runs;
  std::vector<RealLadderRunResult>& results = queue.results;
  Impl(const Impl&) = delete;  // runs and results refer into queue

  explicit Impl(const RealLadderSettings& settings) : s(settings) {
    checkLadderSettings(s);
    std::vector<std::string> heads = experiment_detail::splitList(s.heads, ',');
    if (heads.empty()) throw InputError("heads is empty");
    for (const std::string& h : heads)
      if (h != "frozen" && h != "joint")
        throw InputError("heads: '" + h + "': expected frozen or joint");
    std::vector<LadderMethod> methods;
    for (const std::string& m : experiment_detail::splitList(s.methods, ','))
      methods.push_back(experiment_detail::parseRealMethod(m, "methods", false));
    if (methods.empty()) throw InputError("methods is empty");
    std::vector<int> sizes = s.sizes;
    std::sort(sizes.begin(), sizes.end(), std::greater<int>());  // the longest solves first
    for (int n : sizes)
      for (const std::string& h : heads)
        for (const LadderMethod& m : methods)
          for (int j = 0; j < s.seeds; ++j) {
            RealLadderRun r;
            r.id = static_cast<int>(runs.size());
            r.classA = s.classA;
            r.classB = s.classB;
            r.n = n;
            r.dim = s.dim;
            r.embedSeed = s.embedSeed;
            r.head = h;
            r.method = m.name;
            r.optimizer = m.optimizer;
            r.p = m.p;
            r.lr = s.lr;
            r.normEpsilon = s.normEpsilon;
            r.headSteps = s.headSteps;
            const double byWork = s.work / n;
            r.steps = s.budget == "fixed" ? s.maxSteps
                                          : static_cast<int>(std::min<double>(
                                                s.maxSteps, std::max<double>(s.minSteps, byWork)));
            r.snapshotsPerDecade = s.snapshotsPerDecade;
            r.seed = s.seedBase + static_cast<std::uint64_t>(j);
            r.certifyTol = s.certifyTol;
            r.corrTarget = s.corrTarget;
            runs.push_back(r);
          }
    queue.seal();
  }

  std::vector<RealLadderRow> table() const {
    queue.requireDone("the ladder's table");
    std::vector<RealLadderRow> rows;
    auto same = [](const RealLadderRun& a, const RealLadderRun& b) {
      return a.head == b.head && a.method == b.method && a.n == b.n;
    };
    std::vector<char> used(runs.size(), 0);
    // rows ordered by head, method, then n ascending
    std::vector<int> order(runs.size());
    for (std::size_t k = 0; k < runs.size(); ++k) order[k] = static_cast<int>(k);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
      const RealLadderRun &x = runs[a], &y = runs[b];
      if (x.head != y.head) return x.head > y.head;  // joint after frozen
      if (x.method != y.method) return x.method > y.method;
      return x.n < y.n;
    });
    for (int first : order) {
      if (used[first]) continue;
      RealLadderRow row;
      row.head = runs[first].head;
      row.method = runs[first].method;
      row.n = runs[first].n;
      row.steps = runs[first].steps;
      std::vector<const RealLadderRunResult*> rs;
      for (int k : order)
        if (!used[k] && same(runs[k], runs[first])) {
          used[k] = 1;
          rs.push_back(&results[k]);
        }
      row.seeds = static_cast<int>(rs.size());
      row.snapshotSteps = rs.front()->snapshotSteps;
      const std::size_t K = row.snapshotSteps.size();
      row.corrAlongK.assign(K, 0.0);
      row.divergenceAlongK.assign(K, 0.0);
      std::vector<int> counted(K, 0);
      double corrSum = 0, corrSq = 0, corrFro = 0, div = 0;
      int withCorr = 0, withFro = 0;
      row.corrMin = kLadderPlanNaN;
      for (const RealLadderRunResult* r : rs) {
        row.feasible += r->feasible ? 1 : 0;
        row.feasibleLp += r->feasibleLp ? 1 : 0;
        row.infeasible += r->status == "infeasible" ? 1 : 0;
        row.undecided += r->verdict == "undecided" ? 1 : 0;
        row.limitReached += r->limitReached ? 1 : 0;
        if (std::isfinite(r->corr)) {
          corrSum += r->corr;
          corrSq += r->corr * r->corr;
          div += r->divergenceFinal;
          row.corrMin = withCorr == 0 ? r->corr : std::min(row.corrMin, r->corr);
          ++withCorr;
          for (std::size_t k = 0; k < K && k < r->divergence.size(); ++k) {
            const double c = r->corrLp.empty() ? r->corrFro[k] : r->corrLp[k];
            row.corrAlongK[k] += c;
            row.divergenceAlongK[k] += r->divergence[k];
            ++counted[k];
          }
        }
        if (!r->corrFro.empty() && std::isfinite(r->corrFro.back())) {
          corrFro += r->corrFro.back();
          ++withFro;
        }
        row.minSoftmax += r->minSoftmax / rs.size();
        row.meanSoftmax += r->meanSoftmax / rs.size();
        row.trainAccuracy += r->trainAccuracy / rs.size();
        row.gammaOptimal += r->gammaOptimal / rs.size();
        row.globallyOptimal += r->verdict == "globally_optimal";
        row.locallyOptimal += r->verdict == "locally_optimal";
        row.neither += r->verdict == "neither";
        row.verdictInfeasible += r->verdict == "infeasible";
        row.verdictUndecided += r->verdict == "undecided";
        auto has = [&](const char* c) {
          const std::string f = "," + r->failing + ",";
          return f.find("," + std::string(c) + ",") != std::string::npos;
        };
        row.failDegenerate += has("degenerate");
        row.failInfeasible += has("infeasible");
        row.failUndecided += has("undecided");
        row.failNoPositiveToken += has("no-positive-token");
        row.failHeadFaster += has("head-faster");
        row.failSelectionMoving += has("selection-moving");
        row.failNotSeparated += has("not-separated");
        row.failSlow += has("slow");
        row.endedByBudget += r->endedBy == "budget";
      }
      for (std::size_t k = 0; k < K; ++k) {
        row.corrAlongK[k] = counted[k] ? row.corrAlongK[k] / counted[k] : kLadderPlanNaN;
        row.divergenceAlongK[k] =
            counted[k] ? row.divergenceAlongK[k] / counted[k] : kLadderPlanNaN;
      }
      row.corrMean = withCorr ? corrSum / withCorr : kLadderPlanNaN;
      row.corrStd =
          withCorr > 1
              ? std::sqrt(std::max(0.0, (corrSq - corrSum * corrSum / withCorr) / (withCorr - 1)))
              : kLadderPlanNaN;
      row.divergenceMean = withCorr ? div / withCorr : kLadderPlanNaN;
      row.corrFroMean = withFro ? corrFro / withFro : kLadderPlanNaN;
      rows.push_back(std::move(row));
    }
    return rows;
  }
};

RealLadder::RealLadder(const RealLadderSettings& settings)
    : impl_(std::make_shared<Impl>(settings)) {}
const RealLadderSettings& RealLadder::settings() const { return impl_->s; }

std::vector<RealLadderRun> RealLadder::take(int count) { return impl_->queue.take(count); }
void RealLadder::submit(const RealLadderRunResult& r) { impl_->queue.accept(r); }
bool RealLadder::done() const { return impl_->queue.done(); }
int RealLadder::submitted() const { return impl_->queue.submitted; }
int RealLadder::plannedRuns() const { return static_cast<int>(impl_->runs.size()); }
std::vector<RealLadderRow> RealLadder::table() const { return impl_->table(); }
const std::vector<RealLadderRun>& RealLadder::runs() const { return impl_->runs; }
const std::vector<RealLadderRunResult>& RealLadder::results() const { return impl_->results; }

std::vector<RealLadderSummary> RealLadder::summary() const {
  // The rows come ordered by n within a (head, method): the largest n before the first row where
  // some seed misses the limit, and what fails there.
  std::vector<RealLadderSummary> out;
  for (const RealLadderRow& r : table()) {
    std::size_t k = 0;
    while (k < out.size() && (out[k].head != r.head || out[k].method != r.method)) ++k;
    if (k == out.size()) {
      RealLadderSummary fresh;
      fresh.head = r.head;
      fresh.method = r.method;
      out.push_back(fresh);
    }
    if (out[k].firstFailingN > 0) continue;
    if (r.limitReached == r.seeds && r.seeds > 0) {
      out[k].largestN = r.n;
    } else {
      out[k].firstFailingN = r.n;
      out[k].failingBeyond = failingText(r);
    }
  }
  return out;
}

}  // namespace attnsvm
