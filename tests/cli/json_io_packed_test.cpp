// A problem file's arrays read packed (parseProblemText, cli/json_io_packed.cpp) against nlohmann's
// DOM (parseJsonText): the same doubles to the bit, the same messages, the same files accepted.
// (json_io_test.cpp's errorOf also reads every bad problem there both ways.)
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>

#include "attnsvm/base/errors.hpp"
#include "json_io.hpp"

using namespace attnsvm;
using namespace attnsvm::cli;

namespace {

std::uint64_t bits(double x) {
  std::uint64_t b;
  std::memcpy(&b, &x, 8);
  return b;
}

void expectSameBits(const Mat& a, const Mat& b, const char* what) {
  ASSERT_EQ(a.rows(), b.rows()) << what;
  ASSERT_EQ(a.cols(), b.cols()) << what;
  for (Index i = 0; i < a.rows(); ++i)
    for (Index k = 0; k < a.cols(); ++k)
      ASSERT_EQ(bits(a(i, k)), bits(b(i, k))) << what << "(" << i << ", " << k << ")";
}

// Numbers in every JSON spelling: integers, -0 and -0.0, exponents, 17 significant digits,
// subnormal-adjacent and large magnitudes, integers beyond 2^53 and beyond 2^64.
std::string number(std::mt19937_64& rng) {
  static const char* fixed[] = {"0",
                                "-0",
                                "-0.0",
                                "1",
                                "-7",
                                "1e3",
                                "2E-3",
                                "1e+2",
                                "0.5",
                                "12345678901234567891",
                                "-9007199254740993",
                                "4.9406564584124654e-324",
                                "1.7976931348623157e308",
                                "3.0"};
  const std::uint64_t r = rng();
  if (r % 5 == 0) return fixed[(r / 5) % (sizeof(fixed) / sizeof(fixed[0]))];
  std::normal_distribution<double> g(0.0, 1.0);
  const double x = g(rng) * std::pow(10.0, static_cast<int>(r % 41) - 20);
  char buf[40];
  std::snprintf(buf, sizeof buf, (r >> 8) % 2 ? "%.17g" : "%.6g", x);
  return buf;
}

std::string nested(std::mt19937_64& rng, int n, int T, int d) {
  std::string s = "[";
  for (int i = 0; i < n; ++i) {
    s += i ? ", [" : "[";
    for (int t = 0; t < T; ++t) {
      s += t ? ",\n [" : "[";
      for (int k = 0; k < d; ++k) s += (k ? " , " : "") + number(rng);
      s += "]";
    }
    s += "]";
  }
  return s + "]";
}
std::string matrix(std::mt19937_64& rng, int rows, int cols) {
  const std::string s = nested(rng, 1, rows, cols);
  return s.substr(1, s.size() - 2);
}

}  // namespace

TEST(JsonIoPacked, ReadsTheSameDoublesAsTheDom) {
  std::mt19937_64 rng(7);
  const int n = 40, T = 5, d = 6;
  std::string Y = "[", v = "[", alpha = "[";
  for (int i = 0; i < n; ++i) {
    Y += std::string(i ? "," : "") + (i % 3 ? "1" : "-1.0");
    alpha += std::string(i ? "," : "") + std::to_string(i % T);
  }
  for (int k = 0; k < d; ++k) v += (k ? "," : "") + number(rng);
  const std::string text = "{ \"v\": " + v + "],\"X\" :" + nested(rng, n, T, d) +
                           ", \"Z\": " + matrix(rng, n, d) + ", \"alpha\": " + alpha +
                           "], \"Y\": " + Y + "], \"W\": " + matrix(rng, n * T, d) +
                           ", \"title\": \"a [\\\"]\"}";
  const json plain = parseJsonText(text, "t");
  const json packed = parseProblemText(text, "t");
  for (const char* key : {"X", "Z", "Y", "v", "alpha", "W"})
    EXPECT_TRUE(packed[key].is_binary()) << key;
  EXPECT_EQ(packed["title"], plain["title"]);
  // The random magnitudes make no valid problem: problemFromJson fails the same way on both, and
  // the arrays read by the readers have the same bits.
  try {
    (void)problemFromJson(plain);
  } catch (const InputError& e) {
    const std::string plainMessage = e.what();
    try {
      (void)problemFromJson(packed);
      ADD_FAILURE() << "packed read no error, plain: " << plainMessage;
    } catch (const InputError& f) {
      EXPECT_EQ(std::string(f.what()), plainMessage);
    }
  }
  expectSameBits(readMatrix(plain["Z"], "Z"), readMatrix(packed["Z"], "Z"), "Z");
  expectSameBits(readVector(plain["v"], "v"), readVector(packed["v"], "v"), "v");
  expectSameBits(readVector(plain["Y"], "Y"), readVector(packed["Y"], "Y"), "Y");
  // W: n T x d numbers in every spelling, as analyze reads it.
  expectSameBits(readMatrix(plain["W"], "W"), readMatrix(packed["W"], "W"), "W");
}

