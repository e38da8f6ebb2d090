// The core's structs to and from JSON through their field lists (attnsvm/vocab/fields.hpp; see
// json_io.hpp): the visitors (JsonIn reads, JsonOut writes), fieldsToJson / fieldsFromJson for
// every listed struct, and the problem, dataset, solution and report built on them.
#include "json_io.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "attnsvm/data/real_images.hpp"
#include "attnsvm/experiments/experiment.hpp"
#include "attnsvm/experiments/experiment_basin.hpp"
#include "attnsvm/experiments/real_ladder.hpp"
#include "attnsvm/experiments/real_phase.hpp"
#include "attnsvm/experiments/real_run.hpp"
#include "attnsvm/experiments/real_study.hpp"
#include "attnsvm/train/path.hpp"
#include "attnsvm/vocab/fields.hpp"
#include "attnsvm/vocab/names.hpp"
#include "json_io_internal.hpp"

namespace attnsvm::cli {

using detail::fail;
using detail::shortDump;
using detail::typeWord;

namespace {

// ---- reading through the core's field lists (attnsvm/vocab/fields.hpp)

void readValue(const json& j, const std::string& where, double& x) { x = readNumber(j, where); }
void readValue(const json& j, const std::string& where, int& x) { x = readInt(j, where); }
void readValue(const json& j, const std::string& where, bool& x) {
  if (!j.is_boolean())
    fail(where + " is " + typeWord(j) + " (" + shortDump(j) + "), expected true or false");
  x = j.get<bool>();
}
void readValue(const json& j, const std::string& where, std::uint64_t& x) {
  if (j.is_number_unsigned()) {
    x = j.get<std::uint64_t>();
    return;
  }
  const double v = readNumber(j, where);
  if (v < 0 || v != std::floor(v) || v > 9007199254740991.0)
    fail(where + " = " + shortDump(j) + " must be an integer in 0..2^53-1");
  x = static_cast<std::uint64_t>(v);
}
void readValue(const json& j, const std::string& where, std::string& x) {
  if (!j.is_string())
    fail(where + " is " + typeWord(j) + " (" + shortDump(j) + "), expected a string");
  x = j.get<std::string>();
}
template <class E, class = std::enable_if_t<std::is_enum_v<E>>>
void readValue(const json& j, const std::string& where, E& x) {
  std::string name;
  readValue(j, where, name);
  x = parseWireName<E>(name, where);
}
template <class E>
void readValue(const json& j, const std::string& where, std::optional<E>& x) {
  E e{};
  readValue(j, where, e);
  x = e;
}
// Arrays: null is an absent array (as an omitted key).
void readValue(const json& j, const std::string& where, Mat& x) {
  if (!j.is_null()) x = readMatrix(j, where);
}
void readValue(const json& j, const std::string& where, Vec& x) {
  if (!j.is_null()) x = readVector(j, where);
}
void readValue(const json& j, const std::string& where, std::vector<int>& x) {
  if (j.is_null()) return;
  if (const auto a = detail::packedArray(j)) {  // see json_io_packed.cpp
    const bool ints =
        a->shape.size() == 1 && std::all_of(a->values.begin(), a->values.end(), [](double v) {
          return v == std::floor(v) && std::abs(v) <= 1e9;
        });
    if (!ints) return readValue(detail::unpacked(j), where, x);
    x.assign(a->values.begin(), a->values.end());
    return;
  }
  if (!j.is_array()) fail(where + " is " + typeWord(j) + ", expected an array of integers");
  x.resize(j.size());
  for (std::size_t k = 0; k < j.size(); ++k)
    x[k] = readInt(j[k], where + "[" + std::to_string(k) + "]");
}
// A dataset's X: n x T x d nested arrays, every index named in the messages.
void readValue(const json& jx, const std::string& where, const TokensRef<Mat, int>& tokens) {
  if (jx.is_null()) return;
  if (const auto a = detail::packedArray(jx)) {  // see json_io_packed.cpp
    if (a->shape.size() != 3) return readValue(detail::unpacked(jx), where, tokens);
    using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
    tokens.X = Eigen::Map<const RowMajor>(a->values.data(), a->shape[0] * a->shape[1], a->shape[2]);
    tokens.n = static_cast<int>(a->shape[0]);
    tokens.T = static_cast<int>(a->shape[1]);
    tokens.d = static_cast<int>(a->shape[2]);
    return;
  }
  if (!jx.is_array()) fail(where + " is " + typeWord(jx) + ", expected n x T x d nested arrays");
  if (jx.empty()) fail(where + " is empty: need at least one sequence");
  if (!jx[0].is_array())
    fail(where + "[0] is " + typeWord(jx[0]) + ", expected an array of tokens");
  if (jx[0].empty()) fail(where + "[0] has no tokens: need at least one token per sequence");
  if (!jx[0][0].is_array())
    fail(where + "[0][0] is " + typeWord(jx[0][0]) + ", expected an array of d numbers");
  const int n = static_cast<int>(jx.size());
  const int T = static_cast<int>(jx[0].size());
  const int d = static_cast<int>(jx[0][0].size());
  if (d == 0) fail(where + "[0][0] has no coordinates: need dimension d >= 1");
  Mat& X = tokens.X;
  X.resize(static_cast<Index>(n) * T, d);
  for (int i = 0; i < n; ++i) {
    const std::string seq = where + "[" + std::to_string(i) + "]";
    const json& xs = jx[i];
    if (!xs.is_array()) fail(seq + " is " + typeWord(xs) + ", expected an array of tokens");
    if (static_cast<int>(xs.size()) != T)
      fail(seq + " has " + std::to_string(xs.size()) + " tokens, expected " + std::to_string(T) +
           " (as " + where + "[0]; all sequences need the same length)");
    for (int t = 0; t < T; ++t) {
      const std::string tok = seq + "[" + std::to_string(t) + "]";
      const json& xt = xs[t];
      if (!xt.is_array())
        fail(tok + " is " + typeWord(xt) + ", expected an array of " + std::to_string(d) +
             " numbers");
      if (static_cast<int>(xt.size()) != d)
        fail(tok + " has " + std::to_string(xt.size()) + " coordinates, expected " +
             std::to_string(d) + " (as " + where + "[0][0])");
      for (int k = 0; k < d; ++k)
        X(static_cast<Index>(i) * T + t, k) =
            readNumber(xt[k], tok + "[" + std::to_string(k) + "]");
    }
  }
  tokens.n = n;
  tokens.T = T;
  tokens.d = d;
}

// Reads one JSON object through field lists: visits set the fields the object has; finish() then
// rejects every key no visit named (notAField lists the names).
class JsonIn {
 public:
  JsonIn(const json& object, std::string prefix) : obj_(object), prefix_(std::move(prefix)) {}

