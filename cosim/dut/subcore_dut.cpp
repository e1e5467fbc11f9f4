#include "subcore_dut.h"

#include <verilated.h>
#include <verilated_fst_c.h>

#include <algorithm>
#include <array>
#include <utility>

#include "Varc_subcore_top_ftz0.h"
#include "Varc_subcore_top_ftz1.h"
#include "Varc_subcore_top_rf_ftz0.h"
#include "Varc_subcore_top_rf_ftz1.h"
#include "error.h"

namespace arc::dut {

// Type-erased access to the two model classes (one per FTZ parameter).
class SubcoreDut::Model {
 public:
  virtual ~Model() = default;
  virtual void load(const golden::WarpInstr& in, uint8_t mode, uint8_t thr, bool busy) = 0;
  virtual void drive(bool rst_n, bool valid, bool ready, bool rf_ready) = 0;
  virtual void edge() = 0;  // rising edge, then falling edge inputs stay
  virtual bool instr_ready() const = 0;
  virtual bool txn_valid() const = 0;
  virtual golden::Transaction txn() const = 0;
};

namespace {

template <class M>
class ModelImpl final : public SubcoreDut::Model {
 public:
  ModelImpl(const std::string& fst_path) : ctx_(std::make_unique<VerilatedContext>()) {
    if (!fst_path.empty()) ctx_->traceEverOn(true);
    top_ = std::make_unique<M>(ctx_.get(), "arc_subcore_top");
    if (!fst_path.empty()) {
      fst_ = std::make_unique<VerilatedFstC>();
      top_->trace(fst_.get(), 99);
      fst_->open(fst_path.c_str());
      if (!fst_->isOpen()) throw Error("cannot open waveform file " + fst_path);
    }
  }
  ~ModelImpl() override {
    top_->final();
    if (fst_) fst_->close();
  }
  void load(const golden::WarpInstr& in, uint8_t mode, uint8_t thr, bool busy) override {
    top_->instr_mask_i = in.active_mask;
    for (int l = 0; l < golden::kLanes; ++l) {
      top_->instr_addr_i[l] = in.addr[l];
      top_->instr_value_i[l] = in.value[l];
      pending_[l] = in.value[l];
    }
    top_->mode_i = mode;
    top_->threshold_i = thr;
    top_->busy_i = busy;
  }
  void drive(bool rst_n, bool valid, bool ready, bool rf_ready) override {
    top_->clk_i = 0;
    top_->rst_ni = rst_n;
    top_->instr_valid_i = valid;
    top_->txn_ready_i = ready;
    top_->rf_ready_i = rf_ready;
    top_->eval();
    // The register file (RfPort = 1): the held instruction's register, all lanes, in a read's
    // handshake cycle; a signalling NaN in every lane otherwise, so a value taken outside the
    // handshake (or from the wrong lane) shows in the sums.
    const bool read = top_->rf_valid_o && top_->rf_ready_i;
    for (int l = 0; l < golden::kLanes; ++l) top_->rf_row_i[l] = read ? rf_[l] : kNotRead;
    top_->eval();
    if (fst_) fst_->dump(2 * time_);
  }
  void edge() override {
    if (top_->instr_valid_i && top_->instr_ready_o) rf_ = pending_;  // the warp's register, held
    top_->clk_i = 1;
    top_->eval();
    if (fst_) fst_->dump(2 * time_ + 1);
    ++time_;
  }
  bool instr_ready() const override { return top_->instr_ready_o; }
  bool txn_valid() const override { return top_->txn_valid_o; }
  golden::Transaction txn() const override {
    return {top_->txn_reduced_o ? golden::Route::Reduced : golden::Route::Lsu, top_->txn_addr_o,
            top_->txn_value_o, top_->txn_lane_mask_o};
  }

