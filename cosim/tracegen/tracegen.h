// arc::tracegen: a seeded synthetic warp-atomic trace generator, so tests and CI have traces
// without a GPU. Same config (seed included) -> byte-identical file. It plays the GPU: SW-S
// partial sums with arc::fp::add_ref in the trace's FTZ mode (serial, ascending lanes; SW-B:
// the butterfly), and
// the final buffer by replaying the atomics the method sends, in trace order, with FTZ=1
// (ROP, red.add.f32) semantics.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "fp32_ref.h"
#include "trace.h"

namespace arc::tracegen {

// Which lanes of a warp are active.
//  full: all 32. bernoulli: each lane with probability lane_prob (at least one).
//  uniform: the active count is uniform in 1..32, lanes chosen at random.
//  first: lanes 0..active-1 (the microbenchmark's active-lanes sweep).
enum class Activity { Full, Bernoulli, Uniform, First };
// How active lanes pick addresses.
//  same: all lanes one address. k: each lane one of k random addresses (<= k distinct).
//  distinct: every lane its own address. pool: each lane one of `pool` consecutive words from
//  a random base (a primitive's parameters). mix: `same` with probability p_same, else k.
//  line: lane l on word l % k of one random 128-byte line (32 words): k addresses in one line,
//  the microbenchmark's coalescing pattern (k = 32: every lane its own word of the line).
//  strided: lane l of warp w (w = SM index x warps per SM + warp id) on word
//  w x region_stride + (l mod k) x lane_stride (mod the buffer): the microbenchmark kernels'
//  own addresses (atomics.cu tp_kernel with one region per warp).
enum class Sharing { Same, K, Distinct, Pool, Mix, Line, Strided };

Activity activity_from_name(const std::string& s);  // "full", "bernoulli", "uniform", "first"
Sharing sharing_from_name(const std::string& s);    // "same", "k", "distinct", "pool", "mix", "line", "strided"
const char* name(Activity a);
const char* name(Sharing s);

struct GenConfig {
  uint64_t seed = 1;                 // std::mt19937_64 seed, recorded as the header's scene_seed
  uint64_t instructions = 10000;
  uint32_t sms = 4;
  uint32_t subcores_per_sm = 4;
  uint32_t warps_per_subcore = 4;    // warp id w lives on sub-core w % subcores_per_sm
  uint32_t buffer_words = 1u << 16;
  Activity activity = Activity::Bernoulli;
  double lane_prob = 0.75;
  uint32_t active = 32;              // first: active lanes per instruction (1..32)
  Sharing sharing = Sharing::Mix;
  uint32_t k = 4;
  uint32_t pool = 8;
  uint32_t region_stride = 1024;     // strided: words between consecutive warps' regions
  uint32_t lane_stride = 32;         // strided: words between consecutive lanes
  double p_same = 0.9;
  double value_sigma = 1e-3;         // values ~ normal(0, sigma)
  double special_prob = 0.0;         // per value: a subnormal, +-inf or NaN instead
  double gap_mean = 200;             // compute gaps ~ geometric with this mean (cycles)
  trace::Method method = trace::Method::SwS;  // baseline, sw-s or sw-b
  // SW-S: a group of >= threshold (and > 1) lanes is summed serially on the "GPU"; SW-B: the
  // whole warp by the butterfly when all active lanes share one address and >= threshold (> 1).
  uint32_t threshold = 2;
  fp::FtzMode reduce_ftz = fp::FtzMode::Keep;  // the "GPU" partial sums' adder mode
  // Write the timing-only form (header flag; no lane values, partial sums or final buffer):
  // the same instructions, addresses and gaps, for `arcsim sim` only.
  bool timing_only = false;
  // Each warp draws its lanes' addresses once and reuses them in every instruction (the
  // microbenchmark kernels' pattern: a thread adds to one fixed word); default: fresh each time.
  bool fixed_addresses = false;
  // The SM id of each of the `sms` SMs the warps run on (empty: 0..sms-1): where a GPU placed a
  // launch's blocks, so a replay finds them where the hardware had them (GPC sharing). The
  // header's SM count is then one past the largest id.
  std::vector<uint32_t> sm_ids;
};

trace::Header make_header(const GenConfig& cfg);

// The generator's flags (`arcsim trace gen --FLAG`, keys of a sweep's [trace.gen.NAME]) with
// their valid values: one table for the CLI, the sweep spec and generate()'s own check.
struct GenFlag {
  const char* flag;                  // long flag without "--", e.g. "gap-mean"
  enum Kind { Count, Real, Choice } kind;
  double min, max;                   // Count / Real, inclusive
  std::vector<std::string> choices;  // Choice
};
const std::vector<GenFlag>& gen_flags();
const GenFlag& gen_flag(const std::string& flag);  // throws arc::Error on an unknown flag
uint64_t count_max(const GenFlag& f);  // f.max as an integer (seed: UINT64_MAX)
// Checks one flag's value as text (decimal, finite, in range, or one of the choices); the
// message names it as `what` (default "--FLAG"). Throws arc::Error.
void check_gen_flag(const std::string& flag, const std::string& value, const std::string& what = "");
// Every field of a GenConfig in range (generate() calls it first). Throws arc::Error.
void validate(const GenConfig& cfg);

struct GenResult {
  uint64_t instructions = 0, lanes = 0, reduced_groups = 0, bytes = 0;
};

// Writes a whole synthetic trace to `path`, atomically (a temporary file renamed when complete,
// removed on an error or SIGINT/SIGTERM); progress(instructions done) is called now and then.
// Throws arc::Error on a bad config (method other than baseline/sw-s, empty buffer, ...).
GenResult generate(const GenConfig& cfg, const std::string& path, trace::WriterOptions opt = {},
                   const std::function<void(uint64_t)>& progress = {});

}  // namespace arc::tracegen
