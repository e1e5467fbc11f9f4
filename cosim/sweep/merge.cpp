#include "merge.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <sstream>

#include "error.h"
#include "atomic_file.h"
#include "proc.h"
#include "results.h"

namespace fs = std::filesystem;

namespace arc::sweep {

namespace {

// runs[0] value at a dotted path ("reductions_in_core.groups"), null if absent.
nlohmann::json metric_of(const nlohmann::json& run, const std::string& key) {
  const nlohmann::json* node = &run;
  std::stringstream ss(key);
  for (std::string part; std::getline(ss, part, '.');) {
    if (!node->is_object() || !node->contains(part)) return nullptr;
    node = &(*node)[part];
  }
  return *node;
}

// What identifies the baseline a point is compared with: everything but mode and sched.
std::string baseline_key(const Point& p) {
  nlohmann::json k = p.params;
  k.erase("mode");
  k.erase("sched");
  return p.trace + "|" + k.dump();
}

std::string csv_cell(const nlohmann::ordered_json& v) {
  if (v.is_null()) return "";
  if (!v.is_string()) return v.dump();
  const std::string s = v.get<std::string>();
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

std::string safe(std::string s) {
  for (char& c : s)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_') c = '_';
  return s;
}

}  // namespace

nlohmann::ordered_json merge_table(const std::string& dir) {
  const Plan plan = read_plan(dir);
  std::vector<std::string> cols = {"id", "trace"};
  cols.insert(cols.end(), plan.axes.begin(), plan.axes.end());
  cols.push_back("status");
  cols.insert(cols.end(), plan.metrics.begin(), plan.metrics.end());
  cols.push_back("error");

  struct Row {
    const Point* p;
    std::string status, error;
    nlohmann::json run;  // runs[0] of arcsim sim --json
  };
  std::vector<Row> rows;
  std::map<std::string, double> baseline_cycles;  // baseline_key -> total_cycles
  for (const Point& p : plan.points) {
    Row r{&p, "pending", "", nullptr};
    if (state_of(dir, p.id) == State::Done) {
      try {
        const auto j = nlohmann::json::parse(read_file(point_path(dir, p.id)));
        r.run = j.at("result").at("runs").at(0);
        r.status = "ok";
      } catch (const nlohmann::json::exception& e) {
        r.status = "failed";
        r.error = fmt::format("unreadable result {}: {}", point_path(dir, p.id), e.what());
      }
    } else if (state_of(dir, p.id) == State::Failed) {
      r.status = "failed";
      try {
        r.error = nlohmann::json::parse(read_file(error_path(dir, p.id))).value("error", "");
      } catch (const nlohmann::json::exception&) {
        r.error = "unreadable " + error_path(dir, p.id);
      }
    }
    if (r.status == "ok" && p.params.value("mode", "") == "baseline" && r.run.contains("total_cycles"))
      baseline_cycles[baseline_key(p)] = r.run["total_cycles"].get<double>();
    rows.push_back(std::move(r));
  }
  std::sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) { return a.p->id < b.p->id; });

  nlohmann::ordered_json table;
  table["sweep"] = plan.name;
  table["columns"] = cols;
  table["points"] = nlohmann::ordered_json::array();
  for (const Row& r : rows) {
    nlohmann::ordered_json row;
    row["id"] = r.p->id;
    row["trace"] = r.p->trace;
    for (const auto& a : plan.axes) row[a] = r.p->axes.contains(a) ? r.p->axes[a] : nlohmann::json();
    row["status"] = r.status;
    for (const auto& m : plan.metrics) {
      nlohmann::json v = nullptr;
      if (r.status == "ok" && m == "speedup_vs_baseline") {
        const auto b = baseline_cycles.find(baseline_key(*r.p));
        const double cyc = r.run.value("total_cycles", 0.0);
        if (b != baseline_cycles.end() && cyc > 0) v = b->second / cyc;
      } else if (r.status == "ok") {
        v = metric_of(r.run, m);
      }
      row[m] = v;
    }
    row["error"] = r.error.empty() ? nlohmann::json() : nlohmann::json(r.error);
    table["points"].push_back(row);
  }
  return table;
}

std::string to_csv(const nlohmann::ordered_json& table) {
  std::string out;
  const auto& cols = table["columns"];
  for (size_t i = 0; i < cols.size(); ++i) out += (i ? "," : "") + csv_cell(cols[i]);
  out += "\n";
  for (const auto& row : table["points"]) {
    for (size_t i = 0; i < cols.size(); ++i) out += (i ? "," : "") + csv_cell(row[cols[i].get<std::string>()]);
    out += "\n";
  }
  return out;
}

MergeSummary merge(const std::string& dir, const std::vector<std::string>& plots) {
  const Plan plan = read_plan(dir);
  // Check the plot requests before writing anything.
  struct PlotReq {
    std::string x, y, group;
  };
  std::vector<PlotReq> reqs;
  auto is_axis = [&](const std::string& k) {
    return k == "trace" || std::find(plan.axes.begin(), plan.axes.end(), k) != plan.axes.end();
  };
  auto is_metric = [&](const std::string& k) {
    return std::find(plan.metrics.begin(), plan.metrics.end(), k) != plan.metrics.end();
  };
  for (const auto& spec : plots) {
    std::vector<std::string> parts;
    std::stringstream ss(spec);
    for (std::string part; std::getline(ss, part, ':');) parts.push_back(part);
    if (parts.size() < 2 || parts.size() > 3)
      throw Error(fmt::format("--plot {}: expected X:Y or X:Y:GROUP", spec));
    PlotReq r{parts[0], parts[1], parts.size() == 3 ? parts[2] : ""};
    if (!is_axis(r.x) && !is_metric(r.x))
      throw Error(fmt::format("--plot {}: '{}' is neither an axis ({}) nor a metric", spec, r.x,
                              fmt::join(plan.axes, ", ")));
    if (!is_metric(r.y))
      throw Error(fmt::format("--plot {}: '{}' is not a metric of this sweep ({})", spec, r.y,
                              fmt::join(plan.metrics, ", ")));
    if (!r.group.empty() && !is_axis(r.group))
      throw Error(fmt::format("--plot {}: group '{}' is not an axis (trace, {})", spec, r.group,
                              fmt::join(plan.axes, ", ")));
    reqs.push_back(r);
  }

  const nlohmann::ordered_json table = merge_table(dir);
  MergeSummary s;
  for (const auto& row : table["points"]) {
    const std::string st = row["status"].get<std::string>();
    (st == "ok" ? s.ok : st == "failed" ? s.failed : s.pending)++;
  }
  s.csv_path = dir + "/results.csv";
  s.json_path = dir + "/results.json";
  write_atomic(s.csv_path, to_csv(table));
  write_atomic(s.json_path, table.dump(1) + "\n");

  for (const auto& r : reqs) {
    const std::string png = fmt::format("{}/plot_{}_vs_{}{}.png", dir, safe(r.y), safe(r.x),
                                        r.group.empty() ? "" : "_by_" + safe(r.group));
    AtomicFile out(png);
    std::vector<std::string> args = {s.csv_path, r.x, r.y, out.temp_path()};
    if (!r.group.empty()) args.push_back(r.group);
    run_script(python_exe(ARCSIM_SWEEP_PYTHON), ARCSIM_PLOT_SWEEP, args, fmt::format("--plot {}:{}: plot_sweep.py", r.x, r.y));
    out.commit();
    s.plots.push_back(png);
  }
  return s;
}

}  // namespace arc::sweep
