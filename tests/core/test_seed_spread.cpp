// The spread over seeds (attnsvm/experiments/seed_spread.hpp): type-7 quantiles against values
// worked out by hand (R's quantile(x, type = 7), numpy's 'linear'), against a second, independent
// reading of the definition (1-based, as Hyndman & Fan write it) on random data, non-finite values
// left out, the CLI's mean/std arithmetic, the layouts of seriesSpread, and the case the log axes
// need: seeds whose mean − std is below zero keep a positive 10-90 % band.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "attnsvm/base/errors.hpp"
#include "attnsvm/base/rng.hpp"
#include "attnsvm/experiments/seed_spread.hpp"

namespace attnsvm {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

SeedSpread spreadOf(const std::vector<double>& v) {
  std::vector<double> scratch;
  return seedSpread(v.data(), v.size(), 1, scratch);
}

TEST(SeedSpread, QuantilesOfOneToTenByHand) {
  // h = 9 p: p = 0.1 -> x[0] + 0.9 (x[1] - x[0]) = 1.9; 0.5 -> 5.5; 0.9 -> 9.1 (R: quantile(1:10,
  // c(.1, .5, .9)) = 1.9 5.5 9.1)
  const SeedSpread s = spreadOf({10, 3, 7, 1, 5, 9, 2, 8, 4, 6});  // (unsorted: the helper sorts)
  EXPECT_EQ(s.count, 10);
  EXPECT_NEAR(s.q10, 1.9, 1e-12);
  EXPECT_DOUBLE_EQ(s.median, 5.5);
  EXPECT_NEAR(s.q90, 9.1, 1e-12);
  EXPECT_DOUBLE_EQ(s.mean, 5.5);
  EXPECT_NEAR(s.std, std::sqrt(8.25), 1e-12);  // population variance of 1..10: (100 - 1) / 12
}

TEST(SeedSpread, OddCountMedianIsTheMiddleValueExactly) {
  // n = 5: h = 4 p; the median is x[2] itself, q10 = x[0] + 0.4 (x[1] - x[0]), q90 = x[3] + 0.6
  // (x[4] - x[3])
  const SeedSpread s = spreadOf({0.3, 100.0, 0.1, 0.2, 0.5});
  EXPECT_EQ(s.median, 0.3);
  EXPECT_NEAR(s.q10, 0.1 + 0.4 * 0.1, 1e-15);
  EXPECT_NEAR(s.q90, 0.5 + 0.6 * 99.5, 1e-12);
}

TEST(SeedSpread, NonFiniteValuesAreLeftOut) {
  const SeedSpread s = spreadOf({kNaN, 1.0, kInf, 3.0, -kInf, 2.0});
  EXPECT_EQ(s.count, 3);
  EXPECT_EQ(s.median, 2.0);
  EXPECT_DOUBLE_EQ(s.mean, 2.0);
  EXPECT_NEAR(s.q10, 1.2, 1e-15);
  EXPECT_NEAR(s.q90, 2.8, 1e-15);
  const SeedSpread none = spreadOf({kNaN, kInf});
  EXPECT_EQ(none.count, 0);
  for (double x : {none.mean, none.std, none.median, none.q10, none.q90})
    EXPECT_TRUE(std::isnan(x));
  const SeedSpread one = spreadOf({0.25});
  EXPECT_EQ(one.q10, 0.25);
  EXPECT_EQ(one.median, 0.25);
  EXPECT_EQ(one.q90, 0.25);
  EXPECT_EQ(one.std, 0.0);
}

// Type 7 as Hyndman & Fan write it (1-based): j = floor(1 + (n - 1) p), g = 1 + (n - 1) p - j,
// Q = (1 - g) x_j + g x_{j+1}.
double quantileByTheBook(std::vector<double> x, double p) {
  std::sort(x.begin(), x.end());
  const double m = 1.0 + (static_cast<double>(x.size()) - 1.0) * p;
  const std::size_t j = static_cast<std::size_t>(std::floor(m));
  const double g = m - static_cast<double>(j);
  if (j >= x.size()) return x.back();
  return (1.0 - g) * x[j - 1] + g * x[j];
}

TEST(SeedSpread, AgreesWithTheDefinitionOnRandomData) {
  Rng rng(17);
  for (int trial = 0; trial < 200; ++trial) {
    const int n = 1 + trial % 37;
    std::vector<double> x(n);
    for (double& v : x) v = std::exp(6.0 * rng.normal());  // spread over decades, as 1 − corr is
    const SeedSpread s = spreadOf(x);
    for (const auto& [p, q] :
         {std::pair{0.1, s.q10}, std::pair{0.5, s.median}, std::pair{0.9, s.q90}}) {
      const double want = quantileByTheBook(x, p);
      EXPECT_NEAR(q, want, 1e-13 * std::max(1.0, std::abs(want))) << "n = " << n << ", p = " << p;
    }
    EXPECT_LE(s.q10, s.median);
    EXPECT_LE(s.median, s.q90);
    EXPECT_GE(s.q10, *std::min_element(x.begin(), x.end()));
    EXPECT_LE(s.q90, *std::max_element(x.begin(), x.end()));
  }
}

TEST(SeedSpread, MeanAndStdAreTheClisArithmetic) {
  // sum in order / count; sqrt(sum in order of (x - mean)^2 / count): bit for bit what
  // cli/experiments/common.cpp's stats() wrote before the quantiles existed
  const std::vector<double> x = {0.1, 0.7, kNaN, 0.2, 1e-9, 0.30000000000000004};
  double sum = 0;
  int n = 0;
  for (double v : x)
    if (std::isfinite(v)) sum += v, ++n;
  const double mean = sum / n;
  double q = 0;
  for (double v : x)
    if (std::isfinite(v)) q += (v - mean) * (v - mean);
  const SeedSpread s = spreadOf(x);
  EXPECT_EQ(s.mean, mean);
  EXPECT_EQ(s.std, std::sqrt(q / n));
}

TEST(SeedSpread, LogAxisBandStaysPositiveWhereMeanMinusStdDoesNot) {
  // Nine seeds converged to 1e-3, one stuck at 1: mean − std < 0 (the band a log axis could not
  // draw), while every quantile of these positive values is positive.
  std::vector<double> x(9, 1e-3);
  x.push_back(1.0);
  const SeedSpread s = spreadOf(x);
  EXPECT_LT(s.mean - s.std, 0.0);
  EXPECT_GT(s.q10, 0.0);
  EXPECT_EQ(s.median, 1e-3);
  EXPECT_NEAR(s.q90, 1e-3 + 0.1 * (1.0 - 1e-3),
              1e-12);  // h = 8.1: a tenth of the way to the top seed
}

TEST(SeedSpread, SeriesLayoutsAgree) {
  // Three runs of four snapshots, the last run one snapshot short; and the same as a flat block
  // (runs one after the other, NaN for the missing snapshot), twice (two series).
  const std::vector<std::vector<double>> perRun = {{1, 2, 3, 4}, {5, 6, 7, 8}, {9, 10, 11}};
  const SeriesSpread a = seriesSpread(perRun, 4);
  ASSERT_EQ(a.median.size(), 4u);
  EXPECT_EQ(a.median[0], 5.0);
  EXPECT_EQ(a.median[3], 6.0);  // (4 + 8) / 2: the short run has no value there
  EXPECT_NEAR(a.q10[1], 2.8, 1e-15);
  std::vector<double> flat;
  for (int series = 0; series < 2; ++series)
    for (const auto& run : perRun) {
      flat.insert(flat.end(), run.begin(), run.end());
      if (run.size() < 4) flat.push_back(kNaN);
    }
  const SeriesSpread b = seriesSpread(flat, 3, 4);
  ASSERT_EQ(b.median.size(), 8u);
  for (int i = 0; i < 8; ++i) {
    EXPECT_EQ(b.mean[i], a.mean[i % 4]);
    EXPECT_EQ(b.std[i], a.std[i % 4]);
    EXPECT_EQ(b.median[i], a.median[i % 4]);
    EXPECT_EQ(b.q10[i], a.q10[i % 4]);
    EXPECT_EQ(b.q90[i], a.q90[i % 4]);
  }
}

TEST(SeedSpread, BadInputIsAnInputError) {
  EXPECT_THROW(quantileSorted({}, 0.5), InputError);
  EXPECT_THROW(quantileSorted({1.0}, 1.5), InputError);
  EXPECT_THROW(quantileSorted({1.0}, kNaN), InputError);
  EXPECT_THROW(seriesSpread(std::vector<double>(7, 1.0), 2, 3), InputError);  // 7 is not 2 x 3 x k
  EXPECT_THROW(seriesSpread(std::vector<double>(6, 1.0), 0, 3), InputError);
  EXPECT_EQ(quantileSorted({1.0, 2.0}, 1.0), 2.0);
  EXPECT_EQ(quantileSorted({1.0, 2.0}, 0.0), 1.0);
}

}  // namespace
}  // namespace attnsvm
