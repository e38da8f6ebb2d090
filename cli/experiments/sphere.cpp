// The rank experiment: ranks of the Frobenius and nuclear Att-SVM solutions against d per grid
// cell. One instance is the core's rankInstance (shared with the lab); here only the per-cell loop
// over seeds (first `instances` feasible ones), aggregation and formatting.
#include <chrono>
#include <cmath>

#include "attnsvm/experiments/experiment_rank.hpp"
#include "common.hpp"
#include "json_io.hpp"

namespace attnsvm::cli {

// ---------------------------------------------------------------------------------------------
ExperimentResult rankExperiment(const ExperimentOptions& o) {
  const auto t0 = std::chrono::steady_clock::now();
  const int instances = pick(o.seeds, kRankDefaultInstances);
  const std::vector<int> dims = o.dims.empty() ? rankDefaultDims() : o.dims;
  const std::vector<std::pair<int, int>> configs = rankConfigs();
  const int threads = resolveThreads(o.threads);
  const int maxAttempts = rankMaxAttempts(instances);
  struct Cell {
    int n = 0, T = 0, d = 0, attempts = 0;
    std::vector<std::uint64_t> seeds;
    std::vector<int> rankFro, rankNuc;
    std::vector<double> gapNuc;
    int nucFailures = 0;
  };
  std::vector<Cell> cells;
  for (const auto& [n, T] : configs)
    for (int d : dims) {
      Cell c;
      c.n = n;
      c.T = T;
      c.d = d;
      cells.push_back(c);
    }
  // Heavy cells first for load balance is not needed for determinism; each cell is independent.
  Progress progress("rank", static_cast<long>(cells.size()), o.progress);
  parallelFor(static_cast<int>(cells.size()), threads, progress, [&](int k) {
    Cell& c = cells[k];
    // Seeds in order until `instances` are feasible (the core's rankInstance, as the lab's
    // workers).
    for (int a = 0; a < maxAttempts && static_cast<int>(c.rankFro.size()) < instances; ++a) {
      const std::uint64_t seed = o.seedBase + static_cast<std::uint64_t>(a);
      const RankInstance ri = rankInstance(seed, c.n, c.T, c.d, o.rankTol);
      ++c.attempts;
      if (!ri.feasible) continue;
      c.seeds.push_back(seed);
      c.rankFro.push_back(ri.rankFro);
      c.rankNuc.push_back(ri.rankNuclear);
      c.gapNuc.push_back(ri.gapNuclear);
      if (ri.rankNuclear < 0) ++c.nucFailures;
    }
  });
  progress.finish();

  ExperimentResult res;
  json& j = res.json;
  j["settings"] = settingsJson("rank", o, instances, -1, threads);
  j["settings"]["instances"] = instances;
  j["settings"]["dims"] = dims;
  j["settings"]["configs"] = json::array();
  for (const auto& [n, T] : configs) j["settings"]["configs"].push_back({{"n", n}, {"T", T}});
  j["settings"]["rankTol"] = o.rankTol;
  j["settings"]["maxAttempts"] = maxAttempts;
  j["settings"]["scenario"] = "rank";
  json rows = json::array();
  std::ostringstream csv;
  csv << "n,T,d,instances,attempts," << columnName({"rankFro", "mean"}) << ","
      << columnName({"rankFro", "std"}) << "," << columnName({"rankNuclear", "mean"}) << ","
      << columnName({"rankNuclear", "std"})
      << ",fractionNuclearLower,fractionNuclearLe,nuclearFailures\n";
  for (const Cell& c : cells) {
    std::vector<double> rf, rn;
    int lower = 0, le = 0, counted = 0;
    for (std::size_t k = 0; k < c.rankFro.size(); ++k) {
      rf.push_back(c.rankFro[k]);
      if (c.rankNuc[k] < 0) continue;
      rn.push_back(c.rankNuc[k]);
      ++counted;
      lower += c.rankNuc[k] < c.rankFro[k] ? 1 : 0;
      le += c.rankNuc[k] <= c.rankFro[k] ? 1 : 0;
    }
    const Stats sf = stats(rf), sn = stats(rn);
    const double fl = counted ? static_cast<double>(lower) / counted : kNaN;
    const double fle = counted ? static_cast<double>(le) / counted : kNaN;
    json r;
    r["n"] = c.n;
    r["T"] = c.T;
    r["d"] = c.d;
    r["instances"] = static_cast<int>(c.rankFro.size());
    r["attempts"] = c.attempts;
    r["rankFro"] = statsJson(sf);
    r["rankNuclear"] = statsJson(sn);
    r["fractionNuclearLower"] = fl;
    r["fractionNuclearLe"] = fle;
    r["nuclearFailures"] = c.nucFailures;
    r["nuclearGapMax"] = stats(c.gapNuc).max;
    r["ranksFro"] = c.rankFro;
    r["ranksNuclear"] = c.rankNuc;
    r["seeds"] = c.seeds;
    rows.push_back(std::move(r));
    csv << c.n << "," << c.T << "," << c.d << "," << c.rankFro.size() << "," << c.attempts << ","
        << csvNum(sf.mean) << "," << csvNum(sf.std) << "," << csvNum(sn.mean) << ","
        << csvNum(sn.std) << "," << csvNum(fl) << "," << csvNum(fle) << "," << c.nucFailures
        << "\n";
  }
  j["cells"] = std::move(rows);
  j["seconds"] = secondsSince(t0);
  res.csv = csv.str();
  return res;
}

}  // namespace attnsvm::cli