TEST(JsonIoPacked, AValidProblemReadsIdentically) {
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const int n = 30, T = 4, d = 5;
  auto arr = [&](int count) {
    std::string s = "[";
    for (int k = 0; k < count; ++k) {
      char buf[32];
      std::snprintf(buf, sizeof buf, "%.17g", u(rng));
      s += (k ? "," : "") + std::string(buf);
    }
    return s + "]";
  };
  std::string X = "[", Z = "[", Y = "[";
  for (int i = 0; i < n; ++i) {
    X += i ? ",[" : "[";
    for (int t = 0; t < T; ++t) X += (t ? "," : "") + arr(d);
    X += "]";
    Z += (i ? "," : "") + arr(d);
    Y += i % 2 ? ",1" : (i ? ",-1" : "-1");
  }
  const std::string text = "{\"X\":" + X + "],\"Z\":" + Z + "],\"Y\":" + Y + "],\"v\":" + arr(d) +
                           ",\"W\":[" + arr(d) + "," + arr(d) + "]}";
  const ProblemInput a = problemFromJson(parseJsonText(text, "t"));
  const ProblemInput b = problemFromJson(parseProblemText(text, "t"));
  expectSameBits(a.data.X, b.data.X, "X");
  expectSameBits(a.data.Z, b.data.Z, "Z");
  expectSameBits(a.data.Y, b.data.Y, "Y");
  expectSameBits(a.data.v, b.data.v, "v");
  EXPECT_EQ(a.data.alpha, b.data.alpha);
  EXPECT_EQ(a.units, b.units);
  EXPECT_EQ(a.kind, b.kind);
  // analyze's W: read packed when d x d, the plain reader's message otherwise.
  const json packed = parseProblemText(text, "t");
  try {
    (void)readMatrix(packed["W"], "W", d, d);
    ADD_FAILURE() << "a 2 x d W read as d x d";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), "W has 2 rows, expected 5");
  }
  expectSameBits(readMatrix(parseJsonText(text, "t")["W"], "W"), readMatrix(packed["W"], "W"), "W");
}

TEST(JsonIoPacked, SeqToSeqSelectionsAndSyntaxErrorsAsThePlainParser) {
  const std::string problem =
      R"({"attention": "seq2seq", "X": [[[1,0],[0,1]],[[0,1],[1,1]]], "Y": [1,-1], "v": [1,0],
          "alpha": [[0,1],[1,1]]})";
  const ProblemInput a = problemFromJson(parseJsonText(problem, "t"));
  const ProblemInput b = problemFromJson(parseProblemText(problem, "t"));
  EXPECT_EQ(a.units, b.units);
  EXPECT_EQ(b.units, (std::vector<int>{0, 1, 1, 1}));
  // A syntax error after a packed array: the message's line and column are the file's own.
  const std::string broken = R"({"X": [[[1,0],[0,1]]], "Z": [[1,0]], "Y": [1], "v": [1,0] "x"})";
  std::string plain, packed;
  try {
    (void)parseJsonText(broken, "t");
  } catch (const InputError& e) {
    plain = e.what();
  }
  try {
    (void)parseProblemText(broken, "t");
  } catch (const InputError& e) {
    packed = e.what();
  }
  EXPECT_NE(plain.find("column 61"), std::string::npos) << plain;
  EXPECT_EQ(packed, plain);
  // Text that holds the marker itself is read the plain way.
  const std::string marker =
      R"({"X": [[[1,0],[0,1]]], "Z": "attnsvm-packed-array:0", "Y": [1], "v": [1,0]})";
  EXPECT_TRUE(parseProblemText(marker, "t")["X"].is_array());
}