  template <class T>
  void operator()(const char* name, T& x, bool = true) {
    if (const json* f = take(name)) readValue(*f, prefix_ + name, x);
  }
  void operator()(const char* name, const TokensRef<Mat, int>& x, bool = true) {
    if (const json* f = take(name)) readValue(*f, prefix_ + name, x);
  }
  template <class Fn>
  void object(const char* name, Fn&& fn, bool = true) {
    const json* f = take(name);
    if (!f || f->is_null()) return;
    if (!f->is_object())
      fail(prefix_ + name + " is " + typeWord(*f) + " (" + shortDump(*f) + "), expected an object");
    JsonIn sub(*f, prefix_ + name + ".");
    fn(sub);
    sub.finish();
  }
  // A key that is accepted here but read by the caller (`skip` before the visit: a field the
  // caller reads itself).
  void accept(const char* name) { names_.emplace_back(name); }
  void skip(const char* name) { skipped_.emplace_back(name); }

  void finish() const {
    for (const auto& item : obj_.items())
      if (std::find(names_.begin(), names_.end(), item.key()) == names_.end())
        notAField(prefix_ + item.key(), names_);
  }

 private:
  const json* take(const char* name) {
    names_.emplace_back(name);
    if (std::find(skipped_.begin(), skipped_.end(), name) != skipped_.end()) return nullptr;
    const auto it = obj_.find(name);
    return it == obj_.end() ? nullptr : &*it;
  }

