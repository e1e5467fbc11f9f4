// Pulsar-like sphere renderer: spheres are binned into tiles and sorted by depth; each pixel
// keeps its own list of the K front-most spheres covering it and blends them with
// depth-weighted, normalised weights. The backward loop runs over each pixel's own list, so
// lanes of a warp diverge (different list lengths, different spheres at one step): reduce is
// called by the lanes whose list reaches the step (an explicit ballot, issue 23), and SW-B /
// CUB / gsplat / SW-T (which need the whole warp) do not apply. The
// block-level method walks the tile list instead (backward_block_kernel).
#include <algorithm>
#include <cmath>

#include "arc/shm.cuh"
#include "pulsar_kernels.cuh"
#include "scene.h"
#include "workload.h"

namespace arc::sw::pulsar {

// Min 6 blocks/SM (<= 40 registers): the same occupancy for every method (see gs_kernels.cuh).
template <arc::Method M, int V, class Rec>
__global__ void __launch_bounds__(kBlock, 6) backward_kernel(int tiles_x, Cam cam, const float* params,
                                                          const float* color, const int* ids, const int* cnt,
                                                          const float* out, const float* sum_w, const float* dldp,
                                                          float* grad, int threshold, arc::TraceBuffers tb) {
  const int tile = blockIdx.x;
  const int px = (tile % tiles_x) * kTile + threadIdx.x % kTile, py = (tile / tiles_x) * kTile + threadIdx.x / kTile;
  Rec rec(tb, blockIdx.x * (kBlock / 32) + threadIdx.x / 32);
  // Issue 23: the lanes that reduce together are named explicitly, not by __activemask()
  // (whose answer depends on how the scheduler happened to group the divergent lanes): every
  // inside lane of the warp steps k = 0 .. max n together, and step k's calling set is the
  // ballot of the lanes whose list reaches k. Deterministic groups and traces.
  const bool inside = px < cam.w && py < cam.h;
  const unsigned live = __ballot_sync(arc::kFullMask, inside);
  if (!inside) return;
  const int pix = py * cam.w + px;
  const PixelIn in = pixel_in(pix, cnt, sum_w, out, dldp);
  const int n = in.n;
  const int steps = static_cast<int>(__reduce_max_sync(live, static_cast<unsigned>(n)));
  for (int k = 0; k < steps; ++k) {  // divergent: n differs per pixel
    const unsigned calling = __ballot_sync(live, k < n);
    if (k < n) {
      const int id = ids[pix * kK + k];
      float g[kNP];
      sphere_grad(params, color, id, px, py, in.C, in.dL, in.S, g);
      arc::reduce<M, kNP, V>(true, id, grad, kStride, g, threshold, rec, calling);
    }
  }
}

// Method::Block: the block-level tree needs every thread of the block at each call and one
// primitive per call, which the per-pixel loop above gives neither of. So the block walks its
// tile's depth-sorted list together (as the 3DGS shader walks a tile's Gaussians): a pixel's
// own list is a subsequence of the tile list (render keeps covering spheres in list order), so
// at entry k the lanes whose next own sphere is list[k] contribute, the others send zeros. The
// walk stops once every pixel of the block has used its list (__syncthreads_or). Same
// contributions as backward_kernel, summed in another order.
template <int V>
__global__ void __launch_bounds__(kBlock, 6) backward_block_kernel(const uint2* ranges, const uint32_t* list,
                                                                int tiles_x, Cam cam, const float* params,
                                                                const float* color, const int* ids, const int* cnt,
                                                                const float* out, const float* sum_w,
                                                                const float* dldp, float* grad) {
  const int tile = blockIdx.x;
  const int px = (tile % tiles_x) * kTile + threadIdx.x % kTile, py = (tile / tiles_x) * kTile + threadIdx.x / kTile;
  const bool inside = px < cam.w && py < cam.h;  // outside pixels still call (barriers)
  const int pix = inside ? py * cam.w + px : 0;
  const int n = inside ? cnt[pix] : 0;
  const float S = inside ? sum_w[pix] : 1.0f;
  float C[3] = {0, 0, 0}, dL[3] = {0, 0, 0};
  if (inside)
    for (int ch = 0; ch < 3; ++ch) C[ch] = out[3 * pix + ch], dL[ch] = dldp[3 * pix + ch];
  const uint2 range = ranges[tile];
  int j = 0;  // this pixel's next own sphere
  for (uint32_t k = range.x; k < range.y && __syncthreads_or(j < n); ++k) {
    const int id = static_cast<int>(list[k]);
    const bool active = j < n && ids[pix * kK + j] == id;
    float g[kNP] = {0, 0, 0, 0, 0, 0, 0, 0};
    if (active) {
      ++j;
      sphere_grad(params, color, id, px, py, C, dL, S, g);
    }
    arc::NoTrace rec;
    arc::reduce<arc::Method::Block, kNP, V>(active, id, grad, kStride, g, 0, rec);
  }
}

// "shm" (issue 20, arc/shm.cuh): the block privatizes its tile's sphere list. A pixel's own
// spheres are a subsequence of the tile list (render keeps covering spheres in list order),
// so each thread finds its k-th sphere's list position by scanning forward in a shared copy
// of the list, adds its 8 values there with shared-memory atomics, and after a barrier every
// list entry some pixel touched sends one update (2 float4 REDs with -v4) instead of one per
// pixel. A tile list longer than kShmList (block-uniform), or a sphere not found (cannot
// happen while the subsequence holds), sends per-lane atomics.
constexpr int kShmList = 512;  // 16 KB of sums + 2 KB of ids per block
template <int V>
__global__ void __launch_bounds__(kBlock, 6) backward_shm_kernel(const uint2* ranges, const uint32_t* list,
                                                              int tiles_x, Cam cam, const float* params,
                                                              const float* color, const int* ids, const int* cnt,
                                                              const float* out, const float* sum_w,
                                                              const float* dldp, float* grad) {
  __shared__ float s_sum[kShmList * kNP];
  __shared__ int s_list[kShmList];
  const int tile = blockIdx.x;
  const int tid = static_cast<int>(threadIdx.x);
  const int px = (tile % tiles_x) * kTile + tid % kTile, py = (tile / tiles_x) * kTile + tid / kTile;
  const uint2 range = ranges[tile];
  const int len = static_cast<int>(range.y - range.x);
  const bool fits = len <= kShmList;  // block-uniform
  if (fits) {
    arc::shm_zero(s_sum, len * kNP, tid, kBlock);
    for (int i = tid; i < len; i += kBlock) s_list[i] = static_cast<int>(list[range.x + i]);
  }
  __syncthreads();
  const bool inside = px < cam.w && py < cam.h;  // outside threads still reach the barrier
  if (inside) {
    const int pix = py * cam.w + px;
    const PixelIn in = pixel_in(pix, cnt, sum_w, out, dldp);
    const int n = in.n;
    int pos = 0;
    for (int k = 0; k < n; ++k) {
      const int id = ids[pix * kK + k];
      float g[kNP];
      sphere_grad(params, color, id, px, py, in.C, in.dL, in.S, g);
      if (fits)
        while (pos < len && s_list[pos] != id) ++pos;
      if (fits && pos < len) {
        arc::shm_add<kNP>(s_sum + pos * kNP, g);
        ++pos;
      } else {
        arc::detail::emit<kNP, arc::opts(V)>(grad + static_cast<int64_t>(id) * kStride, g);
      }
    }
  }
  if (!fits) return;
  __syncthreads();
  arc::shm_flush<kNP, arc::opts(V)>(s_sum, len, tid, kBlock,
                                    [&](int k) { return grad + static_cast<int64_t>(s_list[k]) * kStride; });
}

// "tile" (issue 20): warp-private sums over the tile list, no shared-memory atomics. Each warp
// owns kTileSlots slots of kNP sums in shared memory, one per tile-list place (render's
// `slots`: a pixel's k-th sphere's place in its tile's list). At each step the lanes that name
// one sphere are grouped as SW-S groups them (__match_any_sync) and summed serially by the
// lowest lane; that leader adds the group's sums into its warp's slot with plain loads and
// stores (a sphere has one place in the list, so no two leaders of a step share a slot, and a
// warp's slots are its own). After one barrier each touched place sends ONE update of the
// block's sum (the 8 warps' slots added in warp order: deterministic run to run), 2 float4 REDs
// with -v4, to grad[list[place]]. A tile whose list is longer than kTileSlots (block-uniform)
// sends each leader's sums as SW-S X=2 does.
constexpr int kTileSlots = 128;  // 8 warps x 128 places x 32 B = 32 KB per block
template <int V>
__global__ void __launch_bounds__(kBlock, 6) backward_tile_kernel(const uint2* ranges, const uint32_t* list,
                                                               int tiles_x, Cam cam, const float* params,
                                                               const float* color, const int* ids,
                                                               const uint16_t* slots, const int* cnt,
                                                               const float* out, const float* sum_w,
                                                               const float* dldp, float* grad) {
  static_assert(kNP == 8, "a slot is two float4s");
  constexpr int kWarps = kBlock / 32;
  __shared__ float4 s_acc[kWarps][kTileSlots][2];
  const int tile = blockIdx.x;
  const int tid = static_cast<int>(threadIdx.x), warp = tid / 32;
  const unsigned lane = arc::lane_id();
  const int px = (tile % tiles_x) * kTile + tid % kTile, py = (tile / tiles_x) * kTile + tid / kTile;
  const uint2 range = ranges[tile];
  const int len = static_cast<int>(range.y - range.x);
  const bool fits = len <= kTileSlots;  // block-uniform
  if (fits) {
    for (int i = static_cast<int>(lane); i < 2 * len; i += 32) s_acc[warp][i / 2][i % 2] = make_float4(0, 0, 0, 0);
    __syncwarp();
  }
  const bool inside = px < cam.w && py < cam.h;  // outside threads still reach the barrier
  const unsigned live = __ballot_sync(arc::kFullMask, inside);
  if (inside) {
    const int pix = py * cam.w + px;
    const PixelIn in = pixel_in(pix, cnt, sum_w, out, dldp);
    const int n = in.n;
    const int steps = static_cast<int>(__reduce_max_sync(live, static_cast<unsigned>(n)));
    for (int k = 0; k < steps; ++k) {  // divergent, as backward_kernel: step k's calling set
      const unsigned calling = __ballot_sync(live, k < n);
      if (k < n) {
        const int id = ids[pix * kK + k];
        float g[kNP];
        sphere_grad(params, color, id, px, py, in.C, in.dL, in.S, g);
        const unsigned grp = __match_any_sync(calling, id);
        if (__popc(grp) > 1) arc::detail::serial_sum<kNP>(grp, g);
        if (static_cast<int>(lane) == __ffs(grp) - 1) {
          if (fits) {
            float4* a = s_acc[warp][slots[pix * kK + k]];
            const float4 a0 = a[0], a1 = a[1];
            a[0] = make_float4(a0.x + g[0], a0.y + g[1], a0.z + g[2], a0.w + g[3]);
            a[1] = make_float4(a1.x + g[4], a1.y + g[5], a1.z + g[6], a1.w + g[7]);
          } else {
            arc::detail::emit<kNP, arc::opts(V)>(grad + static_cast<int64_t>(id) * kStride, g);
          }
        }
        // The same sphere may be another leader's at the next step: its read of the slot must
        // see this step's write (a ballot orders no memory; __syncwarp does, among `calling`).
        if (fits) __syncwarp(calling);
      }
    }
  }
  if (!fits) return;
  __syncthreads();
  for (int i = tid; i < 2 * len; i += kBlock) {  // place i / 2, values 4 (i % 2) .. + 3
    float4 t = s_acc[0][i / 2][i % 2];
#pragma unroll
    for (int w = 1; w < kWarps; ++w) {
      const float4 x = s_acc[w][i / 2][i % 2];
      t.x += x.x, t.y += x.y, t.z += x.z, t.w += x.w;
    }
    if (t.x == 0.0f && t.y == 0.0f && t.z == 0.0f && t.w == 0.0f) continue;  // no pixel used the place
    const float v[4] = {t.x, t.y, t.z, t.w};
    arc::detail::emit<4, arc::opts(V)>(grad + static_cast<int64_t>(list[range.x + i / 2]) * kStride + 4 * (i % 2), v);
  }
}

namespace {

class PulsarWorkload final : public Workload {
 public:
  PulsarWorkload(int w, int h, size_t n, uint64_t seed) : scene_(make_sphere_scene(n, w, h, seed)) {
    cam_ = {w, h, scene_.cam.fx, scene_.cam.fy, scene_.cam.cx, scene_.cam.cy};
    tiles_x_ = static_cast<int>(div_up(w, kTile));
    tiles_y_ = static_cast<int>(div_up(h, kTile));
    pos_.upload(scene_.pos);
    radius_.upload(scene_.radius);
    opac_.upload(scene_.opacity);
    color_.upload(scene_.color);
    params_.resize(5 * n);
    depth_.resize(n);
    rect_.resize(n);
    const size_t np = static_cast<size_t>(w) * h;
    ids_.resize(np * kK);
    slots_.resize(np * kK);
    cnt_.resize(np);
    out_.resize(3 * np);
    sum_w_.resize(np);
    dldp_.upload(make_pixel_grad(w, h, 3, seed));
    grad_.resize(n * kStride);
  }
  std::string name() const override { return "pulsar"; }
  std::string kernel_name() const override { return "pulsar::backward_kernel"; }
  std::string generator() const override { return SphereScene::kGenerator; }
  uint64_t seed() const override { return scene_.seed; }
  // Divergent: no convergent warps for SW-B/CUB. Block runs its own tile-list walk
  // (backward_block_kernel).
  bool supports(const MethodSpec& m) const override {
    return m.name != "swb" && m.name != "cub" && m.name != "gsplat" && m.name != "swt" && m.name != "regroup";
  }
  std::vector<std::pair<std::string, std::string>> describe() const override {
    const auto c = cnt_.download();
    double s = 0;
    for (int v : c) s += v;
    // The block-level walk (backward_block_kernel): per tile, the list entries it steps
    // through (up to the last one some pixel uses) and the entries some pixel uses (the
    // calls that reduce; the others return after the empty-block check).
    const size_t tiles = static_cast<size_t>(tiles_x_) * tiles_y_;
    std::vector<uint2> ranges(tiles);
    std::vector<uint32_t> list(binner_.entries());
    ARC_CUDA(cudaMemcpy(ranges.data(), binner_.ranges(), tiles * sizeof(uint2), cudaMemcpyDeviceToHost));
    ARC_CUDA(cudaMemcpy(list.data(), binner_.list(), list.size() * sizeof(uint32_t), cudaMemcpyDeviceToHost));
    const auto ids = ids_.download();
    double walked = 0, used = 0, entries = 0, shm_fit = 0, busy = 0;  // shm: non-empty tiles whose list fits kShmList
    double tile_fit = 0, tile_fit_px = 0, busy_px = 0;  // tile: non-empty tiles (and their pixels' spheres) within kTileSlots
    std::vector<char> mark;
    for (int ty = 0; ty < tiles_y_; ++ty)
      for (int tx = 0; tx < tiles_x_; ++tx) {
        const uint2 r = ranges[static_cast<size_t>(ty) * tiles_x_ + tx];
        if (r.y <= r.x) continue;
        entries += r.y - r.x;
        busy += 1;
        shm_fit += r.y - r.x <= static_cast<uint32_t>(kShmList) ? 1 : 0;
        const bool tile_fits = r.y - r.x <= static_cast<uint32_t>(kTileSlots);
        tile_fit += tile_fits ? 1 : 0;
        mark.assign(r.y - r.x, 0);
        for (int y = ty * kTile; y < std::min(cam_.h, (ty + 1) * kTile); ++y)
          for (int x = tx * kTile; x < std::min(cam_.w, (tx + 1) * kTile); ++x) {
            const int pix = y * cam_.w + x;
            busy_px += c[pix];
            if (tile_fits) tile_fit_px += c[pix];
            uint32_t k = r.x;
            for (int j = 0; j < c[pix]; ++j, ++k) {  // own spheres are a subsequence of the list
              while (k < r.y && static_cast<int>(list[k]) != ids[pix * kK + j]) ++k;
              if (k < r.y) mark[k - r.x] = 1;
            }
          }
        uint32_t last = 0;
        for (uint32_t i = 0; i < mark.size(); ++i)
          if (mark[i]) ++used, last = i + 1;
        walked += last;
      }
    const double nt = static_cast<double>(tiles);
    return {{"pulsar.generator", generator()},
            {"pulsar.seed", std::to_string(scene_.seed)},
            {"pulsar.spheres", std::to_string(scene_.n)},
            {"pulsar.frame", std::to_string(cam_.w) + "x" + std::to_string(cam_.h)},
            {"pulsar.k", std::to_string(kK)},
            {"pulsar.mean_spheres_per_pixel", std::to_string(s / static_cast<double>(c.size()))},
            {"pulsar.entries_per_tile", std::to_string(entries / nt)},
            {"pulsar.block_walk_steps_per_tile", std::to_string(walked / nt)},
            {"pulsar.block_reducing_steps_per_tile", std::to_string(used / nt)},
            {"pulsar.shm_tiles_fitting_fraction", std::to_string(shm_fit / std::max(busy, 1.0))},
            {"pulsar.tile_slots", std::to_string(kTileSlots)},
            {"pulsar.tile_tiles_fitting_fraction", std::to_string(tile_fit / std::max(busy, 1.0))},
            {"pulsar.tile_contributions_fitting_fraction", std::to_string(tile_fit_px / std::max(busy_px, 1.0))}};
  }
  void forward() override {
    project<<<div_up(scene_.n, 256), 256>>>(static_cast<int>(scene_.n), pos_.get(), radius_.get(), opac_.get(),
                                             cam_, tiles_x_, tiles_y_, params_.get(), depth_.get(), rect_.get());
    ARC_LAUNCH();
    binner_.bin(rect_.get(), depth_.get(), static_cast<int>(scene_.n), tiles_x_, tiles_y_);
    render<<<tiles_x_ * tiles_y_, kBlock>>>(binner_.ranges(), binner_.list(), tiles_x_, cam_, params_.get(),
                                            color_.get(), ids_.get(), slots_.get(), cnt_.get(), out_.get(),
                                            sum_w_.get());
    ARC_LAUNCH();
  }
  template <arc::Method M, int V, class Rec>
  void launch(int thr, const arc::TraceBuffers& tb) {
    backward_kernel<M, V, Rec><<<tiles_x_ * tiles_y_, kBlock>>>(tiles_x_, cam_, params_.get(), color_.get(),
                                                                ids_.get(), cnt_.get(), out_.get(), sum_w_.get(),
                                                                dldp_.get(), grad_.get(), thr, tb);
    ARC_LAUNCH();
  }
  void backward(const MethodSpec& m, int thr) override {
    if (!supports(m)) throw arc::Error("pulsar: " + m.label() + " needs convergent warps");
    grad_.zero();
    if (m.name == "shm") {
      dispatch_shm(m, [&](auto vc) {
        backward_shm_kernel<decltype(vc)::value><<<tiles_x_ * tiles_y_, kBlock>>>(
            binner_.ranges(), binner_.list(), tiles_x_, cam_, params_.get(), color_.get(), ids_.get(), cnt_.get(),
            out_.get(), sum_w_.get(), dldp_.get(), grad_.get());
        ARC_LAUNCH();
      });
      return;
    }
    if (m.name == "tile") {
      dispatch_shm(m, [&](auto vc) {
        backward_tile_kernel<decltype(vc)::value><<<tiles_x_ * tiles_y_, kBlock>>>(
            binner_.ranges(), binner_.list(), tiles_x_, cam_, params_.get(), color_.get(), ids_.get(), slots_.get(),
            cnt_.get(), out_.get(), sum_w_.get(), dldp_.get(), grad_.get());
        ARC_LAUNCH();
      });
      return;
    }
    dispatch<true>(m, [&](auto mc, auto vc) {
      constexpr arc::Method M = decltype(mc)::value;
      if constexpr (M == arc::Method::Block) {
        backward_block_kernel<decltype(vc)::value><<<tiles_x_ * tiles_y_, kBlock>>>(
            binner_.ranges(), binner_.list(), tiles_x_, cam_, params_.get(), color_.get(), ids_.get(), cnt_.get(),
            out_.get(), sum_w_.get(), dldp_.get(), grad_.get());
        ARC_LAUNCH();
      } else if constexpr (M != arc::Method::SwB && M != arc::Method::Cub && M != arc::Method::Gsplat &&
                           M != arc::Method::Swt) {
        launch<M, decltype(vc)::value, arc::UntracedRec<M>>(thr, arc::TraceBuffers{});
      }
    });
  }
  std::vector<float> grads() const override { return grad_.download(); }
  CaptureResult capture(const std::string& method, int thr) override {
    if (!supports(MethodSpec{method, 1})) throw arc::Error("pulsar: " + method + " needs convergent warps");
    const size_t warps = static_cast<size_t>(tiles_x_) * tiles_y_ * (kBlock / 32);
    CaptureResult r = run_capture(
        warps, grad_, [&] { backward(MethodSpec{method, 1}, thr); },
        [&](const arc::TraceBuffers& tb) {
          dispatch_scalar(method, [&](auto mc) {
            if constexpr (decltype(mc)::value != arc::Method::SwB && decltype(mc)::value != arc::Method::Cub &&
                          decltype(mc)::value != arc::Method::Gsplat && decltype(mc)::value != arc::Method::Swt)
              launch<decltype(mc)::value, 1, arc::DevTrace>(thr, tb);
          });
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
    std::vector<float> prm = params_.download(), col = scene_.color;
    const auto ids = ids_.download();
    const auto cnt = cnt_.download();
    const auto dldp = dldp_.download();
    auto loss = [&]() {
      double L = 0;
      for (int py = 0; py < cam_.h; ++py)
        for (int px = 0; px < cam_.w; ++px) {
          const int pix = py * cam_.w + px;
          double S = kWBg, N[3] = {kWBg * bg(0), kWBg * bg(1), kWBg * bg(2)};
          for (int k = 0; k < cnt[pix]; ++k) {
            const int id = ids[pix * kK + k];
            const double dx = px - prm[5 * id], dy = py - prm[5 * id + 1], r = prm[5 * id + 2];
            const double q = (dx * dx + dy * dy) / (r * r);
            const double w = prm[5 * id + 4] * (1 - q) * std::exp(-prm[5 * id + 3] / kGamma);
            S += w;
            for (int ch = 0; ch < 3; ++ch) N[ch] += w * col[3 * id + ch];
          }
          for (int ch = 0; ch < 3; ++ch) L += dldp[3 * pix + ch] * N[ch] / S;
        }
      return L;
    };
    double num = 0, den = 0;
    int checked = 0;
    for (size_t i = 0; i < scene_.n; ++i)
      for (int p = 0; p < kNP; ++p) {
        float* x = p < 5 ? &prm[5 * i + p] : &col[3 * i + p - 5];
        const double h = p < 2 ? 1e-3 : p == 2 ? 1e-3 * std::max(1.0f, *x) : p == 3 ? 1e-3 : 1e-4;
        const float x0 = *x, xp = static_cast<float>(x0 + h), xm = static_cast<float>(x0 - h);
        *x = xp;
        const double Lp = loss();
        *x = xm;
        const double Lm = loss();
        *x = x0;
        const double fd = (Lp - Lm) / (static_cast<double>(xp) - xm);
        const double gg = g[i * kStride + p];
        num += (fd - gg) * (fd - gg);
        den += fd * fd;
        ++checked;
      }
    detail = std::to_string(checked) + " parameters of " + std::to_string(scene_.n) + " spheres";
    return std::sqrt(num / std::max(den, 1e-300));
  }

 private:
  SphereScene scene_;
  Cam cam_{};
  int tiles_x_ = 0, tiles_y_ = 0;
  DevBuf<float> pos_, radius_, opac_, color_, params_, depth_, out_, sum_w_, dldp_, grad_;
  DevBuf<int4> rect_;
  DevBuf<int> ids_, cnt_;
  DevBuf<uint16_t> slots_;  // per pixel and step: the sphere's place in its tile list (method "tile")
  TileBinner binner_;
};

}  // namespace
}  // namespace arc::sw::pulsar

namespace arc::sw {
std::unique_ptr<Workload> make_pulsar(int width, int height, size_t n, uint64_t seed) {
  return std::make_unique<pulsar::PulsarWorkload>(width, height, n, seed);
}
}  // namespace arc::sw
