// Characterization of a trace (paper section 3.1): lane activity, address sharing, size.
// One pass over a Reader; memory grows only with the number of distinct warps.
#pragma once
#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

#include "trace.h"

namespace arc::trace {

struct TraceStats {
  Header header;
  uint16_t version = 0;          // format version of the file
  uint64_t calls = 0;            // records (a call of k params is k instructions)
  uint64_t instructions = 0;
  uint64_t lanes = 0;            // lane updates (active lanes summed)
  uint64_t warps = 0;            // distinct (SM, warp) pairs
  uint64_t sms = 0;              // distinct SMs seen
  uint64_t all_same = 0;         // instructions whose active lanes all hit one address
  uint64_t reduced_groups = 0;   // GPU-reduced address groups (partial sums carried)
  uint64_t reduced_lanes = 0;    // lanes inside those groups (a pair sum: its two lanes)
  uint64_t pair_sends = 0;       // instructions of Adaptive's pair send (kFlagPairSum)
  uint64_t pair_plain = 0;       // instructions of a pair call's plain records (kFlagPairCall)
  uint64_t file_bytes = 0;
  uint64_t buffer_nonzero = 0;   // final-buffer words that are not +0
  std::array<uint64_t, 33> active_hist{};    // [n] = instructions with n active lanes
  std::array<uint64_t, 33> distinct_hist{};  // [n] = instructions with n distinct addresses
  // Compute gaps (header gap_unit) of the calls: their sum, the largest, and per power of two:
  // gap_hist[b] = calls whose gap g has bit_width(g) == b (b = 0: g = 0; b = 1: 1; b = 2: 2..3 ...).
  uint64_t gap_sum = 0, gap_max = 0;
  std::array<uint64_t, 33> gap_hist{};
  double bytes_per_lane() const { return lanes ? static_cast<double>(file_bytes) / static_cast<double>(lanes) : 0; }
  double all_same_fraction() const {
    return instructions ? static_cast<double>(all_same) / static_cast<double>(instructions) : 0;
  }
};

// Reads the whole trace (checking it, and a version-3 file's warp table entry by entry against
// the records, as every Reader does); progress(bytes read, file bytes) is called now and then.
TraceStats compute_stats(const std::string& path, const std::function<void(uint64_t, uint64_t)>& progress = {});

}  // namespace arc::trace