 private:
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<M> top_;
  std::unique_ptr<VerilatedFstC> fst_;
  uint64_t time_ = 0;
  std::array<uint32_t, golden::kLanes> pending_{}, rf_{};
  static constexpr uint32_t kNotRead = 0x7FA0'0001u;  // rf_row_i outside a read
};

}  // namespace

SubcoreDut::SubcoreDut(const SubcoreOptions& opt)
    : opt_(opt),
      rng_(opt.seed),
      ready_dist_(std::clamp(opt.out_ready_prob, 0.0, 1.0)),
      valid_dist_(std::clamp(opt.in_valid_prob, 0.0, 1.0)),
      rf_ready_dist_(std::clamp(opt.rf_ready_prob, 0.0, 1.0)) {
  if (opt.out_ready_prob <= 0.0 || opt.in_valid_prob <= 0.0)
    throw Error("SubcoreDut: out_ready_prob and in_valid_prob must be > 0");
  if (opt.rf_ready_prob <= 0.0) throw Error("SubcoreDut: rf_ready_prob must be > 0");
  const bool flush = opt.ftz == fp::FtzMode::Flush;
  if (opt.rf_port && flush) model_ = std::make_unique<ModelImpl<Varc_subcore_top_rf_ftz1>>(opt.fst_path);
  else if (opt.rf_port) model_ = std::make_unique<ModelImpl<Varc_subcore_top_rf_ftz0>>(opt.fst_path);
  else if (flush) model_ = std::make_unique<ModelImpl<Varc_subcore_top_ftz1>>(opt.fst_path);
  else model_ = std::make_unique<ModelImpl<Varc_subcore_top_ftz0>>(opt.fst_path);
  for (int i = 0; i < 2; ++i) {  // two reset cycles; cycle numbering starts after them
    model_->drive(false, false, true, true);
    model_->edge();
  }
}

SubcoreDut::~SubcoreDut() = default;

void SubcoreDut::push(const golden::WarpInstr& in, const golden::SchedConfig& cfg, bool busy) {
  if (cfg.adder_ftz != opt_.ftz)
    throw Error("SubcoreDut: instruction asks for adder FTZ=" + std::to_string(static_cast<int>(cfg.adder_ftz)) +
                " but the model was built with FTZ=" + std::to_string(static_cast<int>(opt_.ftz)));
  queue_.push_back({in, static_cast<uint8_t>(cfg.mode), static_cast<uint8_t>(std::min<uint32_t>(cfg.threshold, 63)),
                    busy});
  ++pushed_;
  if (queue_.size() == 1) load_front();
}

void SubcoreDut::load_front() {
  const Pending& p = queue_.front();
  model_->load(p.in, p.mode, p.threshold, p.busy);
}

void SubcoreDut::step() {
  const bool offer = !queue_.empty() && (opt_.in_valid_prob >= 1.0 || valid_dist_(rng_));
  const bool ready = opt_.out_ready_prob >= 1.0 || ready_dist_(rng_);
  const bool rf_ready = opt_.rf_ready_prob >= 1.0 || rf_ready_dist_(rng_);
  model_->drive(true, offer, ready, rf_ready);
  const bool accept = offer && model_->instr_ready();
  if (ready && model_->txn_valid()) {
    if (accepted_ == 0) throw Error("SubcoreDut: transaction before any instruction was accepted");
    txns_.push_back({model_->txn(), cycle_, accepted_ - 1});
  }
  model_->edge();
  if (accept) {
    accepts_.push_back(cycle_);
    ++accepted_;
    queue_.pop_front();
    if (!queue_.empty()) load_front();  // inputs change only after the rising edge
  }
  ++cycle_;
}

bool SubcoreDut::idle() const { return queue_.empty() && model_->instr_ready() && !model_->txn_valid(); }

void SubcoreDut::run_until_idle(uint64_t max_cycles) {
  const uint64_t start = cycle_;
  while (!idle()) {
    if (cycle_ - start >= max_cycles)
      throw Error("SubcoreDut: not idle after " + std::to_string(max_cycles) + " cycles");
    step();
  }
}

std::vector<TimedTransaction> SubcoreDut::take_transactions() { return std::exchange(txns_, {}); }
std::vector<uint64_t> SubcoreDut::take_accept_cycles() { return std::exchange(accepts_, {}); }

}  // namespace arc::dut
