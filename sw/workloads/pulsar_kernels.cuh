// Pulsar-like sphere renderer, the parts every backward method shares: scene constants, the
// projection, the per-pixel render (each pixel's own K front-most spheres, and each one's place
// in its tile's list) and the per-pixel sphere gradient. The backward kernels are in pulsar.cu.
#pragma once
#include <cstdint>

#include "binning.cuh"

namespace arc::sw::pulsar {

constexpr int kK = 8;        // spheres kept per pixel
constexpr int kNP = 8;       // dL/d{u, v, r, z, opacity, r, g, b}
constexpr int kStride = 8;
constexpr int kBlock = kTile * kTile;
constexpr float kGamma = 10.0f;  // depth fall-off of the blending weight
constexpr float kWBg = 0.1f;     // background weight
constexpr uint16_t kNoSlot = 0xffff;  // render's slot for a tile-list place past 65534
__host__ __device__ constexpr float bg(int ch) { return ch == 0 ? 0.1f : ch == 1 ? 0.2f : 0.3f; }

struct Cam {
  int w, h;
  float fx, fy, cx, cy;
};

// params per sphere: u, v, r (pixels), z, opacity.
__global__ void project(int n, const float* pos, const float* radius, const float* opac, Cam cam, int tiles_x,
                        int tiles_y, float* params, float* depth, int4* rect) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  rect[i] = make_int4(0, 0, 0, 0);
  const float x = pos[3 * i], y = pos[3 * i + 1], z = pos[3 * i + 2];
  depth[i] = z;
  const float u = cam.fx * x / z + cam.cx, v = cam.fy * y / z + cam.cy, r = cam.fx * radius[i] / z;
  float* p = params + 5 * i;
  p[0] = u, p[1] = v, p[2] = r, p[3] = z, p[4] = opac[i];
  if (z < 0.2f || r <= 0.0f) return;
  const int x0 = min(tiles_x, max(0, static_cast<int>(floorf((u - r) / kTile))));
  const int y0 = min(tiles_y, max(0, static_cast<int>(floorf((v - r) / kTile))));
  const int x1 = min(tiles_x, max(0, static_cast<int>(floorf((u + r) / kTile)) + 1));
  const int y1 = min(tiles_y, max(0, static_cast<int>(floorf((v + r) / kTile)) + 1));
  if (x1 > x0 && y1 > y0) rect[i] = make_int4(x0, y0, x1, y1);
}

__device__ __forceinline__ float weight(const float* p, float px, float py, float& q, float& e) {
  const float dx = px - p[0], dy = py - p[1];
  q = (dx * dx + dy * dy) / (p[2] * p[2]);
  e = __expf(-p[3] / kGamma);
  return p[4] * (1.0f - q) * e;
}

__global__ void __launch_bounds__(kBlock) render(const uint2* ranges, const uint32_t* list, int tiles_x, Cam cam,
                                                 const float* params, const float* color, int* ids,
                                                 uint16_t* slots, int* cnt, float* out, float* sum_w) {
  const int tile = blockIdx.x;
  const int px = (tile % tiles_x) * kTile + threadIdx.x % kTile, py = (tile / tiles_x) * kTile + threadIdx.x / kTile;
  if (px >= cam.w || py >= cam.h) return;
  const int pix = py * cam.w + px;
  const uint2 range = ranges[tile];
  int n = 0;
  float S = kWBg, N[3] = {kWBg * bg(0), kWBg * bg(1), kWBg * bg(2)};
  for (uint32_t k = range.x; k < range.y && n < kK; ++k) {
    const int id = static_cast<int>(list[k]);
    float q, e;
    const float w = weight(params + 5 * id, static_cast<float>(px), static_cast<float>(py), q, e);
    if (q >= 1.0f) continue;
    // The sphere's place in the tile list (the "tile" method's slot; kNoSlot past 65534).
    slots[pix * kK + n] = static_cast<uint16_t>(min(k - range.x, static_cast<uint32_t>(kNoSlot)));
    ids[pix * kK + n++] = id;
    S += w;
    for (int ch = 0; ch < 3; ++ch) N[ch] += w * color[3 * id + ch];
  }
  cnt[pix] = n;
  sum_w[pix] = S;
  for (int ch = 0; ch < 3; ++ch) out[3 * pix + ch] = N[ch] / S;
}

// A pixel's inputs to its backward pass: its own sphere count n, weight sum S, output colour C
// and dL/dC (what every backward kernel reads before its per-sphere loop).
struct PixelIn {
  int n;
  float S, C[3], dL[3];
};
__device__ __forceinline__ PixelIn pixel_in(int pix, const int* cnt, const float* sum_w, const float* out,
                                            const float* dldp) {
  PixelIn p;
  p.n = cnt[pix];
  p.S = sum_w[pix];
  for (int ch = 0; ch < 3; ++ch) p.C[ch] = out[3 * pix + ch], p.dL[ch] = dldp[3 * pix + ch];
  return p;
}

// Pixel (px, py)'s gradient w.r.t. sphere id (u, v, r, z, opacity, r, g, b) given the
// pixel's output colour C, dL/dC and weight sum S: the one formula both backward kernels use.
__device__ __forceinline__ void sphere_grad(const float* params, const float* color, int id, int px, int py,
                                            const float (&C)[3], const float (&dL)[3], float S, float (&g)[kNP]) {
  const float* p = params + 5 * id;
  float q, e;
  const float w = weight(p, static_cast<float>(px), static_cast<float>(py), q, e);
  float gw = 0.0f;
  for (int ch = 0; ch < 3; ++ch) {
    gw += dL[ch] * (color[3 * id + ch] - C[ch]);
    g[5 + ch] = dL[ch] * w / S;
  }
  gw /= S;
  const float dx = px - p[0], dy = py - p[1], r2 = p[2] * p[2];
  const float dw_dq = -p[4] * e;
  g[0] = gw * dw_dq * (-2.0f * dx / r2);
  g[1] = gw * dw_dq * (-2.0f * dy / r2);
  g[2] = gw * dw_dq * (-2.0f * q / p[2]);
  g[3] = gw * (-w / kGamma);
  g[4] = gw * (1.0f - q) * e;
}

}  // namespace arc::sw::pulsar