  const json& obj_;
  std::string prefix_;
  std::vector<std::string> names_, skipped_;
};

// ---- writing through the field lists

struct JsonOut {
  json& out;
  void operator()(const char* name, double x, bool w = true) {
    if (w) out[name] = x;
  }
  void operator()(const char* name, int x, bool w = true) {
    if (w) out[name] = x;
  }
  void operator()(const char* name, bool x, bool w = true) {
    if (w) out[name] = x;
  }
  void operator()(const char* name, std::uint64_t x, bool w = true) {
    if (w) out[name] = x;
  }
  void operator()(const char* name, const std::string& x, bool w = true) {
    if (w) out[name] = x;
  }
  template <class E, class = std::enable_if_t<std::is_enum_v<E>>>
  void operator()(const char* name, E x, bool w = true) {
    if (w) out[name] = wireName(x);
  }
  template <class E>
  void operator()(const char* name, const std::optional<E>& x, bool w = true) {
    if (w && x) out[name] = wireName(*x);
  }
  void operator()(const char* name, const Mat& m, bool w = true) {
    if (w) out[name] = toJson(m);
  }
  void operator()(const char* name, const Vec& x, bool w = true) {
    if (w) out[name] = vectorJson(x);
  }
  void operator()(const char* name, const std::vector<int>& x, bool w = true) {
    if (w) out[name] = x;
  }
  void operator()(const char* name, const std::vector<std::vector<int>>& x, bool w = true) {
    if (w) out[name] = x;
  }
  void operator()(const char* name, const std::vector<double>& x, bool w = true) {
    if (w) out[name] = x;
  }
  void operator()(const char* name, const IndexPairs& x, bool w = true) {
    if (!w) return;
    json a = json::array();
    for (const auto& [i, t] : x.pairs) a.push_back({i, t});
    out[name] = std::move(a);
  }
  void operator()(const char* name, const TokensRef<const Mat, const int>& x, bool w = true) {
    if (!w) return;
    json X = json::array();
    for (int i = 0; i < x.n; ++i)
      X.push_back(toJson(Mat(x.X.middleRows(static_cast<Index>(i) * x.T, x.T))));
    out[name] = std::move(X);
  }
  template <class Fn>
  void object(const char* name, Fn&& fn, bool w = true) {
    if (!w) return;
    json sub = json::object();
    JsonOut v{sub};
    fn(v);
    out[name] = std::move(sub);
  }
};

// A writer of some of the fields (fieldsToJson(s, names, except)).
struct SomeJsonOut {
  JsonOut out;
  const std::vector<std::string>& names;
  bool except;
  bool wanted(const char* name) const {
    return (std::find(names.begin(), names.end(), name) != names.end()) != except;
  }
  template <class T>
  void operator()(const char* name, const T& x, bool w = true) {
    if (wanted(name)) out(name, x, w);
  }
  template <class Fn>
  void object(const char* name, Fn&& fn, bool w = true) {
    if (wanted(name)) out.object(name, std::forward<Fn>(fn), w);
  }
};

}  // namespace

template <class T>
json fieldsToJson(const T& s, const std::vector<std::string>& names, bool except) {
  json j = json::object();
  SomeJsonOut v{JsonOut{j}, names, except};
  visitFields(s, v);
  return j;
}

template <class T>
json fieldsToJson(const T& s) {
  json j = json::object();
  JsonOut v{j};
  visitFields(s, v);
  return j;
}

template <class T>
T fieldsFromJson(const json& j, const std::string& what) {
  T s{};
  if (j.is_null()) return s;
  if (!j.is_object())
    fail(what + " is " + typeWord(j) + " (" + shortDump(j) + "), expected an object");
  JsonIn in(j, what.empty() ? what : what + ".");
  visitFields(s, in);
  in.finish();
  return s;
}

#define ATTNSVM_CLI_FIELDS(T)                \
  template json fieldsToJson<T>(const T& s); \
  template T fieldsFromJson<T>(const json& j, const std::string& what);
ATTNSVM_CLI_FIELDS(ModelSpec)
ATTNSVM_CLI_FIELDS(TrainSettings)
ATTNSVM_CLI_FIELDS(Params)
ATTNSVM_CLI_FIELDS(InitSettings)
ATTNSVM_CLI_FIELDS(SolverSettings)
ATTNSVM_CLI_FIELDS(SolveRequest)
ATTNSVM_CLI_FIELDS(ScenarioOptions)
ATTNSVM_CLI_FIELDS(SeedOptions)
ATTNSVM_CLI_FIELDS(SeedsRequest)
ATTNSVM_CLI_FIELDS(BasinMapRequest)
ATTNSVM_CLI_FIELDS(RealImagesSettings)
ATTNSVM_CLI_FIELDS(RealStudySettings)
ATTNSVM_CLI_FIELDS(RealStudyRun)
ATTNSVM_CLI_FIELDS(RealStudyRunResult)
ATTNSVM_CLI_FIELDS(RealTrainSettings)
ATTNSVM_CLI_FIELDS(RealLadderSettings)
ATTNSVM_CLI_FIELDS(RealLadderRun)
ATTNSVM_CLI_FIELDS(RealPhaseSettings)
#undef ATTNSVM_CLI_FIELDS
template json fieldsToJson<RealStudyRow>(const RealStudyRow& s);
template json fieldsToJson<RealLadderRow>(const RealLadderRow& s);
template json fieldsToJson<RealLadderRunResult>(const RealLadderRunResult& s);
template json fieldsToJson<RealLadderSummary>(const RealLadderSummary& s);
template json fieldsToJson<RealPhaseRow>(const RealPhaseRow& s);
template json fieldsToJson<RealPhaseSummary>(const RealPhaseSummary& s);
template json fieldsToJson<RealImagesFrame>(const RealImagesFrame& s);
template json fieldsToJson<RealImagesAnalysis>(const RealImagesAnalysis& s);
template json fieldsToJson<RealImagesSettings>(const RealImagesSettings& s,
                                               const std::vector<std::string>& names, bool except);
template json fieldsToJson<SeedOptions>(const SeedOptions& s, const std::vector<std::string>& names,
                                        bool except);
template json fieldsToJson<PathPoint>(const PathPoint& s);  // attnsvm path

ProblemInput problemFromJson(const json& j) {
  if (!j.is_object())
    fail(std::string("the input is ") + typeWord(j) + ", expected a JSON object with X, Z, Y, v");
  ProblemInput in;
  Dataset& data = in.data;
  // The attention first: seq2seq / causal take alpha as n x T (one token per query position),
  // read below instead of the dataset's alpha (n tokens).
  const auto attention = j.find("attention");
  const bool attentionGiven = attention != j.end() && !attention->is_null();
  if (attentionGiven) readValue(*attention, "attention", in.kind);
  const bool perQuery =
      attentionGiven && (in.kind == AttentionKind::SeqToSeq || in.kind == AttentionKind::Causal);
  JsonIn fields(j, "");
  if (perQuery) fields.skip("alpha");
  visitFields(data, fields);
  for (const char* extra : kDatasetFileExtras) fields.accept(extra);
  fields.finish();

  if (data.n == 0) fail("X is missing: expected X as n x T x d (n sequences of T tokens in R^d)");
  const int n = data.n, T = data.T, d = data.d;
  if (!attentionGiven) in.kind = defaultAttention(data);
  if (in.kind == AttentionKind::Cross) {
    if (data.Z.size() == 0)
      fail(
          "Z is missing: cross-attention needs one query per sequence (n x d); omit \"attention\" "
          "or set it to \"self\" to use a query token");
    if (data.Z.rows() != n)
      fail("Z has " + std::to_string(data.Z.rows()) + " rows, expected n = " + std::to_string(n) +
           " (one query per sequence)");
    if (data.Z.cols() != d)
      fail("Z[0] has " + std::to_string(data.Z.cols()) +
           " entries, expected d = " + std::to_string(d));
  } else {
    data.Z.resize(0, 0);  // only cross attention has queries Z
  }

  const json* ja = perQuery && j.contains("alpha") && !j["alpha"].is_null() ? &j["alpha"] : nullptr;
  json jaUnpacked;  // n x T selections, read element by element (not packed: n T ints are small)
  if (ja && detail::packedArray(*ja)) ja = &(jaUnpacked = detail::unpacked(*ja));
  const bool alphaGiven = ja != nullptr || !data.alpha.empty();
  if (data.Y.size() == 0) {
    if (!alphaGiven)
      fail("Y is missing: give labels Y (n values +1/-1) and the head v, or a selection alpha");
    data.Y = Vec::Ones(n);
  } else if (data.Y.size() != n) {
    fail("Y has " + std::to_string(data.Y.size()) + " labels, expected n = " + std::to_string(n));
  }
  if (data.v.size() == 0) {
    if (!alphaGiven) fail("v is missing: give the head v (d values), or a selection alpha");
    data.v = Vec::Zero(d);
  } else if (data.v.size() != d) {
    fail("v has " + std::to_string(data.v.size()) + " entries, expected d = " + std::to_string(d));
  }
  if (ja) {
    if (!ja->is_array() || static_cast<int>(ja->size()) != n)
      fail("alpha must be n x T integers for " + std::string(toString(in.kind)) +
           " attention (one token per sequence and query position)");
    for (int i = 0; i < n; ++i) {
      const std::string row = "alpha[" + std::to_string(i) + "]";
      if (!(*ja)[i].is_array() || static_cast<int>((*ja)[i].size()) != T)
        fail(row + " must hold T = " + std::to_string(T) + " integers (one per query position)");
      for (int k = 0; k < T; ++k) {
        const std::string where = row + "[" + std::to_string(k) + "]";
        const int a = readInt((*ja)[i][k], where);
        const int hi = in.kind == AttentionKind::Causal ? k : T - 1;
        if (a < 0 || a > hi)
          fail(where + " = " + std::to_string(a) + " is out of range 0.." + std::to_string(hi) +
               (in.kind == AttentionKind::Causal ? " (causal: a query attends to tokens t <= k)"
                                                 : ""));
        in.units.push_back(a);
      }
    }
  } else if (!data.alpha.empty()) {
    if (static_cast<int>(data.alpha.size()) != n)
      fail("alpha has " + std::to_string(data.alpha.size()) +
           " entries, expected n = " + std::to_string(n));
    for (int i = 0; i < n; ++i)
      if (data.alpha[i] < 0 || data.alpha[i] >= T)
        fail("alpha[" + std::to_string(i) + "] = " + std::to_string(data.alpha[i]) +
             " is out of range 0.." + std::to_string(T - 1));
  }
  in.alphaGiven = alphaGiven;
  validate(data, in.kind);
  if (data.alpha.empty()) data.alpha = optimalTokens(data).opt;
  if (!perQuery || in.units.empty())
    in.units = defaultSelection(data, in.kind);  // the core's default
  return in;
}

json datasetToJson(const Dataset& data, AttentionKind kind) {
  json j = json::object();
  JsonOut v{j};
  visitFields(data, v, kind);  // Z only for cross, query only for self attention (fields.hpp)
  if (kind != AttentionKind::Cross) j["attention"] = toString(kind);
  return j;
}

json solutionToJson(const MarginProblem& problem, const MarginSolution& sol) {
  json j = json::object();
  JsonOut v{j};
  visitFields(sol, problem, v);
  return j;
}

json selectionReportToJson(const SelectionReport& r, const MarginProblem& problem) {
  json j = json::object();
  JsonOut v{j};
  visitFields(r, problem, v);
  return j;
}

}  // namespace attnsvm::cli
