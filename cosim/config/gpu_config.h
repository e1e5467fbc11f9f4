// arc::config: the one parameter registry and GPU-configuration loader of ARCsim (area, timing
// model, CLI, sweeps).
//
// A GPU is described by a TOML file, cosim/configs/<name>.toml: GPU keys at the top level and,
// optionally, a [model] table of knob values calibrated for that GPU. Every parameter is
// declared once (gpu_config.cpp): the GPU keys in gpu_params(), the timing model's knobs in
// model_params(); each with key, type, unit, default, one-line meaning and valid range. The
// TOML loader, `--set` (whose value is parsed by toml++ as in a file), every --help that
// takes --set, cosim/config/README.md, `arcsim config show` and the JSON of `arcsim sim` are
// all generated from these tables, so they cannot drift apart.
//
// Errors (unknown key, wrong type, impossible value, bad syntax, missing file) throw
// arc::Error with one line naming the file and the key.
#pragma once
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace arc::config {

// Timing-model knobs: not properties of a GPU's datasheet but of the model (defaults are
// assumptions, named as such, until issue 9 measures them). Declared in model_params(); the
// initializers below equal the table's defaults (tests/config checks it).
struct ModelKnobs {
  std::int64_t rop_queue_depth = 0;          // requests buffered at each ROP unit's input (0 = auto)
  std::int64_t rop_window = 1;               // ROP look-ahead for a startable op (1 = in order)
  std::int64_t icnt_eject_per_cycle = 1;     // flits one crossbar output (ROP port) delivers per cycle
  std::int64_t l2_input_bytes_per_cycle = 0;  // bytes the crossbar delivers into the L2 side per cycle, chip-wide (0 = none)
  double rop_same_line_interval = 0;         // mean cycles between two multi-word requests starting on one line
  double rop_line_op_interval = 0;           // mean cycles of a line's data path per one-word op (0 = none)
  std::int64_t rop_slices = 0;               // L2 slices behind the units (0 = none)
  double rop_slice_request_interval = 0;     // mean cycles between two multi-word requests starting on one slice
  double rop_slice_op_interval = 0;          // slot of a slice's in-order queue of one-word ops (0 = none)
  std::int64_t rop_slice_queue_cycles = 0;   // how long a run counts among its slice's queued words
  double rop_same_addr_interval = 1;         // mean cycles between two ops starting on one address
  std::int64_t rop_slice_bytes = 32;         // address granule the hash slices on (one L2 sector)
  std::int64_t lsu_busy_slack = 32;          // LSU reports busy when fewer free entries than this
  std::int64_t arc_pass_coalesce = 1;  // ARC-HW pass-through lanes of an instruction: one coalesced packet (1) or one each (0)
  std::int64_t lsu_cycles_per_instruction = 0;  // min cycles between two warp instructions an SM's LSU admits (0 = none)
  std::int64_t l2_instruction_bytes = 0;     // L2 side: bytes a warp instruction (LSU packet) adds on its first request
  std::int64_t l2_request_header_bytes = -1;  // L2 side: request_header_bytes there (-1 = the GPU key's)
  std::int64_t l2_request_sector_bytes = -1;  // L2 side: request_sector_bytes there (-1 = the GPU key's)
  std::int64_t sws_cycles_per_key = 0;       // SW-S issue cycles per distinct address (match_any)
  std::int64_t sws_cycles_per_lane = 0;      // SW-S issue cycles per lane of its largest reduced group
  std::int64_t sws_cycles_per_lane_param = 0;  // the same step for each further parameter of a call (0 = sws_cycles_per_lane)
  std::int64_t swb_cycles_per_param = 0;     // SW-B issue cycles per further reduced parameter of a call (0 = sw_overhead)
  // Warp instructions of the SW sequences (issue 17): what they take of the sub-core's dispatch, shared
  // with the workload's compute (RunSpec::gap_issue_rate); the *_cycles above are their MIO port time.
  std::int64_t sw_inst_overhead = 0;         // a SW call's fixed instructions, where sw_overhead is charged
  std::int64_t swb_inst_per_param = 0;       // butterfly instructions per further reduced parameter
  std::int64_t sws_inst_per_lane = 0;        // serial-sum instructions per step (first parameter)
  std::int64_t sws_inst_per_lane_param = 0;  // per step for each further parameter
  std::int64_t tree_inst_per_level = 0;      // group-tree instructions per level (first parameter)
  std::int64_t tree_inst_per_level_param = 0;  // per level for each further parameter
  // SM-side atomic buffers (modes lab, lab-ideal, phi: l1_atomic_buffer.h)
  std::int64_t smem_bytes_per_sm = 0;        // shared memory the workload holds per SM (not free for LAB / PHI)
  std::int64_t lab_partition_pct = 50;       // LAB: percent of the free L1/shared SRAM given to the atomic buffer
  std::int64_t lab_entry_bytes = 8;          // LAB: SRAM bytes per buffered word (value + tag)
  std::int64_t lab_tag_cycles = 1;           // LAB / PHI: pipeline cycles of the tag lookup per warp instruction
  std::int64_t lab_evict_cycles = 1;         // LAB / PHI: pipeline cycles an evicted entry (or flushed one) occupies
  std::int64_t sram_banks = 32;              // LAB: banks of the L1/shared SRAM (lanes on one bank serialize)
  std::int64_t phi_line_bytes = 128;         // PHI: L1 line size (updates buffered and evicted per line)
  std::int64_t phi_lookup_cycles = 1;        // PHI: L1 pipeline cycles per lane update (one lookup each)
};

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
  std::int64_t coalesce_bytes = 0;       // granule a warp's word updates coalesce in (0 = one request per lane)
  std::int64_t flit_bytes = 32;          // bytes per crossbar flit (one per-lane request)
  std::int64_t request_header_bytes = 28;  // bytes of a coalesced request round besides its words
  std::int64_t request_word_bytes = 4;     // bytes per word a round updates
  std::int64_t request_sector_bytes = 0;   // bytes per 32-byte sector a round touches
  std::int64_t request_multi_lane_bytes = 0;  // extra bytes of a round that carries more than one lane
  std::int64_t icnt_latency = 0;         // SM-to-L2 crossbar latency, cycles
  std::int64_t icnt_flits_per_cycle = 0; // crossbar flits accepted per cycle per SM
  // GPC level (empty gpc_of_sm: none): the SMs of a GPC share one link into the crossbar
  std::string gpc_of_sm;                 // one character per SM (0-9, a-z; - none), in SM-id order: its GPC
  std::string icnt_gpc_bytes_per_cycle;  // per GPC, spaces or commas between: bytes its link carries per cycle
  std::int64_t icnt_gpc_header_bytes = 0;  // bytes a request takes on that link per round besides 4 per value
  // Group level (empty group_of_sm: none): inside a GPC, the SMs of a group share a link too
  std::string group_of_sm;                 // one character (0-9, a-z) per SM, in SM-id order: its group
  std::string icnt_group_bytes_per_cycle;  // per group, spaces or commas between: bytes its link carries per cycle
  std::int64_t icnt_group_header_bytes = 0;  // bytes a request takes on that link per round besides 4 per value
  // L2 atomic (ROP) units
  std::int64_t rop_units = 0;          // atomic units, address-sliced
  std::int64_t rop_ops_per_cycle = 0;  // atomic ops per unit per cycle
  std::int64_t rop_latency = 0;        // cycles per atomic at a unit
  std::string addr_hash;               // address -> unit slicing: linear | xor | ipoly
  // ARC-SW
  std::int64_t sw_overhead = 0;        // issue cycles ARC-SW adds per warp-level atomic
  // L1 / shared memory
  std::int64_t l1_sram_bytes = 0;      // unified L1 data cache / shared memory SRAM per SM (0 = not given)

  // Knob values the file sets in its [model] table (calibrated for this GPU), over the defaults;
  // a run starts from these, then --set.
  ModelKnobs knobs;

  std::string source_file;  // the file this was loaded from ("" when built in code)
  // Where each value came from, by key: "default", the file, or "--set" (absent: built in code).
  std::map<std::string, std::string> sources;
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
  std::variant<std::int64_t GpuConfig::*, double GpuConfig::*, std::string GpuConfig::*, std::int64_t ModelKnobs::*,
               double ModelKnobs::*>
      field;
  bool is_knob() const {
    return std::holds_alternative<std::int64_t ModelKnobs::*>(field) || std::holds_alternative<double ModelKnobs::*>(field);
  }
};

