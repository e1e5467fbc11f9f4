// arc_train: a short 3DGS training loop on a procedural scene (issue 11), to compare reduce
// methods by image quality reached in a fixed wall-clock budget, not only by kernel time.
//   Hidden scene: gauss-frustum-v1 (seed S), rendered from V views (yaw about a pivot) as the
//   ground-truth images. Model: the same Gaussians' scales/rotations, positions jittered,
//   colours random, opacities 0.3 (seed S+1). Loss: mean squared error over all pixels and
//   channels of one view per step (views in turn). Gradients: the 3DGS backward kernel of
//   sw/workloads (per-pixel gradients accumulated per Gaussian through arc::reduce<Method>),
//   then chained to world positions (through the projection of the mean; the conic's
//   dependence on position is not followed), opacity logits and colours. Adam on the GPU.
//   Each method trains for --budget seconds of wall clock (cudaDeviceSynchronize per step;
//   PSNR evaluation over all views every --eval-every seconds is excluded from the clock).
#include <chrono>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "gs_kernels.cuh"
#include "png.h"
#include "report.h"
#include "train_util.h"

namespace arc::sw {
namespace {

using gs::Cam;

struct DevView {
  float R[9], pivot[3], q[4];
};

// World parameters -> this view's camera-space positions, rotations, opacities.
__global__ void to_view(int n, const float* P, const float* rot, DevView v, float* pos_c, float* rot_c,
                        float* opac) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float d[3];
  for (int a = 0; a < 3; ++a) d[a] = P[3 * i + a] - v.pivot[a];
  for (int r = 0; r < 3; ++r) pos_c[3 * i + r] = v.R[3 * r] * d[0] + v.R[3 * r + 1] * d[1] + v.R[3 * r + 2] * d[2] + v.pivot[r];
  const float aw = v.q[0], ax = v.q[1], ay = v.q[2], az = v.q[3];
  const float bw = rot[4 * i], bx = rot[4 * i + 1], by = rot[4 * i + 2], bz = rot[4 * i + 3];
  rot_c[4 * i + 0] = aw * bw - ax * bx - ay * by - az * bz;
  rot_c[4 * i + 1] = aw * bx + ax * bw + ay * bz - az * by;
  rot_c[4 * i + 2] = aw * by - ax * bz + ay * bw + az * bx;
  rot_c[4 * i + 3] = aw * bz + ax * by - ay * bx + az * bw;
  opac[i] = 1.0f / (1.0f + __expf(-P[3 * n + i]));
}

// dL/dC for L = mean over pixels and channels of (C - C_gt)^2.
__global__ void loss_grad(int m, const float* out, const float* gt, float* dldp) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < m) dldp[i] = 2.0f * (out[i] - gt[i]) / static_cast<float>(m);
}

// Sum of squared errors of the [0, 1]-clamped image (PSNR).
__global__ void sse(int m, const float* out, const float* gt, double* acc) {
  double s = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < m; i += gridDim.x * blockDim.x) {
    const double d = static_cast<double>(fminf(fmaxf(out[i], 0.0f), 1.0f)) - gt[i];
    s += d * d;
  }
  for (int o = 16; o > 0; o >>= 1) s += __shfl_down_sync(0xffffffffu, s, o);
  if ((threadIdx.x & 31) == 0) atomicAdd(acc, s);
}

// The backward kernel's 2D gradients -> gradients of the trained parameters.
__global__ void param_grad(int n, const float* g2d, const float* pos_c, const float* opac, Cam cam, DevView v,
                           float* G) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float* g = g2d + static_cast<size_t>(i) * gs::kStride;
  const float x = pos_c[3 * i], y = pos_c[3 * i + 1], z = pos_c[3 * i + 2];
  float dc[3] = {0, 0, 0};
  if (z >= 0.2f) {
    dc[0] = cam.fx / z * g[0];
    dc[1] = cam.fy / z * g[1];
    dc[2] = -cam.fx * x / (z * z) * g[0] - cam.fy * y / (z * z) * g[1];
  }
  for (int a = 0; a < 3; ++a) G[3 * i + a] = v.R[a] * dc[0] + v.R[3 + a] * dc[1] + v.R[6 + a] * dc[2];  // R^T dc
  const float o = opac[i];
  G[3 * n + i] = g[5] * o * (1.0f - o);
  for (int c = 0; c < 3; ++c) G[4 * n + 3 * i + c] = g[6 + c];
}

