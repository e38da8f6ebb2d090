// Tokens of a chosen dimension d (SPEC 6.5): d = 18 leaves the patches' bits alone; d > 18 is the
// random ReLU feature map of the SPEC, recomputed here from its definition (R row by row, then b at
// half a standard draw, from PortableGaussian(seed)); the query is the mean embedded token; a
// dimension that is not offered is an InputError naming it. (Native = wasm: tests/wasm/real-embed.)
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "attnsvm/base/errors.hpp"
#include "attnsvm/data/real_images.hpp"
#include "attnsvm/train/real_train.hpp"

namespace attnsvm {
namespace {

// Images 28 x 28 of classes 7 and 9 alternating, pixels a hash of (image, row, column).
ImageSet embedTestImages(int count) {
  ImageSet s;
  s.rows = s.cols = 28;
  for (int k = 0; k < count; ++k) {
    s.labels.push_back(k % 2 ? 9 : 7);
    for (int r = 0; r < 28; ++r)
      for (int c = 0; c < 28; ++c)
        s.pixels.push_back(static_cast<std::uint8_t>((37 * k + 11 * r * r + 5 * c + r * c) % 256));
  }
  return s;
}

TEST(RealEmbed, DimensionEighteenIsThePatchesBitForBit) {
  const Dataset u = patchDataset(embedTestImages(4), 7, 9);
  const Dataset x = embedTokens(u, 18, 123);
  EXPECT_EQ(x.d, 18);
  EXPECT_EQ(x.X, u.X);
  EXPECT_EQ(x.Z, u.Z);
  EXPECT_EQ(x.Y, u.Y);
}

TEST(RealEmbed, RandomReluFeaturesFollowTheSpec) {
  const Dataset u = patchDataset(embedTestImages(3), 7, 9);
  for (const int d : {32, 64}) {
    const std::uint64_t seed = 5;
    const Dataset x = embedTokens(u, d, seed);
    ASSERT_EQ(x.d, d);
    ASSERT_EQ(x.n, 3);
    ASSERT_EQ(x.T, 49);
    ASSERT_EQ(x.X.rows(), 3 * 49);
    ASSERT_EQ(x.X.cols(), d);
    EXPECT_EQ(x.Y, u.Y);
    EXPECT_EQ(x.v, Vec::Zero(d));
    // The SPEC's map, from its definition.
    PortableGaussian g(seed);
    std::vector<double> R(18 * d), b(d);
    for (double& r : R) r = g.next();
    for (double& v : b) v = 0.5 * g.next();
    int zeros = 0;
    for (int row = 0; row < 3 * 49; ++row)
      for (int k = 0; k < d; ++k) {
        double a = 0;
        for (int j = 0; j < 18; ++j) a += u.X(row, j) * R[j * d + k];
        a += b[k];
        const double want = a > 0 ? std::sqrt(2.0 / d) * a : 0.0;
        ASSERT_EQ(x.X(row, k), want) << "d " << d << " token " << row << " feature " << k;
        zeros += want == 0.0;
      }
    // ReLU features: a fair share of exact zeros, never all.
    EXPECT_GT(zeros, 3 * 49 * d / 10);
    EXPECT_LT(zeros, 3 * 49 * d * 9 / 10);
    // The query: the mean embedded token (summed in order), not the embedded mean patch.
    for (int i = 0; i < 3; ++i)
      for (int k = 0; k < d; ++k) {
        double sum = 0;
        for (int t = 0; t < 49; ++t) sum += x.X(i * 49 + t, k);
        ASSERT_EQ(x.Z(i, k), sum / 49) << i << " " << k;
      }
  }
}

TEST(RealEmbed, TheSeedChoosesTheMapAndTheMapIsFixed) {
  const Dataset u = patchDataset(embedTestImages(2), 7, 9);
  EXPECT_EQ(embedTokens(u, 32, 0).X, embedTokens(u, 32, 0).X);
  EXPECT_NE(embedTokens(u, 32, 0).X, embedTokens(u, 32, 1).X);
  // One image embedded alone gets the same tokens as inside a set (the map does not see the data).
  const Dataset one = patchDataset(embedTestImages(1), 7, 9);
  EXPECT_EQ(embedTokens(one, 64, 3).X, embedTokens(u, 64, 3).X.topRows(49));
}

TEST(RealEmbed, AnUnofferedDimensionIsNamed) {
  const Dataset u = patchDataset(embedTestImages(2), 7, 9);
  for (const int d : {0, 17, 19, 100, 1024}) {
    try {
      embedTokens(u, d, 0);
      ADD_FAILURE() << "dim " << d << " accepted";
    } catch (const InputError& e) {
      const std::string m = e.what();
      EXPECT_NE(m.find("dim = " + std::to_string(d)), std::string::npos) << m;
      EXPECT_NE(m.find("18, 32, 64, 128, 256, 512"), std::string::npos) << m;
    }
  }
}

}  // namespace
}  // namespace attnsvm
