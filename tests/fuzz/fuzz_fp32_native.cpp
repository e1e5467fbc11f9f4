// libFuzzer target: the host adder of the timing path (arc::fp::add_native) must equal the MPFR
// reference (arc::fp::add_ref) bit for bit on any operand pair, in both FTZ modes. Input: the
// two binary32 bit patterns (8 bytes, little-endian; shorter inputs are zero-padded).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>

#include "fp32_native.h"
#include "fp32_ref.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  uint8_t buf[8] = {};
  std::memcpy(buf, data, size < 8 ? size : 8);
  uint32_t a, b;
  std::memcpy(&a, buf, 4);
  std::memcpy(&b, buf + 4, 4);
  for (auto m : {arc::fp::FtzMode::Keep, arc::fp::FtzMode::Flush}) {
    const uint32_t want = arc::fp::add_ref(a, b, m), got = arc::fp::add_native(a, b, m);
    if (want != got) {
      std::fprintf(stderr, "add_native(0x%08x, 0x%08x, FTZ=%d) = 0x%08x, MPFR says 0x%08x\n", a, b,
                   m == arc::fp::FtzMode::Flush, got, want);
      std::abort();
    }
  }
  return 0;
}
