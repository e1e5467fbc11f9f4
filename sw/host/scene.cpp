#include "scene.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "error.h"
#include "rng.h"

namespace arc::sw {

Camera make_camera(int width, int height) {
  if (width <= 0 || height <= 0) throw arc::Error("camera: frame size must be positive");
  Camera c;
  c.width = width;
  c.height = height;
  c.fx = c.fy = 0.7f * static_cast<float>(width);
  c.cx = 0.5f * static_cast<float>(width);
  c.cy = 0.5f * static_cast<float>(height);
  return c;
}

GaussScene make_gauss_scene(size_t n, int width, int height, uint64_t seed) {
  if (n == 0) throw arc::Error("gauss scene: needs at least one Gaussian");
  GaussScene s;
  s.cam = make_camera(width, height);
  s.seed = seed;
  s.n = n;
  s.pos.resize(3 * n);
  s.scale.resize(3 * n);
  s.rot.resize(4 * n);
  s.opacity.resize(n);
  s.color.resize(3 * n);
  Rng r(seed);
  for (size_t i = 0; i < n; ++i) {
    const double z = r.uniform(3.0, 30.0);
    const double u = r.uniform(-0.05, 1.05) * width;
    const double v = r.uniform(-0.05, 1.05) * height;
    s.pos[3 * i + 0] = static_cast<float>((u - s.cam.cx) * z / s.cam.fx);
    s.pos[3 * i + 1] = static_cast<float>((v - s.cam.cy) * z / s.cam.fy);
    s.pos[3 * i + 2] = static_cast<float>(z);
    // Screen radius (3 sigma) log-normal around 6 px, then per-axis anisotropy.
    const double rpx = std::clamp(6.0 * std::exp(0.6 * r.normal()), 1.5, 60.0);
    const double sw = rpx * z / (3.0 * s.cam.fx);
    for (int a = 0; a < 3; ++a) s.scale[3 * i + a] = static_cast<float>(sw * std::exp(0.3 * r.normal()));
    double q[4], qn = 0;
    for (double& x : q) {
      x = r.normal();
      qn += x * x;
    }
    qn = std::sqrt(std::max(qn, 1e-12));
    for (int a = 0; a < 4; ++a) s.rot[4 * i + a] = static_cast<float>(q[a] / qn);
    s.opacity[i] = static_cast<float>(r.uniform(0.05, 0.7));
    for (int a = 0; a < 3; ++a) s.color[3 * i + a] = static_cast<float>(r.uniform());
  }
  return s;
}

SphereScene make_sphere_scene(size_t n, int width, int height, uint64_t seed) {
  if (n == 0) throw arc::Error("sphere scene: needs at least one sphere");
  SphereScene s;
  s.cam = make_camera(width, height);
  s.seed = seed;
  s.n = n;
  s.pos.resize(3 * n);
  s.radius.resize(n);
  s.opacity.resize(n);
  s.color.resize(3 * n);
  Rng r(seed);
  for (size_t i = 0; i < n; ++i) {
    const double z = r.uniform(4.0, 30.0);
    const double u = r.uniform(-0.05, 1.05) * width;
    const double v = r.uniform(-0.05, 1.05) * height;
    s.pos[3 * i + 0] = static_cast<float>((u - s.cam.cx) * z / s.cam.fx);
    s.pos[3 * i + 1] = static_cast<float>((v - s.cam.cy) * z / s.cam.fy);
    s.pos[3 * i + 2] = static_cast<float>(z);
    const double rpx = std::clamp(5.0 * std::exp(0.5 * r.normal()), 1.5, 40.0);
    s.radius[i] = static_cast<float>(rpx * z / s.cam.fx);
    s.opacity[i] = static_cast<float>(r.uniform(0.3, 1.0));
    for (int a = 0; a < 3; ++a) s.color[3 * i + a] = static_cast<float>(r.uniform());
  }
  return s;
}

TexScene make_tex_scene(int tex_w, int tex_h, int width, int height, uint64_t seed) {
  if (tex_w < 2 || tex_h < 2 || width <= 0 || height <= 0) throw arc::Error("tex scene: bad size");
  TexScene s;
  s.seed = seed;
  s.width = width;
  s.height = height;
  s.tex_w = tex_w;
  s.tex_h = tex_h;
  Rng r(seed);
  s.texels.resize(static_cast<size_t>(tex_w) * tex_h * 4);
  for (float& t : s.texels) t = static_cast<float>(r.uniform());
  s.tilt = static_cast<float>(r.uniform(1.0, 4.0));
  s.scale = static_cast<float>(r.uniform(0.6, 1.2));
  s.off_u = static_cast<float>(r.uniform());
  s.off_v = static_cast<float>(r.uniform());
  s.noise_w = 33;
  s.noise_h = 19;
  s.noise.resize(static_cast<size_t>(s.noise_w) * s.noise_h);
  for (float& x : s.noise) x = static_cast<float>(r.uniform());
  s.coverage_cut = 0.4f;
  return s;
}

std::vector<float> make_pixel_grad(int width, int height, int channels, uint64_t seed) {
  if (width <= 0 || height <= 0 || channels <= 0) throw arc::Error("pixel grad: bad size");
  std::vector<float> g(static_cast<size_t>(width) * height * channels);
  Rng r(seed ^ 0x5eed0f9a11ull);
  for (float& x : g) x = static_cast<float>(r.uniform(-1.0, 1.0));
  return g;
}

uint64_t digest(const std::vector<float>& v) {
  uint64_t h = 1469598103934665603ull;
  for (float f : v) {
    uint32_t b;
    std::memcpy(&b, &f, 4);
    for (int k = 0; k < 4; ++k) {
      h ^= (b >> (8 * k)) & 0xffu;
      h *= 1099511628211ull;
    }
  }
  return h;
}

}  // namespace arc::sw
