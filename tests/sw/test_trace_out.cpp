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

// A call of 3 parameters (stride 1) where lanes 0..7 update word 12, lanes 8..9 word 24, lane
// 31 word 5 (param 0); SW-S reduced the first two groups (leaders 0 and 8).
arc::DevCall sample(uint64_t seq, uint64_t gap) {
  arc::DevCall d{};
  d.sm = 3;
  d.hw_warp = 6;  // sub-core 2
  d.warp = 77;
  d.flags = seq == 0 ? 1u : 0u;
  d.seq = seq;
  d.gap = gap;
  d.active = 0x800003ffu;
  d.nparams = 3;
  d.stride = 1;
  for (int p = 0; p < 3; ++p) {
    float s0 = 0, s8 = 0;
    for (int l = 0; l < 32; ++l) {
      if (!((d.active >> l) & 1u)) {
        d.addr[l] = 0xdeadbeef;  // garbage outside the mask must not matter
        continue;
      }
      const float v = 0.25f * static_cast<float>(l + 1) + static_cast<float>(p);
      d.addr[l] = l < 8 ? 12 : l < 10 ? 24 : 5;
      d.value[p][l] = bits(v);
      if (l < 8) s0 += v;
      else if (l < 10) s8 += v;
    }
    d.psum[p][0] = bits(s0);
    d.psum[p][8] = bits(s8);
  }
  d.reduced = (1u << 0) | (1u << 8);
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

TEST(SwTraceOut, CallConversionAndGapClamp) {
  const auto in = to_instrs(sample(0, 123));
  ASSERT_EQ(in.size(), 3u);
  EXPECT_EQ(in[0].sm, 3u);
  EXPECT_EQ(in[0].subcore, 2u);
  EXPECT_EQ(in[0].warp, 77u);
  EXPECT_EQ(in[0].gap, 123u);
  EXPECT_EQ(in[0].flags, arc::trace::kFlagFirstOfWarp);
  EXPECT_EQ(in[0].addr[9], 24u);
  EXPECT_EQ(in[2].addr[9], 26u);  // param 2 at + 2 x stride
  EXPECT_EQ(in[2].value[9], sample(0, 0).value[2][9]);
  EXPECT_EQ(in[1].partial_sum[8], sample(0, 0).psum[1][8]);
  EXPECT_EQ(in[1].gap, 0u);  // the call's gap belongs to param 0
  EXPECT_EQ(in[1].flags, 0u);
  EXPECT_EQ(in[2].seq, 2u);
  EXPECT_EQ(in[0].addr[20], 0u);  // inactive lanes zeroed
  const auto big = to_instrs(sample(1, 1ull << 40));
  EXPECT_EQ(big[0].gap, 0xffffffffu);
  EXPECT_EQ(big[0].flags, arc::trace::kFlagGapClamped);
  EXPECT_EQ(big[0].seq, 3u);
  auto bad = sample(0, 1);
  bad.nparams = 0;
  EXPECT_THROW(to_instrs(bad), arc::Error);
}

// A capture's two record arrays (arc::TraceRecorder::Result) from whole records.
struct Split {
  std::vector<arc::DevCallHead> heads;
  std::vector<arc::DevCallValues> values;
  explicit Split(const std::vector<arc::DevCall>& recs) {
    for (const arc::DevCall& d : recs) {
      heads.push_back(d);
      values.push_back(d);
    }
  }
};

TEST(SwTraceOut, RoundTripInIssueOrderWithLaunchShape) {
  const std::string path = tmp_path("roundtrip.arctrace");
  // Two warps' slot ranges: warp 0 at slots 0..3 (2 calls), warp 1 at 4..5 (1 call).
  std::vector<arc::DevCall> recs(6);
  recs[0] = sample(0, 10);
  recs[1] = sample(1, 20);
  recs[4] = sample(0, 30);
  recs[4].warp = 78;
  recs[4].hw_warp = 41;
  const std::vector<uint64_t> first{0, 4, 6}, calls{2, 1};
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
  info.grid_blocks = 510;
  info.threads_per_block = 256;
  info.meta = {{"frame", "32x32"}};
  const Split split(recs);
  const TraceStats st = write_capture(path, info, CaptureRecords{split.heads, split.values, first, calls}, buf);
  EXPECT_EQ(st.instructions, 9u);
  EXPECT_EQ(st.lanes, 9u * 11u);
  const auto t = arc::trace::read_trace(path);
  EXPECT_EQ(t.header.gpu_name, info.gpu_name);
  EXPECT_EQ(t.header.sm_count, 132u);
  EXPECT_EQ(t.header.method, arc::trace::Method::SwS);
  EXPECT_EQ(t.header.balancing_threshold, 2u);
  EXPECT_EQ(t.header.scene_seed, 42u);
  EXPECT_EQ(t.header.buffer_words, 32u);
  EXPECT_EQ(t.header.reduce_ftz, 0u);
  EXPECT_EQ(t.header.grid_blocks, 510u);
  EXPECT_EQ(t.header.threads_per_block, 256u);
  EXPECT_EQ(t.header.resident_warps_per_sm, 42u);  // largest %warpid + 1
  ASSERT_EQ(t.instrs.size(), 9u);
  std::vector<arc::trace::Instr> want;
  // Both warps fit one wave (132 SMs x 42 resident warps): call 0 of each, then call 1.
  for (int i : {0, 4, 1})
    for (const auto& in : to_instrs(recs[static_cast<size_t>(i)])) want.push_back(in);
  for (size_t i = 0; i < want.size(); ++i) EXPECT_TRUE(arc::trace::same_content(t.instrs[i], want[i])) << i;
  ASSERT_EQ(t.final_buffer.size(), 32u);
  EXPECT_EQ(t.final_buffer[12], bits(9.0f));
  bool has_method = false;
  for (const auto& kv : t.header.metadata) has_method |= kv.first == "arc_method" && kv.second == "sws";
  EXPECT_TRUE(has_method);
  // The full form needs every record's values.
  const std::vector<arc::DevCallValues> none;
  EXPECT_THROW(write_capture(path, info, CaptureRecords{split.heads, none, first, calls}, buf), arc::Error);
  // The timing-only form of the same capture, from the heads alone (what a timing-only
  // recording pass keeps): same addresses, masks and gaps; no values, partial sums or final
  // buffer.
  info.timing_only = true;
  const TraceStats tt = write_capture(path, info, CaptureRecords{split.heads, none, first, calls}, buf);
  EXPECT_EQ(tt.instructions, 9u);
  EXPECT_LT(tt.bytes, st.bytes);
  const auto t2 = arc::trace::read_trace(path);
  EXPECT_TRUE(t2.header.timing_only);
  EXPECT_TRUE(t2.final_buffer.empty());
  ASSERT_EQ(t2.instrs.size(), 9u);
  for (size_t i = 0; i < t2.instrs.size(); ++i) {
    EXPECT_EQ(t2.instrs[i].addr, t.instrs[i].addr) << i;
    EXPECT_EQ(t2.instrs[i].active_mask, t.instrs[i].active_mask) << i;
    EXPECT_EQ(t2.instrs[i].gap, t.instrs[i].gap) << i;
    for (uint32_t v : t2.instrs[i].value) EXPECT_EQ(v, 0u) << i;
  }
  std::remove(path.c_str());
}

TEST(SwTraceOut, InvalidRecordIsRejected) {
  const std::string path = tmp_path("bad.arctrace");
  const std::vector<uint64_t> first{0, 1}, calls{1};
  TraceInfo info;
  info.method = "baseline";
  std::vector<arc::DevCall> d{sample(0, 1)};
  d[0].addr[3] = 1000;  // beyond the 32-word buffer
  const Split sd(d);
  EXPECT_THROW(write_capture(path, info, CaptureRecords{sd.heads, sd.values, first, calls}, std::vector<float>(32)),
               arc::Error);
  std::vector<arc::DevCall> e{sample(0, 1)};
  e[0].active = 0;
  const Split se(e);
  EXPECT_THROW(write_capture(path, info, CaptureRecords{se.heads, se.values, first, calls}, std::vector<float>(32)),
               arc::Error);
  std::remove(path.c_str());
}

// kFlagTreeSum: set where the butterfly made the partial sums (SW-B; Adaptive's uniform warps);
// kFlagGroupTreeSum where Adaptive's group tree did (rule v4: its other reduced groups).
TEST(TraceOut, TreeSumFlag) {
  using arc::trace::kFlagGroupTreeSum;
  const arc::DevCall multi = sample(1, 10);  // three addresses, two reduced groups
  EXPECT_EQ(to_instrs(multi, "sws")[0].flags & (arc::trace::kFlagTreeSum | kFlagGroupTreeSum), 0u);  // serial
  EXPECT_EQ(to_instrs(multi, "adaptive")[0].flags & arc::trace::kFlagTreeSum, 0u);
  EXPECT_NE(to_instrs(multi, "adaptive")[1].flags & kFlagGroupTreeSum, 0u);  // group tree
  EXPECT_EQ(to_instrs(multi, "cub")[0].flags & arc::trace::kFlagTreeSum, 0u);      // CUB's own order
  arc::DevCall uni = multi;
  for (int l = 0; l < 32; ++l) uni.addr[l] = 12;
  uni.reduced = 1u;
  EXPECT_NE(to_instrs(uni, "adaptive")[2].flags & arc::trace::kFlagTreeSum, 0u);
  EXPECT_NE(to_instrs(uni, "swb")[0].flags & arc::trace::kFlagTreeSum, 0u);
  EXPECT_EQ(to_instrs(uni, "adaptive")[2].flags & kFlagGroupTreeSum, 0u);
  // A one-address call of a divergent caller (DevCall flags bit 1) is one group: the group
  // tree, not the butterfly (rule v2/v3 summed it serially).
  arc::DevCall div = uni;
  div.flags |= 2u;
  EXPECT_EQ(to_instrs(div, "adaptive")[0].flags & arc::trace::kFlagTreeSum, 0u);
  EXPECT_NE(to_instrs(div, "adaptive")[0].flags & kFlagGroupTreeSum, 0u);
  EXPECT_EQ(to_instrs(div, "adaptive")[0].flags & ~arc::trace::kFlagsDefined, 0u);
  // Issue 23: gsplat's cg::reduce and the transposed reduce-scatter sum the butterfly's pairs.
  EXPECT_NE(to_instrs(uni, "gsplat")[0].flags & arc::trace::kFlagTreeSum, 0u);
  EXPECT_NE(to_instrs(uni, "swt")[1].flags & arc::trace::kFlagTreeSum, 0u);
  EXPECT_EQ(trace_method("gsplat"), arc::trace::Method::SwB);
  EXPECT_EQ(trace_method("swt"), arc::trace::Method::SwT);
  // Issue 17: the traced floor is Baseline's calls (timing-only, no atomics issued).
  EXPECT_EQ(trace_method("floor"), arc::trace::Method::Baseline);
  EXPECT_THROW(trace_method("baseline-noatomic"), arc::Error);
  EXPECT_THROW(trace_method("no-such-method"), arc::Error);
  // Issue 20, rule v5: Adaptive's pair instruction (DevCall bit 4) carries the pair order, not
  // the group tree; a pair call's plain records (bit 5) are marked as such.
  arc::DevCall pair = multi;
  pair.flags |= arc::kDevPairSum;
  for (const auto& in : to_instrs(pair, "adaptive")) {
    EXPECT_NE(in.flags & arc::trace::kFlagPairSum, 0u);
    EXPECT_EQ(in.flags & (arc::trace::kFlagTreeSum | kFlagGroupTreeSum | arc::trace::kFlagPairCall), 0u);
  }
  arc::DevCall plain = multi;
  plain.reduced = 0;
  plain.flags |= arc::kDevPairCall;
  for (const auto& in : to_instrs(plain, "baseline")) {
    EXPECT_NE(in.flags & arc::trace::kFlagPairCall, 0u);
    EXPECT_EQ(in.flags & arc::trace::kFlagPairSum, 0u);
  }
  EXPECT_EQ(to_instrs(multi, "baseline")[0].flags & (arc::trace::kFlagPairCall | arc::trace::kFlagPairSum), 0u);
  uni.reduced = 0;  // per-lane atomics: no sums, no flag
  EXPECT_EQ(to_instrs(uni, "adaptive")[0].flags & (arc::trace::kFlagTreeSum | kFlagGroupTreeSum), 0u);
  EXPECT_EQ(to_instrs(uni, "swb")[0].flags & arc::trace::kFlagTreeSum, 0u);
}
