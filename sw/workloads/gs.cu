// 3DGS workload: scene upload, forward (preprocess, binning, render), backward per method,
// trace capture, and a finite-difference check against a double-precision host renderer.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "gs_kernels.cuh"
#include "scene.h"
#include "workload.h"

namespace arc::sw::gs {

__global__ void preprocess(int n, const float* pos, const float* scale, const float* rot, const float* opac,
                           Cam cam, int tiles_x, int tiles_y, float2* mean2d, float4* conic_o, float* depth,
                           int4* rect) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  rect[i] = make_int4(0, 0, 0, 0);
  const float x = pos[3 * i], y = pos[3 * i + 1], z = pos[3 * i + 2];
  depth[i] = z;
  if (z < 0.2f) return;
  // Sigma = R S S^T R^T from the quaternion (w, x, y, z) and per-axis scales.
  const float qw = rot[4 * i], qx = rot[4 * i + 1], qy = rot[4 * i + 2], qz = rot[4 * i + 3];
  const float R[3][3] = {{1 - 2 * (qy * qy + qz * qz), 2 * (qx * qy - qw * qz), 2 * (qx * qz + qw * qy)},
                         {2 * (qx * qy + qw * qz), 1 - 2 * (qx * qx + qz * qz), 2 * (qy * qz - qw * qx)},
                         {2 * (qx * qz - qw * qy), 2 * (qy * qz + qw * qx), 1 - 2 * (qx * qx + qy * qy)}};
  float M[3][3];
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) M[r][c] = R[r][c] * scale[3 * i + c];
  float S[3][3];
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) S[r][c] = M[r][0] * M[c][0] + M[r][1] * M[c][1] + M[r][2] * M[c][2];
  // EWA: cov2D = J Sigma J^T, J the Jacobian of the projection at the centre.
  const float J[2][3] = {{cam.fx / z, 0, -cam.fx * x / (z * z)}, {0, cam.fy / z, -cam.fy * y / (z * z)}};
  float JS[2][3];
  for (int r = 0; r < 2; ++r)
    for (int c = 0; c < 3; ++c) JS[r][c] = J[r][0] * S[0][c] + J[r][1] * S[1][c] + J[r][2] * S[2][c];
  float a = JS[0][0] * J[0][0] + JS[0][1] * J[0][1] + JS[0][2] * J[0][2] + 0.3f;
  float b = JS[0][0] * J[1][0] + JS[0][1] * J[1][1] + JS[0][2] * J[1][2];
  float c = JS[1][0] * J[1][0] + JS[1][1] * J[1][1] + JS[1][2] * J[1][2] + 0.3f;
  const float det = a * c - b * b;
  if (det <= 0.0f) return;
  const float inv = 1.0f / det;
  const float mid = 0.5f * (a + c);
  const float lambda = mid + sqrtf(fmaxf(0.1f, mid * mid - det));
  const float radius = ceilf(3.0f * sqrtf(lambda));
  const float2 m = make_float2(cam.fx * x / z + cam.cx, cam.fy * y / z + cam.cy);
  const int x0 = min(tiles_x, max(0, static_cast<int>((m.x - radius) / kTile)));
  const int y0 = min(tiles_y, max(0, static_cast<int>((m.y - radius) / kTile)));
  const int x1 = min(tiles_x, max(0, static_cast<int>((m.x + radius + kTile - 1) / kTile)));
  const int y1 = min(tiles_y, max(0, static_cast<int>((m.y + radius + kTile - 1) / kTile)));
  mean2d[i] = m;
  conic_o[i] = make_float4(c * inv, -b * inv, a * inv, opac[i]);
  if (x1 > x0 && y1 > y0) rect[i] = make_int4(x0, y0, x1, y1);
}

