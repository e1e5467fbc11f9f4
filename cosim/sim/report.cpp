#include "report.h"

#include <fmt/format.h>

#include <algorithm>

namespace arc::sim {

// FNV-1a 64 over the words' bytes, little-endian. A zero byte only multiplies by the prime, so a
// run of untouched (zero) words is one multiplication by prime^(4 x words): the hash of a large,
// mostly untouched image reads only its touched pages.
uint64_t image_hash(const ZeroTable<uint32_t>& words) {
  constexpr uint64_t kPrime = 1099511628211ull;
  auto power = [](uint64_t e) {  // kPrime^e mod 2^64
    uint64_t r = 1, b = kPrime;
    for (; e; e >>= 1, b *= b)
      if (e & 1) r *= b;
    return r;
  };
  uint64_t h = 1469598103934665603ull;
  size_t done = 0;  // words hashed so far
  words.for_each_touched([&](size_t a, size_t b) {
    h *= power(4 * uint64_t{a - done});
    for (size_t i = a; i < b; ++i)
      for (int k = 0; k < 4; ++k) {
        h ^= (words[i] >> (8 * k)) & 0xFF;
        h *= kPrime;
      }
    done = b;
  });
  return h * power(4 * uint64_t{words.size() - done});
}

namespace {

const RunResult* baseline_of(const std::vector<RunSpec>& specs, const std::vector<RunResult>& runs) {
  for (size_t i = 0; i < specs.size(); ++i)
    if (specs[i].mode == Mode::Baseline) return &runs[i];
  return nullptr;
}

}  // namespace

nlohmann::json report_json(const ReportInput& in, const std::vector<RunSpec>& specs,
                           const std::vector<RunResult>& runs) {
  nlohmann::json j;
  j["gpu"] = {{"name", in.gpu_name}, {"config", in.gpu_source}, {"sms", in.sms}, {"rop_units", in.rop_units},
              {"clock_ghz", in.clock_ghz}, {"sw_overhead", in.sw_overhead}};
  if (!in.config.is_null()) j["config"] = in.config;
  j["trace"] = in.trace_path;
  j["fidelity"] = in.fidelity;
  j["gap_issue_rate"] = specs.empty() ? 0.0 : specs.front().gap_issue_rate;  // sim --gap-issue-rate (all runs)
  const RunResult* base = baseline_of(specs, runs);
  j["runs"] = nlohmann::json::array();
  for (size_t i = 0; i < runs.size(); ++i) {
    const Stats& s = runs[i].stats;
    nlohmann::json r = {
        {"mode", runs[i].label},
        {"total_cycles", s.total_cycles},
        {"atomic_stall_cycles", s.atomic_stall_cycles},
        {"rop_utilization", s.rop_utilization(in.rop_units, in.rop_ops_per_cycle)},
        {"lsu_queue_occupancy_mean", s.lsu_occupancy_mean(in.sms)},
        {"lsu_queue_occupancy_max", s.lsu_occupancy_max},
        {"requests_to_l2", s.requests_to_l2},
        {"reductions_in_core", {{"groups", s.groups_reduced_in_core}, {"lane_adds", s.lane_adds_in_core}}},
        {"reductions_at_rops", s.rop_ops},
        {"instructions", s.instructions},
        {"lane_updates", s.lane_updates},
        {"sw_overhead_cycles", s.sw_overhead_cycles},
        {"instrs_accepted_busy", s.instrs_seen_busy},
        {"issue_end_cycle", s.issue_end_cycle},
        {"lsu_full_rejects", s.lsu_full_rejects},
        {"rop_busy_unit_cycles", s.rop_busy_unit_cycles},
        {"warps_resident_per_subcore", s.warps_resident_per_subcore},
        {"warps_remapped", s.warps_remapped != 0},
        {"memory_image_fnv1a64", fmt::format("{:016x}", image_hash(runs[i].image))},
    };
    if (s.dispatch_late_cycles) r["dispatch_late_cycles"] = s.dispatch_late_cycles;  // --gap-issue-rate
    if (s.buffer_lookups)  // lab, lab-ideal, phi
      r["sm_buffer"] = {{"lookups", s.buffer_lookups}, {"hits", s.buffer_hits}, {"misses", s.buffer_misses},
                        {"evictions", s.buffer_evictions}, {"flushed", s.buffer_flushed},
                        {"words_sent", s.buffer_words_sent}, {"busy_cycles", s.buffer_busy_cycles},
                        {"lane_adds", s.lane_adds_in_buffer}};
    if (base && s.total_cycles)
      r["speedup_vs_baseline"] = static_cast<double>(base->stats.total_cycles) / static_cast<double>(s.total_cycles);
    r.update(breakdown_json(s, in.subcores_per_sm, in.rop_ops_per_cycle));
    j["runs"].push_back(r);
  }
  if (!in.host_cost) return j;
  // What the simulation cost on this host: varies run to run, so only on request (--json
  // stays byte-for-byte deterministic) and apart from the results that sweeps tabulate.
  nlohmann::json host = {{"first_pass_cpu_seconds", in.scan_seconds},
                         {"warp_table", in.warp_table},
                         {"runs", nlohmann::json::array()}};
  for (const RunResult& r : runs)
    host["runs"].push_back({{"mode", r.label},
                            {"cpu_seconds", r.cpu_seconds},
                            {"peak_rss_mb", static_cast<double>(r.peak_rss_kb) / 1024.0},
                            {"read_ahead_instructions", r.lookahead_peak},
                            {"read_ahead_bytes", r.lookahead_bytes_peak}});
  j["host_cost"] = host;
  return j;
}

std::string report_table(const ReportInput& in, const std::vector<RunSpec>& specs,
                         const std::vector<RunResult>& runs) {
  std::string out = fmt::format("GPU {} ({} SMs, {} ROP units, {:.2f} GHz), fidelity {}, trace {}\n", in.gpu_name,
                                in.sms, in.rop_units, in.clock_ghz, in.fidelity, in.trace_path);
  out += fmt::format("{:<22} {:>12} {:>8} {:>14} {:>7} {:>9} {:>6} {:>12} {:>11} {:>11} {:>8} {:>7}\n", "mode", "cycles",
                     "speedup", "atomic stalls", "ROP %", "LSU mean", "max", "L2 requests", "core adds",
                     "ROP adds", "cpu s", "RSS MB");
  const RunResult* base = baseline_of(specs, runs);
  bool sw = false;
  for (const RunSpec& s : specs) sw |= s.mode == Mode::SwS || s.mode == Mode::SwB || s.mode == Mode::SwT || s.mode == Mode::Adaptive;
  for (const RunResult& r : runs) {
    const Stats& s = r.stats;
    const std::string sp = base && s.total_cycles
                               ? fmt::format("{:.2f}x", static_cast<double>(base->stats.total_cycles) /
                                                            static_cast<double>(s.total_cycles))
                               : "-";
    out += fmt::format("{:<22} {:>12} {:>8} {:>14} {:>6.1f}% {:>9.2f} {:>6} {:>12} {:>11} {:>11} {:>8.2f} {:>7.0f}\n",
                       r.label, s.total_cycles, sp, s.atomic_stall_cycles,
                       100.0 * s.rop_utilization(in.rop_units, in.rop_ops_per_cycle), s.lsu_occupancy_mean(in.sms),
                       s.lsu_occupancy_max, s.requests_to_l2, s.lane_adds_in_core, s.rop_ops, r.cpu_seconds,
                       static_cast<double>(r.peak_rss_kb) / 1024.0);
  }
  uint64_t ahead = 0, ahead_bytes = 0;
  for (const RunResult& r : runs) {
    ahead = std::max(ahead, r.lookahead_peak);
    ahead_bytes = std::max(ahead_bytes, r.lookahead_bytes_peak);
  }
  if (in.scan_seconds > 0 || in.warp_table)
    out += fmt::format("trace streamed: {} {:.2f} cpu s; at most {} instructions ({:.1f} MB) read ahead of the model\n",
                       in.warp_table ? "warps from its warp table (no first pass)," : "first pass", in.scan_seconds,
                       ahead, static_cast<double>(ahead_bytes) / 1e6);
  for (const RunResult& r : runs) {
    const Stats& s = r.stats;
    if (s.buffer_lookups)
      out += fmt::format("{}: SM atomic buffer {} lookups, {} hits, {} misses, {} evictions, {} lines flushed, {} buffer adds "
                         "(not in core adds), {} partial sums to L2\n",
                         r.label, s.buffer_lookups, s.buffer_hits, s.buffer_misses, s.buffer_evictions, s.buffer_flushed,
                         s.lane_adds_in_buffer, s.buffer_words_sent);
  }
  if (sw && in.sw_overhead == 0)
    out += "note: sw_overhead = 0 in this config: sw-s/sw-b/sw-t are charged only the per-key and per-lane issue cycles "
           "of the knobs sws_cycles_per_key and sws_cycles_per_lane (arcsim config show lists them)\n";
  return out;
}

}  // namespace arc::sim
