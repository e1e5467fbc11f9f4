// NvDiffRec-style texture gradient: every covered pixel samples an RGBA texture bilinearly
// through a perspective plane mapping (repeat addressing); the backward pass scatters
// dL/dcolour * weight into the 4 texels of each lookup with atomics (one reduce per corner).
// Near the bottom of the frame a texel spans several pixels (lanes share addresses: several
// match groups per warp); near the top several texels fall in one pixel (distinct addresses);
// the coverage mask leaves warps partly inactive, as rasterized meshes do.
#include <algorithm>
#include <cmath>

#include "arc/shm.cuh"
#include "binning.cuh"
#include "scene.h"
#include "workload.h"

namespace arc::sw::tex {

constexpr int kNP = 4;  // RGBA
constexpr int kBlock = 256;

struct Map {
  int w, h, tw, th, nw, nh;
  float tilt, scale, off_u, off_v, cut;
};

// Texel coordinates of pixel (px, py) and whether the surface covers it.
__host__ __device__ inline bool lookup(const Map& m, const float* noise, int px, int py, float& tu, float& tv) {
  const float u = (px + 0.5f) / m.w, v = (py + 0.5f) / m.h;
  const float depth = 1.0f + m.tilt * (1.0f - v);
  tu = m.tw * (m.off_u + (u - 0.5f) * m.scale * depth * (static_cast<float>(m.w) / m.h));
  tv = m.th * (m.off_v + v * m.scale * depth);
  const float nx = u * (m.nw - 1), ny = v * (m.nh - 1);
  const int ix = min(static_cast<int>(nx), m.nw - 2), iy = min(static_cast<int>(ny), m.nh - 2);
  const float fx = nx - ix, fy = ny - iy;
  const float n = (1 - fy) * ((1 - fx) * noise[iy * m.nw + ix] + fx * noise[iy * m.nw + ix + 1]) +
                  fy * ((1 - fx) * noise[(iy + 1) * m.nw + ix] + fx * noise[(iy + 1) * m.nw + ix + 1]);
  return n > m.cut;
}

// The 4 bilinear taps: texel indices and weights.
__host__ __device__ inline void taps(const Map& m, float tu, float tv, int (&idx)[4], float (&w)[4]) {
  const float x = tu - 0.5f, y = tv - 0.5f;
  const float x0f = floorf(x), y0f = floorf(y);
  const float fx = x - x0f, fy = y - y0f;
  auto wrap = [](int a, int n) { return ((a % n) + n) % n; };
  const int x0 = wrap(static_cast<int>(x0f), m.tw), x1 = wrap(static_cast<int>(x0f) + 1, m.tw);
  const int y0 = wrap(static_cast<int>(y0f), m.th), y1 = wrap(static_cast<int>(y0f) + 1, m.th);
  idx[0] = y0 * m.tw + x0, idx[1] = y0 * m.tw + x1, idx[2] = y1 * m.tw + x0, idx[3] = y1 * m.tw + x1;
  w[0] = (1 - fx) * (1 - fy), w[1] = fx * (1 - fy), w[2] = (1 - fx) * fy, w[3] = fx * fy;
}

// 16x16 pixel tiles, one thread per pixel (warp = 16x2 pixels), as a rasterizer's fragments.
__device__ inline void pixel_of(int tiles_x, int& px, int& py) {
  px = (blockIdx.x % tiles_x) * kTile + threadIdx.x % kTile;
  py = (blockIdx.x / tiles_x) * kTile + threadIdx.x / kTile;
}

__global__ void forward_kernel(Map m, int tiles_x, const float* noise, const float* texels, float* out) {
  int px, py;
  pixel_of(tiles_x, px, py);
  if (px >= m.w || py >= m.h) return;
  float tu, tv;
  float c[4] = {0, 0, 0, 0};
  if (lookup(m, noise, px, py, tu, tv)) {
    int idx[4];
    float w[4];
    taps(m, tu, tv, idx, w);
    for (int k = 0; k < 4; ++k)
      for (int ch = 0; ch < 4; ++ch) c[ch] += w[k] * texels[4 * idx[k] + ch];
  }
  for (int ch = 0; ch < 4; ++ch) out[4 * (py * m.w + px) + ch] = c[ch];
}

template <arc::Method M, int V, class Rec>
__global__ void __launch_bounds__(kBlock) backward_kernel(Map m, int tiles_x, const float* noise,
                                                          const float* dldp, float* grad, int threshold,
                                                          arc::TraceBuffers tb) {
  int px, py;
  pixel_of(tiles_x, px, py);
  Rec rec(tb, blockIdx.x * (kBlock / 32) + threadIdx.x / 32);
  float tu = 0, tv = 0;
  const bool inside = px < m.w && py < m.h;
  const bool active = inside && lookup(m, noise, px, py, tu, tv);
  int idx[4] = {0, 0, 0, 0};
  float w[4] = {0, 0, 0, 0}, dL[4] = {0, 0, 0, 0};
  if (active) {
    taps(m, tu, tv, idx, w);
    for (int ch = 0; ch < 4; ++ch) dL[ch] = dldp[4 * (py * m.w + px) + ch];
  }
  // A bilinear row's two taps are neighbouring texels: one pair call per row (Adaptive sends
  // them regrouped, arc/pair_reduce.cuh; every other method as two plain calls, taps 2v, 2v+1).
#pragma unroll
  for (int v = 0; v < 2; ++v) {
    float a[kNP], b[kNP];
    for (int ch = 0; ch < kNP; ++ch) a[ch] = w[2 * v] * dL[ch], b[ch] = w[2 * v + 1] * dL[ch];
    arc::reduce_pair<M, kNP, V>(active, idx[2 * v], idx[2 * v + 1], grad, kNP, a, b, threshold, rec);
  }
}

// "regroup" (issue 20): Baseline's atomics, the same per-tap updates, with lanes regrouped so
// that each warp instruction carries the two horizontal taps of 16 pixels of one row (texels
// (x0, y) and (x0 + 1, y): one 32 B sector when x0 is even, and the row's taps side by side)
// instead of one corner of all 32 pixels. Instruction (r, v), r = pixel row of the 16x2 warp,
// v = bilinear row: lane L sends pixel 16 r + L / 2's corner 2 v + L % 2. The L2 takes a RED
// per 32 B sector it touches, and a warp's taps of one texel row fall in fewer sectors when sent
// together (results/h100/ncu/ncu-tex.log: baseline-v4 1.92 M RED requests and 5.07 M sectors,
// the crossbar-to-L2 input 83 % busy; regroup-v4 1.00 M and 3.27 M). Values are each tap's
// w * dL as Baseline computes them (fetched with shuffles from the pixel's lane); where two
// adjacent lanes of an instruction name one texel the first sends both lanes' sum.
template <int V>
__global__ void __launch_bounds__(kBlock) backward_regroup_kernel(Map m, int tiles_x, const float* noise,
                                                                  const float* dldp, float* grad) {
  int px, py;
  pixel_of(tiles_x, px, py);
  float tu = 0, tv = 0;
  const bool active = px < m.w && py < m.h && lookup(m, noise, px, py, tu, tv);
  int idx[4] = {0, 0, 0, 0};
  float w[4] = {0, 0, 0, 0}, dL[4] = {0, 0, 0, 0};
  if (active) {
    taps(m, tu, tv, idx, w);
    for (int ch = 0; ch < 4; ++ch) dL[ch] = dldp[4 * (py * m.w + px) + ch];
  }
  const unsigned lane = arc::lane_id();
  const int h = static_cast<int>(lane & 1);
#pragma unroll
  for (int r = 0; r < 2; ++r) {
    const int src = 16 * r + static_cast<int>(lane >> 1);  // the pixel this lane sends for
    const bool act = __shfl_sync(arc::kFullMask, active, src);
    float d[4];
#pragma unroll
    for (int ch = 0; ch < 4; ++ch) d[ch] = __shfl_sync(arc::kFullMask, dL[ch], src);
#pragma unroll
    for (int v = 0; v < 2; ++v) {
      const int i0 = __shfl_sync(arc::kFullMask, idx[2 * v], src), i1 = __shfl_sync(arc::kFullMask, idx[2 * v + 1], src);
      const float w0 = __shfl_sync(arc::kFullMask, w[2 * v], src), w1 = __shfl_sync(arc::kFullMask, w[2 * v + 1], src);
      const int at = h ? i1 : i0;
      const float wk = h ? w1 : w0;
      float g[kNP];
      for (int ch = 0; ch < kNP; ++ch) g[ch] = wk * d[ch];
      // Adjacent lanes on one texel (pixel j's right tap is pixel j+1's left one where a texel
      // spans a pixel): the first lane of such a run takes the second's values, the second
      // sends nothing; a run's third and later lanes send their own (exact for any run).
      const unsigned on = __ballot_sync(arc::kFullMask, act);
      const int up1 = __shfl_up_sync(arc::kFullMask, at, 1), up2 = __shfl_up_sync(arc::kFullMask, at, 2);
      const bool second = act && lane >= 1 && (on >> (lane - 1) & 1) && up1 == at &&
                          !(lane >= 2 && (on >> (lane - 2) & 1) && up2 == at);
      const unsigned seconds = __ballot_sync(arc::kFullMask, second);
      const bool absorb = lane < 31 && (seconds >> (lane + 1) & 1);
      for (int ch = 0; ch < kNP; ++ch) {
        const float x = __shfl_down_sync(arc::kFullMask, g[ch], 1);
        if (absorb) g[ch] += x;
      }
      if (act && !second) arc::detail::emit<kNP, arc::opts(V)>(grad + static_cast<int64_t>(kNP) * at, g);
    }
  }
}

// "shm" (issue 20, arc/shm.cuh): the block privatizes the texel box its tile samples (min/max
// texel x and y over the block's taps): shared-memory atomics per tap, then one update (one
// float4 RED with -v4) per touched texel. Near the bottom a texel spans several pixels, so a
// tile's 1024 taps land on far fewer texels. A box over kShmTexels (block-uniform: the top of
// the frame, or a tile across the repeat seam) sends per-lane atomics as Baseline does.
constexpr int kShmTexels = 2048;  // 32 KB of RGBA sums per block
template <int V>
__global__ void __launch_bounds__(kBlock) backward_shm_kernel(Map m, int tiles_x, const float* noise,
                                                              const float* dldp, float* grad) {
  __shared__ float s_sum[kShmTexels * kNP];
  __shared__ int s_box[4];  // x min, x max, y min, y max
  int px, py;
  pixel_of(tiles_x, px, py);
  const int tid = static_cast<int>(threadIdx.x);
  float tu = 0, tv = 0;
  const bool active = px < m.w && py < m.h && lookup(m, noise, px, py, tu, tv);
  int idx[4] = {0, 0, 0, 0};
  float w[4] = {0, 0, 0, 0}, dL[4] = {0, 0, 0, 0};
  int xlo = 1 << 30, xhi = -1, ylo = 1 << 30, yhi = -1;
  if (active) {
    taps(m, tu, tv, idx, w);
    for (int ch = 0; ch < 4; ++ch) dL[ch] = dldp[4 * (py * m.w + px) + ch];
    xlo = min(idx[0] % m.tw, idx[1] % m.tw), xhi = max(idx[0] % m.tw, idx[1] % m.tw);
    ylo = min(idx[0] / m.tw, idx[2] / m.tw), yhi = max(idx[0] / m.tw, idx[2] / m.tw);
  }
  if (tid == 0) s_box[0] = 1 << 30, s_box[1] = -1, s_box[2] = 1 << 30, s_box[3] = -1;
  __syncthreads();
  xlo = __reduce_min_sync(arc::kFullMask, xlo), xhi = __reduce_max_sync(arc::kFullMask, xhi);
  ylo = __reduce_min_sync(arc::kFullMask, ylo), yhi = __reduce_max_sync(arc::kFullMask, yhi);
  if (tid % 32 == 0) {
    atomicMin(&s_box[0], xlo), atomicMax(&s_box[1], xhi);
    atomicMin(&s_box[2], ylo), atomicMax(&s_box[3], yhi);
  }
  __syncthreads();
  const int bx = s_box[0], by = s_box[2];
  if (s_box[1] < 0) return;  // no covered pixel in the tile (block-uniform)
  const int bw = s_box[1] - bx + 1, bh = s_box[3] - by + 1;
  const bool fits = bw * bh <= kShmTexels;  // block-uniform
  if (fits) {
    arc::shm_zero(s_sum, bw * bh * kNP, tid, kBlock);
    __syncthreads();
  }
  if (active) {
#pragma unroll
    for (int k = 0; k < 4; ++k) {
      float g[kNP];
      for (int ch = 0; ch < kNP; ++ch) g[ch] = w[k] * dL[ch];
      if (fits) arc::shm_add<kNP>(s_sum + kNP * ((idx[k] / m.tw - by) * bw + idx[k] % m.tw - bx), g);
      else arc::detail::emit<kNP, arc::opts(V)>(grad + static_cast<int64_t>(kNP) * idx[k], g);
    }
  }
  if (!fits) return;
  __syncthreads();
  arc::shm_flush<kNP, arc::opts(V)>(s_sum, bw * bh, tid, kBlock, [&](int k) {
    return grad + static_cast<int64_t>(kNP) * ((by + k / bw) * m.tw + bx + k % bw);
  });
}

namespace {

class TexWorkload final : public Workload {
 public:
  TexWorkload(int w, int h, int tw, int th, uint64_t seed) : scene_(make_tex_scene(tw, th, w, h, seed)) {
    map_ = {w, h, tw, th, scene_.noise_w, scene_.noise_h, scene_.tilt, scene_.scale, scene_.off_u, scene_.off_v,
            scene_.coverage_cut};
    tiles_x_ = static_cast<int>(div_up(w, kTile));
    tiles_y_ = static_cast<int>(div_up(h, kTile));
    texels_.upload(scene_.texels);
    noise_.upload(scene_.noise);
    out_.resize(static_cast<size_t>(w) * h * 4);
    dldp_.upload(make_pixel_grad(w, h, 4, seed));
    grad_.resize(scene_.texels.size());
  }
  std::string name() const override { return "tex"; }
  std::string kernel_name() const override { return "tex::backward_kernel"; }
  std::string generator() const override { return TexScene::kGenerator; }
  uint64_t seed() const override { return scene_.seed; }
  // Every method applies. The block-level tree reduces only where all active lanes of the
  // block name one texel (for one bilinear corner); elsewhere it falls back to per-lane
  // atomics: describe() counts how often a tile reduces (tex.block_uniform_calls).
  // gsplat's reduction is 3DGS's (gs only); "tile" sums over a tile's primitive list (pulsar only).
  bool supports(const MethodSpec& m) const override { return m.name != "gsplat" && m.name != "tile"; }
  std::vector<std::pair<std::string, std::string>> describe() const override {
    // One pass over the tiles: covered pixels, and the block calls (tile x bilinear corner)
    // with an active lane and those whose active lanes all name one texel (the block tree
    // reduces them; the rest fall back). Host arithmetic: a pixel on a texel boundary may
    // round differently on the GPU.
    // shm: the tiles whose texel box fits kShmTexels (privatized) and the pixels they cover.
    size_t covered = 0, calls = 0, uniform = 0, shm_tiles = 0, shm_pixels = 0, busy_tiles = 0;
    for (int ty = 0; ty < tiles_y_; ++ty)
      for (int tx = 0; tx < tiles_x_; ++tx) {
        int first[4] = {-1, -1, -1, -1};
        bool same[4] = {true, true, true, true};
        int xlo = 1 << 30, xhi = -1, ylo = 1 << 30, yhi = -1;
        size_t tile_px = 0;
        for (int y = ty * kTile; y < std::min(map_.h, (ty + 1) * kTile); ++y)
          for (int x = tx * kTile; x < std::min(map_.w, (tx + 1) * kTile); ++x) {
            float tu, tv;
            if (!lookup(map_, scene_.noise.data(), x, y, tu, tv)) continue;
            ++covered;
            int idx[4];
            float w[4];
            taps(map_, tu, tv, idx, w);
            for (int k = 0; k < 4; ++k) {
              if (first[k] < 0) first[k] = idx[k];
              same[k] = same[k] && idx[k] == first[k];
              xlo = std::min(xlo, idx[k] % map_.tw), xhi = std::max(xhi, idx[k] % map_.tw);
              ylo = std::min(ylo, idx[k] / map_.tw), yhi = std::max(yhi, idx[k] / map_.tw);
            }
            ++tile_px;
          }
        if (tile_px) {
          ++busy_tiles;
          if (static_cast<int64_t>(xhi - xlo + 1) * (yhi - ylo + 1) <= kShmTexels) ++shm_tiles, shm_pixels += tile_px;
        }
        for (int k = 0; k < 4; ++k)
          if (first[k] >= 0) ++calls, uniform += same[k] ? 1 : 0;
      }
    return {{"tex.generator", generator()},
            {"tex.seed", std::to_string(scene_.seed)},
            {"tex.texture", std::to_string(map_.tw) + "x" + std::to_string(map_.th) + "x4"},
            {"tex.frame", std::to_string(map_.w) + "x" + std::to_string(map_.h)},
            {"tex.coverage", std::to_string(static_cast<double>(covered) / (static_cast<double>(map_.w) * map_.h))},
            {"tex.block_calls", std::to_string(calls)},
            {"tex.block_uniform_calls", std::to_string(uniform)},
            {"tex.shm_tiles_fitting", std::to_string(shm_tiles) + " of " + std::to_string(busy_tiles)},
            {"tex.shm_pixel_fraction", std::to_string(static_cast<double>(shm_pixels) / std::max<size_t>(covered, 1))}};
  }
  void forward() override {
    forward_kernel<<<tiles_x_ * tiles_y_, kBlock>>>(map_, tiles_x_, noise_.get(), texels_.get(), out_.get());
    ARC_LAUNCH();
  }
  template <arc::Method M, int V, class Rec>
  void launch(int thr, const arc::TraceBuffers& tb) {
    backward_kernel<M, V, Rec><<<tiles_x_ * tiles_y_, kBlock>>>(map_, tiles_x_, noise_.get(), dldp_.get(),
                                                                grad_.get(), thr, tb);
    ARC_LAUNCH();
  }
  void backward(const MethodSpec& m, int thr) override {
    grad_.zero();
    if (m.name == "regroup") {
      dispatch_shm(m, [&](auto vc) {
        backward_regroup_kernel<decltype(vc)::value>
            <<<tiles_x_ * tiles_y_, kBlock>>>(map_, tiles_x_, noise_.get(), dldp_.get(), grad_.get());
        ARC_LAUNCH();
      });
      return;
    }
    if (m.name == "shm") {
      dispatch_shm(m, [&](auto vc) {
        backward_shm_kernel<decltype(vc)::value>
            <<<tiles_x_ * tiles_y_, kBlock>>>(map_, tiles_x_, noise_.get(), dldp_.get(), grad_.get());
        ARC_LAUNCH();
      });
      return;
    }
    dispatch<true>(m, [&](auto mc, auto vc) {
      launch<decltype(mc)::value, decltype(vc)::value, arc::UntracedRec<decltype(mc)::value>>(thr, arc::TraceBuffers{});
    });
  }
  std::vector<float> grads() const override { return grad_.download(); }
  CaptureResult capture(const std::string& method, int thr) override {
    const size_t warps = static_cast<size_t>(tiles_x_) * tiles_y_ * (kBlock / 32);
    CaptureResult r = run_capture(
        warps, grad_, [&] { backward(MethodSpec{method, 1}, thr); },
        [&](const arc::TraceBuffers& tb) {
          dispatch_scalar(method, [&](auto mc) { launch<decltype(mc)::value, 1, arc::DevTrace>(thr, tb); });
        },
        [&] { grad_.zero(); }, capture_values);
    r.grid_blocks = static_cast<uint32_t>(tiles_x_ * tiles_y_);
    r.threads_per_block = kBlock;
    return r;
  }
  double fd_check(std::string& detail, const MethodSpec& m, int thr) override {
    forward();
    backward(m, thr);
    const auto g = grads();
    std::vector<float> tex = scene_.texels;
    const auto dldp = dldp_.download();
    auto loss = [&]() {
      double L = 0;
      for (int py = 0; py < map_.h; ++py)
        for (int px = 0; px < map_.w; ++px) {
          float tu, tv;
          if (!lookup(map_, scene_.noise.data(), px, py, tu, tv)) continue;
          int idx[4];
          float w[4];
          taps(map_, tu, tv, idx, w);
          for (int k = 0; k < 4; ++k)
            for (int ch = 0; ch < 4; ++ch)
              L += dldp[4 * (py * map_.w + px) + ch] * static_cast<double>(w[k]) * tex[4 * idx[k] + ch];
        }
      return L;
    };
    double num = 0, den = 0;
    for (size_t i = 0; i < tex.size(); ++i) {
      const float x0 = tex[i], xp = x0 + 1e-3f, xm = x0 - 1e-3f;
      tex[i] = xp;
      const double Lp = loss();
      tex[i] = xm;
      const double Lm = loss();
      tex[i] = x0;
      const double fd = (Lp - Lm) / (static_cast<double>(xp) - xm);
      num += (fd - g[i]) * (fd - g[i]);
      den += fd * fd;
    }
    detail = std::to_string(tex.size()) + " texel channels";
    return std::sqrt(num / std::max(den, 1e-300));
  }

 private:
  TexScene scene_;
  Map map_{};
  int tiles_x_ = 0, tiles_y_ = 0;
  DevBuf<float> texels_, noise_, out_, dldp_, grad_;
};

}  // namespace
}  // namespace arc::sw::tex

namespace arc::sw {
std::unique_ptr<Workload> make_tex(int width, int height, int tex_w, int tex_h, uint64_t seed) {
  return std::make_unique<tex::TexWorkload>(width, height, tex_w, tex_h, seed);
}
}  // namespace arc::sw
