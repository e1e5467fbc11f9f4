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
};

struct AreaOptions {
  std::string synth_script, rtl_dir, yosys, cache_dir;  // cache_dir "" = no cache
  std::string plot_script;                              // scripts/plot_area_sweep.py
  bool progress = true;                                 // progress bar on stderr
  bool modules_too = true;                              // false: only the per-sub-core parts
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
