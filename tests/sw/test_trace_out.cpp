// Trace writing from capture records: what the GPU recorded is what a reader gets back.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <filesystem>

#include "error.h"
#include "trace.h"
#include "trace_out.h"

using namespace arc::sw;

namespace {

uint32_t bits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}

// A warp where lanes 0..7 update word 12, lanes 8..9 word 24, lane 31 word 5; SW-S reduced
// the first two groups (leaders 0 and 8).
arc::DevInstr sample(uint64_t seq, uint64_t gap) {
  arc::DevInstr d{};
  d.sm = 3;
  d.subcore = 2;
  d.warp = 77;
  d.flags = seq == 0 ? 1u : 0u;
  d.seq = seq;
  d.gap = gap;
  d.active = 0x800003ffu;
  float s0 = 0, s8 = 0;
  for (int l = 0; l < 32; ++l) {
    if (!((d.active >> l) & 1u)) {
      d.addr[l] = 0xdeadbeef;  // garbage outside the mask must not matter
      continue;
    }
    const float v = 0.25f * static_cast<float>(l + 1);
    d.addr[l] = l < 8 ? 12 : l < 10 ? 24 : 5;
    d.value[l] = bits(v);
    if (l < 8) s0 += v;
    else if (l < 10) s8 += v;
  }
  d.reduced = (1u << 0) | (1u << 8);
  d.psum[0] = bits(s0);
  d.psum[8] = bits(s8);
  return d;
}

std::string tmp_path(const char* name) {
  return (std::filesystem::temp_directory_path() / (std::string("arcsw_") + name)).string();
}

}  // namespace

TEST(SwTraceOut, MethodNames) {
  EXPECT_EQ(trace_method("baseline"), arc::trace::Method::Baseline);
  EXPECT_EQ(trace_method("sws"), arc::trace::Method::SwS);
  EXPECT_EQ(trace_method("swb"), arc::trace::Method::SwB);
  EXPECT_EQ(trace_method("cub"), arc::trace::Method::Cub);
  EXPECT_EQ(trace_method("adaptive"), arc::trace::Method::Adaptive);
  EXPECT_THROW(trace_method("x"), arc::Error);
}

TEST(SwTraceOut, InstrConversionAndGapClamp) {
  const auto in = to_instr(sample(0, 123));
  EXPECT_EQ(in.sm, 3u);
  EXPECT_EQ(in.subcore, 2u);
  EXPECT_EQ(in.warp, 77u);
  EXPECT_EQ(in.gap, 123u);
  EXPECT_EQ(in.flags, arc::trace::kFlagFirstOfWarp);
  EXPECT_EQ(in.addr[9], 24u);
  EXPECT_EQ(in.addr[20], 0u);  // inactive lanes zeroed
  const auto big = to_instr(sample(1, 1ull << 40));
  EXPECT_EQ(big.gap, 0xffffffffu);
  EXPECT_EQ(big.flags, arc::trace::kFlagGapClamped);
}

TEST(SwTraceOut, RoundTrip) {
  const std::string path = tmp_path("roundtrip.arctrace");
  std::vector<arc::DevInstr> recs{sample(0, 10), sample(1, 20), sample(2, 30)};
  std::vector<float> buf(32, 0.0f);
  buf[12] = 9.0f;
  buf[5] = -1.5f;
  TraceInfo info;
  info.gpu_name = "NVIDIA H100 80GB HBM3";
  info.sm_count = 132;
  info.kernel_name = "gs::backward_kernel";
  info.method = "sws";
  info.threshold = 2;
  info.generator = "gauss-frustum-v1";
  info.seed = 42;
  info.meta = {{"frame", "32x32"}};
  const TraceStats st = write_capture(path, info, recs, buf);
  EXPECT_EQ(st.instructions, 3u);
  EXPECT_EQ(st.lanes, 3u * 11u);
  const auto t = arc::trace::read_trace(path);
  EXPECT_EQ(t.header.gpu_name, info.gpu_name);
  EXPECT_EQ(t.header.sm_count, 132u);
  EXPECT_EQ(t.header.method, arc::trace::Method::SwS);
  EXPECT_EQ(t.header.balancing_threshold, 2u);
  EXPECT_EQ(t.header.scene_seed, 42u);
  EXPECT_EQ(t.header.buffer_words, 32u);
  EXPECT_EQ(t.header.reduce_ftz, 0u);
  ASSERT_EQ(t.instrs.size(), 3u);
  for (size_t i = 0; i < recs.size(); ++i) EXPECT_TRUE(arc::trace::same_content(t.instrs[i], to_instr(recs[i])));
  EXPECT_EQ(t.instrs[1].partial_sum[8], recs[1].psum[8]);
  ASSERT_EQ(t.final_buffer.size(), 32u);
  EXPECT_EQ(t.final_buffer[12], bits(9.0f));
  bool has_method = false;
  for (const auto& kv : t.header.metadata) has_method |= kv.first == "arc_method" && kv.second == "sws";
  EXPECT_TRUE(has_method);
  std::remove(path.c_str());
}

TEST(SwTraceOut, InvalidRecordIsRejected) {
  const std::string path = tmp_path("bad.arctrace");
  auto d = sample(0, 1);
  d.addr[3] = 1000;  // beyond the 32-word buffer
  TraceInfo info;
  info.method = "baseline";
  EXPECT_THROW(write_capture(path, info, {d}, std::vector<float>(32)), arc::Error);
  auto e = sample(0, 1);
  e.active = 0;
  EXPECT_THROW(write_capture(path, info, {e}, std::vector<float>(32)), arc::Error);
  std::remove(path.c_str());
}

// kFlagTreeSum: set where the butterfly made the partial sums (SW-B; Adaptive's uniform warps).
TEST(TraceOut, TreeSumFlag) {
  const arc::DevInstr multi = sample(1, 10);  // three addresses, two reduced groups
  EXPECT_EQ(to_instr(multi, "sws").flags & arc::trace::kFlagTreeSum, 0u);
  EXPECT_EQ(to_instr(multi, "adaptive").flags & arc::trace::kFlagTreeSum, 0u);  // serial path
  EXPECT_EQ(to_instr(multi, "cub").flags & arc::trace::kFlagTreeSum, 0u);      // CUB's own order
  arc::DevInstr uni = multi;
  for (int l = 0; l < 32; ++l) uni.addr[l] = 12;
  uni.reduced = 1u;
  EXPECT_NE(to_instr(uni, "adaptive").flags & arc::trace::kFlagTreeSum, 0u);
  EXPECT_NE(to_instr(uni, "swb").flags & arc::trace::kFlagTreeSum, 0u);
  uni.reduced = 0;  // per-lane atomics: no sums, no flag
  EXPECT_EQ(to_instr(uni, "adaptive").flags & arc::trace::kFlagTreeSum, 0u);
  EXPECT_EQ(to_instr(uni, "swb").flags & arc::trace::kFlagTreeSum, 0u);
}
