// arc::verify: replay a warp-atomic trace through the Verilated ARC sub-core top (cosim/dut)
// and the golden model (cosim/golden), and check the RTL against both the golden model and
// the GPU's own SW-S partial sums; compare the replayed memory image with the GPU's final
// buffer. `arcsim verify` is a thin front end to verify_trace().
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "golden.h"

namespace arc::verify {

struct VerifyOptions {
  std::string trace_path;
  // Reduction adder FTZ of the RTL and the golden model; default: the trace's reduce_ftz,
  // which is what makes the RTL's sums comparable bit for bit with the GPU's partial sums.
  std::optional<fp::FtzMode> ftz;
  // Scheduler mode driven into the RTL. nullopt ("trace"): follow the GPU instruction by
  // instruction -- Never where it reduced nothing, Threshold(t) where its reduced groups are
  // exactly those of >= t lanes, else Always (a superset, so every GPU sum meets an RTL sum).
  std::optional<golden::SchedMode> mode;
  std::optional<uint32_t> threshold;  // fixed modes: default the trace's balancing threshold
  double busy_prob = 0.5;             // Dynamic mode: P(busy_i) per instruction (seeded)
  uint64_t seed = 1;
  std::string fst_path;               // non-empty: FST waveform of the RTL
  uint64_t limit = 0;                 // verify only the first N instructions (0 = all)
  size_t max_reported = 10;           // mismatches described in full
  std::function<void(uint64_t bytes_read, uint64_t file_bytes)> progress;
};

// One memory image against another, word by word.
struct ImageCompare {
  uint64_t words = 0, exact = 0, differ = 0;
  uint64_t nonfinite_differ = 0;  // differing words where either side is inf or NaN
  uint64_t max_ulp = 0;           // over finite differing words
  double max_rel_error = 0;       // |a - b| / max(|a|, |b|) over finite differing words
  uint32_t worst_word = 0;        // where max_ulp occurs
};
ImageCompare compare_images(const std::vector<uint32_t>& got, const std::vector<uint32_t>& want);

// Position-by-position comparison of two transaction streams for one instruction; appends a
// description of every difference (up to `max` in total) and returns how many there were
// (a missing or extra transaction counts once).
uint64_t compare_streams(const std::vector<golden::Transaction>& want, const std::vector<golden::Transaction>& got,
                         uint64_t instr, std::vector<std::string>& report, size_t max);

struct VerifyResult {
  std::string gpu_name, kernel_name, method;
  uint8_t trace_reduce_ftz = 0;
  std::string mode;                        // "trace" or a golden::SchedMode name
  golden::SchedConfig sched;               // fixed modes; in "trace" mode only adder_ftz applies
  uint64_t instrs_never = 0, instrs_threshold = 0, instrs_always = 0;  // "trace" mode choices
  double busy_prob = 0;
  uint64_t instructions = 0, lanes = 0;
  uint64_t transactions = 0;               // emitted by the RTL
  uint64_t reduced_transactions = 0;       // of which reduced sums
  uint64_t rtl_cycles = 0;
  uint64_t rtl_vs_golden_mismatches = 0;
  uint64_t gpu_sums_checked = 0;           // GPU serial partial sums compared with an RTL sum
  uint64_t rtl_vs_gpu_mismatches = 0;      // value differences + GPU-reduced groups the RTL did not reduce
  uint64_t gpu_tree_sums_checked = 0;      // GPU butterfly (SW-B, adaptive) and group-tree (adaptive) sums vs golden
  uint64_t gpu_pair_sums_checked = 0;        // of those, pair sums (Adaptive rule v5's pair send) vs golden::group_tree_sum
  uint64_t gpu_group_tree_sums_checked = 0;  // of those, group-tree sums (Adaptive rule v4) vs golden::group_tree_sum
  uint64_t gpu_vs_golden_tree_mismatches = 0;
  uint64_t gpu_sums_unchecked = 0;         // library (CUB) order: no model to compare with
  uint64_t gpu_groups_not_reduced_by_rtl = 0;
  uint64_t rtl_groups_reduced_without_gpu_sum = 0;  // informational (no GPU value to compare)
  // The first part of rtl_vs_gpu_mismatches alone: RTL sums whose bits differ from the GPU's.
  uint64_t rtl_vs_gpu_value_mismatches() const { return rtl_vs_gpu_mismatches - gpu_groups_not_reduced_by_rtl; }
  ImageCompare golden_image;  // golden replay (the RTL/golden transactions, FTZ=1 ROP) vs trace final buffer
  ImageCompare method_image;  // replay of what the GPU's method sent (its partial sums) vs final buffer
  bool image_checked = false; // false when --limit stopped early
  std::vector<std::string> first_mismatches;
  double seconds = 0;
};

// Throws arc::Error on bad input (unreadable trace, bad options).
VerifyResult verify_trace(const VerifyOptions& opt);

}  // namespace arc::verify
