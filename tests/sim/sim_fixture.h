// Shared by the timing-model tests: small seeded synthetic traces (arc::tracegen) written to
// the test's temporary folder, and a small GPU so that contention appears quickly.
#pragma once
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <string>

#include "gpu_config.h"
#include "params.h"
#include "trace.h"
#include "tracegen.h"

namespace arc::sim::testing {

// A path `name` in the tests' temporary folder (made if missing).
inline std::string tmp_file(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() / "arcsim-tests-sim";
  std::filesystem::create_directories(dir);
  return (dir / name).string();
}

// Writes the trace to the test's temporary folder and returns its path.
inline std::string synthetic_file(const std::string& tag, const tracegen::GenConfig& g) {
  const std::string path = tmp_file(tag + "-" + std::to_string(g.seed) + ".arctrace");
  tracegen::generate(g, path);
  return path;
}

inline trace::Trace synthetic(const std::string& tag, const tracegen::GenConfig& g) {
  return trace::read_trace(synthetic_file(tag, g));
}

// `active` lanes (0..active-1) of each instruction, each on its own word, no gaps, Baseline:
// per-lane requests back to back, so the path from LSU to ROP sets the pace.
inline tracegen::GenConfig first_lanes(uint32_t active, uint64_t seed, uint64_t instructions, uint32_t sms) {
  tracegen::GenConfig g;
  g.seed = seed;
  g.instructions = instructions;
  g.sms = sms;
  g.warps_per_subcore = 8;
  g.buffer_words = 1u << 20;
  g.activity = tracegen::Activity::First;
  g.active = active;
  g.sharing = tracegen::Sharing::Distinct;
  g.gap_mean = 0;
  g.method = trace::Method::Baseline;
  return g;
}

// Hot: 4 SMs x 4 sub-cores x 4 warps, mostly one address per warp, short gaps: ROP-bound.
inline tracegen::GenConfig hot(uint64_t instructions, uint64_t seed) {
  tracegen::GenConfig g;
  g.seed = seed;
  g.instructions = instructions;
  g.sms = 4;
  g.warps_per_subcore = 4;
  g.buffer_words = 4096;
  g.sharing = tracegen::Sharing::Mix;
  g.p_same = 0.7;
  g.k = 4;
  g.gap_mean = 20;
  g.special_prob = 0.0;
  return g;
}

// One reduce call of a warp: `np` records (params 0..np-1), the call's gap on its first, and
// kFlagFirstOfWarp on the warp's first record. push_call() appends them to t, each active lane
// l of param p on word addr(l, p) with value value(l, p) (a timing-only trace keeps 0).
struct CallSpec {
  uint32_t sm = 0, subcore = 0, warp = 0;
  uint32_t mask = 0xFFFFFFFFu, gap = 0, np = 1;
  bool first = false;  // the warp's first call
};
template <class Addr, class Value>
inline void push_call(trace::Trace& t, uint64_t& seq, const CallSpec& c, Addr addr, Value value) {
  for (uint32_t p = 0; p < c.np; ++p) {
    trace::Instr in;
    in.sm = c.sm;
    in.subcore = c.subcore;
    in.warp = c.warp;
    in.seq = seq++;
    in.active_mask = c.mask;
    in.gap = p == 0 ? c.gap : 0;
    in.flags = (p == 0 && c.first) ? trace::kFlagFirstOfWarp : 0;
    in.param = static_cast<uint8_t>(p);
    in.nparams = static_cast<uint8_t>(c.np);
    for (uint32_t l = 0; l < 32; ++l)
      if (c.mask >> l & 1) {
        in.addr[l] = addr(l, p);
        if (!t.header.timing_only) in.value[l] = value(l, p);
      }
    t.instrs.push_back(in);
  }
}

// A binary32 word's value (the memory image holds words).
inline double as_double(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return static_cast<double>(f);
}

inline RunSpec small_gpu() {
  RunSpec s;
  s.gpu = config::load_gpu("h100");
  s.gpu.sms = 4;
  s.gpu.rop_units = 8;
  s.gpu.rop_latency = 40;
  s.gpu.icnt_latency = 10;
  s.gpu.warps_per_subcore = 4;
  s.gpu.sw_overhead = 12;
  s.gpu.coalesce_bytes = 0;  // per-lane requests unless a test coalesces; knobs: the defaults, not h100.toml's [model]
  return s;
}

}  // namespace arc::sim::testing
