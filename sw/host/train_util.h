// Host side of arc_train (the 3DGS training loop of issue 11): options, camera views around
// the procedural scene, the perturbed initial model, PSNR. Host-only so CPU tests cover it.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "args.h"
#include "scene.h"

namespace arc::sw {

struct TrainArgs {
  std::vector<MethodSpec> methods{{"baseline", 1}, {"swb", 1}, {"cub", 1}};
  int threshold = 8;            // SW-S / SW-B balancing threshold (issue 7's best for gs: SW-B X=8)
  double budget_s = 25;         // training wall-clock budget per method (evaluation excluded)
  double eval_every_s = 0.5;    // PSNR over all views every this many training seconds
  int width = 1280, height = 720;
  size_t gaussians = 200000;
  int views = 4;
  float max_yaw_deg = 8;        // views yaw about a pivot on the optical axis, +-max_yaw_deg
  uint64_t seed = 7;            // hidden scene; the initial model uses seed + 1
  std::string out_dir;
};
TrainArgs parse_train_args(const std::vector<std::string>& argv);  // throws arc::Error
std::string train_usage();

// World -> camera of view k: p_c = R (p - pivot) + pivot, R a yaw about the y axis;
// q_view is R as a unit quaternion (w, x, y, z), so a Gaussian's rotation becomes q_view * q.
struct View {
  float R[9];
  float pivot[3];
  float q_view[4];
  float yaw_deg;
};
std::vector<View> make_views(int n, float max_yaw_deg, float pivot_z);

// Parameters the training optimizes, one float vector: [pos 3n | opacity logit n | RGB 3n].
// Scales and rotations are kept (given to the model as they are in the scene).
std::vector<float> pack_params(const GaussScene& s);
// The initial model: positions moved by N(0, (jitter * mean scale)^2) per axis, colours
// uniform in [0, 1], every opacity 0.3; deterministic in seed.
std::vector<float> perturb_params(const GaussScene& s, float jitter, uint64_t seed);
// Per-Gaussian position step scale: the mean of its three axis scales.
std::vector<float> position_scale(const GaussScene& s);

double psnr_from_mse(double mse);  // 10 log10(1 / mse), images in [0, 1]
float logit(float p);

}  // namespace arc::sw