__global__ void __launch_bounds__(kBlock) render(const uint2* ranges, const uint32_t* list, int tiles_x, Cam cam,
                                                 const float2* mean2d, const float4* conic_o, const float* color,
                                                 float* out, float* final_t, int* n_contrib, unsigned long long* stats) {
  const int tile = blockIdx.x;
  const int tx = tile % tiles_x, ty = tile / tiles_x;
  const int px = tx * kTile + threadIdx.x % kTile, py = ty * kTile + threadIdx.x / kTile;
  const bool inside = px < cam.w && py < cam.h;
  const uint2 range = ranges[tile];
  const int todo_total = static_cast<int>(range.y - range.x);
  __shared__ int s_id[kBlock];
  __shared__ float2 s_xy[kBlock];
  __shared__ float4 s_co[kBlock];
  bool done = !inside, stopped = false;
  float T = 1.0f, C[3] = {0, 0, 0};
  int contributor = 0, last = 0, blended = 0;
  for (int base = 0; base < todo_total; base += kBlock) {
    if (__syncthreads_count(done) == kBlock) break;
    const int k = base + static_cast<int>(threadIdx.x);
    if (k < todo_total) {
      const int id = static_cast<int>(list[range.x + k]);
      s_id[threadIdx.x] = id;
      s_xy[threadIdx.x] = mean2d[id];
      s_co[threadIdx.x] = conic_o[id];
    }
    __syncthreads();
    const int batch = min(kBlock, todo_total - base);
    for (int j = 0; !done && j < batch; ++j) {
      ++contributor;
      const float dx = s_xy[j].x - px, dy = s_xy[j].y - py;
      const float4 co = s_co[j];
      const float power = -0.5f * (co.x * dx * dx + co.z * dy * dy) - co.y * dx * dy;
      if (power > 0.0f) continue;
      const float alpha = fminf(kAlphaMax, co.w * __expf(power));
      if (alpha < kAlphaMin) continue;
      const float test_T = T * (1.0f - alpha);
      if (test_T < kTMin) {
        done = stopped = true;
        continue;
      }
      for (int ch = 0; ch < 3; ++ch) C[ch] += color[3 * s_id[j] + ch] * alpha * T;
      T = test_T;
      last = contributor;
      ++blended;
    }
  }
  if (stats) {  // every thread of the block gets here (the batch loop's exit is block-uniform)
    const unsigned v[kStatCount] = {stopped ? 1u : 0u, stopped ? static_cast<unsigned>(todo_total - contributor) : 0u,
                                    static_cast<unsigned>(blended), inside ? static_cast<unsigned>(contributor) : 0u,
                                    inside ? 1u : 0u};
    for (int k = 0; k < kStatCount; ++k) {
      const unsigned w = __reduce_add_sync(arc::kFullMask, v[k]);
      if (threadIdx.x % 32 == 0) atomicAdd(stats + k, static_cast<unsigned long long>(w));
    }
  }
  if (inside) {
    const int pix = py * cam.w + px;
    final_t[pix] = T;
    n_contrib[pix] = last;
    for (int ch = 0; ch < 3; ++ch) out[3 * pix + ch] = C[ch] + T * bg(ch);
  }
}

