#include "stats.h"

#include <algorithm>

namespace arc::sim {

nlohmann::json Log2Histogram::to_json() const {
  nlohmann::json j = nlohmann::json::array();
  for (size_t b = 0; b < kBuckets; ++b) {
    if (!counts[b]) continue;
    const uint64_t lo = b == 0 ? 0 : uint64_t(1) << (b - 1), hi = b == 0 ? 0 : (uint64_t(1) << b) - 1;
    j.push_back({{"lo", lo}, {"hi", hi}, {"count", counts[b]}});
  }
  return j;
}

void Log2Histogram::from_json(const nlohmann::json& j) {
  counts = {};
  for (const auto& e : j) add(e.at("lo").get<uint64_t>(), e.at("count").get<uint64_t>());
}


Sample Stats::sample(uint64_t cycle) const {
  return {cycle, instructions, lane_updates, requests_to_l2, rop_ops, atomic_stall_cycles};
}

void add_sample(std::vector<Sample>& series, const Sample& s) {
  const size_t n = series.size();
  if (n >= 2 && s.same_counters(series[n - 1]) && series[n - 1].same_counters(series[n - 2])) series[n - 1] = s;
  else series.push_back(s);
}

double Stats::rop_utilization(uint64_t rop_units, uint64_t ops_per_cycle) const {
  const double capacity = static_cast<double>(total_cycles) * static_cast<double>(rop_units * ops_per_cycle);
  return capacity > 0 ? static_cast<double>(rop_bytes) / static_cast<double>(flit_bytes) / capacity : 0.0;
}

double Stats::lsu_occupancy_mean(uint64_t sms) const {
  const double denom = static_cast<double>(total_cycles) * static_cast<double>(sms);
  return denom > 0 ? lsu_occupancy_sum / denom : 0.0;
}

#define ARC_SIM_STATS_FIELDS(X)                                                                      \
  X(total_cycles) X(issue_end_cycle) X(instructions) X(lane_updates) X(atomic_stall_cycles)         \
  X(sw_overhead_cycles) X(dispatch_late_cycles) X(requests_to_l2) X(rop_ops) X(rop_requests) X(rop_bytes) X(flit_bytes) X(rop_busy_unit_cycles) X(groups_reduced_in_core) \
  X(lane_adds_in_core) X(instrs_seen_busy) X(lsu_occupancy_sum) X(lsu_occupancy_max) X(lsu_full_rejects) \
  X(warps_resident_per_subcore) X(warps_remapped) X(lane_adds_in_buffer) X(buffer_lookups) X(buffer_hits)     \
  X(buffer_misses) X(buffer_evictions) X(buffer_flushed) X(buffer_words_sent) X(buffer_busy_cycles)

namespace {
nlohmann::json sm_json(const SmStats& s) {
  return {{"requests_to_l2", s.requests_to_l2}, {"lsu_full_rejects", s.lsu_full_rejects},
          {"lsu_occupancy_max", s.lsu_occupancy_max}, {"lsu_occupancy_sum", s.lsu_occupancy_sum}};
}
nlohmann::json subcore_json(const SubcoreStats& s) {
  return {{"instructions", s.instructions}, {"lane_updates", s.lane_updates},
          {"atomic_stall_cycles", s.atomic_stall_cycles}};
}
nlohmann::json sample_json(const Sample& s) {
  return {{"cycle", s.cycle}, {"instructions", s.instructions}, {"lane_updates", s.lane_updates},
          {"requests_to_l2", s.requests_to_l2}, {"rop_ops", s.rop_ops},
          {"atomic_stall_cycles", s.atomic_stall_cycles}};
}
}  // namespace

nlohmann::json to_json(const Stats& s) {
  nlohmann::json j;
#define X(f) j[#f] = s.f;
  ARC_SIM_STATS_FIELDS(X)
#undef X
  j["per_sm"] = nlohmann::json::array();
  for (const auto& x : s.per_sm) j["per_sm"].push_back(sm_json(x));
  j["per_subcore"] = nlohmann::json::array();
  for (const auto& x : s.per_subcore) j["per_subcore"].push_back(subcore_json(x));
  j["per_rop"] = nlohmann::json::array();
  for (const auto& x : s.per_rop) j["per_rop"].push_back({{"ops", x.ops}, {"busy_cycles", x.busy_cycles}, {"bytes", x.bytes}});
  j["lsu_occupancy_hist"] = s.lsu_occupancy_hist;
  j["atomic_stall_hist"] = s.atomic_stall_hist.to_json();
  j["series"] = nlohmann::json::array();
  for (const auto& x : s.series) j["series"].push_back(sample_json(x));
  return j;
}

Stats stats_from_json(const nlohmann::json& j) {
  Stats s;
#define X(f) j.at(#f).get_to(s.f);
  ARC_SIM_STATS_FIELDS(X)
#undef X
  for (const auto& e : j.at("per_sm"))
    s.per_sm.push_back({e.at("requests_to_l2"), e.at("lsu_full_rejects"), e.at("lsu_occupancy_max"),
                        e.at("lsu_occupancy_sum")});
  for (const auto& e : j.at("per_subcore"))
    s.per_subcore.push_back({e.at("instructions"), e.at("lane_updates"), e.at("atomic_stall_cycles")});
  for (const auto& e : j.at("per_rop")) s.per_rop.push_back({e.at("ops"), e.at("busy_cycles"), e.at("bytes")});
  j.at("lsu_occupancy_hist").get_to(s.lsu_occupancy_hist);
  s.atomic_stall_hist.from_json(j.at("atomic_stall_hist"));
  for (const auto& e : j.at("series"))
    s.series.push_back({e.at("cycle"), e.at("instructions"), e.at("lane_updates"), e.at("requests_to_l2"),
                        e.at("rop_ops"), e.at("atomic_stall_cycles")});
  return s;
}

nlohmann::json breakdown_json(const Stats& s, uint64_t subcores_per_sm, uint64_t ops_per_cycle) {
  nlohmann::json j;
  j["per_sm"] = nlohmann::json::array();
  for (size_t i = 0; i < s.per_sm.size(); ++i) {
    nlohmann::json e = sm_json(s.per_sm[i]);
    e["sm"] = i;
    e["lsu_occupancy_mean"] = s.total_cycles ? s.per_sm[i].lsu_occupancy_sum / static_cast<double>(s.total_cycles) : 0.0;
    e.erase("lsu_occupancy_sum");
    j["per_sm"].push_back(e);
  }
  j["per_subcore"] = nlohmann::json::array();
  for (size_t i = 0; i < s.per_subcore.size(); ++i) {
    nlohmann::json e = subcore_json(s.per_subcore[i]);
    e["sm"] = subcores_per_sm ? i / subcores_per_sm : 0;
    e["subcore"] = subcores_per_sm ? i % subcores_per_sm : i;
    j["per_subcore"].push_back(e);
  }
  j["per_rop"] = nlohmann::json::array();
  const double cap = static_cast<double>(s.total_cycles) * static_cast<double>(ops_per_cycle);
  for (size_t i = 0; i < s.per_rop.size(); ++i)
    j["per_rop"].push_back({{"unit", i},
                            {"ops", s.per_rop[i].ops},
                            {"busy_cycles", s.per_rop[i].busy_cycles},
                            {"bytes", s.per_rop[i].bytes},
                            {"utilization", cap > 0 ? static_cast<double>(s.per_rop[i].bytes) /
                                                          static_cast<double>(s.flit_bytes) / cap : 0.0}});
  j["histograms"] = {{"lsu_queue_occupancy_sm_cycles", s.lsu_occupancy_hist},
                     {"atomic_stall_cycles_per_instruction", s.atomic_stall_hist.to_json()}};
  if (!s.series.empty()) {
    j["series"] = nlohmann::json::array();
    for (const auto& x : s.series) j["series"].push_back(sample_json(x));
  }
  return j;
}

}  // namespace arc::sim
