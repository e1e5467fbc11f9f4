#include "spec.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <toml++/toml.h>

#include "error.h"

namespace fs = std::filesystem;

namespace arc::sweep {

namespace {

const std::set<std::string> kTopKeys = {"name",  "gpu",     "fidelity", "mode", "sched", "threshold",
                                        "metrics", "set", "axes",    "trace"};
const std::set<std::string> kRunKeys = {"gpu", "fidelity", "mode", "sched", "threshold"};

struct Ctx {
  std::string file;
  const Catalog& catalog;
  [[noreturn]] void fail(const std::string& where, const std::string& what) const {
    throw Error(fmt::format("sweep spec {}: {}: {}", file, where, what));
  }
};

const char* type_name(const toml::node& n) {
  switch (n.type()) {
    case toml::node_type::string: return "a string";
    case toml::node_type::integer: return "an integer";
    case toml::node_type::floating_point: return "a float";
    case toml::node_type::boolean: return "a boolean";
    case toml::node_type::array: return "an array";
    case toml::node_type::table: return "a table";
    default: return "a date/time";
  }
}

// A scalar of the allowed kinds (string, integer, float).
Value scalar(const Ctx& c, const std::string& where, const toml::node& n) {
  if (auto s = n.value_exact<std::string>()) return {nlohmann::json(*s)};
  if (auto i = n.value_exact<int64_t>()) return {nlohmann::json(*i)};
  if (auto d = n.value_exact<double>()) return {nlohmann::json(*d)};
  c.fail(where, fmt::format("expected a string or a number, got {}", type_name(n)));
}

// Check one value of a parameter: type for the fixed run keys, then the catalog's check.
void check_value(const Ctx& c, const std::string& where, const std::string& key, const Value& v) {
  const bool want_string = key == "gpu" || key == "fidelity" || key == "mode" || key == "sched";
  if (want_string && !v.json.is_string())
    c.fail(where, fmt::format("expected a string, got {}", v.json.dump()));
  if (key == "threshold" && !v.json.is_number_integer())
    c.fail(where, fmt::format("expected an integer, got {}", v.json.dump()));
  try {
    if (c.catalog.check) c.catalog.check(key, v.text());
  } catch (const Error& e) {
    c.fail(where, e.what());
  }
}

bool valid_name(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char ch) {
    return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' || ch == '-' || ch == '.';
  });
}

void load_traces(const Ctx& c, const toml::table& t, const fs::path& base, Spec& s) {
  for (auto&& [k, v] : t) {
    const std::string key(k.str());
    if (key != "files" && key != "gen") c.fail("trace." + key, "unknown key (files, gen)");
  }
  if (const toml::node* files = t.get("files")) {
    const toml::array* arr = files->as_array();
    if (!arr) c.fail("trace.files", fmt::format("expected an array of paths, got {}", type_name(*files)));
    for (size_t i = 0; i < arr->size(); ++i) {
      const auto p = (*arr)[i].value_exact<std::string>();
      const std::string where = fmt::format("trace.files[{}]", i);
      if (!p) c.fail(where, fmt::format("expected a path string, got {}", type_name((*arr)[i])));
      fs::path path = fs::path(*p).is_absolute() ? fs::path(*p) : base / *p;
      path = path.lexically_normal();
      if (fs::is_directory(path)) c.fail(where, fmt::format("trace file {} is a directory", path.string()));
      else if (!fs::is_regular_file(path)) c.fail(where, fmt::format("trace file {} does not exist", path.string()));
      s.traces.push_back({path.stem().string(), path.string(), {}});
    }
  }
  if (const toml::node* gen = t.get("gen")) {
    const toml::table* gt = gen->as_table();
    if (!gt) c.fail("trace.gen", fmt::format("expected tables [trace.gen.NAME], got {}", type_name(*gen)));
    for (auto&& [k, v] : *gt) {
      const std::string name(k.str()), where = "trace.gen." + name;
      if (!valid_name(name)) c.fail(where, "a trace name may hold only letters, digits, '_', '-' and '.'");
      const toml::table* flags = v.as_table();
      if (!flags) c.fail(where, fmt::format("expected a table of `arcsim trace gen` flags, got {}", type_name(v)));
      Trace tr{name, "traces/" + name + ".arctrace", {}};
      for (auto&& [fk, fv] : *flags) {
        std::string flag(fk.str());
        if (flag == "out" || flag == "o" || flag == "quiet" || flag == "q")
          c.fail(where + "." + flag, "set by arcsim sweep itself");
        const Value val = scalar(c, where + "." + flag, fv);
        std::replace(flag.begin(), flag.end(), '_', '-');
        try {
          if (c.catalog.check_gen) c.catalog.check_gen(flag, val.text());
        } catch (const Error& e) {
          c.fail(where + "." + std::string(fk.str()), e.what());
        }
        tr.gen_args.push_back("--" + flag);
        tr.gen_args.push_back(val.text());
      }
      s.traces.push_back(std::move(tr));
    }
  }
  if (s.traces.empty()) c.fail("trace", "no trace: give trace.files or a [trace.gen.NAME] table");
  std::set<std::string> names;
  for (const auto& tr : s.traces)
    if (!names.insert(tr.name).second) c.fail("trace", fmt::format("two traces named '{}'", tr.name));
}

}  // namespace

