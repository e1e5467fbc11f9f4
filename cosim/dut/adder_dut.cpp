#include "adder_dut.h"

#include <verilated.h>

#include "Varc_fp32_add_ftz0.h"
#include "Varc_fp32_add_ftz1.h"

namespace arc::dut {

AdderDut::AdderDut(fp::FtzMode ftz) : ftz_(ftz), ctx_(std::make_unique<VerilatedContext>()) {
  if (ftz_ == fp::FtzMode::Flush) {
    flush_ = std::make_unique<Varc_fp32_add_ftz1>(ctx_.get(), "adder_ftz1");
  } else {
    keep_ = std::make_unique<Varc_fp32_add_ftz0>(ctx_.get(), "adder_ftz0");
  }
}

AdderDut::~AdderDut() {
  if (flush_) flush_->final();
  if (keep_) keep_->final();
}

uint32_t AdderDut::operator()(uint32_t a, uint32_t b) {
  if (flush_) {
    flush_->a_i = a;
    flush_->b_i = b;
    flush_->eval();
    return flush_->y_o;
  }
  keep_->a_i = a;
  keep_->b_i = b;
  keep_->eval();
  return keep_->y_o;
}

}  // namespace arc::dut