namespace {

class GsWorkload final : public Workload {
 public:
  // separate: the real codes' gradient arrays (the default, issue 23); otherwise the
  // interleaved 12-word record (workload name + "-il"), which float4 atomics need.
  // absgrad (separate arrays only): gsplat's |dL/dmean2D| accumulation as two more
  // parameters per call (workload name + "-abs").
  // invdepth (separate arrays only, not with absgrad): the inverse-depth gradient as a 10th
  // value per call (workload name + "-depth").
  GsWorkload(int w, int h, size_t n, uint64_t seed, const std::string& scene, bool separate, bool absgrad,
             bool invdepth)
      : name_(std::string(scene == "fog" ? "gs" : "gs-" + scene) + (separate ? "" : "-il") + (absgrad ? "-abs" : "") +
              (invdepth && separate && !absgrad ? "-depth" : "")),
        separate_(separate),
        abs_(absgrad && separate),
        depth_on_(invdepth && separate && !absgrad),
        scene_(scene == "fog" ? make_gauss_scene(n, w, h, seed) : make_gauss_surface_scene(scene, n, w, h, seed)) {
    cam_ = {w, h, scene_.cam.fx, scene_.cam.fy, scene_.cam.cx, scene_.cam.cy};
    tiles_x_ = static_cast<int>(div_up(w, kTile));
    tiles_y_ = static_cast<int>(div_up(h, kTile));
    pos_.upload(scene_.pos);
    scale_.upload(scene_.scale);
    rot_.upload(scene_.rot);
    opac_.upload(scene_.opacity);
    color_.upload(scene_.color);
    mean2d_.resize(n);
    conic_.resize(n);
    depth_.resize(n);
    rect_.resize(n);
    const size_t np = static_cast<size_t>(w) * h;
    out_.resize(3 * np);
    final_t_.resize(np);
    n_contrib_.resize(np);
    dldp_.upload(make_pixel_grad(w, h, 3, seed));
    if (depth_on_) dldd_.upload(make_pixel_grad(w, h, 1, seed ^ 0x5eedull));
    grad_.resize(n * (abs_ ? kNP + 2 : depth_on_ ? kNP + 1 : separate ? kNP : kStride));
    // Separate arrays in one allocation (grads() returns them back to back): means2D (float2),
    // conic (3 floats, as gsplat), opacity, colours (float3).
    const int64_t nn = static_cast<int64_t>(n);
    float* const g = grad_.get();
    const int64_t start[kNP] = {0, 1, 2 * nn, 2 * nn + 1, 2 * nn + 2, 5 * nn, 6 * nn, 6 * nn + 1, 6 * nn + 2};
    const int width[kNP] = {2, 2, 3, 3, 3, 1, 3, 3, 3};
    for (int i = 0; i < kNP; ++i) {
      arrays_.ptr[i] = g + start[i];
      arrays_.width[i] = width[i];
      word_of_[i] = start[i];
      arrays_abs_.ptr[i] = g + start[i];
      arrays_abs_.width[i] = width[i];
      arrays_depth_.ptr[i] = g + start[i];
      arrays_depth_.width[i] = width[i];
    }
    arrays_depth_.ptr[kNP] = g + 9 * nn;  // invdepth (one float per Gaussian) after the colours
    arrays_depth_.width[kNP] = 1;
    for (int i = 0; i < 2; ++i) {  // means2D_abs (float2) after the colours
      arrays_abs_.ptr[kNP + i] = g + 9 * nn + i;
      arrays_abs_.width[kNP + i] = 2;
    }
  }
  std::string name() const override { return name_; }
  std::string kernel_name() const override { return "gs::backward_kernel"; }
  std::string generator() const override { return scene_.generator; }
  uint64_t seed() const override { return scene_.seed; }
  // Separate arrays take scalar atomics only (float4 needs the interleaved record).
  // shm (block privatization) is built for pulsar and tex: a gs tile's warps already name one
  // Gaussian per call (the tree methods reduce them).
  bool supports(const MethodSpec& m) const override { return m.name != "shm" && m.name != "tile" && m.name != "regroup" && (!separate_ || m.vec == 1); }
  // Where Gaussian i's parameter p is in grads().
  size_t gidx(size_t i, int p) const {
    if (p == kNP) return static_cast<size_t>(9 * scene_.n + i);  // -depth: invdepth
    return separate_ ? static_cast<size_t>(word_of_[p]) + i * static_cast<size_t>(arrays_.width[p]) : i * kStride + p;
  }

  // Scene statistics (issue 23), beside published ones in results/h100/README.md: per-tile
  // list lengths, Gaussians blended per pixel, early termination (pixels that stopped, list
  // entries the stop skipped). Runs the forward pass once more with render's counters.
  std::vector<std::pair<std::string, std::string>> describe() const override {
    const auto nc = n_contrib_.download();
    double sum = 0;
    for (int v : nc) sum += v;
    stats_.resize(kStatCount);
    stats_.zero();
    render<<<tiles_x_ * tiles_y_, kBlock>>>(binner_.ranges(), binner_.list(), tiles_x_, cam_, mean2d_.get(),
                                            conic_.get(), color_.get(), out_.get(), final_t_.get(),
                                            n_contrib_.get(), stats_.get());
    ARC_LAUNCH();
    const auto st = stats_.download();
    const auto ranges = binner_.ranges_host();
    std::vector<double> per_tile;
    for (const uint2& r : ranges) per_tile.push_back(static_cast<double>(r.y - r.x));
    std::sort(per_tile.begin(), per_tile.end());
    auto pct = [&](double q) {
      return per_tile.empty() ? 0.0 : per_tile[std::min(per_tile.size() - 1, static_cast<size_t>(q * per_tile.size()))];
    };
    const double px = std::max<double>(1.0, static_cast<double>(st[kStatPixels]));
    const double visited = static_cast<double>(st[kStatVisited]), skipped = static_cast<double>(st[kStatSkippedByStop]);
    auto f = [](double v) { return std::to_string(v); };
    const std::string k = name_ + ".";
    return {{k + "generator", generator()},
            {k + "seed", std::to_string(scene_.seed)},
            {k + "gaussians", std::to_string(scene_.n)},
            {k + "frame", std::to_string(cam_.w) + "x" + std::to_string(cam_.h)},
            {k + "tile_entries", std::to_string(binner_.entries())},
            {k + "entries_per_tile", f(static_cast<double>(binner_.entries()) / (tiles_x_ * tiles_y_))},
            {k + "entries_per_tile_p50", f(pct(0.5))},
            {k + "entries_per_tile_p90", f(pct(0.9))},
            {k + "entries_per_tile_p99", f(pct(0.99))},
            {k + "entries_per_tile_max", f(per_tile.empty() ? 0.0 : per_tile.back())},
            {k + "mean_last_contributor", f(sum / static_cast<double>(nc.size()))},
            {k + "blended_per_pixel", f(static_cast<double>(st[kStatBlended]) / px)},
            {k + "early_stop_pixel_fraction", f(static_cast<double>(st[kStatStopped]) / px)},
            {k + "early_stop_skipped_entry_fraction", f(skipped / std::max(1.0, visited + skipped))}};
  }

