// SubcoreDut: the Verilated arc_subcore_top (rtl/) driven cycle by cycle from C++. Push warp
// instructions (each with its scheduler config and busy input); the driver offers them in
// order on instr_valid_i, optionally with random valid gaps and random back-pressure on
// txn_ready_i, and collects every emitted transaction with the cycle of its handshake.
// Optional FST waveform (open it in GTKWave).
#pragma once
#include <cstdint>
#include <deque>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "fp32_ref.h"
#include "golden.h"

namespace arc::dut {

struct SubcoreOptions {
  fp::FtzMode ftz = fp::FtzMode::Flush;  // FTZ parameter of the model (both are built)
  double out_ready_prob = 1.0;           // P(txn_ready_i = 1) in a cycle (< 1: back-pressure)
  double in_valid_prob = 1.0;            // P(a queued instruction is offered in a cycle)
  uint64_t seed = 1;                     // for the two random choices above
  std::string fst_path;                  // non-empty: write an FST waveform to this file
  // The paper configuration (RfPort = 1): no operand register; the driver plays the register
  // file, answering each rf_* read with the accepted instruction's register, all lanes, in the
  // read's handshake cycle (a signalling-NaN row otherwise), ready with probability
  // rf_ready_prob in a cycle (< 1: bank conflicts).
  bool rf_port = false;
  double rf_ready_prob = 1.0;
};

struct TimedTransaction {
  golden::Transaction txn;
  uint64_t cycle;  // cycle of the handshake (txn_valid_o && txn_ready_i); cycle 0 = after reset
  uint64_t instr;  // index (push order) of the instruction it belongs to
};

class SubcoreDut {
 public:
  explicit SubcoreDut(const SubcoreOptions& opt = {});
  ~SubcoreDut();
  SubcoreDut(const SubcoreDut&) = delete;
  SubcoreDut& operator=(const SubcoreDut&) = delete;

  // Queue one instruction. Throws arc::Error if cfg.adder_ftz is not the model's FTZ. A
  // threshold above 63 is driven as 63 (the same decision: no group has more than 32 lanes).
  void push(const golden::WarpInstr& in, const golden::SchedConfig& cfg, bool busy);

  // One clock cycle: drive inputs, settle, record handshakes, rising edge.
  void step();
  // Step until every queued instruction is accepted and its transactions are out. Throws
  // arc::Error if that takes more than max_cycles.
  void run_until_idle(uint64_t max_cycles = 100'000'000);
  bool idle() const;  // nothing queued and the top is idle (instr_ready_o)

  uint64_t cycle() const { return cycle_; }
  uint64_t pushed() const { return pushed_; }
  uint64_t accepted() const { return accepted_; }
  // Transactions / accept cycles (one per instruction) collected since the last take.
  std::vector<TimedTransaction> take_transactions();
  std::vector<uint64_t> take_accept_cycles();

  class Model;  // the Verilated model behind a type-erased interface (subcore_dut.cpp)

 private:
  struct Pending {
    golden::WarpInstr in;
    uint8_t mode;
    uint8_t threshold;
    bool busy;
  };
  void load_front();

  SubcoreOptions opt_;
  std::unique_ptr<Model> model_;
  std::deque<Pending> queue_;
  std::mt19937_64 rng_;
  std::bernoulli_distribution ready_dist_, valid_dist_, rf_ready_dist_;
  uint64_t cycle_ = 0, pushed_ = 0, accepted_ = 0;
  std::vector<TimedTransaction> txns_;
  std::vector<uint64_t> accepts_;
};

}  // namespace arc::dut