struct AdamLr {
  float pos, logit, color;
};

__global__ void adam(int n, float* P, const float* G, float* M, float* V, const float* pos_scale, AdamLr lr, float c1,
                     float c2) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= 7 * n) return;
  constexpr float b1 = 0.9f, b2 = 0.999f, eps = 1e-8f;
  const float g = G[k];
  const float m = b1 * M[k] + (1 - b1) * g, v = b2 * V[k] + (1 - b2) * g * g;
  M[k] = m;
  V[k] = v;
  const float step = (m / c1) / (sqrtf(v / c2) + eps);
  float p = P[k];
  if (k < 3 * n) p -= lr.pos * pos_scale[k / 3] * step;
  else if (k < 4 * n) p -= lr.logit * step;
  else p = fminf(fmaxf(p - lr.color * step, 0.0f), 1.0f);
  P[k] = p;
}

class Trainer {
 public:
  Trainer(const TrainArgs& a, const GaussScene& s) : a_(a), n_(static_cast<int>(s.n)) {
    cam_ = {a.width, a.height, s.cam.fx, s.cam.fy, s.cam.cx, s.cam.cy};
    tiles_x_ = static_cast<int>(div_up(a.width, kTile));
    tiles_y_ = static_cast<int>(div_up(a.height, kTile));
    npix3_ = 3 * a.width * a.height;
    scale_.upload(s.scale);
    rot_.upload(s.rot);
    pos_scale_.upload(position_scale(s));
    pos_c_.resize(3 * s.n);
    rot_c_.resize(4 * s.n);
    opac_.resize(s.n);
    mean2d_.resize(s.n);
    conic_.resize(s.n);
    depth_.resize(s.n);
    rect_.resize(s.n);
    out_.resize(npix3_);
    dldp_.resize(npix3_);
    final_t_.resize(npix3_ / 3);
    n_contrib_.resize(npix3_ / 3);
    g2d_.resize(s.n * gs::kStride);
    G_.resize(7 * s.n);
    M_.resize(7 * s.n);
    V_.resize(7 * s.n);
    acc_.resize(1);
    // Pivot: the middle of the scene's depth range (gauss-frustum-v1: z in [3, 30]).
    for (const View& v : make_views(a.views, a.max_yaw_deg, 10.0f)) {
      DevView d{};
      for (int i = 0; i < 9; ++i) d.R[i] = v.R[i];
      for (int i = 0; i < 3; ++i) d.pivot[i] = v.pivot[i];
      for (int i = 0; i < 4; ++i) d.q[i] = v.q_view[i];
      views_.push_back(d);
    }
  }

  // Renders params P (device, 7n) from view k into out_.
  void render(const float* P, int k) {
    const unsigned g = div_up(n_, 256);
    to_view<<<g, 256>>>(n_, P, rot_.get(), views_[k], pos_c_.get(), rot_c_.get(), opac_.get());
    gs::preprocess<<<g, 256>>>(n_, pos_c_.get(), scale_.get(), rot_c_.get(), opac_.get(), cam_, tiles_x_, tiles_y_,
                               mean2d_.get(), conic_.get(), depth_.get(), rect_.get());
    ARC_LAUNCH();
    binner_.bin(rect_.get(), depth_.get(), n_, tiles_x_, tiles_y_);
    gs::render<<<tiles_x_ * tiles_y_, gs::kBlock>>>(binner_.ranges(), binner_.list(), tiles_x_, cam_, mean2d_.get(),
                                                    conic_.get(), P + 4 * n_, out_.get(), final_t_.get(),
                                                    n_contrib_.get(), nullptr);
    ARC_LAUNCH();
  }
  std::vector<float> image() const { return out_.download(); }

