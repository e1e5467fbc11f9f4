#include "report.h"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "error.h"

namespace arc::sw {

void fill_speedups(std::vector<ResultRow>& rows) {
  std::map<std::string, const ResultRow*> base, bound;
  for (const auto& r : rows) {
    if (r.method == "baseline") base[r.workload] = &r;
    if (r.method == "baseline-noatomic") bound[r.workload] = &r;
  }
  for (auto& r : rows) {
    r.frac_to_bound = NAN;
    auto it = base.find(r.workload);
    if (it == base.end() || r.grad_ms <= 0) continue;
    r.speedup_grad = it->second->grad_ms / r.grad_ms;
    r.speedup_e2e = (r.fwd_ms + it->second->grad_ms) / (r.fwd_ms + r.grad_ms);
    auto bt = bound.find(r.workload);
    if (bt != bound.end() && it->second->grad_ms > bt->second->grad_ms)
      r.frac_to_bound = (it->second->grad_ms - r.grad_ms) / (it->second->grad_ms - bt->second->grad_ms);
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
    row["no_atomics_bound"] = x.bound;
    row["numerics"] = x.bound ? "WRONG by construction (no-atomics timing bound, racy plain adds)"
                              : "checked vs Baseline";
  }
  return j.dump(1) + "\n";
}

std::string to_csv(const std::vector<ResultRow>& rows) {
  std::string s =
      "workload,method,threshold,grad_ms,grad_ms_min,grad_ms_max,fwd_ms,speedup_grad,speedup_e2e,rel_l2_vs_baseline,"
      "check_ok,reps,frac_to_bound,numerics\n";
  char buf[512];
  for (const auto& x : rows) {
    std::snprintf(buf, sizeof buf, "%s,%s,%d,%.5f,%.5f,%.5f,%.5f,%.4f,%.4f,%.3e,%d,%d,%s,%s\n", x.workload.c_str(),
                  x.method.c_str(), x.threshold, x.grad_ms, x.grad_ms_min, x.grad_ms_max, x.fwd_ms,
                  x.speedup_grad, x.speedup_e2e, x.rel_l2, x.check_ok ? 1 : 0, x.reps,
                  std::isfinite(x.frac_to_bound) ? std::to_string(x.frac_to_bound).c_str() : "",
                  x.bound ? "WRONG-by-construction(no-atomics-bound)" : "checked");
    s += buf;
  }
  return s;
}

std::string to_table(const std::vector<ResultRow>& rows) {
  std::string s = "workload method              thr  grad_ms  speedup  e2e_x  to_bound  rel_l2    ok\n";
  char buf[320];
  for (const auto& x : rows) {
    char frac[32] = "     -";
    if (std::isfinite(x.frac_to_bound)) std::snprintf(frac, sizeof frac, "%6.3f", x.frac_to_bound);
    std::snprintf(buf, sizeof buf, "%-8s %-19s %4s %8.3f %8.2f %6.2f  %s %8.1e %s\n", x.workload.c_str(),
                  x.method.c_str(), x.threshold < 0 ? "-" : std::to_string(x.threshold).c_str(), x.grad_ms,
                  x.speedup_grad, x.speedup_e2e, frac, x.rel_l2,
                  x.bound ? "WRONG-by-construction (no-atomics bound)" : x.check_ok ? "ok" : "BAD");
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

}  // namespace arc::sw
