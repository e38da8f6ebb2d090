// The core's field lists (attnsvm/vocab/fields.hpp) and the solve request built on them: each list
// names its fields once, as camelCase identifiers; a reader sets exactly the fields it is given
// (the rest keep the struct's defaults); a writer skips what the list marks as absent for the
// value; the request's defaults (attention from the dataset, the selection) are the core's.
#include <gtest/gtest.h>

#include <cctype>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "attnsvm/base/errors.hpp"
#include "attnsvm/data/real_images.hpp"
#include "attnsvm/experiments/experiment.hpp"
#include "attnsvm/experiments/experiment_basin.hpp"
#include "attnsvm/experiments/real_run.hpp"
#include "attnsvm/experiments/scenarios.hpp"
#include "attnsvm/solvers/margin.hpp"
#include "attnsvm/vocab/fields.hpp"
#include "engine_test_data.hpp"

namespace attnsvm {
namespace {

template <class T, class... Extra>
void expectWellFormed(const char* what, const Extra&... extra) {
  const std::vector<std::string> names = fieldNames<T>(extra...);
  EXPECT_FALSE(names.empty()) << what;
  EXPECT_EQ(std::set<std::string>(names.begin(), names.end()).size(), names.size())
      << what << " names a field twice";
  for (const std::string& n : names) {
    EXPECT_TRUE(std::isalpha(static_cast<unsigned char>(n[0]))) << what << ": " << n;
    for (char c : n) EXPECT_TRUE(std::isalnum(static_cast<unsigned char>(c))) << what << ": " << n;
  }
}

TEST(Fields, EveryListNamesItsFieldsOnceInCamelCase) {
  expectWellFormed<Dataset>("Dataset");
  expectWellFormed<ModelSpec>("ModelSpec");
  expectWellFormed<TrainSettings>("TrainSettings");
  expectWellFormed<Params>("Params");
  expectWellFormed<InitSettings>("InitSettings");
  expectWellFormed<SolverSettings>("SolverSettings");
  expectWellFormed<SolveRequest>("SolveRequest");
  expectWellFormed<ScenarioOptions>("ScenarioOptions");
  expectWellFormed<MarginSolution>("MarginSolution", MarginProblem{});
  expectWellFormed<SelectionReport>("SelectionReport", MarginProblem{});
  expectWellFormed<SeedOptions>("SeedOptions");
  expectWellFormed<SeedsRequest>("SeedsRequest");
  expectWellFormed<BasinMapRequest>("BasinMapRequest");
  expectWellFormed<RealImagesSettings>("RealImagesSettings");
  expectWellFormed<RealImagesFrame>("RealImagesFrame");
  expectWellFormed<RealImagesAnalysis>("RealImagesAnalysis");
  EXPECT_EQ(fieldNames<Dataset>(),
            (std::vector<std::string>{"X", "Z", "query", "Y", "v", "alpha"}));
  EXPECT_EQ(fieldNames<TrainSettings>().size(), 15u);
  const std::vector<std::string> solve = fieldNames<SolveRequest>();
  EXPECT_EQ(solve.front(), "dataset");
  EXPECT_EQ(std::vector<std::string>(solve.end() - 6, solve.end()), fieldNames<SolverSettings>());
}

// A document of scalars only (enough to see which fields a visitor reads and writes).
using Value = std::variant<double, int, bool, std::string>;
struct MapWriter {
  std::map<std::string, Value>& out;
  template <class T>
  void operator()(const char* name, const T& x, bool written = true) {
    if (!written) return;
    if constexpr (std::is_enum_v<T>)
      out[name] = std::string(wireName(x));
    else if constexpr (std::is_same_v<T, std::uint64_t>)
      out[name] = static_cast<double>(x);
    else if constexpr (std::is_arithmetic_v<T>)
      out[name] = x;
    else if constexpr (std::is_same_v<T, std::string>)
      out[name] = x;
    else
      out[name] = std::string("(array)");
  }
  template <class Fn>
  void object(const char* name, Fn&&, bool written = true) {
    if (written) out[name] = std::string("(object)");
  }
};
struct MapReader {
  const std::map<std::string, Value>& in;
  template <class T>
  void operator()(const char* name, T& x, bool = true) {
    const auto it = in.find(name);
    if (it == in.end()) return;
    if constexpr (std::is_enum_v<T>)
      x = parseWireName<T>(std::get<std::string>(it->second), name);
    else if constexpr (std::is_same_v<T, std::uint64_t>)
      x = static_cast<std::uint64_t>(std::get<double>(it->second));
    else if constexpr (std::is_arithmetic_v<T>)
      x = std::get<T>(it->second);
    else if constexpr (std::is_same_v<T, std::string>)
      x = std::get<std::string>(it->second);
  }
  template <class Fn>
  void object(const char*, Fn&&, bool = true) {}
};

TEST(Fields, ReadersSetWhatTheyAreGivenAndKeepTheDefaultsOfTheRest) {
  TrainSettings s;
  const std::map<std::string, Value> in = {
      {"optimizer", std::string("adam")}, {"lr", 0.5}, {"traceEvery", 3}, {"trainHead", true}};
  MapReader r{in};
  visitFields(s, r);
  EXPECT_EQ(s.optimizer, Optimizer::Adam);
  EXPECT_EQ(s.lr, 0.5);
  EXPECT_EQ(s.traceEvery, 3);
  EXPECT_TRUE(s.trainHead);
  EXPECT_EQ(s.p, TrainSettings{}.p);
  EXPECT_EQ(s.adamBeta2, TrainSettings{}.adamBeta2);
  std::map<std::string, Value> once, twice;
  MapWriter w1{once};
  visitFields(std::as_const(s), w1);
  TrainSettings back;
  MapReader r2{once};
  visitFields(back, r2);
  MapWriter w2{twice};
  visitFields(std::as_const(back), w2);
  EXPECT_EQ(once, twice);
  EXPECT_EQ(once.size(), 15u);
}

TEST(Fields, WritersWriteWhatTheValueUses) {
  std::map<std::string, Value> out;
  MapWriter w{out};
  InitSettings init;  // zero: only the kind
  visitFields(std::as_const(init), w);
  EXPECT_EQ(out.size(), 1u);
  init.kind = InitKind::Random;
  visitFields(std::as_const(init), w);
  EXPECT_EQ(out.count("seed") + out.count("scale"), 2u);
  EXPECT_EQ(out.count("given") + out.count("coneNoise"), 0u);

  Dataset d = testdata::gaussianDataset(2, 3, 2, 4);
  for (const auto& [kind, query, z] :
       {std::tuple{AttentionKind::Cross, 0u, 1u}, std::tuple{AttentionKind::Self, 1u, 0u},
        std::tuple{AttentionKind::Causal, 0u, 0u}}) {
    out.clear();
    visitFields(std::as_const(d), w, kind);
    EXPECT_EQ(out.count("query"), query) << wireName(kind);
    EXPECT_EQ(out.count("Z"), z) << wireName(kind);
  }
  out.clear();
  visitFields(std::as_const(d), w);  // the dataset's own attention: cross (it has Z)
  EXPECT_EQ(out.count("Z"), 1u);
  EXPECT_EQ(out.count("query"), 0u);
}

TEST(Fields, SolveRequestDefaultsAreTheCores) {
  SolveRequest r;
  r.dataset = testdata::gaussianDataset(3, 4, 5, 2);
  r.dataset.alpha.clear();
  EXPECT_EQ(attentionOf(r), AttentionKind::Cross);
  EXPECT_EQ(selectionOf(r), optimalTokens(r.dataset).opt);
  r.attention = AttentionKind::Causal;
  EXPECT_EQ(selectionOf(r), defaultSelection(r.dataset, AttentionKind::Causal));
  EXPECT_EQ(svmProblem(r).constraints(), 3 * (0 + 1 + 2 + 3));  // t != selected, t <= k
  r.problem = SvmProblemKind::Head;  // one selected token per sequence whatever the attention
  EXPECT_EQ(selectionOf(r), optimalTokens(r.dataset).opt);
  r.problem = SvmProblemKind::Prompt;
  try {
    svmProblem(r);
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "the prompt problem needs the key matrix Wk");
  }
  r.dataset.Z.resize(0, 0);
  r.attention.reset();
  EXPECT_EQ(attentionOf(r), AttentionKind::Self);
}

// The experiment settings and results (experiment.hpp, experiment_basin.hpp, real_images.hpp): one
// list each, every field of the struct named once (a struct field added without a list entry shows
// as a field the round trip does not carry), the request's list holding the options' beside its
// own.
TEST(Fields, ExperimentListsNameEveryFieldAndRoundTrip) {
  EXPECT_EQ(fieldNames<SeedOptions>(),
            (std::vector<std::string>{"iters", "every", "d", "n", "T", "rankTol", "p", "method"}));
  const std::vector<std::string> seeds = fieldNames<SeedsRequest>();
  EXPECT_EQ(std::vector<std::string>(seeds.begin(), seeds.begin() + 2),
            (std::vector<std::string>{"seedStart", "seedCount"}));
  EXPECT_EQ(std::vector<std::string>(seeds.begin() + 2, seeds.end()), fieldNames<SeedOptions>());
  EXPECT_EQ(fieldNames<BasinMapRequest>(),
            (std::vector<std::string>{"grid", "rowStart", "rowCount", "iters", "seed"}));
  EXPECT_EQ(fieldNames<RealImagesSettings>(),
            (std::vector<std::string>{"classA", "classB", "nTrain", "nTest", "seed", "patch", "dim",
                                      "embedSeed", "optimizer", "p", "lr", "iters", "nSvm",
                                      "histogramBins"}));
  EXPECT_EQ(fieldNames<RealImagesFrame>(),
            (std::vector<std::string>{"iteration", "trainLoss", "testLoss", "trainAccuracy",
                                      "testAccuracy", "trainMaxSoftmax", "testMaxSoftmax",
                                      "sparsity", "histogram"}));
  EXPECT_EQ(fieldNames<RealImagesAnalysis>(),
            (std::vector<std::string>{"nSvm", "selection", "verdict", "feasible", "status", "corr",
                                      "divergence", "svm"}));

  // Every scalar field of the inputs round-trips, none is left at its default: set each to a value
  // other than the default, write, read into a default struct, write again.
  RealImagesSettings rs;
  rs.classA = 1;
  rs.classB = 2;
  rs.nTrain = 40;
  rs.nTest = 30;
  rs.seed = 5;
  rs.patch = 7;
  rs.optimizer = Optimizer::MD;
  rs.p = 3;
  rs.lr = 0.5;
  rs.iters = 9;
  rs.nSvm = 11;
  rs.histogramBins = 12;
  std::map<std::string, Value> once, twice;
  MapWriter w1{once};
  visitFields(std::as_const(rs), w1);
  EXPECT_EQ(once.size(), fieldNames<RealImagesSettings>().size());
  RealImagesSettings back;
  MapReader r1{once};
  visitFields(back, r1);
  MapWriter w2{twice};
  visitFields(std::as_const(back), w2);
  EXPECT_EQ(once, twice);
  EXPECT_EQ(back.seed, 5u);
  EXPECT_EQ(back.optimizer, Optimizer::MD);
  EXPECT_EQ(back.histogramBins, 12);
  rs.optimizer = Optimizer::Adam;  // Adam ignores p: not written
  once.clear();
  visitFields(std::as_const(rs), w1);
  EXPECT_EQ(once.count("p"), 0u);

  SeedsRequest sr;
  sr.seedStart = 3;
  sr.seedCount = 4;
  sr.options.iters = 10;
  sr.options.every = 2;
  sr.options.d = 5;
  sr.options.n = 6;
  sr.options.T = 7;
  sr.options.rankTol = 1e-6;
  sr.options.p = 1.5;
  sr.options.method = "ngd";
  once.clear();
  twice.clear();
  visitFields(std::as_const(sr), w1);
  EXPECT_EQ(once.size(), seeds.size());
  SeedsRequest sb;
  MapReader r2{once};
  visitFields(sb, r2);
  visitFields(std::as_const(sb), w2);
  EXPECT_EQ(once, twice);
  EXPECT_EQ(sb.options.method, "ngd");
  EXPECT_EQ(sb.options.rankTol, 1e-6);
  // the options' defaults (the experiment's) are not written
  once.clear();
  const SeedsRequest defaults{};
  visitFields(defaults, w1);
  EXPECT_EQ(once.size(), 2u);

  BasinMapRequest br;
  br.grid = 20;
  br.rowStart = 3;
  br.rowCount = 2;
  br.iters = 50;
  br.seed = 4;
  once.clear();
  twice.clear();
  visitFields(std::as_const(br), w1);
  BasinMapRequest bb;
  MapReader r3{once};
  visitFields(bb, r3);
  visitFields(std::as_const(bb), w2);
  EXPECT_EQ(once, twice);
  EXPECT_EQ(once.size(), 5u);

  // results: written whole, the SVM only when there is one
  RealImagesAnalysis a;
  once.clear();
  visitFields(a, w1);
  EXPECT_EQ(once.count("svm"), 0u);
  a.svm = Mat::Identity(2, 2);
  visitFields(a, w1);
  EXPECT_EQ(once.size(), fieldNames<RealImagesAnalysis>().size());
  once.clear();
  visitFields(RealImagesFrame{}, w1);
  EXPECT_EQ(once.size(), fieldNames<RealImagesFrame>().size());
}

TEST(Fields, NotAFieldListsTheAcceptedNames) {
  try {
    notAField("train.learningRate", fieldNames<TrainSettings>());
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("train.learningRate is not a field; expected one of "
                                          "optimizer, lr, p, balance, trainHead, ",
                                          0),
              0u)
        << e.what();
    return;
  }
  ADD_FAILURE() << "no error";
}

}  // namespace
}  // namespace attnsvm