  void set_gt(const std::vector<float>& gt_params) {
    DevBuf<float> P;
    P.upload(gt_params);
    gt_.resize(views_.size());
    for (size_t k = 0; k < views_.size(); ++k) {
      render(P.get(), static_cast<int>(k));
      gt_[k] = std::make_unique<DevBuf<float>>();
      gt_[k]->upload(image());
    }
  }

  double psnr(const float* P) {  // mean PSNR over the views
    double s = 0;
    for (size_t k = 0; k < views_.size(); ++k) {
      render(P, static_cast<int>(k));
      acc_.zero();
      sse<<<264, 256>>>(npix3_, out_.get(), gt_[k]->get(), acc_.get());
      ARC_LAUNCH();
      s += psnr_from_mse(acc_.download()[0] / npix3_);
    }
    return s / static_cast<double>(views_.size());
  }

  // One Adam step on view k with the given reduce method.
  void step(DevBuf<float>& P, const MethodSpec& m, int k, int t) {
    render(P.get(), k);
    loss_grad<<<div_up(npix3_, 256), 256>>>(npix3_, out_.get(), gt_[k]->get(), dldp_.get());
    g2d_.zero();
    dispatch<true, false>(m, [&](auto mc, auto vc) {
      gs::backward_kernel<decltype(mc)::value, decltype(vc)::value, arc::NoTrace>
          <<<tiles_x_ * tiles_y_, gs::kBlock>>>(binner_.ranges(), binner_.list(), tiles_x_, cam_, mean2d_.get(),
                                                conic_.get(), P.get() + 4 * n_, final_t_.get(), n_contrib_.get(),
                                                dldp_.get(), arc::Strided{g2d_.get(), gs::kStride}, a_.threshold,
                                                arc::TraceBuffers{});
    });
    ARC_LAUNCH();
    const unsigned g = div_up(n_, 256);
    param_grad<<<g, 256>>>(n_, g2d_.get(), pos_c_.get(), opac_.get(), cam_, views_[k], G_.get());
    const float c1 = 1.0f - std::pow(0.9f, static_cast<float>(t)), c2 = 1.0f - std::pow(0.999f, static_cast<float>(t));
    adam<<<div_up(7 * n_, 256), 256>>>(n_, P.get(), G_.get(), M_.get(), V_.get(), pos_scale_.get(),
                                       AdamLr{0.05f, 0.05f, 0.02f}, c1, c2);
    ARC_LAUNCH();
  }
  void reset_adam() {
    M_.zero();
    V_.zero();
  }
  int views() const { return static_cast<int>(views_.size()); }

 private:
  const TrainArgs& a_;
  int n_;
  Cam cam_{};
  int tiles_x_ = 0, tiles_y_ = 0, npix3_ = 0;
  DevBuf<float> scale_, rot_, pos_scale_, pos_c_, rot_c_, opac_, depth_, out_, dldp_, final_t_, g2d_, G_, M_, V_;
  DevBuf<double> acc_;
  DevBuf<float2> mean2d_;
  DevBuf<float4> conic_;
  DevBuf<int4> rect_;
  DevBuf<int> n_contrib_;
  TileBinner binner_;
  std::vector<DevView> views_;
  std::vector<std::unique_ptr<DevBuf<float>>> gt_;
};

