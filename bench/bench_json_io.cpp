// Reading a problem file: nlohmann's DOM (parseJsonText, the CLI's reader before issue 42) against
// the packed arrays (parseProblemText, cli/json_io_packed.cpp), each followed by problemFromJson
// (validation and the optimal tokens included), on the real-images problem of SPEC section 6
// (Fashion-MNIST 7 vs 9, n = 1000, T = 49, d = 18 as patchDataset makes it, v = e_1, written by
// datasetToJson: 882 000 numbers, about 10 MB). Without the data set: sphere data of that shape
// (17-digit numbers, about 17 MB). Wall time of one read from memory (the file is read once).
// Run: build/native-release/bench/bench_json_io --benchmark_repetitions=5
// With ATTNSVM_BENCH_WRITE=FILE it also writes the problem to FILE (for `attnsvm solve FILE`).
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <string>

#include "attnsvm/data/real_images.hpp"
#include "attnsvm/experiments/scenarios.hpp"
#include "json_io.hpp"

namespace attnsvm {
namespace {

const std::string& problemText() {
  static const std::string text = [] {
    Dataset data;
    try {
      data = patchDataset(binarySubset(readFashionMnist("train"), 7, 9, 1000), 7, 9);
    } catch (const std::exception&) {
      data = sphereDataset(1000, 49, 18, 1);
    }
    data.v = Vec::Unit(data.d, 0);
    data.alpha.clear();
    std::string text = cli::datasetToJson(data, AttentionKind::Cross).dump();
    if (const char* file = std::getenv("ATTNSVM_BENCH_WRITE")) cli::writeTextFile(file, text);
    return text;
  }();
  return text;
}

void BM_ReadProblem_Dom(benchmark::State& state) {
  const std::string& text = problemText();
  for (auto _ : state) {
    const cli::ProblemInput in = cli::problemFromJson(cli::parseJsonText(text, "bench"));
    benchmark::DoNotOptimize(in.data.X.data());
  }
  state.counters["MB"] = static_cast<double>(text.size()) / 1e6;
  state.SetBytesProcessed(static_cast<std::int64_t>(text.size()) * state.iterations());
}
BENCHMARK(BM_ReadProblem_Dom)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_ReadProblem_Packed(benchmark::State& state) {
  const std::string& text = problemText();
  for (auto _ : state) {
    const cli::ProblemInput in = cli::problemFromJson(cli::parseProblemText(text, "bench"));
    benchmark::DoNotOptimize(in.data.X.data());
  }
  state.counters["MB"] = static_cast<double>(text.size()) / 1e6;
  state.SetBytesProcessed(static_cast<std::int64_t>(text.size()) * state.iterations());
}
BENCHMARK(BM_ReadProblem_Packed)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace attnsvm

BENCHMARK_MAIN();
