// 3D Gaussian splatting, tile-based (the structure of the reference diff-gaussian-rasterization):
// projection to 2D (EWA), tile binning (binning.cuh), front-to-back alpha blending, and the
// backward pass whose per-pixel gradients to each Gaussian's 2D mean, conic, opacity and colour
// are accumulated atomically through arc::reduce.
#pragma once
#include "binning.cuh"
#include "common.cuh"

namespace arc::sw::gs {

constexpr int kNP = 9;       // dL/d{mean.x, mean.y, conic.a, conic.b, conic.c, opacity, r, g, b}
constexpr int kStride = 12;  // gradient words per Gaussian (16-byte aligned for float4 atomics)
constexpr int kBlock = kTile * kTile;
constexpr float kAlphaMin = 1.0f / 255.0f;
constexpr float kAlphaMax = 0.99f;
constexpr float kTMin = 1e-4f;
__host__ __device__ constexpr float bg(int ch) { return ch == 0 ? 0.1f : ch == 1 ? 0.2f : 0.3f; }

struct Cam {
  int w, h;
  float fx, fy, cx, cy;
};

__global__ void preprocess(int n, const float* pos, const float* scale, const float* rot, const float* opac,
                           Cam cam, int tiles_x, int tiles_y, float2* mean2d, float4* conic_o, float* depth,
                           int4* rect);
__global__ void __launch_bounds__(kBlock) render(const uint2* ranges, const uint32_t* list, int tiles_x, Cam cam,
                                                 const float2* mean2d,
                                                 const float4* conic_o, const float* color, float* out,
                                                 float* final_t, int* n_contrib, unsigned long long* stats);
// render's optional statistics (stats != nullptr), summed over the frame's pixels:
enum RenderStat { kStatStopped = 0, kStatSkippedByStop, kStatBlended, kStatVisited, kStatPixels, kStatCount };

// Min 5 blocks/SM (<= 48 registers): every method then runs at the same occupancy (40
// warps/SM); left free, SW-S and Adaptive took 51-58 registers and 4 blocks, which alone cost
// them ~20% on the H100 (measured), a register-allocation artefact rather than the method.
// Lay: arc::Strided (one interleaved 12-word record per Gaussian) or arc::Arrays<kNP> (the
// real codes' separate arrays: means2D, conic, opacity, colours; issue 23). kAbs: also
// gsplat's absgrad (|dL/dmean2D| summed over pixels, a float2 array): 11 values per call,
// Lay = arc::Arrays<kNP + 2>. kDepth (issue 23, as newer 3DGS codes): the inverse-depth
// image invdepth_p = sum_i alpha_i T_i / z_i is rendered too and the loss has a term
// <dldd_p, invdepth_p>: dL/d(invdepth_i) per Gaussian as a 10th value per call into its own
// array (Lay = arc::Arrays<kNP + 1>), and the depth channel's share of dL/dalpha.
template <arc::Method M, int V, class Rec, class Lay = arc::Strided, bool kAbs = false, bool kDepth = false>
__global__ void __launch_bounds__(kBlock, 5) backward_kernel(const uint2* ranges, const uint32_t* list, int tiles_x,
                                                          Cam cam, const float2* mean2d, const float4* conic_o,
                                                          const float* color, const float* final_t,
                                                          const int* n_contrib, const float* dldp, const Lay grad,
                                                          int threshold, arc::TraceBuffers tb,
                                                          const float* depth = nullptr, const float* dldd = nullptr) {
  const int tile = blockIdx.x;
  const int tx = tile % tiles_x, ty = tile / tiles_x;
  const int px = tx * kTile + threadIdx.x % kTile, py = ty * kTile + threadIdx.x / kTile;
  const bool inside = px < cam.w && py < cam.h;
  const int pix = py * cam.w + px;
  const uint2 range = ranges[tile];
  const int todo_total = static_cast<int>(range.y - range.x);

  __shared__ int s_id[kBlock];
  __shared__ float2 s_xy[kBlock];
  __shared__ float4 s_co[kBlock];
  __shared__ float s_col[kBlock * 3];
  __shared__ float s_invd[kDepth ? kBlock : 1];

  const float T_final = inside ? final_t[pix] : 0.0f;
  float T = T_final;
  const int last_contributor = inside ? n_contrib[pix] : 0;
  int contributor = todo_total;
  float accum_rec[3] = {0, 0, 0}, last_color[3] = {0, 0, 0}, dL_dpix[3] = {0, 0, 0};
  float last_alpha = 0;
  float accum_invd = 0, last_invd = 0, dL_dinvd = 0;  // kDepth: the inverse-depth channel (background 0)
  if (inside)
    for (int ch = 0; ch < 3; ++ch) dL_dpix[ch] = dldp[3 * pix + ch];
  if (kDepth && inside) dL_dinvd = dldd[pix];
  const float bg_dot = bg(0) * dL_dpix[0] + bg(1) * dL_dpix[1] + bg(2) * dL_dpix[2];
  const float2 pixf = make_float2(static_cast<float>(px), static_cast<float>(py));

  Rec rec(tb, blockIdx.x * (kBlock / 32) + threadIdx.x / 32);
  for (int done = 0; done < todo_total; done += kBlock) {
    __syncthreads();
    const int k = done + static_cast<int>(threadIdx.x);
    if (k < todo_total) {
      const int id = static_cast<int>(list[range.y - k - 1]);
      s_id[threadIdx.x] = id;
      s_xy[threadIdx.x] = mean2d[id];
      s_co[threadIdx.x] = conic_o[id];
      for (int ch = 0; ch < 3; ++ch) s_col[threadIdx.x * 3 + ch] = color[3 * id + ch];
      if constexpr (kDepth) s_invd[threadIdx.x] = 1.0f / depth[id];
    }
    __syncthreads();
    const int batch = min(kBlock, todo_total - done);
    for (int j = 0; j < batch; ++j) {
      --contributor;
      const float2 xy = s_xy[j];
      const float4 co = s_co[j];
      const float dx = xy.x - pixf.x, dy = xy.y - pixf.y;
      const float power = -0.5f * (co.x * dx * dx + co.z * dy * dy) - co.y * dx * dy;
      const float G = __expf(power);
      const float raw = co.w * G;
      const float alpha = fminf(kAlphaMax, raw);
      const bool active = inside && contributor < last_contributor && power <= 0.0f && alpha >= kAlphaMin;
      constexpr int kN = kNP + (kAbs ? 2 : 0) + (kDepth ? 1 : 0);
      float g[kN];
      if (active) {
        T = T / (1.0f - alpha);
        const float dchannel_dcolor = alpha * T;
        float dL_dalpha = 0.0f;
        for (int ch = 0; ch < 3; ++ch) {
          const float c = s_col[j * 3 + ch];
          accum_rec[ch] = last_alpha * last_color[ch] + (1.0f - last_alpha) * accum_rec[ch];
          last_color[ch] = c;
          dL_dalpha += (c - accum_rec[ch]) * dL_dpix[ch];
          g[6 + ch] = dchannel_dcolor * dL_dpix[ch];
        }
        if constexpr (kDepth) {
          accum_invd = last_alpha * last_invd + (1.0f - last_alpha) * accum_invd;
          last_invd = s_invd[j];
          dL_dalpha += (last_invd - accum_invd) * dL_dinvd;
          g[kNP] = dchannel_dcolor * dL_dinvd;
        }
        dL_dalpha *= T;
        last_alpha = alpha;
        dL_dalpha += (-T_final / (1.0f - alpha)) * bg_dot;
        const float dL_dG = raw < kAlphaMax ? co.w * dL_dalpha : 0.0f;
        const float gG = dL_dG * G;
        g[0] = gG * -(co.x * dx + co.y * dy);
        g[1] = gG * -(co.z * dy + co.y * dx);
        g[2] = gG * -0.5f * dx * dx;
        g[3] = gG * -dx * dy;
        g[4] = gG * -0.5f * dy * dy;
        g[5] = raw < kAlphaMax ? G * dL_dalpha : 0.0f;
        if constexpr (kAbs) g[kNP] = fabsf(g[0]), g[kNP + 1] = fabsf(g[1]);
      } else {
        for (int i = 0; i < kN; ++i) g[i] = 0.0f;
      }
      // Every lane reads the same s_id[j]: one Gaussian per call by construction (Adaptive
      // uses that; the other methods check as they always do).
      arc::reduce_to<M, kN, V>(active, arc::WarpUniform{s_id[j]}, grad, g, threshold, rec);
    }
  }
}

}  // namespace arc::sw::gs
