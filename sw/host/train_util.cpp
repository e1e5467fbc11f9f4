#include "train_util.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cmath>
#include <optional>

#include "error.h"
#include "numarg.h"
#include "rng.h"

namespace arc::sw {
namespace {

double to_num(const std::string& opt, const std::string& v, double lo, double hi) {
  return arc::parse_real(v, opt, lo, hi);  // decimal, finite, in range: arc's one number check
}

}  // namespace

std::string train_usage() {
  return "usage: arc_train [--methods baseline,swb,cub,...] [--threshold X] [--budget SECONDS]\n"
         "                 [--eval-every SECONDS] [--size WxH] [--gaussians N] [--views N]\n"
         "                 [--yaw DEG] [--seed S] [--out DIR]\n";
}

TrainArgs parse_train_args(const std::vector<std::string>& argv) {
  TrainArgs a;
  CLI::App app{"arc_train", "arc_train"};
  std::optional<std::string> methods, threshold, budget, eval_every, size, gaussians, views, yaw, seed;
  for (auto& [flag, v] : std::vector<std::pair<const char*, std::optional<std::string>*>>{
           {"--methods", &methods}, {"--threshold", &threshold}, {"--budget", &budget},
           {"--eval-every", &eval_every}, {"--size", &size}, {"--gaussians", &gaussians}, {"--views", &views},
           {"--yaw", &yaw}, {"--seed", &seed}})
    app.add_option_function<std::string>(flag, [v = v](const std::string& x) { *v = x; });
  app.add_option("--out", a.out_dir);
  parse_cli(app, argv, train_usage());
  if (methods) {
    a.methods.clear();
    for (const auto& m : split_list(*methods)) {
      MethodSpec s = parse_method(m);
      if (s.bound()) throw arc::Error("--methods: the no-atomics bound computes wrong gradients; not trainable");
      a.methods.push_back(s);
    }
    if (a.methods.empty()) throw arc::Error("--methods: empty list");
  }
  if (threshold) a.threshold = static_cast<int>(arc::parse_int(*threshold, "--threshold", 0, 32));
  if (budget) a.budget_s = to_num("--budget", *budget, 0.1, 3600);
  if (eval_every) a.eval_every_s = to_num("--eval-every", *eval_every, 0.01, 3600);
  if (size) {
    const size_t x = size->find('x');
    if (x == std::string::npos) throw arc::Error("--size: expected WxH, got '" + *size + "'");
    a.width = static_cast<int>(arc::parse_int(size->substr(0, x), "--size", 16, 8192));
    a.height = static_cast<int>(arc::parse_int(size->substr(x + 1), "--size", 16, 8192));
  }
  if (gaussians) a.gaussians = static_cast<size_t>(arc::parse_int(*gaussians, "--gaussians", 1, 100000000));
  if (views) a.views = static_cast<int>(arc::parse_int(*views, "--views", 1, 64));
  if (yaw) a.max_yaw_deg = static_cast<float>(to_num("--yaw", *yaw, 0, 45));
  if (seed) a.seed = arc::parse_count(*seed, "--seed", 0, 1'000'000'000'000'000ull);
  return a;
}

std::vector<View> make_views(int n, float max_yaw_deg, float pivot_z) {
  if (n <= 0) throw arc::Error("views: need at least one");
  std::vector<View> v(static_cast<size_t>(n));
  for (int k = 0; k < n; ++k) {
    const double deg = n == 1 ? 0.0 : -max_yaw_deg + 2.0 * max_yaw_deg * k / (n - 1);
    const double t = deg * M_PI / 180.0, c = std::cos(t), s = std::sin(t);
    View& w = v[static_cast<size_t>(k)];
    const double R[9] = {c, 0, s, 0, 1, 0, -s, 0, c};
    for (int i = 0; i < 9; ++i) w.R[i] = static_cast<float>(R[i]);
    w.pivot[0] = w.pivot[1] = 0;
    w.pivot[2] = pivot_z;
    w.q_view[0] = static_cast<float>(std::cos(t / 2));
    w.q_view[1] = 0;
    w.q_view[2] = static_cast<float>(std::sin(t / 2));
    w.q_view[3] = 0;
    w.yaw_deg = static_cast<float>(deg);
  }
  return v;
}

float logit(float p) {
  const double q = std::clamp(static_cast<double>(p), 1e-6, 1 - 1e-6);
  return static_cast<float>(std::log(q / (1 - q)));
}

std::vector<float> pack_params(const GaussScene& s) {
  const size_t n = s.n;
  std::vector<float> p(7 * n);
  std::copy(s.pos.begin(), s.pos.end(), p.begin());
  for (size_t i = 0; i < n; ++i) p[3 * n + i] = logit(s.opacity[i]);
  std::copy(s.color.begin(), s.color.end(), p.begin() + 4 * n);
  return p;
}

std::vector<float> position_scale(const GaussScene& s) {
  std::vector<float> r(s.n);
  for (size_t i = 0; i < s.n; ++i) r[i] = (s.scale[3 * i] + s.scale[3 * i + 1] + s.scale[3 * i + 2]) / 3.0f;
  return r;
}

std::vector<float> perturb_params(const GaussScene& s, float jitter, uint64_t seed) {
  std::vector<float> p = pack_params(s);
  const std::vector<float> sc = position_scale(s);
  Rng r(seed);
  const size_t n = s.n;
  for (size_t i = 0; i < n; ++i) {
    for (int a = 0; a < 3; ++a) p[3 * i + a] += static_cast<float>(jitter * sc[i] * r.normal());
    p[3 * n + i] = logit(0.3f);
    for (int a = 0; a < 3; ++a) p[4 * n + 3 * i + a] = static_cast<float>(r.uniform());
  }
  return p;
}

double psnr_from_mse(double mse) {
  if (!(mse > 0)) return INFINITY;
  return -10.0 * std::log10(mse);
}

}  // namespace arc::sw
