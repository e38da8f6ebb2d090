// JSON documents for the command-line tool (see json_io.hpp): reading and parsing a file (bare NaN
// and Infinity accepted), the number, vector and matrix readers and their messages, the plain
// writers of matrices, vectors and names, writing a file. The field visitors: json_fields.cpp.
#include "json_io.hpp"

#include <cmath>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>
#include <string>
#include <utility>

#include "attnsvm/vocab/names.hpp"
#include "json_io_internal.hpp"

namespace attnsvm::cli {

using detail::fail;
using detail::shortDump;
using detail::typeWord;

namespace {

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

std::string readTextFile(const std::string& path) {
  std::string text;
  if (path == "-") {
    text.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
  } else {
    std::ifstream in(path, std::ios::binary | std::ios::ate);
    if (!in) fail("cannot open input file '" + path + "'");
    const std::streamoff size = in.tellg();
    in.seekg(0);
    if (size > 0) {  // one read (a character iterator took 30 ms for 10 MB)
      text.resize(static_cast<std::size_t>(size));
      in.read(text.data(), size);
      text.resize(static_cast<std::size_t>(in.gcount()));
    } else {  // not a regular file (a pipe): read to its end
      text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    }
  }
  if (text.find_first_not_of(" \t\r\n") == std::string::npos)
    fail((path == "-" ? std::string("standard input") : "'" + path + "'") +
         " is empty: expected a JSON object");
  return text;
}

json readJsonFile(const std::string& path) {
  return parseJsonText(readTextFile(path),
                       path == "-" ? std::string("standard input") : "'" + path + "'");
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
  if (const auto a = detail::packedArray(j)) {
    if (a->shape.size() != 1 || (expected >= 0 && a->shape[0] != expected))
      return readVector(detail::unpacked(j), field, expected);
    return Eigen::Map<const Vec>(a->values.data(), a->shape[0]);
  }
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
  if (const auto a = detail::packedArray(j)) {
    if (a->shape.size() != 2 || (rows >= 0 && a->shape[0] != rows) ||
        (cols >= 0 && a->shape[1] != cols))
      return readMatrix(detail::unpacked(j), field, rows, cols);
    using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
    return Eigen::Map<const RowMajor>(a->values.data(), a->shape[0], a->shape[1]);
  }
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

const char* statusName(SolveStatus status) { return wireName(status); }

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
