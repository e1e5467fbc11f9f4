// The trace format: write -> read gives back the same content (many seeds, edge values, any
// block size), rewriting is byte-identical, the generator is deterministic and plays the GPU
// correctly, the writer refuses invalid instructions, and trace stats count right.
#include <gtest/gtest.h>

#include <map>
#include <array>
#include <random>

#include "error.h"
#include "fp32_ref.h"
#include "trace_stats.h"
#include "test_util.h"
#include "trace.h"
#include "tracegen.h"

namespace arc::trace {
namespace {

using testing::read_bytes;
using testing::tmp_path;

// Random instructions that hit the format's edges: huge seq/warp ids, the largest SM id a
// header allows (FORMAT.md "Header ranges"), maximal gaps,
// every mask density, address jumps both ways, reduced groups with arbitrary sums.
Trace random_trace(uint64_t seed) {
  std::mt19937_64 g(seed);
  Trace t;
  t.header.gpu_name = "gpu-" + std::to_string(g() % 1000);
  t.header.sm_count = detail::kMaxSms;  // the largest the format allows: SM ids up to 4095
  t.header.subcores_per_sm = 4;
  t.header.kernel_name = std::string(g() % 40, 'k');
  t.header.method = static_cast<Method>(g() % 6);
  t.header.balancing_threshold = static_cast<uint32_t>(g() % 33);
  t.header.scene_generator = "scene\n\x01";
  t.header.scene_seed = g();
  t.header.buffer_words = 1 + g() % 5000;
  t.header.reduce_ftz = g() % 2;
  t.header.gap_unit = static_cast<GapUnit>(g() % 2);
  for (int i = 0, n = static_cast<int>(g() % 4); i < n; ++i)
    t.header.metadata.emplace_back("key" + std::to_string(i), std::string(g() % 20, 'v'));
  const int n = static_cast<int>(g() % 3000);
  for (int i = 0; i < n; ++i) {
    Instr in;
    in.sm = (g() % 4 == 0) ? static_cast<uint32_t>(g() % detail::kMaxSms) : static_cast<uint32_t>(g() % 8);
    in.subcore = static_cast<uint32_t>(g() % 4);
    in.warp = (g() % 4 == 0) ? static_cast<uint32_t>(g()) : static_cast<uint32_t>(g() % 48);
    in.seq = (g() % 8 == 0) ? g() : static_cast<uint64_t>(i / 7);
    const int density = static_cast<int>(g() % 4);
    in.active_mask = density == 0 ? 0xFFFFFFFFu : density == 1 ? 1u << (g() % 32) : static_cast<uint32_t>(g());
    if (in.active_mask == 0) in.active_mask = 0x80000000u;
    in.gap = (g() % 8 == 0) ? 0xFFFFFFFFu : static_cast<uint32_t>(g() % 1000);
    in.flags = static_cast<uint32_t>(g() % 4) | (g() % 3 == 0 ? kFlagTreeSum : g() % 3 == 0 ? kFlagOpaqueSum : 0);
    const uint64_t W = t.header.buffer_words;
    const uint32_t base = static_cast<uint32_t>(g() % W);
    for (int l = 0; l < kLanes; ++l) {
      in.addr[l] = (g() % 3 == 0) ? static_cast<uint32_t>(g() % W) : base;
      in.value[l] = static_cast<uint32_t>(g());
      in.partial_sum[l] = static_cast<uint32_t>(g());  // garbage outside reduced leaders
    }
    for (int l = 0; l < kLanes; ++l) {  // reduce some groups: bit only on leaders
      if (!(in.active_mask >> l & 1) || g() % 2) continue;
      bool leader = true;
      for (int k = 0; k < l; ++k) leader &= !((in.active_mask >> k & 1) && in.addr[k] == in.addr[l]);
      if (leader) in.reduced_mask |= 1u << l;
    }
    t.instrs.push_back(in);
  }
  for (uint64_t i = 0; i < t.header.buffer_words; ++i) t.final_buffer.push_back(static_cast<uint32_t>(g()));
  return t;
}

bool same_header(const Header& a, const Header& b) {
  return a.gpu_name == b.gpu_name && a.sm_count == b.sm_count && a.subcores_per_sm == b.subcores_per_sm &&
         a.kernel_name == b.kernel_name && a.method == b.method && a.balancing_threshold == b.balancing_threshold &&
         a.scene_generator == b.scene_generator && a.scene_seed == b.scene_seed && a.buffer_words == b.buffer_words &&
         a.reduce_ftz == b.reduce_ftz && a.gap_unit == b.gap_unit && a.metadata == b.metadata;
}

TEST(TraceFormat, RoundTripRandomInstructionsManySeeds) {
  int passed = 0, failed = 0;
  for (uint64_t seed = 1; seed <= 60; ++seed) {
    const Trace t = random_trace(seed);
    const std::string path = tmp_path(std::to_string(seed));
    WriterOptions o;
    o.records_per_block = 1 + static_cast<uint32_t>(seed * 37 % 700);
    write_trace(path, t, o);
    const Trace r = read_trace(path);
    bool ok = same_header(t.header, r.header) && r.instrs.size() == t.instrs.size() && r.final_buffer == t.final_buffer;
    for (size_t i = 0; ok && i < t.instrs.size(); ++i) ok = same_content(t.instrs[i], r.instrs[i]);
    EXPECT_TRUE(ok) << "seed " << seed;
    (ok ? passed : failed)++;
    std::remove(path.c_str());
  }
  std::printf("round trip, random instructions: %d passed, %d failed\n", passed, failed);
}

TEST(TraceFormat, RoundTripGeneratedTracesRewriteByteIdentical) {
  int passed = 0, failed = 0;
  const char* acts[] = {"full", "bernoulli", "uniform"};
  const char* shares[] = {"same", "k", "distinct", "pool", "mix"};
  for (uint64_t seed = 1; seed <= 30; ++seed) {
    tracegen::GenConfig c;
    c.seed = seed;
    c.instructions = 500 + seed * 50;
    c.buffer_words = 64 + static_cast<uint32_t>(seed * 97);
    c.activity = tracegen::activity_from_name(acts[seed % 3]);
    c.sharing = tracegen::sharing_from_name(shares[seed % 5]);
    c.method = seed % 4 == 0 ? Method::Baseline : Method::SwS;
    c.reduce_ftz = seed % 2 ? fp::FtzMode::Flush : fp::FtzMode::Keep;
    c.special_prob = seed % 3 == 0 ? 0.05 : 0.0;
    WriterOptions o;
    o.records_per_block = 100 + static_cast<uint32_t>(seed);
    const std::string a = tmp_path("a" + std::to_string(seed)), b = tmp_path("b" + std::to_string(seed));
    tracegen::generate(c, a, o);
    const Trace t = read_trace(a);
    write_trace(b, t, o);
    const bool ok = t.instrs.size() == c.instructions && read_bytes(a) == read_bytes(b);
    EXPECT_TRUE(ok) << "seed " << seed;
    (ok ? passed : failed)++;
    std::remove(a.c_str());
    std::remove(b.c_str());
  }
  std::printf("round trip, generated traces rewritten byte for byte: %d passed, %d failed\n", passed, failed);
}

TEST(TraceFormat, GeneratorSameSeedSameBytes) {
  tracegen::GenConfig c;
  c.instructions = 20000;
  c.seed = 42;
  const std::string a = tmp_path("a"), b = tmp_path("b"), d = tmp_path("d");
  tracegen::generate(c, a);
  tracegen::generate(c, b);
  c.seed = 43;
  tracegen::generate(c, d);
  const auto ba = read_bytes(a);
  EXPECT_GT(ba.size(), 1000u);
  EXPECT_EQ(ba, read_bytes(b));
  EXPECT_NE(ba, read_bytes(d));
  EXPECT_EQ(read_trace(a).header.scene_seed, 42u);
}

// --fixed-addresses: a warp's lane l adds to the same word in every instruction it is active in
// (the microbenchmark kernels' pattern); without it the words are drawn afresh.
TEST(TraceFormat, GeneratorFixedAddressesPerWarp) {
  for (bool fixed : {false, true}) {
    tracegen::GenConfig c;
    c.instructions = 4000;
    c.sms = 2;
    c.warps_per_subcore = 2;
    c.sharing = tracegen::Sharing::Distinct;  // Bernoulli lanes: a lane may first appear late
    c.fixed_addresses = fixed;
    const std::string path = tmp_path(fixed ? "fixed" : "fresh");
    tracegen::generate(c, path);
    const trace::Trace t = read_trace(path);
    std::map<std::pair<uint32_t, uint32_t>, std::array<int64_t, 32>> first;
    size_t same = 0, differ = 0;
    for (const auto& in : t.instrs) {
      auto [it, added] = first.try_emplace({in.sm, in.warp});
      if (added) it->second.fill(-1);
      for (int l = 0; l < 32; ++l) {
        if (!(in.active_mask >> l & 1)) continue;
        int64_t& a = it->second[l];
        if (a < 0) a = in.addr[l];
        else (a == in.addr[l] ? same : differ)++;
      }
    }
    EXPECT_EQ(first.size(), 16u);
    if (fixed) {
      EXPECT_EQ(differ, 0u);
      EXPECT_GT(same, 50000u);
    } else {
      EXPECT_GT(differ, 50000u);
    }
  }
}

// The generator plays the GPU: partial sums are serial add_ref sums in the header's FTZ
// mode; the final buffer is the FTZ=1 replay of what the method sends, in trace order.
TEST(TraceFormat, GeneratorPartialSumsAndFinalBuffer) {
  for (auto ftz : {fp::FtzMode::Keep, fp::FtzMode::Flush}) {
    tracegen::GenConfig c;
    c.instructions = 5000;
    c.buffer_words = 300;
    c.reduce_ftz = ftz;
    c.special_prob = 0.02;
    c.value_sigma = 1e-37;  // near the subnormal range, so FTZ matters
    c.threshold = 3;
    const std::string path = tmp_path(std::to_string(static_cast<int>(ftz)));
    tracegen::generate(c, path);
    const Trace t = read_trace(path);
    EXPECT_EQ(t.header.reduce_ftz, static_cast<uint8_t>(ftz));
    std::vector<uint32_t> mem(c.buffer_words, 0);
    uint64_t checked = 0;
    for (const Instr& in : t.instrs) {
      uint32_t done = 0;
      for (int lead = 0; lead < kLanes; ++lead) {
        if (!(in.active_mask >> lead & 1) || (done >> lead & 1)) continue;
        uint32_t group = 0;
        for (int l = lead; l < kLanes; ++l)
          if ((in.active_mask >> l & 1) && in.addr[l] == in.addr[lead]) group |= 1u << l;
        done |= group;
        const bool reduced = in.reduced_mask >> lead & 1;
        ASSERT_EQ(reduced, __builtin_popcount(group) >= 3);
        if (reduced) {
          uint32_t acc = in.value[lead];
          for (int l = lead + 1; l < kLanes; ++l)
            if (group >> l & 1) acc = fp::add_ref(acc, in.value[l], ftz);
          ASSERT_EQ(acc, in.partial_sum[lead]);
          mem[in.addr[lead]] = fp::add_ref(mem[in.addr[lead]], acc, fp::FtzMode::Flush);
          ++checked;
        } else {
          for (int l = lead; l < kLanes; ++l)
            if (group >> l & 1) mem[in.addr[l]] = fp::add_ref(mem[in.addr[l]], in.value[l], fp::FtzMode::Flush);
        }
      }
    }
    EXPECT_GT(checked, 1000u);
    EXPECT_EQ(mem, t.final_buffer);
  }
}

TEST(TraceFormat, WriterFlushesBlocksWhileStreaming) {
  Header h;
  h.sm_count = 1;  // 1..4096 (FORMAT.md "Header ranges"; the default 0 is not a valid header)
  h.buffer_words = 16;
  WriterOptions o;
  o.records_per_block = 100;
  const std::string path = tmp_path("s");
  Writer w(path, h, o);
  Instr in;
  in.active_mask = 1;
  for (int i = 0; i < 99; ++i) w.write(in);
  const uint64_t before = w.bytes_written();
  w.write(in);  // the 100th record completes a block, which goes to the file now
  EXPECT_GT(w.bytes_written(), before);
  w.finish(std::vector<uint32_t>(16, 0));
  EXPECT_EQ(read_trace(path).instrs.size(), 100u);
}

TEST(TraceFormat, WriterRejectsInvalidInstructions) {
  Header h;
  h.buffer_words = 16;
  h.sm_count = 2;
  h.subcores_per_sm = 4;
  Writer w(tmp_path("w"), h);
  auto expect_reject = [&](Instr in, const char* what) {
    try {
      w.write(in);
      ADD_FAILURE() << "accepted: " << what;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
    }
  };
  Instr ok;
  ok.active_mask = 0b111;
  ok.addr = {3, 3, 5};
  w.write(ok);
  Instr bad = ok;
  bad.active_mask = 0;
  expect_reject(bad, "active mask is 0");
  bad = ok;
  bad.addr[1] = 16;
  expect_reject(bad, "outside the gradient buffer");
  bad = ok;
  bad.reduced_mask = 1u << 5;
  expect_reject(bad, "outside active mask");
  bad = ok;
  bad.reduced_mask = 1u << 1;  // lane 1 shares lane 0's address: not a leader
  expect_reject(bad, "not a group leader");
  bad = ok;
  bad.flags = 1u << 9;
  expect_reject(bad, "undefined flag bits");
  bad = ok;
  bad.flags = kFlagPairSum | kFlagGroupTreeSum;
  expect_reject(bad, "more than one sum order");
  bad = ok;
  bad.flags = kFlagPairSum | kFlagPairCall;
  expect_reject(bad, "both a pair call's plain record and a pair instruction");
  bad = ok;
  bad.flags = kFlagPairCall;
  bad.reduced_mask = 1u;
  expect_reject(bad, "a pair call's plain record names reduced lanes");
  bad = ok;
  bad.flags = kFlagPairSum;
  bad.reduced_mask = 3u;
  expect_reject(bad, "names two adjacent lanes");
  bad = ok;
  bad.flags = kFlagPairSum;
  bad.reduced_mask = 1u << 1;  // lane 2 is on another address
  expect_reject(bad, "has no active next lane on its address");
  Instr pair = ok;  // lane 0 took lane 1's value (same address): valid
  pair.flags = kFlagPairSum;
  pair.reduced_mask = 1u;
  EXPECT_NO_THROW(w.write(pair));
  bad = ok;
  bad.flags = kFlagTreeSum | kFlagOpaqueSum;
  expect_reject(bad, "more than one sum order");
  bad = ok;
  bad.flags = kFlagGroupTreeSum | kFlagTreeSum;
  expect_reject(bad, "more than one sum order");
  bad = ok;
  bad.sm = 2;
  expect_reject(bad, "SM id 2");
  bad = ok;
  bad.subcore = 4;
  expect_reject(bad, "sub-core id 4");
  EXPECT_THROW(w.finish(std::vector<uint32_t>(15, 0)), Error);
}

TEST(TraceFormat, MethodNames) {
  for (Method m : {Method::Baseline, Method::SwS, Method::SwB, Method::Hw, Method::Cub, Method::Adaptive, Method::SwT})
    EXPECT_EQ(method_from_name(method_name(m)), m);
  EXPECT_THROW(method_from_name("sw-x"), Error);
}

// strided: lane l of warp w (SM index x warps per SM + warp id) on word
// w x region_stride + (l mod k) x lane_stride, mod the buffer: a microbenchmark kernel's layout.
TEST(TraceFormat, GeneratorStridedIsTheKernelLayout) {
  tracegen::GenConfig c;
  c.instructions = 2000;
  c.sms = 3;
  c.subcores_per_sm = 2;
  c.warps_per_subcore = 2;
  c.sharing = tracegen::Sharing::Strided;
  c.k = 8;
  c.region_stride = 1056;
  c.lane_stride = 32;
  c.buffer_words = 10000;  // the last warps' lanes wrap
  const std::string path = tmp_path("strided");
  tracegen::generate(c, path);
  const trace::Trace t = read_trace(path);
  EXPECT_EQ(t.instrs.size(), 2000u);
  for (const auto& in : t.instrs) {
    const uint64_t w = uint64_t{in.sm} * 4 + in.warp;
    for (int l = 0; l < 32; ++l) {
      if (in.active_mask >> l & 1) {
        ASSERT_EQ(in.addr[l], (w * 1056 + (l % 8) * 32) % 10000) << "lane " << l;
      }
    }
  }
  EXPECT_EQ(tracegen::sharing_from_name("strided"), tracegen::Sharing::Strided);
}

TEST(TraceStats, CountsAndHistograms) {
  tracegen::GenConfig c;
  c.instructions = 4000;
  c.activity = tracegen::Activity::Full;
  c.sharing = tracegen::Sharing::Same;
  const std::string a = tmp_path("same");
  tracegen::generate(c, a);
  TraceStats s = compute_stats(a);
  EXPECT_EQ(s.instructions, 4000u);
  EXPECT_EQ(s.lanes, 4000u * 32);
  EXPECT_EQ(s.active_hist[32], 4000u);
  EXPECT_EQ(s.distinct_hist[1], 4000u);
  EXPECT_EQ(s.all_same_fraction(), 1.0);
  EXPECT_EQ(s.reduced_groups, 4000u);  // threshold 2, one 32-lane group each
  EXPECT_EQ(s.warps, 64u);
  EXPECT_EQ(s.sms, 4u);
  EXPECT_GT(s.bytes_per_lane(), 0.0);

  c.sharing = tracegen::Sharing::Distinct;
  c.buffer_words = 1u << 24;  // lanes' random addresses then (for this seed) never collide
  c.instructions = 300;
  const std::string b = tmp_path("distinct");
  tracegen::generate(c, b);
  s = compute_stats(b);
  EXPECT_EQ(s.distinct_hist[32], 300u);
  EXPECT_EQ(s.all_same, 0u);
  EXPECT_EQ(s.reduced_groups, 0u);
}

}  // namespace
}  // namespace arc::trace
