// 3DGS scenes with surfaces (issue 23, `gauss-surface-v1`): Gaussians lying flat on procedural
// surfaces, as a trained model places them, instead of the uniform translucent fog of
// `gauss-frustum-v1`. Each surface is sampled uniformly in SCREEN space (a trained model's
// density follows the training views' pixels), each Gaussian is a thin disc in the surface's
// tangent plane (normal axis 0.1 of the tangent axes) sized to the local screen spacing, and
// opacities are bimodal as in trained scenes (most near-opaque, a translucent minority), so
// surfaces occlude and pixels terminate early. Kinds:
//   garden  Mip-NeRF360-like outdoor view: a bumpy ground plane over the lower frame, objects
//           (spheres) standing on it, a few translucent foliage blobs, a background dome.
//   object  one large bumpy object filling the frame centre (heavy-tailed tile counts) on a
//           table plane, a background dome.
// Pure function of (kind, n, frame, seed).
#include <algorithm>
#include <cmath>
#include <string>

#include "error.h"
#include "rng.h"
#include "scene.h"

namespace arc::sw {
namespace {

struct V3 {
  double x, y, z;
};
V3 operator+(V3 a, V3 b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
V3 operator*(double s, V3 a) { return {s * a.x, s * a.y, s * a.z}; }
double dot(V3 a, V3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
V3 cross(V3 a, V3 b) { return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x}; }
V3 unit(V3 a) { return (1.0 / std::sqrt(std::max(dot(a, a), 1e-30))) * a; }

class Builder {
 public:
  Builder(GaussScene& s, Rng& r) : s_(s), r_(r) {}

  // The ray through pixel (u, v).
  V3 ray(double u, double v) const { return {(u - s_.cam.cx) / s_.cam.fx, (v - s_.cam.cy) / s_.cam.fy, 1.0}; }
  double uniform() { return r_.uniform(); }
  double uniform(double lo, double hi) { return r_.uniform(lo, hi); }
  double normal() { return r_.normal(); }

  // One Gaussian at p with surface normal nrm (a flat disc), tangent sigma `sig` (world
  // units), colour base +- noise; opacity bimodal (70% in [0.8, 0.99], 30% translucent).
  void disc(V3 p, V3 nrm, double sig, const double (&base)[3], double thin = 0.1) {
    if (i_ >= s_.n || p.z < 0.5) return;
    nrm = unit(nrm);
    const V3 a = std::fabs(nrm.x) < 0.9 ? V3{1, 0, 0} : V3{0, 1, 0};
    const V3 t1 = unit(cross(nrm, a)), t2 = cross(nrm, t1);
    const double an = std::exp(0.25 * r_.normal());  // anisotropy in the tangent plane
    const double sc[3] = {sig * an, sig / an, sig * thin};
    const double R[3][3] = {{t1.x, t2.x, nrm.x}, {t1.y, t2.y, nrm.y}, {t1.z, t2.z, nrm.z}};  // columns = axes
    put(p, R, sc, base);
  }
  // A round translucent Gaussian (foliage, haze).
  void blob(V3 p, double sig, const double (&base)[3]) {
    if (i_ >= s_.n || p.z < 0.5) return;
    const double R[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    const double sc[3] = {sig, sig, sig};
    put(p, R, sc, base, 0.05, 0.45);
  }
  size_t placed() const { return i_; }

 private:
  void put(V3 p, const double (&R)[3][3], const double (&sc)[3], const double (&base)[3], double olo = -1,
           double ohi = -1) {
    const size_t i = i_++;
    s_.pos[3 * i] = static_cast<float>(p.x);
    s_.pos[3 * i + 1] = static_cast<float>(p.y);
    s_.pos[3 * i + 2] = static_cast<float>(p.z);
    for (int a = 0; a < 3; ++a) s_.scale[3 * i + a] = static_cast<float>(std::max(sc[a], 1e-5));
    // Rotation matrix -> unit quaternion (w, x, y, z).
    const double tr = R[0][0] + R[1][1] + R[2][2];
    double q[4];
    if (tr > 0) {
      const double k = 0.5 / std::sqrt(tr + 1.0);
      q[0] = 0.25 / k, q[1] = (R[2][1] - R[1][2]) * k, q[2] = (R[0][2] - R[2][0]) * k, q[3] = (R[1][0] - R[0][1]) * k;
    } else if (R[0][0] > R[1][1] && R[0][0] > R[2][2]) {
      const double k = 2.0 * std::sqrt(1.0 + R[0][0] - R[1][1] - R[2][2]);
      q[0] = (R[2][1] - R[1][2]) / k, q[1] = 0.25 * k, q[2] = (R[0][1] + R[1][0]) / k, q[3] = (R[0][2] + R[2][0]) / k;
    } else if (R[1][1] > R[2][2]) {
      const double k = 2.0 * std::sqrt(1.0 + R[1][1] - R[0][0] - R[2][2]);
      q[0] = (R[0][2] - R[2][0]) / k, q[1] = (R[0][1] + R[1][0]) / k, q[2] = 0.25 * k, q[3] = (R[1][2] + R[2][1]) / k;
    } else {
      const double k = 2.0 * std::sqrt(1.0 + R[2][2] - R[0][0] - R[1][1]);
      q[0] = (R[1][0] - R[0][1]) / k, q[1] = (R[0][2] + R[2][0]) / k, q[2] = (R[1][2] + R[2][1]) / k, q[3] = 0.25 * k;
    }
    const double qn = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    for (int a = 0; a < 4; ++a) s_.rot[4 * i + a] = static_cast<float>(q[a] / qn);
    double o;
    if (olo >= 0) o = r_.uniform(olo, ohi);
    else o = r_.uniform() < 0.7 ? r_.uniform(0.8, 0.99) : 0.02 + 0.6 * r_.uniform() * r_.uniform();
    s_.opacity[i] = static_cast<float>(o);
    for (int a = 0; a < 3; ++a)
      s_.color[3 * i + a] = static_cast<float>(std::clamp(base[a] + 0.08 * r_.normal(), 0.0, 1.0));
  }
  GaussScene& s_;
  Rng& r_;
  size_t i_ = 0;
};

// Screen-space spacing of `count` samples over `area_px` pixels -> tangent sigma at depth z
// (0.8 spacing: neighbouring discs overlap, the surface is closed), log-normal spread.
double sigma_for(Builder& b, const Camera& cam, double area_px, double count, double z) {
  const double spacing = std::sqrt(area_px / std::max(count, 1.0));
  return std::clamp(0.8 * spacing * std::exp(0.35 * b.normal()), 0.4, 80.0) * z / cam.fx;
}

// A bumpy sphere: centre c, radius rad; `count` Gaussians on the camera-facing half.
void bumpy_sphere(Builder& b, const Camera& cam, V3 c, double rad, size_t count, const double (&col)[3],
                  double bump) {
  const double rpx = cam.fx * rad / c.z;
  const double area = 3.14159265358979 * rpx * rpx;
  for (size_t k = 0; k < count; ++k) {
    V3 d{b.normal(), b.normal(), b.normal()};
    d = unit(d);
    if (dot(d, c) > 0) d = -1.0 * d;  // the half facing the camera (at the origin)
    const double h = 1.0 + bump * std::sin(5.0 * d.x + 3.0) * std::sin(4.0 * d.y + 1.0) * std::sin(6.0 * d.z);
    const V3 p = c + (rad * h) * d;
    b.disc(p, d, sigma_for(b, cam, area, static_cast<double>(count), p.z), col);
  }
}

// A horizontal plane y = y0 seen over pixel rows [v0, height): screen-uniform samples out to
// zmax; bumps of amplitude `bump`.
void ground(Builder& b, const Camera& cam, double y0, double zmax, size_t count, const double (&col)[3],
            double bump) {
  const double v_lo = cam.cy + cam.fy * y0 / zmax;  // the horizon at zmax
  const double area = cam.width * (cam.height - v_lo);
  for (size_t k = 0; k < count; ++k) {
    const double u = b.uniform(-0.05, 1.05) * cam.width, v = b.uniform(v_lo, cam.height * 1.05);
    const V3 d = b.ray(u, v);
    const double t = y0 / d.y;
    V3 p = t * d;
    p.y += bump * std::sin(0.7 * p.x) * std::sin(0.5 * p.z);
    b.disc(p, {0.15 * std::cos(0.7 * p.x), -1.0, 0.1 * std::cos(0.5 * p.z)}, sigma_for(b, cam, area, count, p.z), col);
  }
}

// The background dome: distance `dist` along pixel rays over rows [0, v1).
void dome(Builder& b, const Camera& cam, double dist, double v1, size_t count, const double (&col)[3]) {
  const double area = cam.width * v1;
  for (size_t k = 0; k < count; ++k) {
    const double u = b.uniform(-0.05, 1.05) * cam.width, v = b.uniform(-0.05 * cam.height, v1);
    const V3 d = unit(b.ray(u, v));
    const V3 p = dist * d;
    b.disc(p, -1.0 * d, sigma_for(b, cam, area, count, p.z), col, 0.3);
  }
}

}  // namespace

GaussScene make_gauss_surface_scene(const std::string& kind, size_t n, int width, int height, uint64_t seed) {
  if (n == 0) throw arc::Error("gauss scene: needs at least one Gaussian");
  if (kind != "garden" && kind != "object")
    throw arc::Error("gauss surface scene: unknown kind '" + kind + "' (garden, object)");
  GaussScene s;
  s.generator = std::string(GaussScene::kSurfaceGenerator) + ":" + kind;
  s.cam = make_camera(width, height);
  s.seed = seed;
  s.n = n;
  s.pos.resize(3 * n);
  s.scale.resize(3 * n);
  s.rot.resize(4 * n);
  s.opacity.resize(n);
  s.color.resize(3 * n);
  Rng r(seed);
  Builder b(s, r);
  const Camera& cam = s.cam;
  const double nd = static_cast<double>(n);
  auto part = [&](double f) { return static_cast<size_t>(f * nd); };
  if (kind == "garden") {
    const double grass[3] = {0.30, 0.45, 0.20}, sky[3] = {0.55, 0.65, 0.80}, leaf[3] = {0.20, 0.40, 0.15};
    dome(b, cam, 60.0, cam.cy + 0.05 * cam.height, part(0.15), sky);
    ground(b, cam, 1.6, 45.0, part(0.35), grass, 0.08);
    // Objects standing on the ground, nearer ones larger on screen and denser.
    const int kObj = 7;
    for (int o = 0; o < kObj; ++o) {
      const double z = 5.0 + 3.0 * o + b.uniform(0.0, 2.0), rad = b.uniform(0.5, 1.4);
      const double x = (b.uniform() - 0.5) * 1.2 * z * cam.width / cam.fx;
      const double col[3] = {b.uniform(0.2, 0.9), b.uniform(0.2, 0.9), b.uniform(0.2, 0.9)};
      bumpy_sphere(b, cam, {x, 1.6 - rad, z}, rad, part(0.35 / kObj), col, 0.08);
    }
    // Foliage: translucent round blobs in clusters.
    const size_t nb = n - b.placed();
    for (size_t k = 0; k < nb; ++k) {
      const int cl = static_cast<int>(k % 5);
      const V3 c{-4.0 + 2.0 * cl, -0.5 + 0.3 * cl, 10.0 + 2.5 * cl};
      const V3 p = c + V3{1.2 * b.normal(), 0.9 * b.normal(), 1.2 * b.normal()};
      b.blob(p, 0.06 * std::exp(0.4 * b.normal()), leaf);
    }
  } else {
    const double wall[3] = {0.70, 0.68, 0.62}, wood[3] = {0.50, 0.35, 0.20}, obj[3] = {0.75, 0.25, 0.20};
    dome(b, cam, 25.0, cam.height * 1.05, part(0.25), wall);
    ground(b, cam, 1.8, 20.0, part(0.15), wood, 0.0);
    // The central object: about a third of the frame's width, most of the Gaussians.
    bumpy_sphere(b, cam, {0.0, 0.2, 6.0}, 1.6, n - b.placed(), obj, 0.12);
  }
  // Rounding left a few slots: more ground.
  const double grass[3] = {0.4, 0.4, 0.3};
  while (b.placed() < n) ground(b, cam, 1.6, 45.0, n - b.placed(), grass, 0.05);
  return s;
}

}  // namespace arc::sw
