// arc::sim parameters: what one timing-model run needs beyond the trace. The GPU shape and
// memory-path numbers and the model's knobs come from arc::config's one registry
// (gpu_params(), model_params()); `--set k=v` reaches both.
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
//    >= threshold lanes, costing issue cycles (sw_cost.h).
//  ArcHw: `atomred` through the ARC scheduler and reduction unit (RTL or its fast level).
//  SwT: ARC-SW's transposed reduce-scatter (issue 23): SW-B's warps and sums, but a reduced
//    call's NP parameter sums leave as one instruction of NP lanes (coalesced as any other).
//  Lab / LabIdeal / Phi: the prior work the paper compares with (section 7.1): per-lane atomics as
//    baseline, absorbed by a per-SM atomic buffer before the LSU (l1_atomic_buffer.h).
enum class Mode : uint8_t { Baseline, SwS, SwB, ArcHw, SwT, Adaptive, Lab, LabIdeal, Phi };
const char* mode_name(Mode m);  // "baseline", "sw-s", "sw-b", "arc-hw", "sw-t", "adaptive", "lab", "lab-ideal", "phi"
inline bool sm_buffered(Mode m) { return m == Mode::Lab || m == Mode::LabIdeal || m == Mode::Phi; }
Mode mode_from_name(const std::string& s);  // throws arc::Error

enum class Fidelity : uint8_t { Rtl, Fast };
const char* fidelity_name(Fidelity f);
Fidelity fidelity_from_name(const std::string& s);  // throws arc::Error

golden::SchedMode sched_from_name(const std::string& s);  // never|always|threshold|dynamic

// Timing-model knobs: declared in the one registry, arc::config::model_params().
using config::ModelKnobs;

// One run: the GPU, the knobs, and how the atomics are executed.
struct RunSpec {
  config::GpuConfig gpu;
  ModelKnobs knobs;
  Mode mode = Mode::Baseline;
  golden::SchedMode sched = golden::SchedMode::Dynamic;  // ArcHw only
  uint32_t threshold = 2;   // SW balancing threshold and the ArcHw Threshold scheduler's T
  // Floats per lane update (vector atomics, issue 17): 0 = as the trace's flags say, 1 = scalar,
  // 2 / 4 = a call's params leave in chunks of 2 / 4 per lane (baseline, sw-s, sw-b only).
  uint32_t vector = 0;
  // The compute between a warp's atomic calls as dispatch work (issue 17): each gap of g
  // cycles also takes gap_issue_rate x g of the sub-core's dispatch slots, spread over the gap
  // (dispatch.h), so SW reduction instructions compete with the workload's own. A property of the workload and its trace,
  // not of the GPU: the compute floor's issued warp instructions (ncu smsp__inst_executed)
  // over the trace's summed gaps. 0 = gaps are latency only.
  double gap_issue_rate = 0;
  Fidelity fidelity = Fidelity::Fast;
  std::string wave_path;    // FST of the ARC units (Rtl fidelity only); "" = none
  bool progress = false;    // progress bar on stderr
  bool record_commits = false;  // keep the ROP commit log (tests)
  uint64_t stats_interval = 0;  // time series sample period in cycles (0 = none)
  // Test only: sub-core 0 of SM 0 ignores every wake-up after the run's first issue (a lost
  // wake-up), which the end-of-run check must report. Not reachable from the CLI.
  bool plant_lost_wakeup = false;
  // Test only: every LSU steps every cycle while it holds anything (no skip-ahead, never
  // asleep); a run must give the same results as without. Not reachable from the CLI.
  bool lsu_every_cycle = false;
  // Test only: the sub-cores read every instruction's lanes (none issued from its brief alone);
  // a run must give the same results as without. Not reachable from the CLI.
  bool read_lanes = false;

  std::string label() const;  // "arc-hw/dynamic", "sw-s", ...
};

// rop_queue_depth with 0 (auto) resolved against the crossbar.
int64_t rop_queue_depth(const RunSpec& spec);
// A GPU key or a knob (arc::config::apply_override). Throws arc::Error.
void apply_set(RunSpec& spec, const std::string& key_eq_value);
void validate(const RunSpec& spec);  // throws arc::Error naming the bad value

}  // namespace arc::sim
