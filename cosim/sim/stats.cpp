#include "stats.h"

namespace arc::sim {

double Stats::rop_utilization(uint64_t rop_units, uint64_t ops_per_cycle) const {
  const double capacity = static_cast<double>(total_cycles) * static_cast<double>(rop_units * ops_per_cycle);
  return capacity > 0 ? static_cast<double>(rop_ops) / capacity : 0.0;
}

double Stats::lsu_occupancy_mean(uint64_t sms) const {
  const double denom = static_cast<double>(total_cycles) * static_cast<double>(sms);
  return denom > 0 ? lsu_occupancy_sum / denom : 0.0;
}

#define ARC_SIM_STATS_FIELDS(X)                                                                      \
  X(total_cycles) X(issue_end_cycle) X(instructions) X(lane_updates) X(atomic_stall_cycles)         \
  X(sw_overhead_cycles) X(requests_to_l2) X(rop_ops) X(rop_busy_unit_cycles) X(groups_reduced_in_core) \
  X(lane_adds_in_core) X(instrs_seen_busy) X(lsu_occupancy_sum) X(lsu_occupancy_max) X(lsu_full_rejects) \
  X(warps_resident_per_subcore) X(warps_remapped)

nlohmann::json to_json(const Stats& s) {
  nlohmann::json j;
#define X(f) j[#f] = s.f;
  ARC_SIM_STATS_FIELDS(X)
#undef X
  return j;
}

Stats stats_from_json(const nlohmann::json& j) {
  Stats s;
#define X(f) j.at(#f).get_to(s.f);
  ARC_SIM_STATS_FIELDS(X)
#undef X
  return s;
}

}  // namespace arc::sim
