#include "arc_unit_rtl.h"

#include <systemc.h>  // the Verilated SystemC headers expect the sc_core names unqualified
#include <verilated.h>
#include <verilated_fst_sc.h>

#include "Vsc_subcore_top.h"
#include "error.h"

namespace arc::sim {

namespace {

class ArcUnitRtl : public ArcUnit {
 public:
  SC_HAS_PROCESS(ArcUnitRtl);
  ArcUnitRtl(sc_core::sc_module_name name, const ArcUnitSetup& setup, Stats& stats)
      : ArcUnit(name, setup, stats), top_(std::make_unique<Vsc_subcore_top>("rtl")) {
    top_->clk_i(clk_);
    top_->rst_ni(rst_n_);
    top_->instr_valid_i(instr_valid_);
    top_->instr_ready_o(instr_ready_);
    top_->instr_mask_i(instr_mask_);
    top_->instr_addr_i(instr_addr_);
    top_->instr_value_i(instr_value_);
    top_->mode_i(mode_);
    top_->threshold_i(threshold_);
    top_->busy_i(busy_);
    top_->txn_valid_o(txn_valid_);
    top_->txn_ready_i(txn_ready_);
    top_->txn_reduced_o(txn_reduced_);
    top_->txn_addr_o(txn_addr_);
    top_->txn_value_o(txn_value_);
    top_->txn_lane_mask_o(txn_mask_);
    // The register-file read port of RfPort = 1; this model is RfPort = 0 (operand register).
    top_->rf_valid_o(rf_valid_);
    top_->rf_ready_i(rf_ready_);
    top_->rf_lane_o(rf_lane_);
    top_->rf_value_i(rf_value_);
    SC_THREAD(run);
  }
  ~ArcUnitRtl() override { top_->final(); }
  Vsc_subcore_top& top() { return *top_; }

 private:
  // Inputs and the rising clock are written in one delta: the model's eval sees the edge
  // with this cycle's inputs (sampled at the end of the cycle, as flops do). Two delta cycles
  // later its outputs have settled; the clock falls in the next delta, before time moves.
  void edge() {
    clk_.write(true);
    wait(sc_core::SC_ZERO_TIME);
    wait(sc_core::SC_ZERO_TIME);
    clk_.write(false);
  }

  void drive_instr(const trace::Instr& ins) {
    if (&ins == driven_) return;  // the held instruction's operands are already on the pins
    driven_ = &ins;
    sc_dt::sc_bv<1024> a, v;
    for (int l = 0; l < 32; ++l) {
      a.set_word(l, ins.addr[l]);
      v.set_word(l, ins.value[l]);
    }
    instr_mask_.write(ins.active_mask);
    instr_addr_.write(a);
    instr_value_.write(v);
  }

  void run() {
    // Reset (at time 0, in delta cycles: no model time passes).
    mode_.write(static_cast<uint32_t>(setup_.sched.mode));
    threshold_.write(std::min<uint32_t>(setup_.sched.threshold, 63));
    rst_n_.write(false);
    edge();
    wait(sc_core::SC_ZERO_TIME);
    rst_n_.write(true);
    edge();
    wait(sc_core::SC_ZERO_TIME);
    for (;;) {
      const Cycle now = now_cycle();
      // Registered outputs, as they stand before this cycle's edge.
      const bool ready = instr_ready_.read(), valid = txn_valid_.read();
      const bool have_in = in.ready(now);
      if (ready && !valid && !have_in) {
        if (!in.empty()) wait(cycles(in.next_ready() - now));  // an instruction is on its way
        else wait(wake.ev);  // idle: the clock stops until the sub-core hands over an instruction
        continue;
      }
      const bool can_out = out->can_push(now);
      if (valid && can_out) {
        golden::Transaction t{txn_reduced_.read() ? golden::Route::Reduced : golden::Route::Lsu, txn_addr_.read(),
                              txn_value_.read(), txn_mask_.read()};
        out->push(now, to_packet(t));
      }
      instr_valid_.write(have_in);
      if (have_in) drive_instr(*in.front());
      const bool b = busy->read(now);
      busy_.write(b);
      txn_ready_.write(can_out);
      if (have_in && ready) {
        in.pop(now);
        driven_ = nullptr;  // the next instruction may reuse the sub-core's buffer: drive it anew
        if (b) ++stats_.instrs_seen_busy;
      }
      edge();
      // Next cycle (the sub-core's push or the LSU's pop also wake us; a stale wake is harmless).
      wait(cycles(1));
    }
  }

  const trace::Instr* driven_ = nullptr;
  std::unique_ptr<Vsc_subcore_top> top_;
  sc_core::sc_signal<bool> clk_{"clk"}, rst_n_{"rst_n"}, instr_valid_{"instr_valid"}, instr_ready_{"instr_ready"},
      busy_{"busy"}, txn_valid_{"txn_valid"}, txn_ready_{"txn_ready"}, txn_reduced_{"txn_reduced"};
  sc_core::sc_signal<uint32_t> instr_mask_{"instr_mask"}, mode_{"mode"}, threshold_{"threshold"},
      txn_addr_{"txn_addr"}, txn_value_{"txn_value"}, txn_mask_{"txn_mask"};
  sc_core::sc_signal<sc_dt::sc_bv<1024>> instr_addr_{"instr_addr"}, instr_value_{"instr_value"};
  sc_core::sc_signal<bool> rf_valid_{"rf_valid"}, rf_ready_{"rf_ready"};
  sc_core::sc_signal<uint32_t> rf_lane_{"rf_lane"}, rf_value_{"rf_value"};
};

}  // namespace

std::unique_ptr<ArcUnit> make_arc_unit_rtl(const char* name, const ArcUnitSetup& setup, Stats& stats) {
  if (setup.sched.adder_ftz != fp::FtzMode::Flush)
    throw Error("the RTL ARC unit is built with FTZ=1; adder_ftz must be Flush");
  return std::make_unique<ArcUnitRtl>(name, setup, stats);
}

void enable_rtl_tracing() { Verilated::traceEverOn(true); }

struct RtlWave::Impl {
  VerilatedFstSc fst;
};

RtlWave::RtlWave(const std::string& path, const std::vector<std::unique_ptr<ArcUnit>>& units)
    : impl_(std::make_unique<Impl>()) {
  for (const auto& u : units) static_cast<ArcUnitRtl&>(*u).top().trace(&impl_->fst, 99);
  impl_->fst.open(path.c_str());
  if (!impl_->fst.isOpen()) throw Error("--wave: cannot write " + path);
}

RtlWave::~RtlWave() { impl_->fst.close(); }

}  // namespace arc::sim