  void forward() override {
    preprocess<<<div_up(scene_.n, 256), 256>>>(static_cast<int>(scene_.n), pos_.get(), scale_.get(), rot_.get(),
                                                opac_.get(), cam_, tiles_x_, tiles_y_, mean2d_.get(), conic_.get(),
                                                depth_.get(), rect_.get());
    ARC_LAUNCH();
    binner_.bin(rect_.get(), depth_.get(), static_cast<int>(scene_.n), tiles_x_, tiles_y_);
    render<<<tiles_x_ * tiles_y_, kBlock>>>(binner_.ranges(), binner_.list(), tiles_x_, cam_, mean2d_.get(),
                                            conic_.get(), color_.get(), out_.get(), final_t_.get(),
                                            n_contrib_.get(), nullptr);
    ARC_LAUNCH();
  }

  void backward(const MethodSpec& m, int thr) override {
    if (!supports(m)) throw arc::Error(name_ + ": " + m.label() + " needs the interleaved layout (" + name_ + "-il)");
    grad_.zero();
    dispatch<true>(m, [&](auto mc, auto vc) {
      constexpr arc::Method M = decltype(mc)::value;
      constexpr int O = decltype(vc)::value;
      auto go = [&](const auto& lay) {
        using L = std::decay_t<decltype(lay)>;
        constexpr bool kAbs = std::is_same_v<L, arc::Arrays<kNP + 2>>;
        constexpr bool kDepth = std::is_same_v<L, arc::Arrays<kNP + 1>>;
        backward_kernel<M, O, arc::UntracedRec<M>, L, kAbs, kDepth>
            <<<tiles_x_ * tiles_y_, kBlock>>>(binner_.ranges(), binner_.list(), tiles_x_, cam_, mean2d_.get(),
                                              conic_.get(), color_.get(), final_t_.get(), n_contrib_.get(),
                                              dldp_.get(), lay, thr, arc::TraceBuffers{}, depth_.get(), dldd_.get());
      };
      if constexpr (arc::opt_vec(O) == 1) {
        if (abs_) go(arrays_abs_);
        else if (depth_on_) go(arrays_depth_);
        else if (separate_) go(arrays_);
        else go(arc::Strided{grad_.get(), kStride});
      } else {
        go(arc::Strided{grad_.get(), kStride});
      }
    });
    ARC_LAUNCH();
  }

  std::vector<float> grads() const override { return grad_.download(); }

  CaptureResult capture(const std::string& method, int thr) override {
    if (separate_)
      throw arc::Error("trace: " + name_ + " writes separate gradient arrays, which the trace format (one buffer, a stride) "
                       "cannot name; capture " + name_ + "-il");
    const size_t warps = static_cast<size_t>(tiles_x_) * tiles_y_ * (kBlock / 32);
    CaptureResult r = run_capture(
        warps, grad_, [&] { backward(MethodSpec{method, 1}, thr); },
        [&](const arc::TraceBuffers& tb) {
          dispatch_scalar(method, [&](auto mc) {
            backward_kernel<decltype(mc)::value, 1, arc::DevTrace>
                <<<tiles_x_ * tiles_y_, kBlock>>>(binner_.ranges(), binner_.list(), tiles_x_, cam_, mean2d_.get(),
                                                  conic_.get(), color_.get(), final_t_.get(), n_contrib_.get(),
                                                  dldp_.get(), arc::Strided{grad_.get(), kStride}, thr, tb);
          });
        },
        [&] { grad_.zero(); }, capture_values);
    r.grid_blocks = static_cast<uint32_t>(tiles_x_ * tiles_y_);
    r.threads_per_block = kBlock;
    return r;
  }

