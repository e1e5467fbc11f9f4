// The TOML loader built on the parameter tables (param_table.cpp; see gpu_config.h).
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
#include <type_traits>
#include <toml++/toml.h>

#include "config_detail.h"
#include "error.h"

#ifndef ARCSIM_SOURCE_CONFIG_DIR
#error "ARCSIM_SOURCE_CONFIG_DIR must be defined by the build (cosim/config/CMakeLists.txt)"
#endif

namespace arc::config {
namespace fs = std::filesystem;
using detail::fail;

namespace {

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

std::string number_text(double v) {
  std::ostringstream s;
  s << v;
  return s.str();
}

// Stores a checked value in its field: a knob's (only where `knobs` is given) or the GPU's.
template <class T>
void store(GpuConfig& cfg, ModelKnobs* knobs, const ParamSpec& p, const T& v, const std::string& origin) {
  if constexpr (!std::is_same_v<T, std::string>) {  // knobs are numbers only
    if (p.is_knob()) {
      if (!knobs) fail(origin, p.key, "is a timing-model knob, not a GPU parameter (arcsim sim --set)");
      knobs->*std::get<T ModelKnobs::*>(p.field) = v;
      return;
    }
  }
  cfg.*std::get<T GpuConfig::*>(p.field) = v;
}

// Set one parameter (a GPU key, or a knob when `knobs` is given) from a TOML node
// (type-checked, range-checked).
void set_from_node(GpuConfig& cfg, ModelKnobs* knobs, const ParamSpec& p, const toml::node& n,
                   const std::string& origin) {
  switch (p.kind) {
    case Kind::Int: {
      auto v = n.value_exact<std::int64_t>();
      if (!v) fail(origin, p.key, std::string("expected an integer (") + p.unit + "), got " + type_name(n));
      check_range(p, static_cast<double>(*v), origin, std::to_string(*v));
      store(cfg, knobs, p, *v, origin);
      break;
    }
    case Kind::Float: {
      std::optional<double> v;
      if (n.is_floating_point() || n.is_integer()) v = n.value<double>();
      if (!v) fail(origin, p.key, std::string("expected a number (") + p.unit + "), got " + type_name(n));
      check_range(p, *v, origin, number_text(*v));
      store(cfg, knobs, p, *v, origin);
      break;
    }
    case Kind::String: {
      auto v = n.value_exact<std::string>();
      if (!v) fail(origin, p.key, std::string("expected a string, got ") + type_name(n));
      check_choice(p, *v, origin);
      store(cfg, knobs, p, *v, origin);
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
    set_from_node(cfg, nullptr, p, *t.get("v"), std::string("default of ") + p.key);
    cfg.sources[p.key] = "default";
  }
  const auto tbl = parse_toml(toml_text, origin);
  std::set<std::string> seen;
  for (const auto& [k, node] : tbl) {
    const std::string key(k.str());
    if (key == "model" && node.is_table()) {  // knobs calibrated for this GPU
      for (const auto& [mk, mnode] : *node.as_table()) {
        const std::string mkey(mk.str());
        const ParamSpec* mp = find_param(mkey);
        if (!mp || !mp->is_knob())
          fail(origin, "model." + mkey, "unknown timing-model knob (run 'arcsim config show' for the list)");
        set_from_node(cfg, &cfg.knobs, *mp, mnode, origin);
        cfg.sources[mkey] = origin;
      }
      continue;
    }
    const ParamSpec* p = find_param(key);
    if (!p) fail(origin, key, "unknown key (run 'arcsim config show' for the list of GPU parameters)");
    if (p->is_knob()) fail(origin, key, "is a timing-model knob: set it in the file's [model] table, or with --set");
    set_from_node(cfg, nullptr, *p, node, origin);
    cfg.sources[key] = origin;
    seen.insert(key);
  }
  for (const auto& p : gpu_params())
    if (!p.default_value && !seen.count(p.key)) fail(origin, p.key, std::string("missing (required: ") + p.meaning + ")");
  validate(cfg, origin);  // the cross-checks (GPC level) too
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
    if (!fs::exists(path)) throw Error(name_or_path + ": no such GPU config file");
    if (!fs::is_regular_file(path)) throw Error(name_or_path + ": is not a regular file (a device, FIFO or socket), not a GPU config file");
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

namespace {

// Nearest known keys to a mistyped one (edit distance <= 2), for the error message.
std::string suggestions(const std::string& key) {
  auto dist = [](const std::string& a, const std::string& b) {
    std::vector<size_t> d(b.size() + 1);
    for (size_t j = 0; j <= b.size(); ++j) d[j] = j;
    for (size_t i = 1; i <= a.size(); ++i) {
      size_t prev = d[0];
      d[0] = i;
      for (size_t j = 1; j <= b.size(); ++j) {
        const size_t cur = d[j];
        d[j] = std::min({d[j] + 1, d[j - 1] + 1, prev + (a[i - 1] == b[j - 1] ? 0 : 1)});
        prev = cur;
      }
    }
    return d[b.size()];
  };
  std::string near;
  for (const auto* t : {&gpu_params(), &model_params()})
    for (const auto& p : *t)
      if (dist(key, p.key) <= 2) near += (near.empty() ? "" : ", ") + std::string(p.key);
  return near;
}

void override_one(GpuConfig& cfg, ModelKnobs* knobs, const std::string& key_eq_value) {
  const auto eq = key_eq_value.find('=');
  if (eq == std::string::npos || eq == 0)
    throw Error("--set '" + key_eq_value + "': expected KEY=VALUE");
  const std::string key = key_eq_value.substr(0, eq), val = key_eq_value.substr(eq + 1);
  const ParamSpec* p = find_param(key);
  const std::string origin = "--set";
  if (!p || (p->is_knob() && !knobs)) {
    const std::string near = suggestions(key);
    fail(origin, key,
         std::string(knobs ? "unknown GPU parameter or model knob" : "unknown GPU parameter") +
             (near.empty() ? "" : " (did you mean " + near + "?)") + " (list: arcsim config show)");
  }
  if (val.empty()) fail(origin, key, "empty value");
  // The value is TOML, as in a config file. A string may be given bare (addr_hash=xor).
  std::optional<toml::table> t;
  try {
    t = toml::parse("v = " + val, origin);
  } catch (const toml::parse_error&) {
    if (p->kind == Kind::String && val.find_first_of("\"\\\n") == std::string::npos)
      t = toml::parse("v = \"" + val + "\"", origin);
    else
      fail(origin, key, "'" + val + "' is not a TOML value (" + (p->kind == Kind::Int ? "an integer" :
                        p->kind == Kind::Float ? "a number" : "a string") + ", as in a config file)");
  }
  const toml::node* n = t->get("v");
  if (!n || t->size() != 1) fail(origin, key, "'" + val + "' is not one TOML value");
  if (p->kind == Kind::Int && !n->is_integer())
    fail(origin, key, "'" + val + "' is not an integer");
  set_from_node(cfg, knobs, *p, *n, origin);
  cfg.sources[key] = origin;
}

}  // namespace

void apply_override(GpuConfig& cfg, const std::string& key_eq_value) { override_one(cfg, nullptr, key_eq_value); }

void apply_override(GpuConfig& cfg, ModelKnobs& knobs, const std::string& key_eq_value) {
  override_one(cfg, &knobs, key_eq_value);
}

void validate(const ModelKnobs& knobs, const GpuConfig& gpu) {
  for (const auto& p : model_params()) {
    if (p.kind == Kind::Float) {
      const double v = knobs.*std::get<double ModelKnobs::*>(p.field);
      check_range(p, v, "model knob", number_text(v));
    } else {
      const auto v = knobs.*std::get<std::int64_t ModelKnobs::*>(p.field);
      check_range(p, static_cast<double>(v), "model knob", std::to_string(v));
    }
  }
  if (knobs.lsu_busy_slack > gpu.lsu_queue_depth)
    throw Error("lsu_busy_slack " + std::to_string(knobs.lsu_busy_slack) + " exceeds lsu_queue_depth " +
                std::to_string(gpu.lsu_queue_depth));
  if (knobs.rop_slice_bytes & (knobs.rop_slice_bytes - 1))
    throw Error("rop_slice_bytes " + std::to_string(knobs.rop_slice_bytes) + " is not a power of two");
  if (knobs.rop_slice_request_interval > 0 && knobs.rop_slices == 0)
    throw Error("rop_slice_request_interval " + number_text(knobs.rop_slice_request_interval) +
                " needs rop_slices > 0: it paces each slice's multi-word requests");
  if (knobs.rop_slice_op_interval > 0 && knobs.rop_slices == 0)
    throw Error("rop_slice_op_interval " + number_text(knobs.rop_slice_op_interval) +
                " needs rop_slices > 0: it paces each slice's one-word ops");
  if (knobs.phi_line_bytes & (knobs.phi_line_bytes - 1))
    throw Error("phi_line_bytes " + std::to_string(knobs.phi_line_bytes) + " is not a power of two");
  if (gpu.coalesce_bytes != 0 && (gpu.coalesce_bytes < 4 || (gpu.coalesce_bytes & (gpu.coalesce_bytes - 1))))
    throw Error("coalesce_bytes " + std::to_string(gpu.coalesce_bytes) + " is not 0 or a power of two >= 4");
  if (gpu.coalesce_bytes > 0 &&
      gpu.request_header_bytes + gpu.request_word_bytes + gpu.request_sector_bytes < gpu.flit_bytes)
    throw Error("request_header_bytes + request_word_bytes + request_sector_bytes (" +
                std::to_string(gpu.request_header_bytes + gpu.request_word_bytes + gpu.request_sector_bytes) +
                ") is less than flit_bytes " + std::to_string(gpu.flit_bytes) +
                ": a one-word request would cost less than the one flit it is");
}

namespace {
template <class T>  // a knob's or a GPU key's value
T field_of(const GpuConfig& cfg, const ModelKnobs& knobs, const ParamSpec& p) {
  if constexpr (!std::is_same_v<T, std::string>)
    if (p.is_knob()) return knobs.*std::get<T ModelKnobs::*>(p.field);
  return cfg.*std::get<T GpuConfig::*>(p.field);
}

nlohmann::json value_json(const GpuConfig& cfg, const ModelKnobs& knobs, const ParamSpec& p) {
  switch (p.kind) {
    case Kind::Int: return field_of<std::int64_t>(cfg, knobs, p);
    case Kind::Float: return field_of<double>(cfg, knobs, p);
    case Kind::String: return field_of<std::string>(cfg, knobs, p);
  }
  return nullptr;
}
}  // namespace

nlohmann::json resolved_json(const GpuConfig& gpu, const ModelKnobs& knobs) {
  nlohmann::json j = {{"gpu", nlohmann::json::object()},
                      {"model", nlohmann::json::object()},
                      {"sources", nlohmann::json::object()}};
  for (const auto& p : gpu_params()) j["gpu"][p.key] = value_json(gpu, knobs, p);
  for (const auto& p : model_params()) j["model"][p.key] = value_json(gpu, knobs, p);
  for (const auto* t : {&gpu_params(), &model_params()})
    for (const auto& p : *t) {
      const auto it = gpu.sources.find(p.key);
      j["sources"][p.key] = it != gpu.sources.end() ? it->second : "default";
    }
  j["config_file"] = gpu.source_file;
  j["rop_queue_depth_resolved"] = resolved_rop_queue_depth(gpu, knobs);
  return j;
}

std::string resolved_text(const GpuConfig& gpu, const ModelKnobs& knobs) {
  const nlohmann::json j = resolved_json(gpu, knobs);
  std::ostringstream s;
  s << "configuration of " << gpu.name << " (" << (gpu.source_file.empty() ? "built in code" : gpu.source_file)
    << ")\n";
  for (const auto& [group, table] : {std::pair{"GPU parameters", &gpu_params()},
                                     std::pair{"timing-model knobs", &model_params()}}) {
    s << group << ":\n";
    for (const auto& p : *table) {
      const auto& v = j[p.is_knob() ? "model" : "gpu"][p.key];
      std::string text = v.is_string() ? v.get<std::string>() : v.dump();
      if (std::string(p.key) == "rop_queue_depth" && knobs.rop_queue_depth == 0)
        text += " (auto: " + std::to_string(resolved_rop_queue_depth(gpu, knobs)) + ")";
      const std::string key = p.key;
      s << "  " << key << std::string(key.size() < 24 ? 24 - key.size() : 1, ' ') << text << " " << p.unit << "  ["
        << j["sources"][p.key].get<std::string>() << "]\n";
    }
  }
  return s.str();
}

void validate(const GpuConfig& cfg, const std::string& file_origin) {
  detail::validate_shared_links(cfg, file_origin);
  for (const auto& p : gpu_params()) {
    const std::string origin = detail::origin_of(cfg, p.key, file_origin);
    switch (p.kind) {
      case Kind::Int: {
        const auto v = cfg.*std::get<std::int64_t GpuConfig::*>(p.field);
        check_range(p, static_cast<double>(v), origin, std::to_string(v));
        break;
      }
      case Kind::Float: {
        const auto v = cfg.*std::get<double GpuConfig::*>(p.field);
        check_range(p, v, origin, number_text(v));
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
  if (!p || p->is_knob()) throw Error("unknown GPU parameter '" + std::string(key) + "'");
  std::ostringstream s;
  s.precision(12);
  if (p->kind == Kind::Int) s << cfg.*std::get<std::int64_t GpuConfig::*>(p->field);
  if (p->kind == Kind::Float) s << cfg.*std::get<double GpuConfig::*>(p->field);
  if (p->kind == Kind::String) {
    const std::string& v = cfg.*std::get<std::string GpuConfig::*>(p->field);
    s << (v.empty() ? "\"\"" : v);  // an empty string as TOML writes it (e.g. no GPC level)
  }
  return s.str();
}

std::string params_help(bool with_knobs) {
  std::ostringstream s;
  auto rows = [&](const std::vector<ParamSpec>& t) {
    for (const auto& p : t) {
      const std::string key = p.key;
      s << "  " << key << std::string(key.size() < 24 ? 24 - key.size() : 1, ' ') << p.meaning << " [" << p.unit
        << "; " << range_text(p) << "; default " << (p.default_value ? p.default_value : "required") << "]\n";
    }
  };
  s << "GPU parameters (keys of cosim/configs/*.toml; override with --set KEY=VALUE, VALUE as in TOML):\n";
  rows(gpu_params());
  if (with_knobs) {
    s << "Timing-model knobs (override with --set KEY=VALUE):\n";
    rows(model_params());
  }
  s << "Print the resolved values: arcsim config show --gpu NAME [--set KEY=VALUE ...] [--json]\n";
  return s.str();
}

std::string params_markdown() {
  std::ostringstream s;
  for (const auto* t : {&gpu_params(), &model_params()}) {
  s << (t == &gpu_params() ? "## GPU parameters (config files and --set)\n\n"
                           : "\n## Timing-model knobs (--set only)\n\n");
  s << "| key | type | unit | default | valid | meaning |\n| --- | --- | --- | --- | --- | --- |\n";
  for (const auto& p : *t) {
    const char* kind = p.kind == Kind::Int ? "integer" : p.kind == Kind::Float ? "number" : "string";
    std::string valid = range_text(p);
    std::replace(valid.begin(), valid.end(), '|', '/');
    s << "| `" << p.key << "` | " << kind << " | " << p.unit << " | "
      << (p.default_value ? std::string("`") + p.default_value + "`" : std::string("required")) << " | " << valid
      << " | " << p.meaning << " |\n";
  }
  }
  return s.str();
}

}  // namespace arc::config
