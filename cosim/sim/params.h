// arc::sim parameters: what one timing-model run needs beyond the trace. The GPU shape and
// memory-path numbers come from arc::config (cosim/configs/*.toml, one source per value);
// the few knobs the config table does not declare are declared here, once, with unit,
// default and meaning (sim_params()). `--set k=v` reaches both (sim keys first).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "golden.h"
#include "gpu_config.h"

namespace arc::sim {

// How a warp-level atomic is executed (one trace family, four ways).
//  Baseline: atomicAdd per active lane (every lane is one request to L2).
//  SwS / SwB: ARC-SW, the reduction done by instructions (serial / butterfly) for groups of
//    >= threshold lanes, costing GpuConfig::sw_overhead issue cycles per instruction.
//  ArcHw: `atomred` through the ARC scheduler and reduction unit (RTL or its fast level).
enum class Mode : uint8_t { Baseline, SwS, SwB, ArcHw };
const char* mode_name(Mode m);  // "baseline", "sw-s", "sw-b", "arc-hw"
Mode mode_from_name(const std::string& s);  // throws arc::Error

enum class Fidelity : uint8_t { Rtl, Fast };
const char* fidelity_name(Fidelity f);
Fidelity fidelity_from_name(const std::string& s);  // throws arc::Error

golden::SchedMode sched_from_name(const std::string& s);  // never|always|threshold|dynamic

// Timing-model knobs not in the GPU config table (defaults are assumptions, named as such,
// until issue 9 measures them on the H100).
struct ModelKnobs {
  int64_t rop_queue_depth = 0;          // requests buffered at each ROP unit's input (0 = auto)
  int64_t rop_window = 1;               // ROP look-ahead for a startable op (1 = in order)
  int64_t icnt_eject_per_cycle = 1;     // flits one crossbar output (ROP port) delivers per cycle
  int64_t rop_same_addr_interval = 1;   // min cycles between two ops starting on one address
  int64_t rop_slice_bytes = 32;         // address granule the hash slices on (one L2 sector)
  int64_t lsu_busy_slack = 32;          // LSU reports busy when fewer free entries than this
  int64_t sws_cycles_per_key = 0;       // SW-S issue cycles per distinct address (match_any)
  int64_t sws_cycles_per_lane = 0;      // SW-S issue cycles per lane of its largest reduced group
};

struct KnobSpec {
  const char* key;
  const char* unit;
  const char* meaning;
  int64_t min, max;
  int64_t ModelKnobs::*field;
};
const std::vector<KnobSpec>& sim_params();

// One run: the GPU, the knobs, and how the atomics are executed.
struct RunSpec {
  config::GpuConfig gpu;
  ModelKnobs knobs;
  Mode mode = Mode::Baseline;
  golden::SchedMode sched = golden::SchedMode::Dynamic;  // ArcHw only
  uint32_t threshold = 2;   // SW balancing threshold and the ArcHw Threshold scheduler's T
  Fidelity fidelity = Fidelity::Fast;
  std::string wave_path;    // FST of the ARC units (Rtl fidelity only); "" = none
  bool progress = false;    // progress bar on stderr
  bool record_commits = false;  // keep the ROP commit log (tests)
  // Test only: sub-core 0 of SM 0 ignores every wake-up after the run's first issue (a lost
  // wake-up), which the end-of-run check must report. Not reachable from the CLI.
  bool plant_lost_wakeup = false;

  std::string label() const;  // "arc-hw/dynamic", "sw-s", ...
};

// Applies "key=value" to the knobs when key is a sim knob (true), else leaves it (false).
bool apply_knob(ModelKnobs& k, const std::string& key_eq_value);
// rop_queue_depth with 0 (auto) resolved against the crossbar.
int64_t rop_queue_depth(const RunSpec& spec);
// Applies to knobs, else to the GPU config (arc::config::apply_override). Throws arc::Error.
void apply_set(RunSpec& spec, const std::string& key_eq_value);
void validate(const RunSpec& spec);  // throws arc::Error naming the bad value

}  // namespace arc::sim