// The tables: every GPU parameter and every model knob, each in display order.
const std::vector<ParamSpec>& gpu_params();
const std::vector<ParamSpec>& model_params();
const ParamSpec* find_param(std::string_view key);  // either table; nullptr if unknown

// rop_queue_depth with 0 (auto) resolved: max(64, 2 x (icnt_latency + 1) x icnt_eject_per_cycle).
std::int64_t resolved_rop_queue_depth(const GpuConfig& gpu, const ModelKnobs& knobs);

// Load a GPU by name (cosim/configs/<name>.toml) or by path (anything containing '/' or
// ending in ".toml"). The folder is $ARCSIM_CONFIG_DIR if set, else the source tree's
// cosim/configs (compiled in).
GpuConfig load_gpu(const std::string& name_or_path);

// Parse TOML text; `origin` names the file in error messages.
GpuConfig parse_gpu(std::string_view toml_text, const std::string& origin);

// Apply one "key=value" override (arcsim --set): the value is parsed by toml++ exactly as the
// same line in a config file (so `sms=1_000` works and `0x1p0` does not, in both; a string
// value may be given without quotes) and checked against the key's range. Errors name the key
// and "--set". The first form takes GPU keys only (arcsim area); the second knobs too.
void apply_override(GpuConfig& cfg, const std::string& key_eq_value);
void apply_override(GpuConfig& cfg, ModelKnobs& knobs, const std::string& key_eq_value);
void validate(const ModelKnobs& knobs, const GpuConfig& gpu);  // knob ranges and cross-checks

