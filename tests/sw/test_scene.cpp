// Procedural scenes: a (generator, seed) pair names one scene exactly, and the scenes have
// the properties the workloads rely on.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "error.h"
#include "rng.h"
#include "scene.h"

using namespace arc::sw;

TEST(SwScene, RngIsPortableAndSeeded) {
  Rng a(1), b(1), c(2);
  const uint64_t x = a.next();
  EXPECT_EQ(x, b.next());
  EXPECT_NE(x, c.next());
  // Pinned value: splitmix64 seeding + xoshiro256** gives this on every platform.
  Rng d(0);
  EXPECT_EQ(d.next(), 0x99ec5f36cb75f2b4ull);
  double lo = 1, hi = 0, sum = 0;
  Rng e(3);
  for (int i = 0; i < 100000; ++i) {
    const double u = e.uniform();
    lo = std::min(lo, u);
    hi = std::max(hi, u);
    sum += e.normal();
  }
  EXPECT_GE(lo, 0.0);
  EXPECT_LT(hi, 1.0);
  EXPECT_NEAR(sum / 100000, 0.0, 0.02);
}

TEST(SwScene, GaussDeterministic) {
  const auto a = make_gauss_scene(1000, 320, 240, 5);
  const auto b = make_gauss_scene(1000, 320, 240, 5);
  const auto c = make_gauss_scene(1000, 320, 240, 6);
  EXPECT_EQ(digest(a.pos), digest(b.pos));
  EXPECT_EQ(digest(a.rot), digest(b.rot));
  EXPECT_EQ(digest(a.color), digest(b.color));
  EXPECT_NE(digest(a.pos), digest(c.pos));
}

TEST(SwScene, GaussProperties) {
  const auto s = make_gauss_scene(5000, 1920, 1080, 1);
  ASSERT_EQ(s.pos.size(), 3 * s.n);
  ASSERT_EQ(s.rot.size(), 4 * s.n);
  int inside = 0;
  for (size_t i = 0; i < s.n; ++i) {
    const float z = s.pos[3 * i + 2];
    EXPECT_GE(z, 3.0f);
    EXPECT_LE(z, 30.0f);
    const float u = s.cam.fx * s.pos[3 * i] / z + s.cam.cx;
    const float v = s.cam.fy * s.pos[3 * i + 1] / z + s.cam.cy;
    inside += (u >= 0 && u < 1920 && v >= 0 && v < 1080) ? 1 : 0;
    double qn = 0;
    for (int k = 0; k < 4; ++k) qn += s.rot[4 * i + k] * s.rot[4 * i + k];
    EXPECT_NEAR(qn, 1.0, 1e-5);
    EXPECT_GE(s.opacity[i], 0.05f);
    EXPECT_LE(s.opacity[i], 0.7f);
    for (int k = 0; k < 3; ++k) EXPECT_GT(s.scale[3 * i + k], 0.0f);
  }
  EXPECT_GT(inside, 4000);  // 1/1.1^2 of centres land on screen
}

TEST(SwScene, SpheresAndTexture) {
  const auto s = make_sphere_scene(2000, 640, 480, 9);
  EXPECT_EQ(digest(s.pos), digest(make_sphere_scene(2000, 640, 480, 9).pos));
  for (size_t i = 0; i < s.n; ++i) EXPECT_GT(s.radius[i], 0.0f);
  const auto t = make_tex_scene(64, 32, 100, 50, 4);
  EXPECT_EQ(t.texels.size(), 64u * 32u * 4u);
  EXPECT_EQ(digest(t.texels), digest(make_tex_scene(64, 32, 100, 50, 4).texels));
  EXPECT_NE(digest(t.texels), digest(make_tex_scene(64, 32, 100, 50, 5).texels));
  EXPECT_EQ(t.noise.size(), static_cast<size_t>(t.noise_w * t.noise_h));
}

TEST(SwScene, PixelGradAndErrors) {
  const auto g = make_pixel_grad(16, 8, 3, 1);
  EXPECT_EQ(g.size(), 16u * 8u * 3u);
  for (float x : g) {
    EXPECT_GE(x, -1.0f);
    EXPECT_LE(x, 1.0f);
  }
  EXPECT_THROW(make_gauss_scene(0, 10, 10, 1), arc::Error);
  EXPECT_THROW(make_camera(0, 10), arc::Error);
  EXPECT_THROW(make_tex_scene(1, 8, 8, 8, 1), arc::Error);
  EXPECT_THROW(make_pixel_grad(4, 4, 0, 1), arc::Error);
}

// Issue 23: Gaussians on surfaces. Seeded; every Gaussian placed, in front of the camera, a unit
// quaternion; flat discs (one axis 0.1 of the others) whose thin axis is the surface normal;
// bimodal opacities (most near-opaque).
TEST(SwScene, SurfaceScenes) {
  for (const char* kind : {"garden", "object"}) {
    const auto a = make_gauss_surface_scene(kind, 20000, 480, 270, 3);
    const auto b = make_gauss_surface_scene(kind, 20000, 480, 270, 3);
    const auto c = make_gauss_surface_scene(kind, 20000, 480, 270, 4);
    EXPECT_EQ(a.generator, std::string("gauss-surface-v1:") + kind);
    EXPECT_EQ(digest(a.pos), digest(b.pos));
    EXPECT_EQ(digest(a.scale), digest(b.scale));
    EXPECT_NE(digest(a.pos), digest(c.pos));
    ASSERT_EQ(a.pos.size(), 3 * a.n);
    ASSERT_EQ(a.opacity.size(), a.n);
    size_t opaque = 0, flat = 0, inside = 0;
    for (size_t i = 0; i < a.n; ++i) {
      const float z = a.pos[3 * i + 2];
      ASSERT_GE(z, 0.5f) << kind << " " << i;
      double qn = 0;
      for (int k = 0; k < 4; ++k) qn += a.rot[4 * i + k] * a.rot[4 * i + k];
      ASSERT_NEAR(qn, 1.0, 1e-5);
      ASSERT_GT(a.opacity[i], 0.0f);
      ASSERT_LT(a.opacity[i], 1.0f);
      opaque += a.opacity[i] >= 0.8f ? 1 : 0;
      const float* s = &a.scale[3 * i];
      flat += s[2] < 0.35f * std::min(s[0], s[1]) ? 1 : 0;
      const float u = a.cam.fx * a.pos[3 * i] / z + a.cam.cx, v = a.cam.fy * a.pos[3 * i + 1] / z + a.cam.cy;
      inside += (u >= -30 && u < 510 && v >= -30 && v < 300) ? 1 : 0;
    }
    EXPECT_GT(opaque, a.n / 2) << kind;
    EXPECT_GT(flat, a.n / 2) << kind;
    EXPECT_GT(inside, a.n * 9 / 10) << kind;
  }
  EXPECT_THROW(make_gauss_surface_scene("moon", 10, 10, 10, 1), arc::Error);
  EXPECT_THROW(make_gauss_surface_scene("garden", 0, 10, 10, 1), arc::Error);
}
