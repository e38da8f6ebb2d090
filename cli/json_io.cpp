// JSON in and out for the command-line tool (see json_io.hpp).
#include "json_io.hpp"

#include <cmath>
#include <fstream>
#include <iostream>
#include <iterator>
#include <limits>
#include <sstream>

#include "attnsvm/errors.hpp"
#include "attnsvm/fields.hpp"
#include "attnsvm/names.hpp"

namespace attnsvm::cli {

namespace {

[[noreturn]] void fail(const std::string& message) { throw InputError(message); }

std::string shortDump(const json& j) {
  std::string s = j.dump();
  if (s.size() > 40) s = s.substr(0, 37) + "...";
  return s;
}

const char* typeWord(const json& j) {
  switch (j.type()) {
    case json::value_t::array:
      return "an array";
    case json::value_t::object:
      return "an object";
    case json::value_t::string:
      return "a string";
    case json::value_t::boolean:
      return "a boolean";
    case json::value_t::null:
      return "null";
    default:
      return "a number";
  }
}

// Replaces bare NaN, Infinity, -Infinity outside strings by quoted strings.
std::string quoteNonFinite(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  bool inString = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (inString) {
      out += c;
      if (c == '\\' && i + 1 < text.size()) {
        out += text[++i];
      } else if (c == '"') {
        inString = false;
      }
      continue;
    }
    if (c == '"') {
      inString = true;
      out += c;
      continue;
    }
    auto startsWith = [&](const char* word) {
      return text.compare(i, std::char_traits<char>::length(word), word) == 0;
    };
    if (startsWith("-Infinity")) {
      out += "\"-Infinity\"";
      i += 8;
    } else if (startsWith("Infinity")) {
      out += "\"Infinity\"";
      i += 7;
    } else if (startsWith("NaN")) {
      out += "\"NaN\"";
      i += 2;
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace

json parseJsonText(const std::string& text, const std::string& source) {
  try {
    return json::parse(quoteNonFinite(text));
  } catch (const json::parse_error& e) {
    std::string what = e.what();
    // "[json.exception.parse_error.101] parse error at line 1, column 5: ..." -> drop the tag.
    const auto pos = what.find("] ");
    if (pos != std::string::npos) what = what.substr(pos + 2);
    fail(source + " is not valid JSON: " + what);
  }
}

json readJsonFile(const std::string& path) {
  std::string text;
  if (path == "-") {
    text.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
  } else {
    std::ifstream in(path, std::ios::binary);
    if (!in) fail("cannot open input file '" + path + "'");
    text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  if (text.find_first_not_of(" \t\r\n") == std::string::npos)
    fail((path == "-" ? std::string("standard input") : "'" + path + "'") +
         " is empty: expected a JSON object");
  return parseJsonText(text, path == "-" ? std::string("standard input") : "'" + path + "'");
}

double readNumber(const json& j, const std::string& where) {
  if (j.is_number()) {
    const double x = j.get<double>();
    if (std::isnan(x)) fail(where + " is NaN");
    if (!std::isfinite(x)) fail(where + " is infinite");
    return x;
  }
  if (j.is_null()) fail(where + " is NaN (null)");
  if (j.is_string()) {
    const std::string s = j.get<std::string>();
    if (s == "NaN" || s == "nan") fail(where + " is NaN");
    if (s == "Infinity" || s == "-Infinity" || s == "inf" || s == "-inf")
      fail(where + " is infinite");
  }
  fail(where + " is " + typeWord(j) + " (" + shortDump(j) + "), expected a number");
}

int readInt(const json& j, const std::string& where) {
  const double x = readNumber(j, where);
  if (x != std::floor(x)) fail(where + " = " + shortDump(j) + " is not an integer");
  if (std::abs(x) > 1e9) fail(where + " = " + shortDump(j) + " is out of range");
  return static_cast<int>(x);
}

Vec readVector(const json& j, const std::string& field, Index expected) {
  if (!j.is_array()) fail(field + " is " + typeWord(j) + ", expected an array of numbers");
  const Index size = static_cast<Index>(j.size());
  if (expected >= 0 && size != expected) {
    std::ostringstream os;
    os << field << " has " << size << " entries, expected " << expected;
    fail(os.str());
  }
  Vec v(size);
  for (Index k = 0; k < size; ++k) v[k] = readNumber(j[k], field + "[" + std::to_string(k) + "]");
  return v;
}

Mat readMatrix(const json& j, const std::string& field, Index rows, Index cols) {
  if (!j.is_array()) fail(field + " is " + typeWord(j) + ", expected an array of rows");
  const Index r = static_cast<Index>(j.size());
  if (rows >= 0 && r != rows) {
    std::ostringstream os;
    os << field << " has " << r << " rows, expected " << rows;
    fail(os.str());
  }
  if (r == 0) return Mat(0, cols < 0 ? 0 : cols);
  Index c = cols;
  if (c < 0) {
    if (!j[0].is_array())
      fail(field + "[0] is " + typeWord(j[0]) + ", expected an array of numbers");
    c = static_cast<Index>(j[0].size());
  }
  Mat m(r, c);
  for (Index i = 0; i < r; ++i) {
    const std::string rowName = field + "[" + std::to_string(i) + "]";
    const json& row = j[i];
    if (!row.is_array()) fail(rowName + " is " + typeWord(row) + ", expected an array of numbers");
    if (static_cast<Index>(row.size()) != c) {
      std::ostringstream os;
      os << rowName << " has " << row.size() << " entries, expected " << c;
      fail(os.str());
    }
    for (Index k = 0; k < c; ++k)
      m(i, k) = readNumber(row[k], rowName + "[" + std::to_string(k) + "]");
  }
  return m;
}

namespace {

AttentionKind parseAttention(const json& j) {
  if (!j.is_string())
    fail("attention is " + std::string(typeWord(j)) +
         ", expected \"cross\", \"self\", \"seq2seq\" or \"causal\"");
  return parseWireName<AttentionKind>(j.get<std::string>(), "attention");
}

}  // namespace

ProblemInput problemFromJson(const json& j) {
  if (!j.is_object())
    fail(std::string("the input is ") + typeWord(j) + ", expected a JSON object with X, Z, Y, v");
  if (!j.contains("X"))
    fail("X is missing: expected X as n x T x d (n sequences of T tokens in R^d)");
  const json& jx = j["X"];
  if (!jx.is_array())
    fail(std::string("X is ") + typeWord(jx) + ", expected n x T x d nested arrays");
  if (jx.empty()) fail("X is empty: need at least one sequence");
  if (!jx[0].is_array())
    fail(std::string("X[0] is ") + typeWord(jx[0]) + ", expected an array of tokens");
  if (jx[0].empty()) fail("X[0] has no tokens: need at least one token per sequence");
  if (!jx[0][0].is_array())
    fail(std::string("X[0][0] is ") + typeWord(jx[0][0]) + ", expected an array of d numbers");
  const int n = static_cast<int>(jx.size());
  const int T = static_cast<int>(jx[0].size());
  const int d = static_cast<int>(jx[0][0].size());
  if (d == 0) fail("X[0][0] has no coordinates: need dimension d >= 1");

  ProblemInput in;
  Dataset& data = in.data;
  data.n = n;
  data.T = T;
  data.d = d;
  data.X.resize(static_cast<Index>(n) * T, d);
  for (int i = 0; i < n; ++i) {
    const std::string seq = "X[" + std::to_string(i) + "]";
    const json& xs = jx[i];
    if (!xs.is_array()) fail(seq + " is " + typeWord(xs) + ", expected an array of tokens");
    if (static_cast<int>(xs.size()) != T)
      fail(seq + " has " + std::to_string(xs.size()) + " tokens, expected " + std::to_string(T) +
           " (as X[0]; all sequences need the same length)");
    for (int t = 0; t < T; ++t) {
      const std::string tok = seq + "[" + std::to_string(t) + "]";
      const json& xt = xs[t];
      if (!xt.is_array())
        fail(tok + " is " + typeWord(xt) + ", expected an array of " + std::to_string(d) +
             " numbers");
      if (static_cast<int>(xt.size()) != d)
        fail(tok + " has " + std::to_string(xt.size()) + " coordinates, expected " +
             std::to_string(d) + " (as X[0][0])");
      for (int k = 0; k < d; ++k)
        data.X(static_cast<Index>(i) * T + t, k) =
            readNumber(xt[k], tok + "[" + std::to_string(k) + "]");
    }
  }

  const bool hasZ = j.contains("Z") && !j["Z"].is_null();
  in.kind = hasZ ? AttentionKind::Cross : AttentionKind::Self;
  if (j.contains("attention")) in.kind = parseAttention(j["attention"]);
  if (in.kind == AttentionKind::Cross) {
    if (!hasZ)
      fail(
          "Z is missing: cross-attention needs one query per sequence (n x d); omit \"attention\" "
          "or set it to \"self\" to use a query token");
    const json& jz = j["Z"];
    if (!jz.is_array())
      fail(std::string("Z is ") + typeWord(jz) + ", expected n x d nested arrays");
    if (static_cast<int>(jz.size()) != n)
      fail("Z has " + std::to_string(jz.size()) + " rows, expected n = " + std::to_string(n) +
           " (one query per sequence)");
    data.Z = readMatrix(jz, "Z", n, d);
  }
  if (j.contains("query")) data.query = readInt(j["query"], "query");

  const bool perQuery = in.kind == AttentionKind::SeqToSeq || in.kind == AttentionKind::Causal;
  const bool alphaGiven = j.contains("alpha") && !j["alpha"].is_null();
  if (j.contains("Y")) {
    data.Y = readVector(j["Y"], "Y");
    if (data.Y.size() != n)
      fail("Y has " + std::to_string(data.Y.size()) + " labels, expected n = " + std::to_string(n));
  } else if (alphaGiven) {
    data.Y = Vec::Ones(n);
  } else {
    fail("Y is missing: give labels Y (n values +1/-1) and the head v, or a selection alpha");
  }
  if (j.contains("v")) {
    data.v = readVector(j["v"], "v");
    if (data.v.size() != d)
      fail("v has " + std::to_string(data.v.size()) +
           " entries, expected d = " + std::to_string(d));
  } else if (alphaGiven) {
    data.v = Vec::Zero(d);
  } else {
    fail("v is missing: give the head v (d values), or a selection alpha");
  }
  if (alphaGiven && perQuery) {
    const json& ja = j["alpha"];
    if (!ja.is_array() || static_cast<int>(ja.size()) != n)
      fail("alpha must be n x T integers for " + std::string(toString(in.kind)) +
           " attention (one token per sequence and query position)");
    for (int i = 0; i < n; ++i) {
      const std::string row = "alpha[" + std::to_string(i) + "]";
      if (!ja[i].is_array() || static_cast<int>(ja[i].size()) != T)
        fail(row + " must hold T = " + std::to_string(T) + " integers (one per query position)");
      for (int k = 0; k < T; ++k) {
        const std::string where = row + "[" + std::to_string(k) + "]";
        const int a = readInt(ja[i][k], where);
        const int hi = in.kind == AttentionKind::Causal ? k : T - 1;
        if (a < 0 || a > hi)
          fail(where + " = " + std::to_string(a) + " is out of range 0.." + std::to_string(hi) +
               (in.kind == AttentionKind::Causal ? " (causal: a query attends to tokens t <= k)"
                                                 : ""));
        in.units.push_back(a);
      }
    }
    in.alphaGiven = true;
  } else if (alphaGiven) {
    const json& ja = j["alpha"];
    if (!ja.is_array()) fail(std::string("alpha is ") + typeWord(ja) + ", expected n integers");
    if (static_cast<int>(ja.size()) != n)
      fail("alpha has " + std::to_string(ja.size()) +
           " entries, expected n = " + std::to_string(n));
    data.alpha.resize(n);
    for (int i = 0; i < n; ++i) {
      const std::string where = "alpha[" + std::to_string(i) + "]";
      data.alpha[i] = readInt(ja[i], where);
      if (data.alpha[i] < 0 || data.alpha[i] >= T)
        fail(where + " = " + std::to_string(data.alpha[i]) + " is out of range 0.." +
             std::to_string(T - 1));
    }
    in.alphaGiven = true;
  }
  validate(data, in.kind);
  if (data.alpha.empty()) data.alpha = optimalTokens(data).opt;
  if (!perQuery || in.units.empty())
    in.units = defaultSelection(data, in.kind);  // the core's default
  return in;
}

json toJson(const Mat& m) {
  json rows = json::array();
  for (Index i = 0; i < m.rows(); ++i) {
    json row = json::array();
    for (Index k = 0; k < m.cols(); ++k) row.push_back(m(i, k));
    rows.push_back(std::move(row));
  }
  return rows;
}

json vectorJson(const Vec& v) {
  json a = json::array();
  for (Index k = 0; k < v.size(); ++k) a.push_back(v[k]);
  return a;
}

const char* toString(AttentionKind kind) { return wireName(kind); }  // the core's table (names.hpp)
const char* toString(NormKind kind) { return wireName(kind); }

json datasetToJson(const Dataset& data, AttentionKind kind) {
  json j;
  json X = json::array();
  for (int i = 0; i < data.n; ++i) X.push_back(toJson(Mat(data.tokens(i))));
  j["X"] = std::move(X);
  if (kind == AttentionKind::Cross && data.Z.rows() == data.n) j["Z"] = toJson(data.Z);
  if (kind == AttentionKind::Self) j["query"] = data.query;
  if (kind != AttentionKind::Cross) j["attention"] = toString(kind);
  j["Y"] = vectorJson(data.Y);
  j["v"] = vectorJson(data.v);
  if (!data.alpha.empty()) j["alpha"] = data.alpha;
  return j;
}

const char* statusName(SolveStatus status) {
  switch (status) {
    case SolveStatus::Optimal:
      return "optimal";
    case SolveStatus::Infeasible:
      return "infeasible";
    case SolveStatus::MaxIterations:
      return "max_iterations";
  }
  return "max_iterations";
}

namespace {
// Writes the core's field lists (attnsvm/fields.hpp) as JSON: names and shapes come from there.
struct JsonFields {
  json& out;
  void operator()(const char* name, double x) { out[name] = x; }
  void operator()(const char* name, int x) { out[name] = x; }
  void operator()(const char* name, bool x) { out[name] = x; }
  void operator()(const char* name, const std::string& x) { out[name] = x; }
  void operator()(const char* name, const Mat& m) { out[name] = toJson(m); }
  void operator()(const char* name, const Vec& x) { out[name] = vectorJson(x); }
  void operator()(const char* name, const std::vector<int>& x) { out[name] = x; }
  void operator()(const char* name, const std::vector<std::vector<int>>& x) { out[name] = x; }
  void operator()(const char* name, const IndexPairs& x) {
    json a = json::array();
    for (const auto& [i, t] : x.pairs) a.push_back({i, t});
    out[name] = std::move(a);
  }
  template <class Fn>
  void object(const char* name, Fn&& fn) {
    json sub = json::object();
    JsonFields v{sub};
    fn(v);
    out[name] = std::move(sub);
  }
};
}  // namespace

json solutionToJson(const MarginProblem& problem, const MarginSolution& sol) {
  json j = json::object();
  JsonFields v{j};
  visitFields(sol, problem, v);
  return j;
}

json trainSettingsToJson(const TrainSettings& s) {
  json j = json::object();
  JsonFields v{j};
  visitFields(s, v);
  return j;
}

json selectionReportToJson(const SelectionReport& r, const MarginProblem& problem) {
  json j = json::object();
  JsonFields v{j};
  visitFields(r, problem, v);
  return j;
}

void writeTextFile(const std::string& path, const std::string& text) {
  if (path == "-") {
    std::cout << text;
    std::cout.flush();
    return;
  }
  std::ofstream out(path, std::ios::binary);
  if (!out) fail("cannot write output file '" + path + "'");
  out << text;
  if (!out) fail("error while writing '" + path + "'");
}

}  // namespace attnsvm::cli
