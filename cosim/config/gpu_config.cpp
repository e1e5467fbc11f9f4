// The GPU parameter table and the TOML loader built on it (see gpu_config.h).
#include "gpu_config.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>
#include <toml++/toml.h>

#include "error.h"

#ifndef ARCSIM_SOURCE_CONFIG_DIR
#error "ARCSIM_SOURCE_CONFIG_DIR must be defined by the build (cosim/config/CMakeLists.txt)"
#endif

namespace arc::config {
namespace fs = std::filesystem;

const std::vector<ParamSpec>& gpu_params() {
  using G = GpuConfig;
  static const std::vector<ParamSpec> table = {
      {"name", Kind::String, "-", nullptr, "GPU label printed in reports", 0, 0, {}, &G::name},
      {"sms", Kind::Int, "SMs", nullptr, "streaming multiprocessors on the die", 1, 4096, {}, &G::sms},
      {"subcores_per_sm", Kind::Int, "sub-cores", nullptr,
       "processing blocks (warp scheduler + ARC unit) per SM", 1, 16, {}, &G::subcores_per_sm},
      {"clock_ghz", Kind::Float, "GHz", nullptr, "core clock", 0.01, 10.0, {}, &G::clock_ghz},
      {"warps_per_subcore", Kind::Int, "warps", "12", "resident warps per sub-core (max warps/SM / sub-cores)", 1,
       64, {}, &G::warps_per_subcore},
      {"l2_mb", Kind::Float, "MB", "0", "L2 cache capacity (reported; 0 = not given)", 0, 4096, {}, &G::l2_mb},
      {"die_transistors", Kind::Int, "transistors", nullptr, "transistor count of the whole die", 1e6, 1e13, {},
       &G::die_transistors},
      {"die_transistors_source", Kind::String, "-", "\"unknown\"", "where die_transistors comes from", 0, 0, {},
       &G::die_transistors_source},
      {"lsu_queue_depth", Kind::Int, "requests", "32", "MIO/LSU queue entries per SM", 1, 65536, {},
       &G::lsu_queue_depth},
      {"lsu_issue_per_cycle", Kind::Int, "requests/cycle", "1", "requests the LSU forwards to the crossbar per cycle",
       1, 64, {}, &G::lsu_issue_per_cycle},
      {"icnt_latency", Kind::Int, "cycles", "20", "SM-to-L2 crossbar latency, one way", 0, 100000, {},
       &G::icnt_latency},
      {"icnt_flits_per_cycle", Kind::Int, "flits/cycle", "1", "crossbar flits accepted per cycle per SM port", 1, 64,
       {}, &G::icnt_flits_per_cycle},
      {"rop_units", Kind::Int, "units", "32", "L2 atomic (ROP) units, address-sliced", 1, 65536, {},
       &G::rop_units},
      {"rop_ops_per_cycle", Kind::Int, "ops/cycle", "1", "atomic operations one ROP unit starts per cycle", 1, 64, {},
       &G::rop_ops_per_cycle},
      {"rop_latency", Kind::Int, "cycles", "160", "cycles from arrival at a ROP unit to the update in memory", 0,
       100000, {}, &G::rop_latency},
      {"addr_hash", Kind::String, "-", "\"ipoly\"", "address-to-ROP-unit slicing", 0, 0,
       {"linear", "xor", "ipoly"}, &G::addr_hash},
      {"sw_overhead", Kind::Int, "cycles", "0", "issue cycles ARC-SW adds per warp-level atomic (match, shuffles)", 0,
       100000, {}, &G::sw_overhead},
  };
  return table;
}

namespace {

const ParamSpec* find_param(std::string_view key) {
  for (const auto& p : gpu_params())
    if (key == p.key) return &p;
  return nullptr;
}

std::string range_text(const ParamSpec& p) {
  std::ostringstream s;
  if (p.kind == Kind::String) {
    if (p.choices.empty()) return "any text";
    for (size_t i = 0; i < p.choices.size(); ++i) s << (i ? " | " : "") << p.choices[i];
    return s.str();
  }
  s.precision(15);
  s << "[" << p.min << ", " << p.max << "]";
  return s.str();
}

[[noreturn]] void fail(const std::string& origin, std::string_view key, const std::string& what) {
  throw Error(origin + ": key '" + std::string(key) + "': " + what);
}

void check_range(const ParamSpec& p, double v, const std::string& origin, const std::string& shown) {
  if (!std::isfinite(v) || v < p.min || v > p.max)
    fail(origin, p.key, shown + " is out of range " + range_text(p) + " (" + p.meaning + ")");
}

void check_choice(const ParamSpec& p, const std::string& v, const std::string& origin) {
  if (p.choices.empty()) {
    if (v.find('\n') != std::string::npos) fail(origin, p.key, "must be one line of text");
    return;
  }
  if (std::find(p.choices.begin(), p.choices.end(), v) == p.choices.end())
    fail(origin, p.key, "'" + v + "' is not one of " + range_text(p));
}

std::string type_name(const toml::node& n) {
  std::ostringstream s;
  s << n.type();
  return s.str();
}

// Set one parameter from a TOML node (type-checked, range-checked).
void set_from_node(GpuConfig& cfg, const ParamSpec& p, const toml::node& n, const std::string& origin) {
  switch (p.kind) {
    case Kind::Int: {
      auto v = n.value_exact<std::int64_t>();
      if (!v) fail(origin, p.key, std::string("expected an integer (") + p.unit + "), got " + type_name(n));
      check_range(p, static_cast<double>(*v), origin, std::to_string(*v));
      cfg.*std::get<std::int64_t GpuConfig::*>(p.field) = *v;
      break;
    }
    case Kind::Float: {
      std::optional<double> v;
      if (n.is_floating_point() || n.is_integer()) v = n.value<double>();
      if (!v) fail(origin, p.key, std::string("expected a number (") + p.unit + "), got " + type_name(n));
      std::ostringstream s;
      s << *v;
      check_range(p, *v, origin, s.str());
      cfg.*std::get<double GpuConfig::*>(p.field) = *v;
      break;
    }
    case Kind::String: {
      auto v = n.value_exact<std::string>();
      if (!v) fail(origin, p.key, std::string("expected a string, got ") + type_name(n));
      check_choice(p, *v, origin);
      cfg.*std::get<std::string GpuConfig::*>(p.field) = *v;
      break;
    }
  }
}

toml::table parse_toml(std::string_view text, const std::string& origin) {
  try {
    return toml::parse(text, origin);
  } catch (const toml::parse_error& e) {
    const auto& b = e.source().begin;
    throw Error(origin + ":" + std::to_string(b.line) + ":" + std::to_string(b.column) +
                ": TOML syntax error: " + std::string(e.description()));
  }
}

}  // namespace

GpuConfig parse_gpu(std::string_view toml_text, const std::string& origin) {
  GpuConfig cfg;
  cfg.source_file = origin;
  // Defaults first (each parsed from the table's own TOML text), then the file.
  for (const auto& p : gpu_params()) {
    if (!p.default_value) continue;
    auto t = parse_toml(std::string("v = ") + p.default_value, std::string("default of ") + p.key);
    set_from_node(cfg, p, *t.get("v"), std::string("default of ") + p.key);
  }
  const auto tbl = parse_toml(toml_text, origin);
  std::set<std::string> seen;
  for (const auto& [k, node] : tbl) {
    const std::string key(k.str());
    const ParamSpec* p = find_param(key);
    if (!p) fail(origin, key, "unknown key (run 'arcsim area --help' for the list of GPU parameters)");
    set_from_node(cfg, *p, node, origin);
    seen.insert(key);
  }
  for (const auto& p : gpu_params())
    if (!p.default_value && !seen.count(p.key)) fail(origin, p.key, std::string("missing (required: ") + p.meaning + ")");
  return cfg;
}

std::string config_dir() {
  if (const char* env = std::getenv("ARCSIM_CONFIG_DIR"); env && *env) return env;
  return ARCSIM_SOURCE_CONFIG_DIR;
}

std::vector<std::string> available_gpus() {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(config_dir(), ec))
    if (e.path().extension() == ".toml") names.push_back(e.path().stem().string());
  std::sort(names.begin(), names.end());
  return names;
}

