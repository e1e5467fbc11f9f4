// The SystemC model of the ARC-HW top (Vsc_subcore_top, arc_rtl_sc_models, FTZ=1) under
// sc_start: a clocked SystemC bench offers the directed corners plus seeded random warp
// instructions with random back-pressure on txn_ready_i and checks the transaction stream
// against arc::golden::process(). Also shows the timing model how the ports are driven:
// inputs written after a rising edge, handshakes observed at the falling edge.
#include <gtest/gtest.h>
#include <systemc.h>

#include <memory>
#include <random>

#include "Vsc_subcore_top.h"
#include "golden.h"
#include "warp_gen.h"

namespace {

using namespace arc::golden;

SC_MODULE(SubcoreBench) {
  sc_clock clk{"clk", 1, SC_NS};
  sc_signal<bool> rst_n{"rst_n"}, instr_valid{"instr_valid"}, instr_ready{"instr_ready"}, busy{"busy"},
      txn_valid{"txn_valid"}, txn_ready{"txn_ready"}, txn_reduced{"txn_reduced"};
  sc_signal<uint32_t> mask{"mask"}, mode{"mode"}, thr{"thr"}, txn_addr{"txn_addr"}, txn_value{"txn_value"},
      txn_mask{"txn_mask"};
  sc_signal<sc_bv<1024>> addr{"addr"}, value{"value"};
  sc_signal<bool> rf_valid{"rf_valid"}, rf_ready{"rf_ready"};  // RfPort = 1 only: unused here
  sc_signal<uint32_t> rf_lane{"rf_lane"}, rf_value{"rf_value"};
  std::unique_ptr<Vsc_subcore_top> dut;
  std::vector<WarpCase> cases;
  std::vector<std::vector<Transaction>> got;
  uint64_t cycles = 0;

  SC_CTOR(SubcoreBench) : dut(std::make_unique<Vsc_subcore_top>("dut")) {
    dut->clk_i(clk);
    dut->rst_ni(rst_n);
    dut->instr_valid_i(instr_valid);
    dut->instr_ready_o(instr_ready);
    dut->instr_mask_i(mask);
    dut->instr_addr_i(addr);
    dut->instr_value_i(value);
    dut->mode_i(mode);
    dut->threshold_i(thr);
    dut->busy_i(busy);
    dut->txn_valid_o(txn_valid);
    dut->txn_ready_i(txn_ready);
    dut->txn_reduced_o(txn_reduced);
    dut->txn_addr_o(txn_addr);
    dut->txn_value_o(txn_value);
    dut->txn_lane_mask_o(txn_mask);
    dut->rf_valid_o(rf_valid);
    dut->rf_ready_i(rf_ready);
    dut->rf_lane_o(rf_lane);
    dut->rf_value_i(rf_value);
    SC_THREAD(drive);
  }

  void load(const WarpCase& c) {
    sc_bv<1024> a, v;
    for (int l = 0; l < kLanes; ++l) {
      a.range(32 * l + 31, 32 * l) = c.in.addr[l];
      v.range(32 * l + 31, 32 * l) = c.in.value[l];
    }
    mask.write(c.in.active_mask);
    addr.write(a);
    value.write(v);
    mode.write(static_cast<uint32_t>(c.cfg.mode));
    thr.write(std::min<uint32_t>(c.cfg.threshold, 63));
    busy.write(c.busy);
  }

  void drive() {
    std::mt19937_64 rng(3);
    rst_n.write(false);
    wait(clk.posedge_event());
    wait(clk.posedge_event());
    rst_n.write(true);
    size_t idx = 0;
    if (!cases.empty()) load(cases[0]);
    for (;;) {
      instr_valid.write(idx < cases.size());
      txn_ready.write(rng() % 4 != 0);  // ready 3 cycles in 4
      wait(clk.negedge_event());        // outputs have settled
      const bool accept = instr_valid.read() && instr_ready.read();
      if (txn_valid.read() && txn_ready.read())
        got.back().push_back({txn_reduced.read() ? Route::Reduced : Route::Lsu, txn_addr.read(), txn_value.read(),
                              txn_mask.read()});
      if (accept) got.emplace_back();
      if (!accept && idx >= cases.size() && instr_ready.read() && !txn_valid.read()) break;
      wait(clk.posedge_event());
      ++cycles;
      if (accept && ++idx < cases.size()) load(cases[idx]);
    }
    sc_stop();
  }
};

TEST(SystemC, VerilatedSubcoreTopUnderScStart) {
  SubcoreBench bench("bench");
  bench.cases = directed_cases(arc::fp::FtzMode::Flush);
  WarpGen gen(0x5C);
  for (int i = 0; i < 5000; ++i) bench.cases.push_back(gen.next(arc::fp::FtzMode::Flush));
  bench.got.reserve(bench.cases.size());
  sc_start();
  bench.dut->final();
  ASSERT_EQ(bench.got.size(), bench.cases.size());
  uint64_t passed = 0, failed = 0;
  for (size_t i = 0; i < bench.cases.size(); ++i) {
    const auto& c = bench.cases[i];
    (bench.got[i] == process(c.in, c.cfg, c.busy) ? passed : failed)++;
  }
  std::printf("systemc subcore_top: %llu passed, %llu failed in %llu cycles\n", static_cast<unsigned long long>(passed),
              static_cast<unsigned long long>(failed), static_cast<unsigned long long>(bench.cycles));
  EXPECT_EQ(failed, 0u);
}

}  // namespace

int sc_main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
