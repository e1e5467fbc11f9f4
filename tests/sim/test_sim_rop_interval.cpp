// rop_same_addr_interval (issue 17): a word accepts its next atomic that many cycles after the
// last one started, and the interval may be a fraction (the H100's hotspot: 3.47 cycles per
// same-word atomic). With every lane of the chip on one word, the run takes the word's ops
// times the interval: a whole interval exactly, a fractional one on average (each op starts at
// the first whole cycle at or after its due time), never the interval rounded either way.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <systemc>
#include <vector>

#include "rop.h"
#include "slice.h"
#include "trace.h"
#include "run.h"
#include "sim_fixture.h"

namespace arc::sim {
namespace {

// 4 SMs, 600 instructions of 32 lanes, every lane on word 0: 19,200 ops on one word.
tracegen::GenConfig one_word() {
  tracegen::GenConfig g;
  g.seed = 5;
  g.instructions = 600;
  g.sms = 4;
  g.buffer_words = 1;
  g.activity = tracegen::Activity::Full;
  g.sharing = tracegen::Sharing::Same;
  g.gap_mean = 0;
  g.special_prob = 0.0;
  g.method = trace::Method::Baseline;
  return g;
}

RunSpec with_interval(double cycles) {
  RunSpec s = testing::small_gpu();
  s.knobs.rop_same_addr_interval = cycles;
  return s;
}

TEST(SimRopInterval, OneWordTakesItsOpsTimesTheInterval) {
  const trace::Trace t = testing::synthetic("interval", one_word());
  const double ops = 600.0 * 32;
  // The fixed part: the first request's trip to the ROP and the last op's latency.
  const double slack = 400;
  for (double interval : {3.0, 3.47, 4.0}) {
    const RunResult r = run_isolated(with_interval(interval), t);
    EXPECT_EQ(r.stats.rop_ops, 600u * 32);
    const double cycles = static_cast<double>(r.stats.total_cycles);
    EXPECT_GE(cycles, (ops - 1) * interval) << "interval " << interval;
    EXPECT_LE(cycles, (ops - 1) * interval + slack) << "interval " << interval;
  }
  // 3.47 is neither 3 nor 4: it lands 47% of the way from one to the other.
  const double c3 = static_cast<double>(run_isolated(with_interval(3.0), t).stats.total_cycles);
  const double c4 = static_cast<double>(run_isolated(with_interval(4.0), t).stats.total_cycles);
  const double c = static_cast<double>(run_isolated(with_interval(3.47), t).stats.total_cycles);
  EXPECT_NEAR((c - c3) / (c4 - c3), 0.47, 0.01);
}

// rop_same_line_interval: requests carrying several words of one line start at least that far
// apart (the H100's hot line: ~5 cycles per 32-word request); a one-word request ignores it.
tracegen::GenConfig one_line() {
  tracegen::GenConfig g = one_word();
  g.buffer_words = 32;
  g.sharing = tracegen::Sharing::Line;
  g.k = 32;  // lane l on word l: each instruction is one 32-word request
  return g;
}

RunSpec with_line(double cycles) {
  RunSpec s = with_interval(3.47);
  s.gpu.coalesce_bytes = 128;
  s.knobs.rop_same_line_interval = cycles;
  return s;
}

TEST(SimRopInterval, AHotLineTakesItsRequestsTimesTheLineInterval) {
  const trace::Trace t = testing::synthetic("line", one_line());
  const double requests = 600;
  const RunResult off = run_isolated(with_line(0), t);
  const RunResult ten = run_isolated(with_line(10), t);
  const RunResult frac = run_isolated(with_line(10.5), t);
  EXPECT_EQ(ten.stats.rop_requests, 600u);
  EXPECT_LT(off.stats.total_cycles, (requests - 1) * 10) << "without it, the request's bytes set a faster pace";
  EXPECT_GE(ten.stats.total_cycles, (requests - 1) * 10);
  EXPECT_LE(ten.stats.total_cycles, (requests - 1) * 10 + 400);
  EXPECT_GE(frac.stats.total_cycles, (requests - 1) * 10.5);
  EXPECT_LE(frac.stats.total_cycles, (requests - 1) * 10.5 + 400);
}

TEST(SimRopInterval, TheLineIntervalLeavesOneWordRequestsAlone) {
  const trace::Trace t = testing::synthetic("interval", one_word());
  RunSpec s = with_line(10);
  EXPECT_EQ(run_isolated(s, t).stats.total_cycles, run_isolated(with_line(0), t).stats.total_cycles);
}

// rop_line_op_interval: the words of one line share its data path, one one-word op per that
// many cycles together, while each word keeps its own interval. Four hot words of one line:
// each word alone would allow 4 ops per 3.47 cycles, the line allows one per 2.04.
tracegen::GenConfig four_words_of_a_line() {
  tracegen::GenConfig g = one_word();
  g.buffer_words = 4;  // every instruction's 32 lanes on one of words 0-3 (line 0)
  return g;
}

RunSpec with_line_ops(double cycles) {
  RunSpec s = with_interval(3.47);
  s.gpu.coalesce_bytes = 128;
  s.knobs.rop_line_op_interval = cycles;
  s.knobs.rop_window = 8;  // a word waiting out its interval does not hold up the others
  return s;
}

TEST(SimRopInterval, HotWordsOfOneLineShareTheLinesPace) {
  const trace::Trace t = testing::synthetic("lineops", four_words_of_a_line());
  const double ops = 600.0 * 32;
  const RunResult off = run_isolated(with_line_ops(0), t);
  const RunResult on = run_isolated(with_line_ops(2.04), t);
  EXPECT_EQ(on.stats.rop_ops, 600u * 32);
  EXPECT_LT(off.stats.total_cycles, ops * 2.04 * 0.6) << "without it, the four words run side by side";
  EXPECT_GE(on.stats.total_cycles, (ops - 32) * 2.04);
  EXPECT_LE(on.stats.total_cycles, ops * 2.04 + 400);
}

TEST(SimRopInterval, TheLineOpIntervalLeavesOneWordAtItsOwnPace) {
  // One word: 3.47 per op, slower than the line's 2.04, so the line never binds.
  const trace::Trace t = testing::synthetic("interval", one_word());
  EXPECT_EQ(run_isolated(with_line_ops(2.04), t).stats.total_cycles,
            run_isolated(with_line_ops(0), t).stats.total_cycles);
}

// rop_slices / rop_slice_request_interval: a slice starts a multi-word request at most every
// interval, whichever of its lines it is on. Lines 0 and 1 share a slice (they differ only in
// bit 0); lines 0-3 fall on two.
TEST(SimRopInterval, SliceOfLineIgnoresLineBitsZeroAndTwo) {
  EXPECT_EQ(slice_of_line(0, 80), slice_of_line(1, 80));
  EXPECT_EQ(slice_of_line(0, 80), slice_of_line(4, 80));
  EXPECT_EQ(slice_of_line(0, 80), slice_of_line(5, 80));
  EXPECT_NE(slice_of_line(0, 80), slice_of_line(2, 80));
  EXPECT_EQ(slice_of_line(2, 80), slice_of_line(7, 80));
  EXPECT_NE(slice_of_line(0, 80), slice_of_line(8, 80));
  // 128 adjacent lines: 32 slices of 4 lines each (the H100: 32 slices, at most 5 lines on one).
  std::vector<int> lines_on(80, 0);
  for (uint32_t l = 0; l < 128; ++l) ++lines_on[slice_of_line(l, 80)];
  EXPECT_EQ(std::count(lines_on.begin(), lines_on.end(), 4), 32);
  EXPECT_EQ(std::count(lines_on.begin(), lines_on.end(), 0), 48);
  for (uint32_t l = 0; l < 100000; l += 37) EXPECT_LT(slice_of_line(l, 80), 80u);
}

tracegen::GenConfig lines(uint32_t n) {
  tracegen::GenConfig g = one_line();
  g.buffer_words = 32 * n;  // each instruction: the 32 words of one of lines 0..n-1
  return g;
}

RunSpec with_slices(double cycles) {
  RunSpec s = with_line(0);
  s.knobs.rop_slices = 80;
  s.knobs.rop_slice_request_interval = cycles;
  return s;
}

TEST(SimRopInterval, TwoLinesOfOneSliceShareItsRequestPace) {
  const trace::Trace two = testing::synthetic("slice2", lines(2));   // lines 0, 1: one slice
  const trace::Trace four = testing::synthetic("slice4", lines(4));  // lines 0-3: two slices
  const double requests = 600;
  const RunResult off = run_isolated(with_slices(0), two);
  const RunResult one = run_isolated(with_slices(10), two);
  EXPECT_LT(off.stats.total_cycles, (requests - 1) * 10) << "without it, the request's bytes set a faster pace";
  EXPECT_GE(one.stats.total_cycles, (requests - 1) * 10);
  EXPECT_LE(one.stats.total_cycles, (requests - 1) * 10 + 400);
  // Two slices share the requests (each line drawn at random: within 20% of half each).
  const RunResult both = run_isolated(with_slices(10), four);
  EXPECT_GE(both.stats.total_cycles, (requests / 2 - 1) * 10);
  EXPECT_LE(both.stats.total_cycles, requests * 0.6 * 10 + 400);
}

// fifo_gap: an in-order slice's mean gap per op for n hot words drawn at random (slot 1 cycle,
// each word 3.47): one word is its own interval, two 2.48 (a Python replay of the same queue,
// 200,000 ops: 1 / 0.403), four 1.86 (1 / 0.538), falling toward the slot; the same every call.
TEST(SimRopSlice, TheInOrderQueuesGapFallsFromTheWordsIntervalTowardTheSlot) {
  EXPECT_DOUBLE_EQ(fifo_gap(1, 1.0, 3.47), 3.47);
  EXPECT_NEAR(fifo_gap(2, 1.0, 3.47), 2.48, 0.03);
  EXPECT_NEAR(fifo_gap(4, 1.0, 3.47), 1.86, 0.03);
  double last = fifo_gap(1, 1.0, 3.47);
  for (uint32_t n = 2; n <= 16; ++n) {
    const double g = fifo_gap(n, 1.0, 3.47);
    EXPECT_LT(g, last) << n;
    EXPECT_GT(g, 1.0) << n;
    last = g;
  }
  EXPECT_EQ(fifo_gap(5, 1.0, 3.47), fifo_gap(5, 1.0, 3.47));
  EXPECT_DOUBLE_EQ(fifo_gap(3, 2.0, 1.0), 2.0) << "a word interval under the slot never binds";
  const std::vector<uint64_t> t = fifo_gap_table(1.0, 3.47, kSubCycles);
  ASSERT_EQ(t.size(), SliceState::kTracked + 1u);
  EXPECT_EQ(t[1], kSubCycles);
  EXPECT_EQ(t[2], static_cast<uint64_t>(std::llround(fifo_gap(2, 1.0, 3.47) * kSubCycles)));
}

TEST(SimRopSlice, ASliceCountsTheWordsQueuedRecently) {
  SliceState s;
  s.note_run(7, 100);
  s.note_run(9, 200);
  EXPECT_EQ(s.busy_others(7, 50), 1u);   // 9
  EXPECT_EQ(s.busy_others(8, 50), 2u);
  EXPECT_EQ(s.busy_others(8, 150), 1u);  // 7's time is over
  s.note_run(7, 300);                    // the same word again: one entry
  EXPECT_EQ(s.busy_others(8, 50), 2u);
  for (uint32_t w = 100; w < 100 + 2 * SliceState::kTracked; ++w) s.note_run(w, 1000 + w);
  EXPECT_EQ(s.busy_others(0, 999), SliceState::kTracked) << "at most kTracked words count";
}

// rop_slice_op_interval: two hot words of one slice (words 0 and 1 of line 0; no line rule),
// every instruction a run of 32 ops on one of them. Side by side each word would go at its own
// 3.47 cycles (1.74 per op for the two); in the slice's in-order queue they go at fifo_gap(2).
tracegen::GenConfig two_words() {
  tracegen::GenConfig g = one_word();
  g.buffer_words = 2;
  return g;
}

RunSpec with_slice_ops(double slot) {
  RunSpec s = with_interval(3.47);
  s.gpu.coalesce_bytes = 128;
  s.knobs.rop_window = 8;
  s.knobs.rop_slices = 80;
  s.knobs.rop_slice_op_interval = slot;
  s.knobs.rop_slice_queue_cycles = 240;
  return s;
}

TEST(SimRopSlice, TwoHotWordsOfASliceGoAtTheInOrderQueuesGap) {
  const trace::Trace t = testing::synthetic("slice-ops", two_words());
  const double ops = 600.0 * 32;
  const double off = static_cast<double>(run_isolated(with_slice_ops(0), t).stats.total_cycles);
  const double on = static_cast<double>(run_isolated(with_slice_ops(1.0), t).stats.total_cycles);
  EXPECT_NEAR(off / ops, 3.47 / 2, 0.2);
  EXPECT_NEAR(on / ops, fifo_gap(2, 1.0, 3.47), 0.15);
}

TEST(SimRopSlice, ALoneHotWordKeepsItsOwnPace) {
  const trace::Trace t = testing::synthetic("interval", one_word());
  EXPECT_EQ(run_isolated(with_slice_ops(1.0), t).stats.total_cycles,
            run_isolated(with_slice_ops(0), t).stats.total_cycles);
}

// One lane's float4 (--vector 4: a call's 4 params leave as one RED of 4 words) on a hot
// address goes as one address: the H100's vec_hotspot red.v4 row (the chip on one float4)
// sustains 0.288 lane updates/cycle, the one-word interval's 3.47 cycles
// (results/h100/validation/full/microbench/throughput.csv), not a line request's pace. 64 warps
// of one active lane each, every call on words 0-3.
trace::Trace hot_float4(uint32_t calls) {
  trace::Trace t;
  t.header.gpu_name = "test";
  t.header.sm_count = 4;
  t.header.subcores_per_sm = 4;
  t.header.buffer_words = 64;
  for (uint32_t w = 0; w < 64; ++w)
    for (uint32_t c = 0; c < calls; ++c)
      for (uint32_t p = 0; p < 4; ++p) {
        trace::Instr in;
        in.sm = w % 4;
        in.subcore = (w / 4) % 4;
        in.warp = w;
        in.seq = c * 4 + p;
        in.param = static_cast<uint8_t>(p);
        in.nparams = 4;
        in.flags = c == 0 && p == 0 ? trace::kFlagFirstOfWarp : 0u;
        in.active_mask = 1;
        in.addr[0] = p;
        in.value[0] = 0x3f800000u;
        t.instrs.push_back(in);
      }
  t.final_buffer.assign(t.header.buffer_words, 0);
  return t;
}

TEST(SimRopInterval, AHotFloat4GoesAtTheWordsPaceNotALinesRequestPace) {
  const trace::Trace t = hot_float4(20);
  const double requests = 64.0 * 20;
  RunSpec s = with_line(10);  // several lanes' words of one line: one request per 10 cycles
  s.vector = 4;
  s.knobs.rop_slices = 80;
  s.knobs.rop_slice_request_interval = 10;
  const RunResult r = run_isolated(s, t);
  EXPECT_EQ(r.stats.requests_to_l2, 64u * 20);
  EXPECT_GE(r.stats.total_cycles, (requests - 1) * 3.47);
  EXPECT_LE(r.stats.total_cycles, (requests - 1) * 3.47 + 400) << "a line request's 10 cycles would give " << requests * 10;
}

}  // namespace
}  // namespace arc::sim

int sc_main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
