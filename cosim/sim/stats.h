// What one run of the timing model measures; every module adds to one Stats.
#pragma once
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

namespace arc::sim {

struct Stats {
  uint64_t total_cycles = 0;         // first issue .. last atomic performed in memory
  uint64_t issue_end_cycle = 0;      // last warp-level atomic left its sub-core
  uint64_t instructions = 0;         // warp-level atomics issued
  uint64_t lane_updates = 0;         // active lanes of those (gradient updates)
  uint64_t atomic_stall_cycles = 0;  // warp-cycles an atomic waited to leave its sub-core
  uint64_t sw_overhead_cycles = 0;   // issue cycles spent on ARC-SW reduction instructions
  uint64_t requests_to_l2 = 0;       // requests the LSUs sent into the crossbar
  uint64_t rop_ops = 0;              // atomics performed at the ROP units
  uint64_t rop_busy_unit_cycles = 0; // sum over units of cycles with >= 1 op started
  uint64_t groups_reduced_in_core = 0;   // address groups summed in the sub-core (ARC-HW or SW)
  uint64_t lane_adds_in_core = 0;        // FP adds done in the sub-core for those
  uint64_t instrs_seen_busy = 0;         // ARC-HW: instructions accepted while busy was high
  double lsu_occupancy_sum = 0;          // sum over SMs of the integral of queue occupancy (entry-cycles)
  uint64_t lsu_occupancy_max = 0;        // max entries in any SM's LSU queue
  uint64_t lsu_full_rejects = 0;         // packet offers refused because the LSU queue was full
  uint64_t warps_resident_per_subcore = 0;  // occupancy admitted (trace launch shape, capped by the GPU)
  uint64_t warps_remapped = 0;              // 1: the trace's warps were redistributed onto another SM shape

  // Derived (given the GPU shape).
  double rop_utilization(uint64_t rop_units, uint64_t ops_per_cycle) const;
  double lsu_occupancy_mean(uint64_t sms) const;
};

nlohmann::json to_json(const Stats& s);
Stats stats_from_json(const nlohmann::json& j);

}  // namespace arc::sim