  double fd_check(std::string& detail, const MethodSpec& m, int thr) override;

 private:
  // Loss sum_p <dL/dp, C_p> in double from the 2D parameters, following the GPU's tile lists.
  double host_loss(const std::vector<float>& m2, const std::vector<float>& co, const std::vector<float>& col,
                   const std::vector<uint32_t>& list, const std::vector<uint2>& ranges,
                   const std::vector<float>& dldp, std::vector<uint8_t>& path, bool record,
                   const std::vector<float>* invd = nullptr, const std::vector<float>* dldd = nullptr) const;

  std::string name_;
  bool separate_ = true, abs_ = false, depth_on_ = false;
  arc::Arrays<kNP> arrays_{};
  arc::Arrays<kNP + 1> arrays_depth_{};
  arc::Arrays<kNP + 2> arrays_abs_{};
  int64_t word_of_[kNP] = {};
  GaussScene scene_;
  mutable DevBuf<unsigned long long> stats_;
  Cam cam_{};
  int tiles_x_ = 0, tiles_y_ = 0;
  DevBuf<float> pos_, scale_, rot_, opac_, color_, depth_, out_, final_t_, dldp_, dldd_, grad_;
  DevBuf<float2> mean2d_;
  DevBuf<float4> conic_;
  DevBuf<int4> rect_;
  DevBuf<int> n_contrib_;
  TileBinner binner_;
};

double GsWorkload::host_loss(const std::vector<float>& m2, const std::vector<float>& co,
                             const std::vector<float>& col, const std::vector<uint32_t>& list,
                             const std::vector<uint2>& ranges, const std::vector<float>& dldp,
                             std::vector<uint8_t>& path, bool record, const std::vector<float>* invd,
                             const std::vector<float>* dldd) const {
  // The loss is piecewise smooth: the alpha cut-off, the 0.99 clamp and early termination
  // switch pieces. The GPU gradient is the derivative within the piece of the unperturbed
  // parameters, so the first evaluation records each decision (0 skip, 1 blend, 2 blend at
  // the clamp, 3 stop) and the perturbed ones replay them.
  enum : uint8_t { kSkip = 0, kBlend = 1, kClamped = 2, kStop = 3 };
  if (record) path.clear();
  size_t at = 0;
  double L = 0;
  for (int py = 0; py < cam_.h; ++py)
    for (int px = 0; px < cam_.w; ++px) {
      const uint2 r = ranges[(py / kTile) * tiles_x_ + px / kTile];
      double T = 1, C[3] = {0, 0, 0}, D = 0;  // D: inverse depth (-depth)
      for (uint32_t k = r.x; k < r.y; ++k) {
        const uint32_t id = list[k];
        const double dx = m2[2 * id] - px, dy = m2[2 * id + 1] - py;
        const double power = -0.5 * (co[4 * id] * dx * dx + co[4 * id + 2] * dy * dy) - co[4 * id + 1] * dx * dy;
        const double raw = co[4 * id + 3] * std::exp(power);
        uint8_t d;
        if (record) {
          d = (power > 0 || std::min<double>(kAlphaMax, raw) < kAlphaMin) ? kSkip
              : T * (1 - std::min<double>(kAlphaMax, raw)) < kTMin      ? kStop
              : raw >= kAlphaMax                                         ? kClamped
                                                                         : kBlend;
          path.push_back(d);
        } else {
          d = path[at++];
        }
        if (d == kSkip) continue;
        if (d == kStop) break;
        const double alpha = d == kClamped ? static_cast<double>(kAlphaMax) : raw;
        for (int ch = 0; ch < 3; ++ch) C[ch] += col[3 * id + ch] * alpha * T;
        if (invd) D += (*invd)[id] * alpha * T;
        T *= 1 - alpha;
      }
      const size_t pix = static_cast<size_t>(py) * cam_.w + px;
      for (int ch = 0; ch < 3; ++ch) L += dldp[3 * pix + ch] * (C[ch] + T * bg(ch));
      if (invd) L += (*dldd)[pix] * D;
    }
  return L;
}

double GsWorkload::fd_check(std::string& detail, const MethodSpec& m, int thr) {
  forward();
  backward(m, thr);
  const auto g = grads();
  const auto m2f = mean2d_.download();
  const auto cof = conic_.download();
  std::vector<float> m2(2 * scene_.n), co(4 * scene_.n);
  for (size_t i = 0; i < scene_.n; ++i) {
    m2[2 * i] = m2f[i].x;
    m2[2 * i + 1] = m2f[i].y;
    co[4 * i] = cof[i].x;
    co[4 * i + 1] = cof[i].y;
    co[4 * i + 2] = cof[i].z;
    co[4 * i + 3] = cof[i].w;
  }
  std::vector<float> col = scene_.color;
  const auto list = binner_.list_host();
  const auto ranges = binner_.ranges_host();
  const auto dldp = dldp_.download();
  const auto rects = rect_.download();
  std::vector<float> invd;  // -depth: 1/z as the GPU computes it
  std::vector<float> dldd;
  if (depth_on_) {
    for (float z : depth_.download()) invd.push_back(1.0f / z);
    dldd = dldd_.download();
  }
  const std::vector<float>* ip = depth_on_ ? &invd : nullptr;
  const std::vector<float>* dp = depth_on_ ? &dldd : nullptr;
  std::vector<uint8_t> path;
  host_loss(m2, co, col, list, ranges, dldp, path, true, ip, dp);
  const int np = depth_on_ ? kNP + 1 : kNP;
  double num = 0, den = 0, gnum[5] = {0, 0, 0, 0, 0}, gden[5] = {0, 0, 0, 0, 0};
  int checked = 0;
  for (size_t i = 0; i < scene_.n; ++i) {
    if (rects[i].z <= rects[i].x) continue;
    for (int p = 0; p < np; ++p) {
      std::vector<float>* v;
      size_t idx;
      double h;
      if (p < 2) v = &m2, idx = 2 * i + p, h = 1e-3;
      else if (p < 5) v = &co, idx = 4 * i + (p - 2), h = 1e-3 * std::max(1e-3, std::fabs(static_cast<double>(co[idx])));
      else if (p == 5) v = &co, idx = 4 * i + 3, h = 1e-4;
      else if (p < kNP) v = &col, idx = 3 * i + (p - 6), h = 1e-4;
      else v = &invd, idx = i, h = 1e-4;
      // The step actually taken is the difference of the two rounded floats.
      const float x0 = (*v)[idx];
      const float xp = static_cast<float>(x0 + h), xm = static_cast<float>(x0 - h);
      (*v)[idx] = xp;
      const double Lp = host_loss(m2, co, col, list, ranges, dldp, path, false, ip, dp);
      (*v)[idx] = xm;
      const double Lm = host_loss(m2, co, col, list, ranges, dldp, path, false, ip, dp);
      (*v)[idx] = x0;
      const double fd = (Lp - Lm) / (static_cast<double>(xp) - static_cast<double>(xm));
      const double gg = g[gidx(i, p)];
      num += (fd - gg) * (fd - gg);
      den += fd * fd;
      const int grp = p < 2 ? 0 : p < 5 ? 1 : p == 5 ? 2 : p < kNP ? 3 : 4;
      gnum[grp] += (fd - gg) * (fd - gg);
      gden[grp] += fd * fd;
      ++checked;
    }
  }
  const double rel = std::sqrt(num / std::max(den, 1e-300));
  detail = std::to_string(checked) + " parameters of " + std::to_string(scene_.n) + " Gaussians; by group";
  const char* names[5] = {"mean", "conic", "opacity", "color", "invdepth"};
  for (int k = 0; k < (depth_on_ ? 5 : 4); ++k) {
    char buf[64];
    std::snprintf(buf, sizeof buf, " %s %.1e", names[k], std::sqrt(gnum[k] / std::max(gden[k], 1e-300)));
    detail += buf;
  }
  return rel;
}

}  // namespace
}  // namespace arc::sw::gs

namespace arc::sw {
std::unique_ptr<Workload> make_gs(int width, int height, size_t n, uint64_t seed, const std::string& scene,
                                  bool separate, bool absgrad, bool invdepth) {
  return std::make_unique<gs::GsWorkload>(width, height, n, seed, scene, separate, absgrad, invdepth);
}
}  // namespace arc::sw