// The full resolved configuration: {"gpu": {key: value}, "model": {key: value},
// "sources": {key: origin}, "rop_queue_depth_resolved": N}. `arcsim config show --json` and
// `arcsim sim --json` ("config") print exactly this.
nlohmann::json resolved_json(const GpuConfig& gpu, const ModelKnobs& knobs);
std::string resolved_text(const GpuConfig& gpu, const ModelKnobs& knobs);  // a table for people

// Throws arc::Error if any value is out of range (used after overrides and by tools that
// build a GpuConfig in code).
void validate(const GpuConfig& cfg, const std::string& origin);

// The GPC level as numbers (validate() has checked both strings): the GPC of each SM (empty:
// no GPC level) and each GPC's link bytes per cycle.
// An SM's entry where the map has '-': no link of that level.
inline constexpr std::uint32_t kNoSharedLink = ~std::uint32_t{0};
std::vector<std::uint32_t> gpc_of_sm(const GpuConfig& cfg);
std::vector<std::uint32_t> gpc_bytes_per_cycle(const GpuConfig& cfg);
std::vector<std::uint32_t> group_of_sm(const GpuConfig& cfg);  // the same for the group level
std::vector<std::uint32_t> group_bytes_per_cycle(const GpuConfig& cfg);

// Folder searched for named GPUs, and the names found there (sorted).
std::string config_dir();
std::vector<std::string> available_gpus();

// The parameter tables as plain text (for --help; with_knobs adds the model knobs) and as
// Markdown (for docs: both tables).
std::string params_help(bool with_knobs = false);
std::string params_markdown();

// A value of cfg as text, by key (for reports); throws arc::Error on an unknown key.
std::string value_text(const GpuConfig& cfg, std::string_view key);

}  // namespace arc::config
