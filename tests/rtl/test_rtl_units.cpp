// Each ARC-HW unit alone (Verilated arc_addr_match, arc_sched, arc_reduce, arc_lane_issue):
// function vs the golden model, the cycle behaviour written in its module header and in
// cosim/golden/rtl_timing.h (with its ready input held high), and random back-pressure on its
// ready input (payload stable while stalled; nothing lost, duplicated or reordered).
#include <gtest/gtest.h>
#include <verilated.h>

#include <cstdio>
#include <deque>
#include <memory>
#include <random>
#include <utility>
#include <vector>

#include "Varc_addr_match.h"
#include "Varc_fp32_add_pipe2.h"
#include "Varc_lane_issue.h"
#include "Varc_reduce.h"
#include "Varc_reduce_s2.h"
#include "Varc_sched.h"
#include "fp32_ref.h"
#include "fp32_vectors.h"
#include "golden.h"
#include "rtl_timing.h"
#include "test_seed.h"
#include "warp_gen.h"

namespace {

using namespace arc::golden;
using arc::fp::FtzMode;

template <class M>
struct Clocked {
  VerilatedContext ctx;
  std::unique_ptr<M> m = std::make_unique<M>(&ctx, "dut");
  uint64_t cycle = 0;
  Clocked() {
    m->rst_ni = 0;
    for (int i = 0; i < 2; ++i) settle(), edge();
    m->rst_ni = 1;
    cycle = 0;
  }
  ~Clocked() { m->final(); }
  void settle() { m->clk_i = 0, m->eval(); }
  void edge() { m->clk_i = 1, m->eval(), ++cycle; }
};

const double kReadyProbs[] = {1.0, 0.6, 0.15};

// ---------------------------------------------------------------- arc_addr_match
TEST(RtlUnits, AddrMatch) {
  SCOPED_TRACE(announce_seed());
  for (double p : kReadyProbs) {
    Clocked<Varc_addr_match> h;
    WarpGen gen(test_seed() + 11);
    std::mt19937_64 rng(test_seed() + 5);
    std::bernoulli_distribution ready(p);
    std::deque<WarpInstr> queue;
    std::vector<WarpInstr> accepted;
    std::vector<uint64_t> accept_cycle;
    struct Got { uint64_t instr, cycle; Group g; bool last; };
    std::vector<Got> got;
    for (int i = 0; i < 20000; ++i) queue.push_back(gen.next(FtzMode::Flush).in);
    bool held = false;
    Group held_g{};
    uint64_t stable_fail = 0;
    while ((!queue.empty() || !h.m->idle_o) && h.cycle < 10'000'000) {
      const bool valid = !queue.empty();
      if (valid) {
        h.m->in_mask_i = queue.front().active_mask;
        for (int l = 0; l < kLanes; ++l) h.m->in_addr_i[l] = queue.front().addr[l];
      }
      h.m->in_valid_i = valid;
      const bool r = p >= 1.0 || ready(rng);
      h.m->out_ready_i = r;
      h.settle();
      const Group g{h.m->out_addr_o, h.m->out_lane_mask_o};
      if (held && !(h.m->out_valid_o && g == held_g)) ++stable_fail;
      held = h.m->out_valid_o && !r;
      held_g = g;
      if (h.m->out_valid_o && r) got.push_back({accepted.size() - 1, h.cycle, g, h.m->out_last_o != 0});
      if (valid && h.m->in_ready_o) {
        accepted.push_back(queue.front());
        accept_cycle.push_back(h.cycle);
        queue.pop_front();
      }
      h.edge();
    }
    EXPECT_EQ(stable_fail, 0u);
    ASSERT_EQ(accepted.size(), 20000u);
    uint64_t passed = 0, failed = 0;
    size_t pos = 0;
    for (size_t i = 0; i < accepted.size(); ++i) {
      const auto want = match_addresses(accepted[i]);
      bool ok = true;
      for (size_t k = 0; k < want.size(); ++k, ++pos) {
        ok = ok && pos < got.size() && got[pos].instr == i && got[pos].g == want[k] &&
             got[pos].last == (k + 1 == want.size());
        if (ok && p >= 1.0) ok = got[pos].cycle == accept_cycle[i] + rtl_timing::kMatcherLatency + k;
      }
      if (p >= 1.0 && i + 1 < accepted.size())  // next accept in the cycle the last group leaves
        ok = ok && accept_cycle[i + 1] == (want.empty() ? accept_cycle[i] + 1 : got[pos - 1].cycle);
      ok ? ++passed : ++failed;
    }
    EXPECT_EQ(pos, got.size());
    EXPECT_EQ(failed, 0u);
    std::printf("addr_match ready=%.2f: %llu passed, %llu failed\n", p, static_cast<unsigned long long>(passed),
                static_cast<unsigned long long>(failed));
  }
}

// ---------------------------------------------------------------- arc_sched
TEST(RtlUnits, Sched) {
  SCOPED_TRACE(announce_seed());
  VerilatedContext ctx;
  Varc_sched s(&ctx, "sched");
  std::mt19937_64 rng(test_seed() + 3);
  WarpGen gen(test_seed() + 4);
  uint64_t passed = 0, failed = 0;
  for (int i = 0; i < 200000; ++i) {
    const uint32_t bits = static_cast<uint32_t>(rng());
    const SchedConfig cfg{static_cast<SchedMode>(bits & 3), (bits >> 2) % 64, FtzMode::Flush};
    const bool busy = bits & 0x100, valid = bits & 0x200, rr = bits & 0x400, ri = bits & 0x800, lr = bits & 0x1000,
               li = bits & 0x2000;
    const Group g{static_cast<uint32_t>(rng()), gen.random_mask()};
    s.mode_i = static_cast<uint8_t>(cfg.mode);
    s.threshold_i = static_cast<uint8_t>(cfg.threshold);
    s.busy_i = busy;
    s.in_valid_i = valid;
    s.in_addr_i = g.addr;
    s.in_lane_mask_i = g.lane_mask;
    s.red_ready_i = rr;
    s.red_idle_i = ri;
    s.lsu_ready_i = lr;
    s.lsu_idle_i = li;
    s.eval();
    const bool red = route_group(g, cfg, busy) == Route::Reduced;
    const bool ok = s.reduce_o == red && s.red_valid_o == (valid && red && li) &&
                    s.lsu_valid_o == (valid && !red && ri) && s.in_ready_o == (red ? rr && li : lr && ri) &&
                    s.out_addr_o == g.addr && s.out_lane_mask_o == g.lane_mask;
    ok ? ++passed : ++failed;
  }
  s.final();
  EXPECT_EQ(failed, 0u);
  std::printf("sched (combinational, latency %d): %llu passed, %llu failed\n", rtl_timing::kSchedLatency,
              static_cast<unsigned long long>(passed), static_cast<unsigned long long>(failed));
}

// ---------------------------------------------------------------- arc_reduce / arc_lane_issue
struct GroupCase {
  Group g;
  WarpInstr values;  // values[l] for the lanes of g
};

std::vector<GroupCase> random_groups(uint64_t seed, int n) {
  WarpGen gen(seed);
  std::vector<GroupCase> v;
  while (static_cast<int>(v.size()) < n) {
    const auto c = gen.next(FtzMode::Flush);
    for (const Group& g : match_addresses(c.in)) v.push_back({g, c.in});
  }
  v.resize(n);
  return v;
}

// Drives a group-consuming unit (arc_reduce or arc_lane_issue): the read port (always ready, as
// the operand register of arc_subcore_top with RfPort = 0) answers from the incoming group's
// values in the cycle the unit accepts it, else from the held group's.
template <class M, class Out>
void drive_units(Clocked<M>& h, const std::vector<GroupCase>& groups, double p, bool reduce,
                 std::vector<uint64_t>& accept_cycle, std::vector<Out>& got, uint64_t& stable_fail) {
  std::mt19937_64 rng(test_seed() + 9);
  std::bernoulli_distribution ready(p);
  size_t next = 0, held_idx = 0;
  bool held = false;
  Out held_out{};
  while ((next < groups.size() || !h.m->idle_o) && h.cycle < 50'000'000) {
    const bool valid = next < groups.size();
    if (valid) {
      h.m->in_lane_mask_i = groups[next].g.lane_mask;
    }
    h.m->in_valid_i = valid;
    const bool r = p >= 1.0 || ready(rng);
    h.m->out_ready_i = r;
    h.m->rf_ready_i = 1;
    h.settle();
    const bool working = !h.m->idle_o && (!reduce || !h.m->out_valid_o);
    const bool incoming = valid && h.m->in_ready_o;
    const WarpInstr& src = groups[incoming ? next : held_idx].values;
    h.m->rf_value_i = src.value[h.m->rf_lane_o];
    h.m->eval();
    const Out o = Out::read(*h.m, working ? held_idx : 0);
    if (held && !(h.m->out_valid_o && o == held_out)) ++stable_fail;
    held = h.m->out_valid_o && !r;
    held_out = o;
    if (h.m->out_valid_o && r) got.push_back(Out::read(*h.m, held_idx, h.cycle));
    if (valid && h.m->in_ready_o) {
      accept_cycle.push_back(h.cycle);
      held_idx = next++;
    }
    h.edge();
  }
}

// The units hold no address (arc_subcore_top's group address register does; the top-level tests
// check it), so a unit's output is (value, lane mask).
struct RedOut {
  uint32_t sum, mask;
  uint64_t group, cycle;
  template <class M>
  static RedOut read(const M& m, uint64_t g, uint64_t c = 0) {
    return {m.out_sum_o, m.out_lane_mask_o, g, c};
  }
  bool operator==(const RedOut& o) const { return sum == o.sum && mask == o.mask; }
};

// arc_reduce with an adder of `stages` pipeline stages: the same sums (ascending lane order),
// a group of n lanes offered 1 + (n-1) x stages cycles after its accept.
template <class M>
void check_reduce(uint64_t stages, int n_groups) {
  SCOPED_TRACE(announce_seed());
  const auto groups = random_groups(test_seed() + 21, n_groups);
  for (double p : kReadyProbs) {
    Clocked<M> h;
    std::vector<uint64_t> acc;
    std::vector<RedOut> got;
    uint64_t stable_fail = 0, passed = 0, failed = 0;
    drive_units(h, groups, p, true, acc, got, stable_fail);
    ASSERT_EQ(got.size(), groups.size());
    for (size_t i = 0; i < groups.size(); ++i) {
      const auto& g = groups[i].g;
      const uint64_t n = static_cast<uint64_t>(__builtin_popcount(g.lane_mask));
      bool ok = got[i].group == i && got[i].mask == g.lane_mask &&
                got[i].sum == serial_sum(groups[i].values, g.lane_mask, FtzMode::Flush);
      if (p >= 1.0) {  // sum n cycles after accept; next group accepted as the sum leaves
        ok = ok && got[i].cycle ==
                        acc[i] + (stages == 1 ? n * rtl_timing::kReduceCyclesPerLane : 1 + (n - 1) * stages);
        if (i + 1 < groups.size()) ok = ok && acc[i + 1] == got[i].cycle;
      }
      ok ? ++passed : ++failed;
    }
    EXPECT_EQ(stable_fail, 0u);
    EXPECT_EQ(failed, 0u);
    std::printf("reduce Stages=%llu ready=%.2f: %llu passed, %llu failed (%llu cycles)\n", static_cast<unsigned long long>(stages), p,
                static_cast<unsigned long long>(passed), static_cast<unsigned long long>(failed),
                static_cast<unsigned long long>(h.cycle));
  }
}

TEST(RtlUnits, Reduce) { check_reduce<Varc_reduce>(1, 60000); }
TEST(RtlUnits, ReducePipelinedAdderStages2) { check_reduce<Varc_reduce_s2>(2, 20000); }

// arc_fp32_add_pipe, Stages = 2 (Verilated with FTZ = 1): a new pair every cycle, each sum one
// cycle later, bit for bit the MPFR-backed reference: every pair of the special table, then
// 200,000 pairs of the weighted generator the combinational adder's test draws from (ties,
// carries into the next binade and to infinity, cancellation, subnormals, NaN payloads).
TEST(RtlUnits, AdderPipelineOneAddPerCycle) {
  SCOPED_TRACE(announce_seed());
  VerilatedContext ctx;
  Varc_fp32_add_pipe2 m(&ctx, "add");
  std::vector<std::pair<uint32_t, uint32_t>> pairs;
  for (const uint32_t a : arc::fp::special_values())
    for (const uint32_t b : arc::fp::special_values()) pairs.emplace_back(a, b);
  arc::fp::VectorGenerator gen(test_seed() + 77);
  for (int i = 0; i < 200000; ++i) pairs.push_back(gen.next());
  uint64_t passed = 0, failed = 0;
  uint32_t prev_a = 0, prev_b = 0;
  for (size_t i = 0; i <= pairs.size(); ++i) {
    const auto [a, b] = i < pairs.size() ? pairs[i] : std::pair<uint32_t, uint32_t>{0, 0};
    m.a_i = a;
    m.b_i = b;
    m.clk_i = 0;
    m.eval();
    if (i > 0) {  // this cycle's y_o is last cycle's pair
      const uint32_t want = arc::fp::add_ref(prev_a, prev_b, FtzMode::Flush);
      (m.y_o == want) ? ++passed : ++failed;
      if (m.y_o != want && failed < 5)
        ADD_FAILURE() << std::hex << prev_a << " + " << prev_b << " = " << m.y_o << ", want " << want;
    }
    m.clk_i = 1;
    m.eval();
    prev_a = a, prev_b = b;
  }
  m.final();
  EXPECT_EQ(failed, 0u);
  std::printf("fp32_add_pipe Stages=2: %llu sums at 1 per cycle, %llu failed\n",
              static_cast<unsigned long long>(passed), static_cast<unsigned long long>(failed));
}

struct LaneOut {
  uint32_t value, mask;
  uint64_t group, cycle;
  static LaneOut read(const Varc_lane_issue& m, uint64_t g, uint64_t c = 0) {
    return {m.out_value_o, m.out_lane_mask_o, g, c};
  }
  bool operator==(const LaneOut& o) const { return value == o.value && mask == o.mask; }
};

TEST(RtlUnits, LaneIssue) {
  SCOPED_TRACE(announce_seed());
  const auto groups = random_groups(test_seed() + 31, 60000);
  for (double p : kReadyProbs) {
    Clocked<Varc_lane_issue> h;
    std::vector<uint64_t> acc;
    std::vector<LaneOut> got;
    uint64_t stable_fail = 0, passed = 0, failed = 0;
    drive_units(h, groups, p, false, acc, got, stable_fail);
    size_t pos = 0;
    for (size_t i = 0; i < groups.size(); ++i) {
      const auto& g = groups[i].g;
      bool ok = true;
      uint64_t k = 0;
      for (uint32_t rem = g.lane_mask; rem != 0; rem &= rem - 1, ++k, ++pos) {
        const int l = __builtin_ctz(rem);
        ok = ok && pos < got.size() && got[pos].group == i &&
             got[pos].mask == (1u << l) && got[pos].value == groups[i].values.value[l];
        if (ok && p >= 1.0) ok = got[pos].cycle == acc[i] + rtl_timing::kLsuFirstLaneLatency + k;
      }
      if (p >= 1.0 && i + 1 < groups.size()) ok = ok && acc[i + 1] == got[pos - 1].cycle;  // no gap
      ok ? ++passed : ++failed;
    }
    EXPECT_EQ(pos, got.size());
    EXPECT_EQ(stable_fail, 0u);
    EXPECT_EQ(failed, 0u);
    std::printf("lane_issue ready=%.2f: %llu passed, %llu failed (%llu cycles)\n", p,
                static_cast<unsigned long long>(passed), static_cast<unsigned long long>(failed),
                static_cast<unsigned long long>(h.cycle));
  }
}

}  // namespace