int run(const TrainArgs& a) {
  using clock = std::chrono::steady_clock;
  cudaDeviceProp prop{};
  ARC_CUDA(cudaGetDeviceProperties(&prop, 0));
  const GaussScene scene = make_gauss_scene(a.gaussians, a.width, a.height, a.seed);
  Trainer tr(a, scene);
  tr.set_gt(pack_params(scene));
  const std::vector<float> init = perturb_params(scene, 1.0f, a.seed + 1);
  const std::string dir = a.out_dir.empty() ? "." : a.out_dir;
  {  // the images a person looks at: ground truth, start (same for every method)
    DevBuf<float> P;
    P.upload(pack_params(scene));
    tr.render(P.get(), 0);
    write_png(dir + "/gt_view0.png", a.width, a.height, tr.image());
    P.upload(init);
    tr.render(P.get(), 0);
    write_png(dir + "/start_view0.png", a.width, a.height, tr.image());
  }
  nlohmann::ordered_json j;
  j["meta"] = {{"gpu", prop.name},
               {"scene", std::string(GaussScene::kGenerator) + " seed " + std::to_string(a.seed)},
               {"gaussians", a.gaussians},
               {"frame", std::to_string(a.width) + "x" + std::to_string(a.height)},
               {"views", a.views},
               {"max_yaw_deg", a.max_yaw_deg},
               {"init", "positions + N(0, mean scale^2) per axis, colours U[0,1], opacity 0.3 (seed " +
                            std::to_string(a.seed + 1) + ")"},
               {"optimizer", "Adam b1 0.9 b2 0.999, lr pos 0.05*scale, logit 0.05, colour 0.02; one view per step"},
               {"budget_s", a.budget_s},
               {"threshold", a.threshold},
               {"clock", "wall clock of training steps (cudaDeviceSynchronize per step); PSNR evaluation excluded"}};
  j["runs"] = nlohmann::ordered_json::array();
  std::string csv = "method,iter,train_s,psnr_db\n";
  for (const MethodSpec& m : a.methods) {
    DevBuf<float> P;
    P.upload(init);
    tr.reset_adam();
    ARC_CUDA(cudaDeviceSynchronize());
    double train_s = 0, next_eval = 0;
    int it = 0;
    nlohmann::ordered_json curve = nlohmann::ordered_json::array();
    auto eval = [&] {
      const double p = tr.psnr(P.get());
      curve.push_back({{"iter", it}, {"train_s", train_s}, {"psnr_db", p}});
      char buf[128];
      std::snprintf(buf, sizeof buf, "%s,%d,%.4f,%.4f\n", m.label().c_str(), it, train_s, p);
      csv += buf;
      std::printf("%-10s iter %6d  %7.2f s  PSNR %.3f dB\n", m.label().c_str(), it, train_s, p);
      std::fflush(stdout);
      next_eval += a.eval_every_s;
    };
    eval();
    while (train_s < a.budget_s) {
      const auto t0 = clock::now();
      tr.step(P, m, it % tr.views(), it + 1);
      ARC_CUDA(cudaDeviceSynchronize());
      train_s += std::chrono::duration<double>(clock::now() - t0).count();
      ++it;
      if (train_s >= next_eval || train_s >= a.budget_s) eval();
    }
    tr.render(P.get(), 0);
    write_png(dir + "/end_" + m.label() + "_view0.png", a.width, a.height, tr.image());
    j["runs"].push_back({{"method", m.label()},
                         {"threshold", m.name == "sws" || m.name == "swb" ? a.threshold : -1},
                         {"iters", it},
                         {"ms_per_iter", 1e3 * train_s / std::max(it, 1)},
                         {"psnr_start_db", curve.front()["psnr_db"]},
                         {"psnr_end_db", curve.back()["psnr_db"]},
                         {"curve", curve}});
  }
  write_file(dir + "/train.json", j.dump(1) + "\n");
  write_file(dir + "/train.csv", csv);
  for (const auto& r : j["runs"])
    std::printf("%-10s %6d iters  %6.2f ms/iter  PSNR %.2f -> %.2f dB\n", r["method"].get<std::string>().c_str(),
                r["iters"].get<int>(), r["ms_per_iter"].get<double>(), r["psnr_start_db"].get<double>(),
                r["psnr_end_db"].get<double>());
  return 0;
}

}  // namespace
}  // namespace arc::sw

int main(int argc, char** argv) {
  try {
    return arc::sw::run(arc::sw::parse_train_args(std::vector<std::string>(argv + 1, argv + argc)));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "arc_train: error: %s\n", e.what());
    return 2;
  }
}
