// seq2seq-convergence: sequence-to-sequence and causal self-attention over seeds (SPEC 5.3). The
// per-seed work is the core's (attnsvm/experiments/experiment_seq2seq.hpp, which the lab's workers
// run too); here only the threads, the mean/std over seeds and the JSON/CSV.
#include <chrono>
#include <cmath>

#include "attnsvm/base/errors.hpp"
#include "attnsvm/experiments/experiment_seq2seq.hpp"
#include "common.hpp"
#include "json_io.hpp"

namespace attnsvm::cli {

namespace {

// The sizes: the core's defaults, overridden by --settings '{"n": .., "T": .., "d": ..}' (read
// through SeedOptions' field list) and by --dims D (one d).
SeedOptions seq2seqOptions(const ExperimentOptions& o) {
  SeedOptions so;
  if (!o.settings.empty()) so = fieldsFromJson<SeedOptions>(settingsOption(o.settings), "settings");
  if (o.dims.size() > 1) throw InputError("seq2seq-convergence: --dims takes one d");
  if (!o.dims.empty()) so.d = o.dims[0];
  if (o.iters != -1) so.iters = o.iters;
  if (o.every != -1) so.every = o.every;
  return so;
}

}  // namespace

ExperimentResult seq2seqConvergenceExperiment(const ExperimentOptions& o) {
  const auto t0 = std::chrono::steady_clock::now();
  const int seeds = pick(o.seeds, 100);
  const int threads = resolveThreads(o.threads);
  const SeedOptions so = seq2seqOptions(o);
  // One seed per item (four runs and their SVMs), each in its own slot: the results do not depend
  // on the threads.
  std::vector<SeedResult> out(seeds);
  Progress progress("seq2seq-convergence", seeds, o.progress);
  parallelFor(seeds, threads, progress, [&](int k) {
    out[k] =
        runExperimentSeed("seq2seq-convergence", o.seedBase + static_cast<std::uint64_t>(k), so);
  });
  progress.finish();

  ExperimentResult res;
  json& j = res.json;
  const SeedResult& s0 = out[0];
  j["settings"] = settingsJson("seq2seq-convergence", o, seeds, s0.iters, threads);
  j["settings"]["n"] = s0.n;
  j["settings"]["T"] = s0.T;
  j["settings"]["d"] = s0.d;
  j["settings"]["every"] = s0.every;
  j["settings"]["scenario"] = "sphere";
  j["settings"]["optimizer"] = "ngd";
  j["settings"]["lr"] = 0.1;
  j["settings"]["init"] = "W = 0; K, Q with i.i.d. N(0, 0.1^2) entries (the sphere scenario's)";
  j["settings"]["labels"] = "Y_i for every query of sequence i (gamma_ikt = Y_i v^T x_it)";
  j["settings"]["scopes"] = seq2seqScopes();
  j["settings"]["converged"] = "corrOwn >= 0.99 (fractionConverged: among the runs with an SVM)";
  j["settings"]["softmax"] =
      "mean over the units with two or more tokens (causal query 0 attends to itself only)";
  const SeriesBlock block = aggregateSeries(out.data(), seeds);
  const std::vector<std::string> fields = {
      "softmaxSelected", "corrFro",    "corrNuclear", "corrOwn",    "minSoftmax",   "loss",
      "shareOptimal",    "shareLocal", "gapFro",      "gapNuclear", "violationFro", "rankW"};
  json summary, runs = json::array();
  for (const std::string& scope : seq2seqScopes()) {
    auto col = [&](const char* f) {
      return valueColumn(out.data(), seeds, columnName({scope, f}));
    };
    json sm;
    for (const std::string& f : fields) sm[f] = statsJson(stats(col(f.c_str())));
    for (const char* f : {"feasible", "global", "local"}) {
      double sum = 0;
      for (double x : col(f)) sum += x;
      sm[std::string("fraction") + static_cast<char>(f[0] - 'a' + 'A') + (f + 1)] = sum / seeds;
    }
    // corr >= 0.99 among the runs whose SVM exists: the share that reached it in direction.
    int reached = 0, withSvm = 0;
    for (double c : col("corrOwn"))
      if (std::isfinite(c)) {
        ++withSvm;
        reached += c >= 0.99 ? 1 : 0;
      }
    sm["fractionConverged"] = withSvm ? static_cast<double>(reached) / withSvm : kNaN;
    summary[scope] = std::move(sm);
  }
  for (int k = 0; k < seeds; ++k) {
    json r = {{"seed", o.seedBase + k}};
    for (std::size_t p = 0; p < seq2seqScopes().size(); ++p)
      r[seq2seqScopes()[p]] = scopeRunJson(out[k], p, seq2seqScopes()[p], fields);
    runs.push_back(std::move(r));
  }
  finishSeededResult(res, std::move(summary), block, std::move(runs), t0);
  return res;
}

}  // namespace attnsvm::cli
