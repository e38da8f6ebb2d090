// The registry of the seeded experiments (SeedExperiment, experiment.hpp) and the runners that
// read it. Each experiment lives in its own file (experiment_<name>.cpp); adding one is its file
// and one line in the table below (docs/ARCHITECTURE.md, "An experiment").
#include <algorithm>
#include <string>
#include <vector>

#include "attnsvm/base/errors.hpp"
#include "attnsvm/experiments/experiment.hpp"
#include "attnsvm/experiments/experiment_hierarchy.hpp"
#include "attnsvm/experiments/experiment_md.hpp"
#include "attnsvm/experiments/experiment_prompt.hpp"
#include "attnsvm/experiments/experiment_reg_path.hpp"
#include "attnsvm/experiments/experiment_seq2seq.hpp"
#include "experiments/experiment_internal.hpp"

namespace attnsvm {

const std::vector<SeedExperiment>& seedExperimentRegistry() {
  using namespace experiment_detail;
  using O = const SeedOptions&;
  // name, one seed, several seeds at once (batched training; null: seed by seed). The single-run
  // experiments' "seed" is the CLI's --seed-base (their data is fixed; it seeds only the (K,Q)
  // start of paths2d).
  static const std::vector<SeedExperiment> registry = {
      {"local-convergence", &localConvergenceSeed, &localConvergenceSeeds},
      {"overparam", &overparamSeed, nullptr},  // per seed: see experiment_overparam.cpp
      {"rates", &ratesSeed, nullptr},
      {"mirror-descent", &mirrorDescentSeed, &mirrorDescentSeeds},
      {"multitoken", &multitokenSeed, nullptr},
      {"rank", &rankSeed, nullptr},
      {"prompt-global-local",
       [](std::uint64_t s, O o) { return promptGlobalLocalSeed(s, o.iters, o.every); }, nullptr},
      {"loss-function", [](std::uint64_t s, O o) { return lossFunctionSeed(s, o.iters, o.every); },
       nullptr},
      {"joint-pv", [](std::uint64_t s, O o) { return jointPvSeed(s, o.iters, o.every); }, nullptr},
      {"paths2d", [](std::uint64_t s, O o) { return paths2dSeed(s, false, o.iters, o.every); },
       nullptr},
      {"paths2d-t5", [](std::uint64_t s, O o) { return paths2dSeed(s, true, o.iters, o.every); },
       nullptr},
      {"md-convergence", &mdConvergenceSeed, &mdConvergenceSeeds},  // experiment_md.cpp
      {"joint-wv", [](std::uint64_t s, O o) { return jointWvSeed(s, o.iters, o.every); }, nullptr},
      {"reg-path", &regPathSeed, nullptr},                        // experiment_reg_path.cpp
      {"seq2seq-convergence", &seq2seqConvergenceSeed, nullptr},  // experiment_seq2seq.cpp
      {"hierarchy", &hierarchySeed, nullptr},                     // experiment_hierarchy.cpp
  };
  return registry;
}

std::vector<std::string> seedExperimentNames() {
  std::vector<std::string> names;
  for (const SeedExperiment& e : seedExperimentRegistry()) names.emplace_back(e.name);
  return names;
}

namespace {

constexpr int kMaxIters = 10000000;
constexpr int kMaxDim = 1024;

const SeedExperiment& seedExperiment(const std::string& name) {
  for (const SeedExperiment& e : seedExperimentRegistry())
    if (name == e.name) return e;
  std::string list;
  for (const auto& n : seedExperimentNames()) list += (list.empty() ? "" : ", ") + n;
  throw InputError("experiment '" + name + "' has no per-seed form; expected one of: " + list);
}

void checkSeedOptions(const SeedOptions& o) {
  if (o.iters != -1 && (o.iters < 1 || o.iters > kMaxIters))
    throw InputError("iters = " + std::to_string(o.iters) + " is out of range 1.." +
                     std::to_string(kMaxIters));
  if (o.every != -1 && (o.every < 1 || o.every > kMaxIters))
    throw InputError("every = " + std::to_string(o.every) + " is out of range 1.." +
                     std::to_string(kMaxIters));
  if (o.d != -1 && (o.d < 1 || o.d > kMaxDim))
    throw InputError("d = " + std::to_string(o.d) + " is out of range 1.." +
                     std::to_string(kMaxDim));
}
}  // namespace

std::vector<SeedResult> runExperimentSeeds(const std::string& name, std::uint64_t first, int count,
                                           const SeedOptions& o) {
  if (count < 0) throw InputError("seed count = " + std::to_string(count) + ": must be >= 0");
  checkSeedOptions(o);
  std::vector<SeedResult> out;
  if (count == 0) return out;
  const SeedExperiment& e = seedExperiment(name);
  if (e.seeds) {
    constexpr int kBatch =
        64;  // runs per batch: bounds the working memory, results do not depend on it
    for (int k = 0; k < count; k += kBatch) {
      std::vector<SeedResult> part = e.seeds(first + k, std::min(kBatch, count - k), o);
      for (std::size_t j = 0; j < part.size(); ++j) {
        part[j].experiment = name;
        part[j].seed = first + k + j;
        out.push_back(std::move(part[j]));
      }
    }
    return out;
  }
  out.reserve(count);
  for (int k = 0; k < count; ++k) out.push_back(runExperimentSeed(name, first + k, o));
  return out;
}

SeedResult runExperimentSeed(const std::string& name, std::uint64_t seed, const SeedOptions& o) {
  checkSeedOptions(o);
  SeedResult r = seedExperiment(name).seed(seed, o);
  r.experiment = name;
  r.seed = seed;
  return r;
}

}  // namespace attnsvm
