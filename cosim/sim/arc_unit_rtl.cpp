#include "arc_unit_rtl.h"

#include <systemc.h>  // arc_sim builds with VM_SC: verilated.h then names sc_time_stamp unqualified
#include <verilated.h>
#include <verilated_fst_c.h>

#include "Varc_subcore_top_ftz1.h"
#include "error.h"

namespace arc::sim {

namespace {

// The waveform being written, if any. One dump per cycle in which any unit gave an edge, taken
// once every unit has evaluated that cycle: at the first unit activity of a later cycle (or
// when the wave closes), so each dump shows every unit's state after its edge.
struct Wave {
  VerilatedFstC* fst = nullptr;
  bool pending = false;
  Cycle at = 0;
  void flush_before(Cycle now) {
    if (fst && pending && at < now) {
      fst->dump(at * 1000 + 500);  // ps: half a cycle after the rising edge of cycle `at`
      pending = false;
    }
  }
} g_wave;

class ArcUnitRtl : public ArcUnit {
 public:
  ArcUnitRtl(sc_core::sc_module_name name, const ArcUnitSetup& setup, Stats& stats)
      : ArcUnit(name, setup, stats), top_(std::make_unique<Varc_subcore_top_ftz1>(basename())) {
    // Reset, before time 0: two edges with rst_ni low then high (no model time passes).
    top_->mode_i = static_cast<uint8_t>(setup_.sched.mode);
    top_->threshold_i = static_cast<uint8_t>(std::min<uint32_t>(setup_.sched.threshold, 63));
    top_->rst_ni = 0;
    top_->rf_ready_i = 0;  // RfPort = 0 (operand register): the read port is unused
    for (int w = 0; w < golden::kLanes; ++w) top_->rf_row_i[w] = 0;  // (one 32-bit word per lane)
    tick();
    top_->rst_ni = 1;
    tick();
    wake.bind([this] { step(); });
  }
  ~ArcUnitRtl() override { top_->final(); }
  Varc_subcore_top_ftz1& top() { return *top_; }

 private:
  // One clock: the rising edge samples this cycle's inputs (as flops do at the end of the
  // cycle); the outputs then hold until the next edge. The falling edge changes nothing.
  void tick() {
    top_->clk_i = 1;
    top_->eval();
    top_->clk_i = 0;
    top_->eval();
  }

  void drive_instr(const golden::WarpInstr& ins) {
    if (&ins == driven_) return;  // the held instruction's operands are already on the pins
    driven_ = &ins;
    for (int l = 0; l < 32; ++l) {
      top_->instr_addr_i[l] = ins.addr[l];
      top_->instr_value_i[l] = ins.value[l];
    }
    top_->instr_mask_i = ins.active_mask;
  }

  // Runs at most once per cycle: while the unit holds work or an instruction waits for it,
  // every cycle; when it is idle, the clock stops until the sub-core's push wakes it.
  void step() {
    const Cycle now = now_cycle();
    if (ran_ && now == last_) return;  // a second wake in one cycle: already done
    // Registered outputs, as they stand before this cycle's edge.
    const bool ready = top_->instr_ready_o, valid = top_->txn_valid_o;
    const bool have_in = in.ready(now);
    if (ready && !valid && !have_in) {
      if (!in.empty()) wake.at(in.next_ready());  // an instruction is on its way
      return;                                    // else the sub-core's push wakes us
    }
    ran_ = true;
    last_ = now;
    bool can_out = out->can_push(now);
    if (valid) {
      const golden::Transaction t{top_->txn_reduced_o ? golden::Route::Reduced : golden::Route::Lsu, top_->txn_addr_o,
                                  top_->txn_value_o, top_->txn_lane_mask_o};
      can_out = emit(now, t);  // a gathered pass-through lane needs no port
    }
    top_->instr_valid_i = have_in;
    if (have_in) drive_instr(lanes_of(in.front(), expanded_));
    const bool b = busy->read(now);
    top_->busy_i = b;
    top_->txn_ready_i = can_out;
    if (have_in && ready) {
      golden::process(lanes_of(in.front(), expanded_), setup_.sched, b, txns_);  // what the RTL will emit for it
      accepted(txns_);
      in.pop(now);
      driven_ = nullptr;  // the next instruction may reuse the sub-core's buffer: drive it anew
      if (b) ++stats_.instrs_seen_busy;
    }
    g_wave.flush_before(now);
    tick();
    if (g_wave.fst) {
      g_wave.pending = true;
      g_wave.at = now;
    }
    wake.at(now + 1);
  }

  const golden::WarpInstr* driven_ = nullptr;
  golden::WarpInstr expanded_;  // the held instruction's lanes when its ref is uniform (lanes_of)
  std::vector<golden::Transaction> txns_;  // the accepted instruction's transactions (golden::process)
  bool ran_ = false;
  Cycle last_ = 0;
  std::unique_ptr<Varc_subcore_top_ftz1> top_;
};

}  // namespace

std::unique_ptr<ArcUnit> make_arc_unit_rtl(const char* name, const ArcUnitSetup& setup, Stats& stats) {
  if (setup.sched.adder_ftz != fp::FtzMode::Flush)
    throw Error("the RTL ARC unit is built with FTZ=1; adder_ftz must be Flush");
  return std::make_unique<ArcUnitRtl>(name, setup, stats);
}

void enable_rtl_tracing() { Verilated::traceEverOn(true); }

struct RtlWave::Impl {
  VerilatedFstC fst;
};

RtlWave::RtlWave(const std::string& path, const std::vector<std::unique_ptr<ArcUnit>>& units)
    : impl_(std::make_unique<Impl>()) {
  for (const auto& u : units) static_cast<ArcUnitRtl&>(*u).top().trace(&impl_->fst, 99);
  impl_->fst.open(path.c_str());
  if (!impl_->fst.isOpen()) throw Error("--wave: cannot write " + path);
  g_wave = Wave{&impl_->fst, false, 0};
}

RtlWave::~RtlWave() {
  g_wave.flush_before(kNever);
  g_wave = Wave{};
  impl_->fst.close();
}

}  // namespace arc::sim
