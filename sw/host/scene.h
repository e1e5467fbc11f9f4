// Procedural scenes for the GPU workloads: every scene is a pure function of
// (generator name, parameters, seed), recorded with the results and in trace headers.
// Nothing is downloaded.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace arc::sw {

struct Camera {
  int width = 0, height = 0;
  float fx = 0, fy = 0, cx = 0, cy = 0;  // pinhole, looking down +z, pixel units
};
Camera make_camera(int width, int height);  // 70-degree-ish horizontal field of view

// 3D Gaussians (3DGS): position, per-axis scale, rotation quaternion (w,x,y,z), opacity, RGB.
struct GaussScene {
  static constexpr const char* kGenerator = "gauss-frustum-v1";          // uniform translucent fog
  static constexpr const char* kSurfaceGenerator = "gauss-surface-v1";  // + ":garden" / ":object"
  std::string generator = kGenerator;
  Camera cam;
  uint64_t seed = 0;
  size_t n = 0;
  std::vector<float> pos, scale, rot, opacity, color;  // 3n, 3n, 4n, n, 3n
};
GaussScene make_gauss_scene(size_t n, int width, int height, uint64_t seed);
// Issue 23: Gaussians on procedural surfaces (scene_surface.cpp): kind "garden" (ground,
// objects, foliage, sky dome) or "object" (one large object on a table, back wall).
GaussScene make_gauss_surface_scene(const std::string& kind, size_t n, int width, int height, uint64_t seed);

// Spheres (Pulsar-like): centre, radius, opacity, RGB.
struct SphereScene {
  static constexpr const char* kGenerator = "sphere-frustum-v1";
  Camera cam;
  uint64_t seed = 0;
  size_t n = 0;
  std::vector<float> pos, radius, opacity, color;  // 3n, n, n, 3n
};
SphereScene make_sphere_scene(size_t n, int width, int height, uint64_t seed);

// Textured surface (NvDiffRec-style): an RGBA texture seen through a perspective plane
// mapping (repeat addressing) and a coverage mask made of value noise.
struct TexScene {
  static constexpr const char* kGenerator = "tex-plane-v1";
  uint64_t seed = 0;
  int width = 0, height = 0;        // frame
  int tex_w = 0, tex_h = 0;         // texture, 4 channels
  std::vector<float> texels;        // tex_w * tex_h * 4
  float tilt = 0, scale = 0, off_u = 0, off_v = 0;  // uv mapping (see uv_of)
  int noise_w = 0, noise_h = 0;
  std::vector<float> noise;         // coverage noise lattice, noise_w * noise_h
  float coverage_cut = 0;           // pixel covered where the noise exceeds this
};
TexScene make_tex_scene(int tex_w, int tex_h, int width, int height, uint64_t seed);

// A deterministic dL/dpixel field (3 or 4 channels) for a frame: the upstream gradient of
// the loss sum_p <dldp, C_p>, fixed so that finite differences of that loss check the
// backward pass exactly.
std::vector<float> make_pixel_grad(int width, int height, int channels, uint64_t seed);

// A 64-bit digest of a float vector (FNV-1a over the bytes), to record scene identity.
uint64_t digest(const std::vector<float>& v);

}  // namespace arc::sw
