// What one run of the timing model measures; every module adds to one Stats: whole-run totals,
// per-SM / per-sub-core / per-ROP-unit breakdowns, histograms and (with --stats-interval) a
// time series. The modules touch it through one-line calls (sm(i), subcore(i), rop(i),
// add_stall) so the model code stays about the model; the LSUs keep their own counters and add
// them at the end (Lsu::finish).
#pragma once
#include <array>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace arc::sim {

// Power-of-two buckets: bucket 0 holds 0, bucket b >= 1 holds [2^(b-1), 2^b). Weighted adds.
struct Log2Histogram {
  static constexpr size_t kBuckets = 33;
  std::array<uint64_t, kBuckets> counts{};
  void add(uint64_t value, uint64_t weight = 1) {  // inline: once per issue (Stats::add_stall)
    const size_t b = value == 0 ? 0 : static_cast<size_t>(64 - __builtin_clzll(value));
    counts[b < kBuckets ? b : kBuckets - 1] += weight;
  }
  nlohmann::json to_json() const;  // [{"lo": .., "hi": .., "count": ..}] of the non-empty buckets
  void from_json(const nlohmann::json& j);
};

struct SmStats {
  uint64_t requests_to_l2 = 0;    // requests this SM's LSU sent into the crossbar
  uint64_t lsu_full_rejects = 0;  // port-cycles a packet at its LSU found the queue full
  uint64_t lsu_occupancy_max = 0; // max entries in its LSU queue
  double lsu_occupancy_sum = 0;   // integral of its queue occupancy (entry-cycles)
};
struct SubcoreStats {
  uint64_t instructions = 0;         // warp-level atomics it issued
  uint64_t lane_updates = 0;         // their active lanes
  uint64_t atomic_stall_cycles = 0;  // warp-cycles its atomics waited to leave it
};
struct RopStats {
  uint64_t ops = 0;          // word updates (atomics) this unit performed
  uint64_t busy_cycles = 0;  // cycles it started >= 1 request
  uint64_t bytes = 0;        // input bytes its requests used
};
// One sample of the time series: cumulative counters at `cycle`.
struct Sample {
  uint64_t cycle = 0, instructions = 0, lane_updates = 0, requests_to_l2 = 0, rop_ops = 0, atomic_stall_cycles = 0;
  bool same_counters(const Sample& o) const {
    return instructions == o.instructions && lane_updates == o.lane_updates && requests_to_l2 == o.requests_to_l2 &&
           rop_ops == o.rop_ops && atomic_stall_cycles == o.atomic_stall_cycles;
  }
};
// The series in its one form: of each run of samples whose counters do not change, only the
// first and the last stay. Which samples inside such a run were taken depends on when the
// model's modules asked to be woken (the RTL level wakes every cycle while a unit holds work,
// the fast level sleeps through them; run.cpp skips idle chunks), so this form is the same at
// both fidelities whatever the skipping. Appends s to a series kept in that form: s replaces
// the last sample where that one was inside such a run, so memory follows the changes.
void add_sample(std::vector<Sample>& series, const Sample& s);