GpuConfig load_gpu(const std::string& name_or_path) {
  if (name_or_path.empty()) throw Error("empty GPU name");
  fs::path path;
  const bool is_path = name_or_path.find('/') != std::string::npos ||
                       (name_or_path.size() > 5 && name_or_path.substr(name_or_path.size() - 5) == ".toml");
  if (is_path) {
    path = name_or_path;
    if (fs::is_directory(path)) throw Error(name_or_path + ": is a directory, not a GPU config file");
    if (!fs::is_regular_file(path)) throw Error(name_or_path + ": no such GPU config file");
  } else {
    path = fs::path(config_dir()) / (name_or_path + ".toml");
    if (!fs::is_regular_file(path)) {
      std::string known;
      for (const auto& n : available_gpus()) known += (known.empty() ? "" : ", ") + n;
      throw Error("unknown GPU '" + name_or_path + "' (known in " + config_dir() + ": " +
                  (known.empty() ? "none" : known) + "; or pass a .toml path)");
    }
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(path.string() + ": cannot read GPU config file");
  std::ostringstream text;
  text << in.rdbuf();
  return parse_gpu(text.str(), path.string());
}

void apply_override(GpuConfig& cfg, const std::string& key_eq_value) {
  const auto eq = key_eq_value.find('=');
  if (eq == std::string::npos || eq == 0)
    throw Error("--set '" + key_eq_value + "': expected KEY=VALUE");
  const std::string key = key_eq_value.substr(0, eq), val = key_eq_value.substr(eq + 1);
  const ParamSpec* p = find_param(key);
  const std::string origin = "--set";
  if (!p) fail(origin, key, "unknown GPU parameter");
  if (val.empty()) fail(origin, key, "empty value");
  switch (p->kind) {
    case Kind::Int: {
      errno = 0;
      char* end = nullptr;
      const long long v = std::strtoll(val.c_str(), &end, 10);
      if (errno || *end) fail(origin, key, "'" + val + "' is not an integer");
      check_range(*p, static_cast<double>(v), origin, val);
      cfg.*std::get<std::int64_t GpuConfig::*>(p->field) = v;
      break;
    }
    case Kind::Float: {
      errno = 0;
      char* end = nullptr;
      const double v = std::strtod(val.c_str(), &end);
      if (errno || *end) fail(origin, key, "'" + val + "' is not a number");
      check_range(*p, v, origin, val);
      cfg.*std::get<double GpuConfig::*>(p->field) = v;
      break;
    }
    case Kind::String:
      check_choice(*p, val, origin);
      cfg.*std::get<std::string GpuConfig::*>(p->field) = val;
      break;
  }
}

void validate(const GpuConfig& cfg, const std::string& origin) {
  for (const auto& p : gpu_params()) {
    switch (p.kind) {
      case Kind::Int: {
        const auto v = cfg.*std::get<std::int64_t GpuConfig::*>(p.field);
        check_range(p, static_cast<double>(v), origin, std::to_string(v));
        break;
      }
      case Kind::Float: {
        const auto v = cfg.*std::get<double GpuConfig::*>(p.field);
        std::ostringstream s;
        s << v;
        check_range(p, v, origin, s.str());
        break;
      }
      case Kind::String: {
        const auto& v = cfg.*std::get<std::string GpuConfig::*>(p.field);
        if (p.choices.empty() && v.empty() && !p.default_value) fail(origin, p.key, "empty");
        check_choice(p, v, origin);
        break;
      }
    }
  }
}

std::string value_text(const GpuConfig& cfg, std::string_view key) {
  const ParamSpec* p = find_param(key);
  if (!p) throw Error("unknown GPU parameter '" + std::string(key) + "'");
  std::ostringstream s;
  s.precision(12);
  if (p->kind == Kind::Int) s << cfg.*std::get<std::int64_t GpuConfig::*>(p->field);
  if (p->kind == Kind::Float) s << cfg.*std::get<double GpuConfig::*>(p->field);
  if (p->kind == Kind::String) s << cfg.*std::get<std::string GpuConfig::*>(p->field);
  return s.str();
}

std::string params_help() {
  std::ostringstream s;
  s << "GPU parameters (keys of cosim/configs/*.toml; override with --set KEY=VALUE):\n";
  for (const auto& p : gpu_params()) {
    const std::string key = p.key;
    s << "  " << key << std::string(key.size() < 24 ? 24 - key.size() : 1, ' ') << p.meaning << " [" << p.unit << "; " << range_text(p) << "; default "
      << (p.default_value ? p.default_value : "required") << "]\n";
  }
  return s.str();
}

std::string params_markdown() {
  std::ostringstream s;
  s << "| key | type | unit | default | valid | meaning |\n| --- | --- | --- | --- | --- | --- |\n";
  for (const auto& p : gpu_params()) {
    const char* kind = p.kind == Kind::Int ? "integer" : p.kind == Kind::Float ? "number" : "string";
    std::string valid = range_text(p);
    std::replace(valid.begin(), valid.end(), '|', '/');
    s << "| `" << p.key << "` | " << kind << " | " << p.unit << " | "
      << (p.default_value ? std::string("`") + p.default_value + "`" : std::string("required")) << " | " << valid
      << " | " << p.meaning << " |\n";
  }
  return s.str();
}

}  // namespace arc::config
