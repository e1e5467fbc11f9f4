// The Verilated arc_fp32_add (rtl/) as a plain C++ function object, one instance per FTZ mode.
#pragma once
#include <cstdint>
#include <memory>

#include "fp32_ref.h"

class VerilatedContext;
class Varc_fp32_add_ftz0;
class Varc_fp32_add_ftz1;

namespace arc::dut {

class AdderDut {
 public:
  explicit AdderDut(fp::FtzMode ftz);
  ~AdderDut();
  AdderDut(const AdderDut&) = delete;
  AdderDut& operator=(const AdderDut&) = delete;

  // Drives a and b, evaluates the combinational model, returns y.
  uint32_t operator()(uint32_t a, uint32_t b);

 private:
  fp::FtzMode ftz_;
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<Varc_fp32_add_ftz0> keep_;
  std::unique_ptr<Varc_fp32_add_ftz1> flush_;
};

}  // namespace arc::dut
