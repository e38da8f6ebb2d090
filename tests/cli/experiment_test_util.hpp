// Helpers of the experiment tests (experiments_test.cpp, real_images_test.cpp): reduced options
// and the JSON without its timing fields.
#pragma once

#include <nlohmann/json.hpp>

#include "experiments.hpp"

namespace attnsvm::cli::test {

// An experiment at reduced size: `seeds` runs of `iters` iterations on `threads` threads, quiet.
inline ExperimentOptions small(int seeds, int iters, int threads = 2) {
  ExperimentOptions o;
  o.seeds = seeds;
  o.iters = iters;
  o.threads = threads;
  o.progress = false;
  return o;
}

// The result without what depends on the machine (wall time, thread count), for comparisons.
inline nlohmann::json stripTiming(nlohmann::json j) {
  j.erase("seconds");
  j["settings"].erase("threads");
  return j;
}

}  // namespace attnsvm::cli::test
