// arc::area: ARC-HW area from real Yosys synthesis of rtl/ — per module, per sub-core and per
// GPU (SMs x sub-cores from arc::config), beside the paper's figure (ASPLOS'25 section 5.4:
// under 70K transistors per FPU; 128 x 4 x 70K = 35.84M = ~0.047% of an RTX 4090's 76B).
// These are estimates from a generic CMOS cell set, not sign-off area.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "gpu_config.h"
#include "rtl_scan.h"
#include "synth_runner.h"

namespace arc::area {

// The paper's numbers (ASPLOS'25 section 5.4), for side-by-side reports.
struct PaperFigure {
  static constexpr std::int64_t kTransistorsPerFpu = 70'000;       // "under 70K transistors per FPU"
  static constexpr std::int64_t kRtx4090Total = 35'840'000;        // 128 x 4 x 70K
  static constexpr double kRtx4090Fraction = 0.00047;              // "~0.047%"
  static constexpr std::int64_t kRtx4090Die = 76'000'000'000;      // "76 billion transistors"
};

extern const char* const kDisclaimer;

struct ModuleArea {
  std::string name;
  std::map<std::string, std::int64_t> params;  // settable parameters, all passed to Yosys: --set value, else the RTL default
  CellStats stats;
  bool from_cache = false;
  double seconds = 0.0;
  bool in_subcore = false;  // instantiated (transitively) by the per-sub-core top
};

// What ARC adds to a sub-core and what it reuses, for one configuration of arc_subcore_top
// (RfPort = 0: a self-contained unit with its own matcher and operand register; RfPort = 1: the
// paper's design, section 5.3, whose address matcher is the LSU's coalescer and whose operands
// come through the existing register-file read port).
struct SplitPart {
  std::string part, role, why;  // role: "ARC-added" or "reused"
  std::int64_t transistors = 0;
};
struct ConfigArea {
  std::string name;                            // "RfPort=0" / "RfPort=1"
  std::string description;
  std::map<std::string, std::int64_t> params;  // of arc_subcore_top, all passed to Yosys
  std::int64_t total = 0, arc_added = 0, reused = 0;  // per sub-core, transistors
  std::vector<SplitPart> parts;
  std::int64_t gpu_arc_added = 0, gpu_total = 0;
  double fraction_added = 0.0, fraction_total = 0.0;  // of the die
};

// Logic depth (gates on the longest path between registers and ports, Yosys `ltp -noff` after
// abc -g cmos2) under a stated gate-delay model: every gate level costs gate_ps, a register
// boundary adds register_levels levels (clock-to-q + setup).
struct TimingModel {
  double gate_ps = 15.0;
  std::int64_t register_levels = 3;
  double clock_ghz = 0.0;  // the GPU's core clock
};
struct AdderStages {
  std::int64_t stages = 0, logic_depth = 0;
  double max_clock_ghz = 0.0;  // 1000 / ((depth + register_levels) * gate_ps)
  std::int64_t cycles_per_group_32 = 0;  // arc_reduce, a 32-lane group: 1 + 31 x stages
};

struct AreaReport {
  std::vector<ModuleArea> modules;          // every discovered module, synthesized standalone
  std::string subcore_source;               // "arc_subcore_top" or "sum of roots: a + b"
  std::vector<std::string> subcore_parts;   // modules whose totals make one sub-core
  std::int64_t per_subcore_transistors = 0;
  std::int64_t per_subcore_cells = 0;
  double per_subcore_nand2_eq = 0.0;
  std::int64_t per_subcore_flip_flops = 0;
  std::int64_t fpu_transistors = 0;         // arc_fp32_add standalone (0 if absent)
  config::GpuConfig gpu;
  std::int64_t arc_units = 0;               // sms x subcores_per_sm
  std::int64_t gpu_arc_transistors = 0;
  double fraction = 0.0;                    // of die_transistors
  std::map<std::string, std::int64_t> rtl_params;  // the --set RTL parameters
  std::string yosys_version, rtl_revision, cache_dir;
  std::vector<std::string> notes;
  double seconds = 0.0;
  std::vector<ConfigArea> configs;   // RfPort 0 and 1 (empty if the top has no RfPort)
  TimingModel timing;
  std::vector<AdderStages> adder_stages;  // arc_fp32_add_pipe for Stages = 1.. (if present)
  std::int64_t stages_needed = 0;    // smallest Stages that meets timing.clock_ghz (0: none measured does)
  std::int64_t stages_even_split = 0;  // ceil(Stages=1 depth / levels per cycle): if cut evenly
  size_t syntheses = 0, syntheses_cached = 0;
};

struct AreaOptions {
  std::string synth_script, rtl_dir, yosys, cache_dir;  // cache_dir "" = no cache
  std::string plot_script;                              // scripts/plot_area_sweep.py
  bool progress = true;                                 // progress bar on stderr
  bool modules_too = true;                              // false: only the per-sub-core parts
  bool split = true;                                    // ARC-added / reused per configuration, adder stages
  TimingModel timing;
};

// Built-in locations (source tree, compiled in; env ARCSIM_RTL_DIR / YOSYS override).
AreaOptions default_area_options();

// Parse "NAME=INT" RTL parameter settings and check them against what the RTL exposes:
// unknown or derived parameters and impossible values throw arc::Error naming the parameter.
std::map<std::string, std::int64_t> parse_rtl_params(const RtlTree& rtl, const std::vector<std::string>& sets);

AreaReport compute_area(const config::GpuConfig& gpu, const std::map<std::string, std::int64_t>& rtl_params,
                        const AreaOptions& opt);

// Renderings.
std::string format_table(const AreaReport& r);
std::string format_json(const AreaReport& r);  // nlohmann::json dump, indent 2

// Sweep: one parameter at a time around the defaults (adder pipeline depth, FTZ, address
// width, lanes per cycle: whatever the RTL exposes; absent ones are reported as notes).
struct SweepPoint {
  std::string param;
  std::int64_t value = 0;
  AreaReport report;
};
struct SweepResult {
  std::vector<SweepPoint> points;
  std::vector<std::string> notes;
};
SweepResult sweep_area(const config::GpuConfig& gpu, const std::map<std::string, std::int64_t>& base_params,
                       const AreaOptions& opt);
std::string sweep_csv(const SweepResult& s);
// Write out_dir/area_sweep.csv and, with scripts/plot_area_sweep.py, out_dir/area_sweep.png.
// Returns the two paths. Python: $ARCSIM_PYTHON, else /usr/bin/python3, else python3 on PATH.
std::vector<std::string> write_sweep(const SweepResult& s, const std::string& out_dir, const AreaOptions& opt);

}  // namespace arc::area
