// The timing model's bookkeeping (issue 22): the end-of-run check fires on a planted lost
// wake-up; the LSU serves its ports fairly; a trace of another SM shape is redistributed by
// whole warps, not folded; occupancy comes from the trace's launch shape; a reduce call that
// writes several parameters pays its fixed SW cost once; a timing-only trace times like the
// full one. Each test fails on the behaviour before issue 22.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <map>
#include <set>
#include <random>
#include <systemc>

#include "error.h"
#include "gpu_model.h"
#include "icnt.h"
#include "lsu.h"
#include "run.h"
#include "sim_fixture.h"
#include "workload.h"

namespace arc::sim {
namespace {

using testing::hot;
using testing::small_gpu;
using testing::synthetic;

// A trace of `sms` SMs x 4 sub-cores x `warps` warps per sub-core, each warp `n` full-warp
// atomics on its own addresses, gaps `gap`.
trace::Trace shaped(uint32_t sms, uint32_t warps, uint32_t n, uint32_t gap, uint32_t nparams = 1) {
  trace::Trace t;
  t.header.gpu_name = "test";
  t.header.sm_count = sms;
  t.header.subcores_per_sm = 4;
  t.header.buffer_words = 1u << 20;
  std::mt19937 g(7);
  uint32_t next_addr = 0;
  for (uint32_t sm = 0; sm < sms; ++sm)
    for (uint32_t w = 0; w < 4 * warps; ++w)
      for (uint32_t i = 0; i < n; ++i)
        for (uint32_t p = 0; p < nparams; ++p) {
          trace::Instr in;
          in.sm = sm;
          in.subcore = w % 4;
          in.warp = w;
          in.seq = static_cast<uint64_t>(i) * nparams + p;
          in.active_mask = 0xFFFFFFFFu;
          in.gap = p == 0 ? gap : 0;
          in.flags = i == 0 && p == 0 ? trace::kFlagFirstOfWarp : 0;
          in.param = static_cast<uint8_t>(p);
          in.nparams = static_cast<uint8_t>(nparams);
          const uint32_t base = (next_addr += 16) % ((1u << 20) - 64);
          for (int l = 0; l < 32; ++l) {
            in.addr[l] = base + static_cast<uint32_t>(l / 8) * 16 + p;  // four groups of 8 lanes
            in.value[l] = 0x3f800000u + (g() & 0xFF);
          }
          if (p + 1 < nparams) next_addr -= 16;  // the call's params share the base
          t.instrs.push_back(in);
        }
  t.final_buffer.assign(t.header.buffer_words, 0);
  return t;
}

TEST(SimBookkeeping, EndOfRunCheckCatchesAPlantedLostWakeup) {
  const trace::Trace t = synthetic("lostwake", hot(2000, 3));
  RunSpec s = small_gpu();
  s.mode = Mode::Baseline;
  EXPECT_NO_THROW(run_isolated(s, t));  // the healthy model passes its own check
  s.plant_lost_wakeup = true;
  try {
    run_isolated(s, t);
    ADD_FAILURE() << "a run with a lost wake-up ended without an error";
  } catch (const Error& e) {
    const std::string m = e.what();
    EXPECT_EQ(m.rfind("end-of-run check failed: ", 0), 0u) << m;
    EXPECT_NE(m.find("warp instructions issued"), std::string::npos) << m;
    EXPECT_EQ(m.find('\n'), std::string::npos) << "one line";
  }
}

// The LSU alone, with `ports` sub-core ports that a driver refills as soon as their credit
// returns (every port offers a 32-request packet every other cycle) and a crossbar input it
// drains every cycle; the queue takes `per_cycle` packets per cycle, fewer than are offered.
// Returns the packets admitted per port after `n` cycles (run in a child: SystemC elaborates
// once per process).
struct LsuDriver : sc_core::sc_module {
  LsuDriver(sc_core::sc_module_name nm, Lsu& lsu, Link<Request>& out) : sc_module(nm), lsu_(lsu), out_(out) {
    wake.bind([this] { step(); });
    wake.at(0);
  }
  void step() {
    const Cycle now = now_cycle();
    for (auto& port : lsu_.ports)
      if (port.can_push(now)) port.push(now, Packet(32, Request{}));
    while (out_.ready(now)) out_.pop(now);
    wake.at(now + 1);
  }
  Lsu& lsu_;
  Link<Request>& out_;
  Wake wake;
};

std::vector<uint64_t> lsu_grants(uint32_t ports, uint32_t per_cycle, Cycle n) {
  int fds[2];
  if (::pipe(fds) != 0) throw Error("pipe");
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::close(fds[0]);
    Calendar cal("calendar");
    Stats stats;
    const RopHash hash("linear", 1, 32);
    LsuSetup ls;
    ls.ports = ports;
    ls.depth = 32 * per_cycle;
    ls.issue_per_cycle = 32 * per_cycle;
    ls.busy_slack = 0;
    IcntSetup is;
    is.sms = 1;
    Icnt icnt("icnt", is);  // only told which input holds flits; it never runs here
    Link<Request> out(32 * per_cycle);
    Lsu lsu("lsu", ls, hash, stats);
    lsu.to_icnt = &out;
    lsu.icnt = &icnt;
    LsuDriver drv("drv", lsu, out);
    out.bind(&drv.wake, &lsu.wake);
    for (auto& p : lsu.ports) p.bind(&lsu.wake, &drv.wake);
    sc_core::sc_start(cycles(n));
    const auto& g = lsu.grants();
    const ssize_t w = ::write(fds[1], g.data(), g.size() * sizeof(uint64_t));
    _exit(w == static_cast<ssize_t>(g.size() * sizeof(uint64_t)) ? 0 : 1);
  }
  ::close(fds[1]);
  std::vector<uint64_t> g(ports, 0);
  const ssize_t got = ::read(fds[0], g.data(), g.size() * sizeof(uint64_t));
  ::close(fds[0]);
  int st = 0;
  ::waitpid(pid, &st, 0);
  EXPECT_EQ(got, static_cast<ssize_t>(g.size() * sizeof(uint64_t)));
  return g;
}

TEST(SimBookkeeping, LsuRoundRobinIsFairUnderSaturation) {
  for (const auto& [ports, per_cycle] : {std::pair<uint32_t, uint32_t>{4, 1}, {8, 2}, {8, 3}, {16, 5}}) {
    const auto g = lsu_grants(ports, per_cycle, 3000);
    const auto [lo, hi] = std::minmax_element(g.begin(), g.end());
    std::string row;
    for (uint64_t x : g) row += " " + std::to_string(x);
    std::printf("LSU, %u ports, %u packets/cycle, 3000 cycles: grants per port%s\n", ports, per_cycle, row.c_str());
    EXPECT_GT(*lo, 3000u * per_cycle / ports / 4);  // every port is served (the LSU admits >= 1/4 of its rate here)
    EXPECT_LE(*hi - *lo, 1u) << ports << " ports, " << per_cycle << " per cycle: a port was skipped";
  }
}

TEST(SimBookkeeping, OtherShapesAreRedistributedByWholeWarpsNotFolded) {
  const trace::Trace t = shaped(132, 1, 10, 100);  // an H100 trace: 132 SMs x 4 warps
  for (uint32_t sms : {128u, 28u}) {
    const Workload w = build_workload(t, sms, 4, 16);
    EXPECT_TRUE(w.remapped);
    size_t most = 0, least = SIZE_MAX, total = 0;
    for (const SubCoreWork& sc : w.subcores) {
      most = std::max(most, sc.warps.size());
      least = std::min(least, sc.warps.size());
      total += sc.warps.size();
    }
    EXPECT_EQ(total, 132u * 4);
    EXPECT_LE(most - least, 1u) << sms << " SMs: warps per sub-core " << least << ".." << most;
  }
  // The same shape keeps the traced placement.
  const TraceSummary ts = summarize(t);
  const Workload same = build_workload(ts, 132, 4, 16);
  EXPECT_FALSE(same.remapped);
  for (const SubCoreWork& sc : same.subcores) EXPECT_EQ(sc.warps.size(), 1u);
  EXPECT_EQ(ts.warps[same.at(131, 3).warps[0].index].sm, 131u);
  // A kernel that occupied one SM stays on one SM of a larger GPU (the one-SM microbenchmark).
  const Workload one = build_workload(shaped(1, 2, 10, 100), 132, 4, 16);
  EXPECT_FALSE(one.remapped);
  EXPECT_EQ(one.at(0, 0).warps.size(), 2u);
  EXPECT_TRUE(one.at(1, 0).warps.empty());
}

TEST(SimBookkeeping, WithALaunchShapeWholeBlocksAreRedistributed) {
  // 40 SMs x 8 warps, numbered globally and block-linearly, 4 warps (128 threads) per block.
  trace::Trace t = shaped(40, 2, 6, 50);
  t.header.threads_per_block = 128;
  for (auto& in : t.instrs) in.warp += 8 * in.sm;
  const TraceSummary ts = summarize(t);
  const Workload w = build_workload(ts, 28, 4, 16);
  EXPECT_TRUE(w.remapped);
  std::map<uint32_t, std::set<uint32_t>> sms_of_block;
  std::vector<size_t> warps_per_sm(28, 0);
  for (uint32_t sm = 0; sm < 28; ++sm)
    for (uint32_t sc = 0; sc < 4; ++sc)
      for (const WarpWork& ww : w.at(sm, sc).warps) {
        sms_of_block[ts.warps[ww.index].warp / 4].insert(sm);
        ++warps_per_sm[sm];
      }
  EXPECT_EQ(sms_of_block.size(), 80u);
  for (const auto& [block, sms] : sms_of_block) EXPECT_EQ(sms.size(), 1u) << "block " << block << " split";
  const auto [lo, hi] = std::minmax_element(warps_per_sm.begin(), warps_per_sm.end());
  EXPECT_LE(*hi - *lo, 4u) << "SMs differ by more than one block";
}

TEST(SimBookkeeping, OccupancyComesFromTheTraceLaunchShape) {
  trace::Trace t = shaped(4, 8, 20, 300);  // 32 warps per SM in the trace
  RunSpec s = small_gpu();                 // 4 SMs, warps_per_subcore 4 (16 per SM)
  s.gpu.warps_per_subcore = 16;
  s.mode = Mode::Baseline;
  const RunResult config_limit = run_isolated(s, t);
  EXPECT_EQ(config_limit.stats.warps_resident_per_subcore, 16u);
  t.header.resident_warps_per_sm = 10;  // the kernel had 10 warps per SM resident
  const RunResult traced = run_isolated(s, t);
  EXPECT_EQ(traced.stats.warps_resident_per_subcore, 3u);  // ceil(10 / 4)
  EXPECT_GT(traced.stats.total_cycles, config_limit.stats.total_cycles) << "fewer warps hide less compute";
  t.header.resident_warps_per_sm = 200;  // more than the GPU holds: capped
  EXPECT_EQ(run_isolated(s, t).stats.warps_resident_per_subcore, 16u);
}

TEST(SimBookkeeping, AMultiParamCallPaysItsFixedSwCostOnce) {
  const trace::Trace t = shaped(4, 1, 5, 50, 9);  // 4 SMs x 4 warps x 5 calls x 9 params
  RunSpec s = small_gpu();
  s.gpu.sw_overhead = 40;
  s.knobs.sws_cycles_per_key = 7;
  s.knobs.sws_cycles_per_lane = 1;
  const uint64_t calls = 4 * 4 * 5;
  s.mode = Mode::SwB;
  EXPECT_EQ(run_isolated(s, t).stats.sw_overhead_cycles, 40 * calls);
  // + 7 x 4 keys per call, + 1 per step per parameter: 4 groups of 8 lanes side by side = 7 steps
  s.mode = Mode::SwS;
  EXPECT_EQ(run_isolated(s, t).stats.sw_overhead_cycles, (40 + 7 * 4) * calls + 7 * 9 * calls);
}

TEST(SimBookkeeping, ATimingOnlyTraceTimesLikeTheFullOne) {
  const trace::Trace full = synthetic("timingonly", hot(1500, 9));
  trace::Trace timing = full;
  timing.header.timing_only = true;
  for (auto& in : timing.instrs) in.value.fill(0), in.partial_sum.fill(0);
  timing.final_buffer.clear();
  RunSpec s = small_gpu();
  for (Mode m : {Mode::Baseline, Mode::SwS, Mode::ArcHw}) {
    s.mode = m;
    const RunResult a = run_isolated(s, full), b = run_isolated(s, timing);
    EXPECT_EQ(a.stats.total_cycles, b.stats.total_cycles) << mode_name(m);
    EXPECT_EQ(a.stats.rop_ops, b.stats.rop_ops) << mode_name(m);
  }
}

}  // namespace
}  // namespace arc::sim

int sc_main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
