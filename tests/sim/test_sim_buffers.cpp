// The SM-side atomic buffers the ARC paper compares with (issue 19; l1_atomic_buffer.h): LAB,
// LAB-ideal and PHI. Hits are absorbed in the buffer, capacity misses evict and are counted,
// the end-of-run flush sends every buffered word, the image equals the trace's sum within the
// summation-order bound, LAB-ideal is at least as fast as LAB on a contended trace, and bad
// knob values are refused with one line. Every run is a child process (run_isolated).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <map>
#include <systemc>

#include "error.h"
#include "l1_atomic_buffer.h"
#include "run.h"
#include "sim_fixture.h"

namespace arc::sim {
namespace {

using testing::hot;
using testing::small_gpu;
using testing::as_double;
using testing::synthetic;

RunSpec buffered(Mode m, int64_t l1_bytes) {
  RunSpec s = small_gpu();
  s.mode = m;
  s.gpu.l1_sram_bytes = l1_bytes;
  return s;
}

// Every word of the image within 2 (n-1) 2^-24 sum|v| + n 2^-126 of the trace's exact sum.
void expect_image_is_the_sum(const trace::Trace& t, const RunResult& r) {
  std::map<uint32_t, double> sum, abs_sum;
  std::map<uint32_t, uint32_t> n;
  for (const auto& in : t.instrs)
    for (uint32_t m = in.active_mask; m; m &= m - 1) {
      const int l = __builtin_ctz(m);
      sum[in.addr[l]] += as_double(in.value[l]);
      abs_sum[in.addr[l]] += std::fabs(as_double(in.value[l]));
      ++n[in.addr[l]];
    }
  ASSERT_EQ(r.image.size(), t.header.buffer_words);
  for (uint32_t w = 0; w < r.image.size(); ++w) {
    const uint32_t k = n.count(w) ? n[w] : 0;
    const double bound = 2.0 * (k ? k - 1 : 0) * 0x1.0p-24 * abs_sum[w] + k * 0x1.0p-126;
    ASSERT_LE(std::fabs(as_double(r.image[w]) - sum[w]), bound) << r.label << " word " << w;
  }
}

uint64_t lanes_of(const trace::Trace& t) {
  uint64_t n = 0;
  for (const auto& in : t.instrs) n += static_cast<uint64_t>(__builtin_popcount(in.active_mask));
  return n;
}

TEST(SimBuffers, HitsAbsorbAndTheFlushSendsEveryWord) {
  const trace::Trace t = synthetic("buf-hits", hot(3000, 11));
  for (Mode m : {Mode::LabIdeal, Mode::Lab, Mode::Phi}) {
    const RunResult r = run_isolated(buffered(m, 256 * 1024), t);  // 4096 words fit: no eviction
    const Stats& s = r.stats;
    EXPECT_EQ(s.buffer_evictions, 0u) << r.label;
    EXPECT_GT(s.buffer_hits, s.buffer_misses) << r.label;  // a hot trace: most updates find their word
    EXPECT_EQ(s.buffer_lookups, lanes_of(t)) << r.label;
    EXPECT_EQ(s.buffer_flushed, s.buffer_misses) << r.label;  // every allocated line leaves at the end
    EXPECT_EQ(s.lane_adds_in_core, 0u) << r.label;
    EXPECT_EQ(s.rop_ops + s.lane_adds_in_buffer, s.lane_updates) << r.label;
    EXPECT_EQ(s.rop_ops, s.buffer_words_sent) << r.label;  // L2 sees only the buffers' partial sums
    EXPECT_LT(s.rop_ops, s.lane_updates / 4) << r.label;
    expect_image_is_the_sum(t, r);
  }
}

TEST(SimBuffers, CapacityMissesEvictAndAreCounted) {
  const trace::Trace t = synthetic("buf-evict", hot(3000, 12));
  RunSpec lab = buffered(Mode::Lab, 1024);  // 50% of 1 KB at 8 B per entry: 64 words per SM
  ASSERT_EQ(buffer_geometry(Mode::Lab, lab.gpu, lab.knobs).lines, 64u);
  RunSpec phi = buffered(Mode::Phi, 1024);  // 8 lines of 32 words
  ASSERT_EQ(buffer_geometry(Mode::Phi, phi.gpu, phi.knobs).lines, 8u);
  for (const RunSpec& spec : {lab, phi}) {
    const RunResult r = run_isolated(spec, t);
    const Stats& s = r.stats;
    EXPECT_GT(s.buffer_evictions, 0u) << r.label;
    EXPECT_EQ(s.buffer_misses, s.buffer_evictions + s.buffer_flushed) << r.label;  // every line leaves once
    EXPECT_LE(s.buffer_flushed, 4u * 64u) << r.label;  // at most a full buffer per SM at the end
    EXPECT_EQ(s.rop_ops + s.lane_adds_in_buffer, s.lane_updates) << r.label;
    expect_image_is_the_sum(t, r);
  }
  // Less room, more evictions.
  lab.knobs.lab_partition_pct = 100;
  const RunResult big = run_isolated(lab, t);
  lab.knobs.lab_partition_pct = 10;
  const RunResult small = run_isolated(lab, t);
  EXPECT_GT(small.stats.buffer_evictions, big.stats.buffer_evictions);
}

TEST(SimBuffers, LabIdealAtLeastAsFastAsLabOnAContendedTrace) {
  tracegen::GenConfig g = hot(3000, 13);
  g.gap_mean = 2;  // the buffer pipeline, not compute, sets the pace
  const trace::Trace t = synthetic("buf-contended", g);
  const RunResult lab = run_isolated(buffered(Mode::Lab, 4096), t);
  const RunResult ideal = run_isolated(buffered(Mode::LabIdeal, 4096), t);
  // LAB: 50% of 4 KB at 8 B an entry = 256 words per SM; LAB-ideal: the whole SRAM, 1024 words.
  EXPECT_GT(lab.stats.buffer_evictions, ideal.stats.buffer_evictions);
  EXPECT_LT(ideal.stats.total_cycles, lab.stats.total_cycles);
  EXPECT_LT(ideal.stats.atomic_stall_cycles, lab.stats.atomic_stall_cycles);
}

std::string error_of(const RunSpec& s) {
  try {
    validate(s);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(SimBuffers, BadValuesGiveOneLine) {
  RunSpec s = buffered(Mode::Lab, 1024);
  for (const char* kv : {"lab_partition_pct=0", "lab_partition_pct=101", "phi_line_bytes=256", "sram_banks=0"}) {
    RunSpec c = s;
    try {
      apply_set(c, kv);
      validate(c);
      ADD_FAILURE() << kv << " accepted";
    } catch (const Error& e) {
      EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find(std::string(kv).substr(0, std::string(kv).find('='))), std::string::npos)
          << e.what();
    }
  }
  RunSpec c = s;
  apply_set(c, "phi_line_bytes=48");
  c.mode = Mode::Phi;
  EXPECT_NE(error_of(c).find("power of two"), std::string::npos);
  c = s;
  c.fidelity = Fidelity::Rtl;
  EXPECT_NE(error_of(c).find("--fidelity rtl"), std::string::npos);
  c = s;
  c.gpu.l1_sram_bytes = 0;
  EXPECT_NE(error_of(c).find("l1_sram_bytes"), std::string::npos);
  c = s;
  c.knobs.smem_bytes_per_sm = 1024;
  EXPECT_NE(error_of(c).find("smem_bytes_per_sm"), std::string::npos);
  c.mode = Mode::LabIdeal;  // a separate SRAM: shared memory does not take from it
  EXPECT_EQ(error_of(c), "");
  c = s;
  c.knobs.lab_entry_bytes = 64;
  c.gpu.l1_sram_bytes = 100;
  EXPECT_NE(error_of(c).find("no entry"), std::string::npos);
}

}  // namespace
}  // namespace arc::sim

int sc_main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
