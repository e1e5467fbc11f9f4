#include "report.h"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <system_error>
#include <map>
#include <nlohmann/json.hpp>

#include "error.h"

namespace arc::sw {

void fill_speedups(std::vector<ResultRow>& rows) {
  std::map<std::string, const ResultRow*> base, bound, floor, gsplat;
  for (const auto& r : rows) {
    if (r.method == "baseline") base[r.workload] = &r;
    if (r.method == "baseline-noatomic") bound[r.workload] = &r;
    if (r.method == "floor") floor[r.workload] = &r;
    if (r.method == "gsplat") gsplat[r.workload] = &r;
  }
  for (auto& r : rows) {
    r.frac_to_bound = NAN;
    r.to_floor = NAN;
    r.speedup_gsplat = NAN;
    auto gt = gsplat.find(r.workload);
    if (gt != gsplat.end() && r.grad_ms > 0) r.speedup_gsplat = gt->second->grad_ms / r.grad_ms;
    auto it = base.find(r.workload);
    if (it == base.end() || r.grad_ms <= 0) continue;
    r.speedup_grad = it->second->grad_ms / r.grad_ms;
    r.speedup_e2e = (r.fwd_ms + it->second->grad_ms) / (r.fwd_ms + r.grad_ms);
    auto bt = bound.find(r.workload);
    if (bt != bound.end() && it->second->grad_ms > bt->second->grad_ms)
      r.frac_to_bound = (it->second->grad_ms - r.grad_ms) / (it->second->grad_ms - bt->second->grad_ms);
    auto ft = floor.find(r.workload);
    if (ft != floor.end() && it->second->grad_ms > ft->second->grad_ms)
      r.to_floor = (it->second->grad_ms - r.grad_ms) / (it->second->grad_ms - ft->second->grad_ms);
  }
}

std::string to_json(const Report& r) {
  nlohmann::ordered_json j;
  j["meta"] = nlohmann::ordered_json::object();
  for (const auto& [k, v] : r.meta) j["meta"][k] = v;
  j["checks"] = nlohmann::ordered_json::object();
  for (const auto& [k, v] : r.checks) j["checks"][k] = v;
  j["rows"] = nlohmann::ordered_json::array();
  for (const auto& x : r.rows) {
    j["rows"].push_back({{"workload", x.workload}, {"method", x.method}, {"threshold", x.threshold},
                         {"grad_ms", x.grad_ms}, {"grad_ms_min", x.grad_ms_min},
                         {"grad_ms_max", x.grad_ms_max}, {"fwd_ms", x.fwd_ms},
                         {"speedup_grad", x.speedup_grad}, {"speedup_e2e", x.speedup_e2e},
                         {"rel_l2_vs_baseline", x.rel_l2}, {"check_ok", x.check_ok}, {"reps", x.reps}});
    auto& row = j["rows"].back();
    row["frac_to_bound"] = std::isfinite(x.frac_to_bound) ? nlohmann::ordered_json(x.frac_to_bound)
                                                          : nlohmann::ordered_json(nullptr);
    auto num_or_null = [](double v) {
      return std::isfinite(v) ? nlohmann::ordered_json(v) : nlohmann::ordered_json(nullptr);
    };
    row["to_floor"] = num_or_null(x.to_floor);
    row["speedup_vs_gsplat"] = num_or_null(x.speedup_gsplat);
    row["no_atomics_bound"] = x.bound;
    row["floor"] = x.floor;
    row["numerics"] = x.bound   ? "WRONG by construction (no-atomics timing bound, racy plain adds)"
                      : x.floor ? "WRONG by construction (compute floor: no gradient write; a floor, not a result)"
                                : "checked vs Baseline";
  }
  return j.dump(1) + "\n";
}

std::string to_csv(const std::vector<ResultRow>& rows) {
  std::string s =
      "workload,method,threshold,grad_ms,grad_ms_min,grad_ms_max,fwd_ms,speedup_grad,speedup_e2e,rel_l2_vs_baseline,"
      "check_ok,reps,frac_to_bound,numerics,to_floor,speedup_vs_gsplat\n";
  char buf[640];
  auto opt = [](double v) { return std::isfinite(v) ? std::to_string(v) : std::string(); };
  for (const auto& x : rows) {
    std::snprintf(buf, sizeof buf, "%s,%s,%d,%.5f,%.5f,%.5f,%.5f,%.4f,%.4f,%.3e,%d,%d,%s,%s,%s,%s\n",
                  x.workload.c_str(), x.method.c_str(), x.threshold, x.grad_ms, x.grad_ms_min, x.grad_ms_max,
                  x.fwd_ms, x.speedup_grad, x.speedup_e2e, x.rel_l2, x.check_ok ? 1 : 0, x.reps,
                  opt(x.frac_to_bound).c_str(),
                  x.bound   ? "WRONG-by-construction(no-atomics-bound)"
                  : x.floor ? "WRONG-by-construction(compute-floor)"
                            : "checked",
                  opt(x.to_floor).c_str(), opt(x.speedup_gsplat).c_str());
    s += buf;
  }
  return s;
}

std::string to_table(const std::vector<ResultRow>& rows) {
  std::string s =
      "workload method              thr  grad_ms  speedup  e2e_x  to_bound to_floor vs_gsplat  rel_l2    ok\n";
  char buf[400];
  for (const auto& x : rows) {
    char frac[32] = "     -", tf[32] = "     -", vg[32] = "      -";
    if (std::isfinite(x.frac_to_bound)) std::snprintf(frac, sizeof frac, "%6.3f", x.frac_to_bound);
    if (std::isfinite(x.to_floor)) std::snprintf(tf, sizeof tf, "%6.3f", x.to_floor);
    if (std::isfinite(x.speedup_gsplat)) std::snprintf(vg, sizeof vg, "%6.3fx", x.speedup_gsplat);
    std::snprintf(buf, sizeof buf, "%-8s %-19s %4s %8.3f %8.2f %6.2f  %s   %s   %s %8.1e %s\n", x.workload.c_str(),
                  x.method.c_str(), x.threshold < 0 ? "-" : std::to_string(x.threshold).c_str(), x.grad_ms,
                  x.speedup_grad, x.speedup_e2e, frac, tf, vg, x.rel_l2,
                  x.bound   ? "WRONG-by-construction (no-atomics bound)"
                  : x.floor ? "FLOOR (no gradient writes; WRONG by construction, not a result)"
                  : x.check_ok ? "ok"
                               : "BAD");
    s += buf;
  }
  return s;
}

void write_file(const std::string& path, const std::string& text) {
  std::ofstream f(path, std::ios::binary);
  if (!f) throw arc::Error("cannot write '" + path + "'");
  f << text;
  if (!f) throw arc::Error("write failed: '" + path + "'");
}

void prepare_out_dir(const std::string& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw arc::Error("cannot create output directory '" + dir + "': " + ec.message());
  if (!fs::is_directory(dir, ec)) throw arc::Error("output path '" + dir + "' is not a directory");
  const std::string probe = dir + "/.arc_bench_write_probe";
  {
    std::ofstream f(probe, std::ios::binary);
    if (!f || !(f << "probe\n") || !f.flush()) throw arc::Error("cannot write in output directory '" + dir + "' (" + probe + ")");
  }
  fs::remove(probe, ec);
}

}  // namespace arc::sw
