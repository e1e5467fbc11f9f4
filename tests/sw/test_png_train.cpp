// The training loop's host side: the PNG writer (decoded back with zlib), camera views,
// the perturbed initial model, PSNR and the arc_train command line.
#include <gtest/gtest.h>
#include <zlib.h>

#include <cmath>
#include <cstring>

#include "error.h"
#include "png.h"
#include "train_util.h"

using namespace arc::sw;

namespace {

uint32_t be32(const uint8_t* p) { return (uint32_t(p[0]) << 24) | (uint32_t(p[1]) << 16) | (uint32_t(p[2]) << 8) | p[3]; }

}  // namespace

TEST(Png, RoundTripThroughZlib) {
  const int w = 7, h = 5;
  std::vector<uint8_t> rgb(3 * w * h);
  for (size_t i = 0; i < rgb.size(); ++i) rgb[i] = static_cast<uint8_t>((i * 37 + 11) & 255);
  const auto png = encode_png_rgb(w, h, rgb);
  const uint8_t sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  ASSERT_GT(png.size(), 8u);
  EXPECT_EQ(std::memcmp(png.data(), sig, 8), 0);
  size_t at = 8;
  std::vector<uint8_t> idat;
  std::vector<std::string> types;
  while (at + 12 <= png.size()) {
    const uint32_t len = be32(&png[at]);
    const std::string type(reinterpret_cast<const char*>(&png[at + 4]), 4);
    ASSERT_LE(at + 12 + len, png.size());
    const uLong crc = crc32(0L, &png[at + 4], 4 + len);
    EXPECT_EQ(be32(&png[at + 8 + len]), static_cast<uint32_t>(crc)) << type;
    if (type == "IHDR") {
      EXPECT_EQ(be32(&png[at + 8]), static_cast<uint32_t>(w));
      EXPECT_EQ(be32(&png[at + 12]), static_cast<uint32_t>(h));
      EXPECT_EQ(png[at + 16], 8);  // bit depth
      EXPECT_EQ(png[at + 17], 2);  // truecolour
    }
    if (type == "IDAT") idat.insert(idat.end(), &png[at + 8], &png[at + 8 + len]);
    types.push_back(type);
    at += 12 + len;
  }
  EXPECT_EQ(at, png.size());
  EXPECT_EQ(types, (std::vector<std::string>{"IHDR", "IDAT", "IEND"}));
  std::vector<uint8_t> raw((3 * w + 1) * h);
  uLongf n = raw.size();
  ASSERT_EQ(uncompress(raw.data(), &n, idat.data(), idat.size()), Z_OK);
  ASSERT_EQ(n, raw.size());
  int bad = 0;
  for (int y = 0; y < h; ++y) {
    bad += raw[y * (3 * w + 1)] != 0;
    for (int x = 0; x < 3 * w; ++x) bad += raw[y * (3 * w + 1) + 1 + x] != rgb[y * 3 * w + x];
  }
  EXPECT_EQ(bad, 0);
  EXPECT_THROW(encode_png_rgb(w, h, std::vector<uint8_t>(5)), arc::Error);
}

TEST(Train, ViewsAreRotationsAboutThePivot) {
  const auto v = make_views(4, 8.0f, 10.0f);
  ASSERT_EQ(v.size(), 4u);
  EXPECT_NEAR(v.front().yaw_deg, -8.0f, 1e-5);
  EXPECT_NEAR(v.back().yaw_deg, 8.0f, 1e-5);
  for (const View& w : v) {
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) {
        double d = 0;
        for (int k = 0; k < 3; ++k) d += w.R[3 * r + k] * w.R[3 * c + k];
        EXPECT_NEAR(d, r == c ? 1.0 : 0.0, 1e-6);
      }
    // The quaternion rotates like R: q v q* for v = x axis gives R's first column.
    const float qw = w.q_view[0], qy = w.q_view[2];
    EXPECT_NEAR(1 - 2 * qy * qy, w.R[0], 1e-6);
    EXPECT_NEAR(-2 * qw * qy, w.R[6], 1e-6);
    EXPECT_FLOAT_EQ(w.pivot[2], 10.0f);
  }
  EXPECT_EQ(make_views(1, 8.0f, 10.0f)[0].yaw_deg, 0.0f);
}

TEST(Train, PerturbedModelAndPsnr) {
  const GaussScene s = make_gauss_scene(200, 64, 48, 3);
  const auto gt = pack_params(s);
  ASSERT_EQ(gt.size(), 7 * s.n);
  EXPECT_NEAR(1.0 / (1.0 + std::exp(-gt[3 * s.n + 5])), s.opacity[5], 1e-5);
  const auto a = perturb_params(s, 1.0f, 9), b = perturb_params(s, 1.0f, 9), c = perturb_params(s, 1.0f, 10);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  const auto sc = position_scale(s);
  double moved = 0;
  for (size_t i = 0; i < s.n; ++i) {
    for (int k = 0; k < 3; ++k) moved += std::pow((a[3 * i + k] - gt[3 * i + k]) / sc[i], 2);
    EXPECT_NEAR(a[3 * s.n + i], logit(0.3f), 1e-6);
    for (int k = 0; k < 3; ++k) EXPECT_TRUE(a[4 * s.n + 3 * i + k] >= 0 && a[4 * s.n + 3 * i + k] <= 1);
  }
  const double var = moved / (3.0 * s.n);  // N(0, scale^2) per axis: about 1
  EXPECT_GT(var, 0.7);
  EXPECT_LT(var, 1.3);
  EXPECT_NEAR(psnr_from_mse(0.01), 20.0, 1e-9);
  EXPECT_NEAR(psnr_from_mse(1e-4), 40.0, 1e-9);
  EXPECT_TRUE(std::isinf(psnr_from_mse(0.0)));
}

TEST(Train, Args) {
  const auto a = parse_train_args({"--methods", "baseline,swb,block-cas-clamp", "--budget", "12.5", "--size", "640x360",
                                   "--views", "3", "--threshold", "8", "--out", "/tmp/x"});
  ASSERT_EQ(a.methods.size(), 3u);
  EXPECT_EQ(a.methods[2].label(), "block-cas-clamp");
  EXPECT_DOUBLE_EQ(a.budget_s, 12.5);
  EXPECT_EQ(a.width, 640);
  EXPECT_EQ(a.height, 360);
  EXPECT_EQ(a.views, 3);
  for (const auto& bad : std::vector<std::vector<std::string>>{{"--methods", "baseline-noatomic"},
                                                               {"--budget", "0"},
                                                               {"--budget", "x"},
                                                               {"--size", "640"},
                                                               {"--views", "0"},
                                                               {"--frobnicate"},
                                                               {"--seed"}}) {
    EXPECT_THROW(parse_train_args(bad), arc::Error) << bad[0];
  }
}
