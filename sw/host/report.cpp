#include "report.h"

#include <cstdio>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "error.h"

namespace arc::sw {

void fill_speedups(std::vector<ResultRow>& rows) {
  std::map<std::string, const ResultRow*> base;
  for (const auto& r : rows)
    if (r.method == "baseline") base[r.workload] = &r;
  for (auto& r : rows) {
    auto it = base.find(r.workload);
    if (it == base.end() || r.grad_ms <= 0) continue;
    r.speedup_grad = it->second->grad_ms / r.grad_ms;
    r.speedup_e2e = (r.fwd_ms + it->second->grad_ms) / (r.fwd_ms + r.grad_ms);
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
  }
  return j.dump(1) + "\n";
}

std::string to_csv(const std::vector<ResultRow>& rows) {
  std::string s = "workload,method,threshold,grad_ms,grad_ms_min,grad_ms_max,fwd_ms,speedup_grad,speedup_e2e,rel_l2_vs_baseline,check_ok,reps\n";
  char buf[512];
  for (const auto& x : rows) {
    std::snprintf(buf, sizeof buf, "%s,%s,%d,%.5f,%.5f,%.5f,%.5f,%.4f,%.4f,%.3e,%d,%d\n", x.workload.c_str(),
                  x.method.c_str(), x.threshold, x.grad_ms, x.grad_ms_min, x.grad_ms_max, x.fwd_ms,
                  x.speedup_grad, x.speedup_e2e, x.rel_l2, x.check_ok ? 1 : 0, x.reps);
    s += buf;
  }
  return s;
}

std::string to_table(const std::vector<ResultRow>& rows) {
  std::string s = "workload method        thr  grad_ms  speedup  e2e_x  rel_l2    ok\n";
  char buf[256];
  for (const auto& x : rows) {
    std::snprintf(buf, sizeof buf, "%-8s %-13s %4s %8.3f %8.2f %6.2f %8.1e %3s\n", x.workload.c_str(),
                  x.method.c_str(), x.threshold < 0 ? "-" : std::to_string(x.threshold).c_str(), x.grad_ms,
                  x.speedup_grad, x.speedup_e2e, x.rel_l2, x.check_ok ? "ok" : "BAD");
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
