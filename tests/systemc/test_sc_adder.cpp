// SystemC x Verilator link: the Verilated arc_fp32_add as an sc_module (Vsc_fp32_add), driven
// by a clocked SystemC testbench under sc_start and checked against the MPFR reference.
// SystemC elaborates once per process, so this executable holds one simulation; sc_main
// runs GoogleTest (libsystemc provides main()).
#include <gtest/gtest.h>
#include <systemc.h>

#include <memory>

#include "Vsc_fp32_add.h"
#include "fp32_ref.h"
#include "fp32_vectors.h"

namespace {

SC_MODULE(AdderBench) {
  sc_clock clk{"clk", 1, SC_NS};
  sc_signal<uint32_t> a{"a"}, b{"b"}, y{"y"};
  std::unique_ptr<Vsc_fp32_add> dut;
  uint64_t vectors = 0, passed = 0, failed = 0;

  SC_CTOR(AdderBench) : dut(std::make_unique<Vsc_fp32_add>("dut")) {
    dut->a_i(a);
    dut->b_i(b);
    dut->y_o(y);
    SC_THREAD(drive);
  }

  void drive() {
    arc::fp::VectorGenerator gen(2024);
    for (uint64_t i = 0; i < vectors; ++i) {
      const auto [va, vb] = gen.next();
      wait(clk.posedge_event());  // drive on the rising edge
      a.write(va);
      b.write(vb);
      wait(clk.negedge_event());  // half a cycle later the combinational output has settled
      const uint32_t want = arc::fp::add_ref(va, vb, arc::fp::FtzMode::Flush);
      (y.read() == want ? passed : failed)++;
    }
    sc_stop();
  }
};

TEST(SystemC, VerilatedAdderUnderScStart) {
  AdderBench bench("bench");
  bench.vectors = 200'000;
  sc_start();
  bench.dut->final();
  std::printf("systemc adder: %llu passed, %llu failed, simulated %s\n",
              static_cast<unsigned long long>(bench.passed), static_cast<unsigned long long>(bench.failed),
              sc_time_stamp().to_string().c_str());
  EXPECT_EQ(bench.passed, bench.vectors);
  EXPECT_EQ(bench.failed, 0u);
  EXPECT_GE(sc_time_stamp(), sc_time(199'999, SC_NS));  // one vector per 1 ns clock
}

}  // namespace

int sc_main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
