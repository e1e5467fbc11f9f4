#include "train_util.h"

#include <algorithm>
#include <cmath>

#include "error.h"
#include "rng.h"

namespace arc::sw {
namespace {

double to_num(const std::string& opt, const std::string& v, double lo, double hi) {
  size_t used = 0;
  double x = 0;
  try {
    x = std::stod(v, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != v.size() || !std::isfinite(x)) throw arc::Error(opt + ": '" + v + "' is not a number");
  if (x < lo || x > hi)
    throw arc::Error(opt + ": " + v + " is out of range [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
  return x;
}

}  // namespace

std::string train_usage() {
  return "usage: arc_train [--methods baseline,swb,cub,...] [--threshold X] [--budget SECONDS]\n"
         "                 [--eval-every SECONDS] [--size WxH] [--gaussians N] [--views N]\n"
         "                 [--yaw DEG] [--seed S] [--out DIR]\n";
}

TrainArgs parse_train_args(const std::vector<std::string>& argv) {
  TrainArgs a;
  for (size_t i = 0; i < argv.size(); ++i) {
    const std::string& o = argv[i];
    auto val = [&]() -> const std::string& {
      if (i + 1 >= argv.size()) throw arc::Error(o + ": needs a value");
      return argv[++i];
    };
    if (o == "--methods") {
      a.methods.clear();
      for (const auto& m : split_list(val())) {
        MethodSpec s = parse_method(m);
        if (s.bound()) throw arc::Error("--methods: the no-atomics bound computes wrong gradients; not trainable");
        a.methods.push_back(s);
      }
      if (a.methods.empty()) throw arc::Error("--methods: empty list");
    } else if (o == "--threshold") {
      a.threshold = static_cast<int>(to_num(o, val(), 0, 32));
    } else if (o == "--budget") {
      a.budget_s = to_num(o, val(), 0.1, 3600);
    } else if (o == "--eval-every") {
      a.eval_every_s = to_num(o, val(), 0.01, 3600);
    } else if (o == "--size") {
      const std::string& v = val();
      const size_t x = v.find('x');
      if (x == std::string::npos) throw arc::Error("--size: expected WxH, got '" + v + "'");
      a.width = static_cast<int>(to_num(o, v.substr(0, x), 16, 8192));
      a.height = static_cast<int>(to_num(o, v.substr(x + 1), 16, 8192));
    } else if (o == "--gaussians") {
      a.gaussians = static_cast<size_t>(to_num(o, val(), 1, 1e8));
    } else if (o == "--views") {
      a.views = static_cast<int>(to_num(o, val(), 1, 64));
    } else if (o == "--yaw") {
      a.max_yaw_deg = static_cast<float>(to_num(o, val(), 0, 45));
    } else if (o == "--seed") {
      a.seed = static_cast<uint64_t>(to_num(o, val(), 0, 1e15));
    } else if (o == "--out") {
      a.out_dir = val();
    } else {
      throw arc::Error("unknown option '" + o + "'\n" + train_usage());
    }
  }
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