std::string Value::text() const {
  if (json.is_string()) return json.get<std::string>();
  return json.dump();  // integers as digits, floats shortest round-trip
}

std::string Trace::identity() const {
  if (gen_args.empty()) return "file:" + path;
  std::string s = "gen:" + name;
  for (const auto& a : gen_args) s += " " + a;
  return s;
}

const std::vector<std::string>& known_metrics() {
  static const std::vector<std::string> m = {
      "total_cycles",          "atomic_stall_cycles",         "rop_utilization",
      "lsu_queue_occupancy_mean", "lsu_queue_occupancy_max",  "requests_to_l2",
      "reductions_in_core.groups", "reductions_in_core.lane_adds", "reductions_at_rops",
      "instructions",          "lane_updates",                "sw_overhead_cycles",
      "instrs_accepted_busy",  "memory_image_fnv1a64",        "speedup_vs_baseline",
      "warps_resident_per_subcore", "warps_remapped",
      "issue_end_cycle",       "lsu_full_rejects",            "rop_busy_unit_cycles"};
  return m;
}

std::string stable_hash(const std::string& text) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char ch : text) {
    h ^= ch;
    h *= 1099511628211ull;
  }
  return fmt::format("{:016x}", h);
}

Spec load_spec(const std::string& path, const Catalog& catalog) {
  Spec s;
  s.file = fs::absolute(path).lexically_normal().string();
  const Ctx c{s.file, catalog};
  if (fs::is_directory(s.file)) throw Error(fmt::format("sweep spec {}: is a directory, not a spec file", s.file));
  if (!fs::is_regular_file(s.file)) throw Error(fmt::format("sweep spec {}: no such file", s.file));
  toml::table t;
  try {
    t = toml::parse_file(s.file);
  } catch (const toml::parse_error& e) {
    c.fail(fmt::format("line {}", e.source().begin.line), std::string(e.description()));
  }
  for (auto&& [k, v] : t)
    if (!kTopKeys.count(std::string(k.str())))
      c.fail(std::string(k.str()), "unknown key (name, gpu, fidelity, mode, sched, threshold, metrics, set, axes, trace)");

  s.name = fs::path(s.file).stem().string();
  if (const toml::node* n = t.get("name")) {
    const auto v = n->value_exact<std::string>();
    if (!v || !valid_name(*v)) c.fail("name", "expected a name of letters, digits, '_', '-' and '.'");
    s.name = *v;
  }
  const fs::path base = fs::path(s.file).parent_path();
  auto resolve_gpu = [&](std::string g) {  // a config file is made absolute, relative to the spec
    if (g.find('/') != std::string::npos || (g.size() > 5 && g.substr(g.size() - 5) == ".toml"))
      g = (fs::path(g).is_absolute() ? fs::path(g) : base / g).lexically_normal().string();
    return g;
  };
  for (const std::string key : {"gpu", "fidelity", "mode", "sched", "threshold"}) {
    const toml::node* n = t.get(key);
    if (!n) continue;
    Value v = scalar(c, key, *n);
    if (key == "gpu" && v.json.is_string()) v.json = resolve_gpu(v.text());
    check_value(c, key, key, v);
    if (key == "threshold") s.threshold = v.json.get<int64_t>();
    else (key == "gpu" ? s.gpu : key == "fidelity" ? s.fidelity : key == "mode" ? s.mode : s.sched) = v.text();
  }
  const std::set<std::string> set_keys(catalog.set_keys.begin(), catalog.set_keys.end());

  if (const toml::node* n = t.get("set")) {
    const toml::table* st = n->as_table();
    if (!st) c.fail("set", fmt::format("expected a table, got {}", type_name(*n)));
    for (auto&& [k, v] : *st) {
      const std::string key(k.str()), where = "set." + key;
      if (!set_keys.count(key)) c.fail(where, "unknown parameter (see arcsim sim --help for --set keys)");
      const Value val = scalar(c, where, v);
      check_value(c, where, key, val);
      s.sets[key] = val;
    }
  }

  const toml::node* an = t.get("axes");
  if (an) {
    const toml::table* at = an->as_table();
    if (!at) c.fail("axes", fmt::format("expected a table, got {}", type_name(*an)));
    for (auto&& [k, v] : *at) {
      const std::string key(k.str()), where = "axes." + key;
      if (!kRunKeys.count(key) && !set_keys.count(key))
        c.fail(where, "unknown axis (gpu, mode, sched, threshold, fidelity or a --set parameter)");
      if (s.sets.count(key)) c.fail(where, "also fixed in [set]; give it in one place");
      const toml::array* arr = v.as_array();
      if (!arr) c.fail(where, fmt::format("expected an array of values, got {}", type_name(v)));
      if (arr->empty()) c.fail(where, "empty axis: give at least one value");
      std::vector<Value> vals;
      std::set<std::string> seen;
      for (size_t i = 0; i < arr->size(); ++i) {
        const std::string w = fmt::format("{}[{}]", where, i);
        Value val = scalar(c, w, (*arr)[i]);
        if (key == "gpu" && val.json.is_string()) val.json = resolve_gpu(val.text());
        check_value(c, w, key, val);
        if (!seen.insert(val.text()).second) c.fail(w, fmt::format("value {} listed twice", val.json.dump()));
        vals.push_back(std::move(val));
      }
      s.axes[key] = std::move(vals);
    }
  }

  if (const toml::node* n = t.get("metrics")) {
    const toml::array* arr = n->as_array();
    if (!arr) c.fail("metrics", fmt::format("expected an array of metric names, got {}", type_name(*n)));
    const auto& known = known_metrics();
    for (size_t i = 0; i < arr->size(); ++i) {
      const auto m = (*arr)[i].value_exact<std::string>();
      const std::string w = fmt::format("metrics[{}]", i);
      if (!m) c.fail(w, fmt::format("expected a metric name, got {}", type_name((*arr)[i])));
      if (std::find(known.begin(), known.end(), *m) == known.end())
        c.fail(w, fmt::format("unknown metric '{}' (known: {})", *m, fmt::join(known, ", ")));
      if (std::find(s.metrics.begin(), s.metrics.end(), *m) != s.metrics.end())
        c.fail(w, fmt::format("metric '{}' listed twice", *m));
      s.metrics.push_back(*m);
    }
    if (s.metrics.empty()) c.fail("metrics", "empty: name at least one metric, or leave the key out for all");
  } else {
    s.metrics = known_metrics();
  }

  const toml::node* tn = t.get("trace");
  if (!tn) c.fail("trace", "missing: give trace.files or a [trace.gen.NAME] table");
  const toml::table* tt = tn->as_table();
  if (!tt) c.fail("trace", fmt::format("expected a table, got {}", type_name(*tn)));
  load_traces(c, *tt, base, s);
  return s;
}