struct Stats {
  uint64_t total_cycles = 0;         // first issue .. last atomic performed in memory
  uint64_t issue_end_cycle = 0;      // last warp-level atomic left its sub-core
  uint64_t instructions = 0;         // warp-level atomics issued
  uint64_t lane_updates = 0;         // active lanes of those (gradient updates)
  uint64_t atomic_stall_cycles = 0;  // warp-cycles an atomic waited to leave its sub-core
  uint64_t sw_overhead_cycles = 0;   // issue cycles spent on ARC-SW reduction instructions
  uint64_t dispatch_late_cycles = 0; // RunSpec::gap_issue_rate > 0: warp-cycles gaps ran past their end, the dispatch full
  uint64_t requests_to_l2 = 0;       // requests the LSUs sent into the crossbar
  uint64_t rop_ops = 0;              // word updates (atomics) performed at the ROP units
  uint64_t rop_requests = 0;         // requests the ROP units performed (a coalesced one carries several ops)
  uint64_t rop_bytes = 0;            // ROP input bytes those requests used (utilization)
  uint64_t flit_bytes = 32;          // the run's flit (utilization = rop_bytes / flit_bytes / capacity)
  uint64_t rop_busy_unit_cycles = 0; // sum over units of cycles with >= 1 op started
  uint64_t groups_reduced_in_core = 0;   // address groups summed in the sub-core (ARC-HW or SW)
  uint64_t lane_adds_in_core = 0;        // FP adds done in the sub-core for those
  uint64_t instrs_seen_busy = 0;         // ARC-HW: instructions accepted while busy was high
  double lsu_occupancy_sum = 0;          // sum over SMs of the integral of queue occupancy (entry-cycles)
  uint64_t lsu_occupancy_max = 0;        // max entries in any SM's LSU queue
  uint64_t lsu_full_rejects = 0;         // port-cycles a packet at an LSU port found the queue full (refused)
  uint64_t warps_resident_per_subcore = 0;  // occupancy admitted (trace launch shape, capped by the GPU)
  uint64_t warps_remapped = 0;              // 1: the trace's warps were redistributed onto another SM shape
  // SM-side atomic buffers (lab, lab-ideal, phi; l1_atomic_buffer.h), summed over SMs
  uint64_t lane_adds_in_buffer = 0;  // FP adds done in the buffers (updates absorbed into a held word)
  uint64_t buffer_lookups = 0;       // word updates looked up
  uint64_t buffer_hits = 0;          // ... that found their word (lab) or line (phi) held
  uint64_t buffer_misses = 0;        // ... that allocated a line
  uint64_t buffer_evictions = 0;     // lines evicted for capacity (each sent to L2)
  uint64_t buffer_flushed = 0;       // lines flushed to L2 after the SM's last instruction
  uint64_t buffer_words_sent = 0;    // partial sums sent to L2 (evictions + flush)
  uint64_t buffer_busy_cycles = 0;   // pipeline cycles the buffers spent on instructions

  // Breakdowns (grown on first touch; sub-core index = sm * subcores_per_sm + sub-core).
  std::vector<SmStats> per_sm;
  std::vector<SubcoreStats> per_subcore;
  std::vector<RopStats> per_rop;
  // Per-unit counters, grown on first use (inline: the model touches them per request).
  template <class T>
  static T& grow(std::vector<T>& v, uint32_t i) {
    v.resize(i + 1);
    return v[i];
  }
  SmStats& sm(uint32_t i) { return i < per_sm.size() ? per_sm[i] : grow(per_sm, i); }
  SubcoreStats& subcore(uint32_t i) { return i < per_subcore.size() ? per_subcore[i] : grow(per_subcore, i); }
  RopStats& rop(uint32_t i) { return i < per_rop.size() ? per_rop[i] : grow(per_rop, i); }
  // Histograms: LSU queue occupancy, time-weighted and exact (index = entries, value =
  // SM-cycles the queue held that many), and the cycles each warp-level atomic waited to leave
  // its sub-core (power-of-two buckets -> instructions).
  std::vector<uint64_t> lsu_occupancy_hist;
  Log2Histogram atomic_stall_hist;
  void add_stall(uint64_t cycles) {  // totals and histogram (a sub-core keeps its own count: SubCore::finish)
    atomic_stall_cycles += cycles;
    atomic_stall_hist.add(cycles);
  }
  std::vector<Sample> series;  // --stats-interval N: one sample every N cycles
  Sample sample(uint64_t cycle) const;

  // Derived (given the GPU shape).
  double rop_utilization(uint64_t rop_units, uint64_t ops_per_cycle) const;
  double lsu_occupancy_mean(uint64_t sms) const;
};

nlohmann::json to_json(const Stats& s);  // everything, for the child-to-parent pipe
Stats stats_from_json(const nlohmann::json& j);
// The breakdown, histogram and series part of `arcsim sim --json` for one run.
nlohmann::json breakdown_json(const Stats& s, uint64_t subcores_per_sm, uint64_t ops_per_cycle);

}  // namespace arc::sim
