// The core's field lists (attnsvm/fields.hpp) and the solve request built on them: each list names
// its fields once, as camelCase identifiers; a reader sets exactly the fields it is given (the rest
// keep the struct's defaults); a writer skips what the list marks as absent for the value; the
// request's defaults (attention from the dataset, the selection) are the core's.
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

#include "attnsvm/errors.hpp"
#include "attnsvm/fields.hpp"
#include "attnsvm/margin.hpp"
#include "attnsvm/scenarios.hpp"
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
