// arc::config: the one GPU-configuration loader of ARCsim (area, timing model, CLI).
//
// A GPU is described by a flat TOML file, cosim/configs/<name>.toml. Every parameter is
// declared once, in gpu_params() (gpu_config.cpp): key, type, unit, default, one-line meaning
// and valid range. The loader, the --help text and cosim/config/README.md are all generated
// from that one table, so they cannot drift apart.
//
// Errors (unknown key, wrong type, impossible value, bad syntax, missing file) throw
// arc::Error with one line naming the file and the key.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace arc::config {

struct GpuConfig {
  // GPU shape
  std::string name;                    // short label, e.g. "RTX 4090 (4090-Sim)"
  std::int64_t sms = 0;                // streaming multiprocessors
  std::int64_t subcores_per_sm = 0;    // processing blocks (warp schedulers) per SM
  double clock_ghz = 0.0;              // core clock
  std::int64_t warps_per_subcore = 0;  // resident warps per sub-core
  double l2_mb = 0.0;                  // L2 capacity (reported, not modelled)
  std::int64_t die_transistors = 0;    // transistor count of the whole die
  std::string die_transistors_source;  // where die_transistors comes from
  // Load-store path
  std::int64_t lsu_queue_depth = 0;      // MIO/LSU queue entries per SM
  std::int64_t lsu_issue_per_cycle = 0;  // requests the LSU forwards per cycle
  std::int64_t icnt_latency = 0;         // SM-to-L2 crossbar latency, cycles
  std::int64_t icnt_flits_per_cycle = 0; // crossbar flits accepted per cycle per SM
  // L2 atomic (ROP) units
  std::int64_t rop_units = 0;          // atomic units, address-sliced
  std::int64_t rop_ops_per_cycle = 0;  // atomic ops per unit per cycle
  std::int64_t rop_latency = 0;        // cycles per atomic at a unit
  std::string addr_hash;               // address -> unit slicing: linear | xor | ipoly
  // ARC-SW
  std::int64_t sw_overhead = 0;        // issue cycles ARC-SW adds per warp-level atomic

  std::string source_file;  // the file this was loaded from ("" when built in code)
};

enum class Kind { Int, Float, String };

// One declared parameter. Ranges are inclusive; choices (String only) empty = any string.
struct ParamSpec {
  const char* key;
  Kind kind;
  const char* unit;
  const char* default_value;  // as TOML text; nullptr = required in every file
  const char* meaning;
  double min;
  double max;
  std::vector<std::string> choices;
  std::variant<std::int64_t GpuConfig::*, double GpuConfig::*, std::string GpuConfig::*> field;
};

// The table: every GPU parameter, in display order.
const std::vector<ParamSpec>& gpu_params();

// Load a GPU by name (cosim/configs/<name>.toml) or by path (anything containing '/' or
// ending in ".toml"). The folder is $ARCSIM_CONFIG_DIR if set, else the source tree's
// cosim/configs (compiled in).
GpuConfig load_gpu(const std::string& name_or_path);

// Parse TOML text; `origin` names the file in error messages.
GpuConfig parse_gpu(std::string_view toml_text, const std::string& origin);

// Apply one "key=value" override (arcsim --set); the value is parsed as the key's type
// and checked against its range. Errors name the key and "--set".
void apply_override(GpuConfig& cfg, const std::string& key_eq_value);

// Throws arc::Error if any value is out of range (used after overrides and by tools that
// build a GpuConfig in code).
void validate(const GpuConfig& cfg, const std::string& origin);

// Folder searched for named GPUs, and the names found there (sorted).
std::string config_dir();
std::vector<std::string> available_gpus();

// The parameter table as plain text (for --help) and as a Markdown table (for docs).
std::string params_help();
std::string params_markdown();

// A value of cfg as text, by key (for reports); throws arc::Error on an unknown key.
std::string value_text(const GpuConfig& cfg, std::string_view key);

}  // namespace arc::config