std::vector<Point> expand(const Spec& spec) {
  std::vector<std::pair<std::string, const std::vector<Value>*>> axes;
  for (const auto& [k, v] : spec.axes) axes.emplace_back(k, &v);
  std::vector<Point> out;
  std::set<std::string> ids;
  for (const Trace& tr : spec.traces) {
    std::vector<size_t> idx(axes.size(), 0);
    for (;;) {
      // Effective parameters of this combination.
      std::map<std::string, Value> run = {{"gpu", {spec.gpu}},   {"fidelity", {spec.fidelity}},
                                          {"mode", {spec.mode}}, {"sched", {spec.sched}},
                                          {"threshold", {nlohmann::json(spec.threshold)}}};
      std::map<std::string, Value> sets = spec.sets;
      for (size_t a = 0; a < axes.size(); ++a) {
        const Value& v = (*axes[a].second)[idx[a]];
        (kRunKeys.count(axes[a].first) ? run : sets)[axes[a].first] = v;
      }
      const bool hw = run["mode"].text() == "arc-hw";
      Point p;
      p.trace = tr.name;
      p.params = nlohmann::json::object();
      for (const auto& [k, v] : run) p.params[k] = (k == "sched" && !hw) ? nlohmann::json() : v.json;
      p.params["set"] = nlohmann::json::object();
      for (const auto& [k, v] : sets) p.params["set"][k] = v.json;
      p.axes = nlohmann::json::object();
      for (size_t a = 0; a < axes.size(); ++a)
        p.axes[axes[a].first] =
            (axes[a].first == "sched" && !hw) ? nlohmann::json() : (*axes[a].second)[idx[a]].json;
      p.args = {run["gpu"].text().find('/') != std::string::npos ? "--config" : "--gpu", run["gpu"].text(),
                "--trace", tr.path, "--mode", run["mode"].text(), "--threshold", run["threshold"].text(),
                "--fidelity", run["fidelity"].text()};
      if (hw) {
        p.args.push_back("--sched");
        p.args.push_back(run["sched"].text());
      }
      for (const auto& [k, v] : sets) {
        p.args.push_back("--set");
        p.args.push_back(k + "=" + v.text());
      }
      std::string identity = tr.identity();
      for (const auto& a : p.args) identity += "\n" + a;
      p.id = stable_hash(identity);
      if (ids.insert(p.id).second) out.push_back(std::move(p));
      // Next combination (last axis fastest).
      size_t a = axes.size();
      while (a > 0 && ++idx[a - 1] == axes[a - 1].second->size()) idx[--a] = 0;
      if (a == 0) break;
    }
  }
  return out;
}

nlohmann::json point_to_json(const Point& p) {
  return {{"id", p.id}, {"trace", p.trace}, {"axes", p.axes}, {"params", p.params}, {"args", p.args}};
}

Point point_from_json(const nlohmann::json& j) {
  Point p;
  p.id = j.at("id").get<std::string>();
  p.trace = j.at("trace").get<std::string>();
  p.axes = j.at("axes");
  p.params = j.at("params");
  p.args = j.at("args").get<std::vector<std::string>>();
  return p;
}

}  // namespace arc::sweep
