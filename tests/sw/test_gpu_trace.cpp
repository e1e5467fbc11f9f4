// The committed real-GPU trace (tests/data/, captured on the H100 by scripts/gpu-bench.sh):
// every SW-S partial sum the GPU produced equals the serial ascending-lane float sum of its
// group recomputed here (FTZ=0, as the header says), and the final gradient buffer equals
// the sum of all lane updates per word up to float rounding.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <map>

#include "trace.h"

#ifndef ARCSW_TRACE_FIXTURE
#error "ARCSW_TRACE_FIXTURE must name the committed trace"
#endif

namespace {
float as_float(uint32_t b) {
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}
uint32_t as_bits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}
}  // namespace

TEST(SwGpuTrace, PartialSumsAreSerialAscendingLaneSums) {
  const auto t = arc::trace::read_trace(ARCSW_TRACE_FIXTURE);
  EXPECT_EQ(t.header.method, arc::trace::Method::SwS);
  EXPECT_EQ(t.header.reduce_ftz, 0u);
  EXPECT_GT(t.header.sm_count, 0u);
  ASSERT_GT(t.instrs.size(), 1000u);
  size_t groups = 0, mismatches = 0;
  std::vector<double> sum(t.header.buffer_words, 0.0);
  for (const auto& in : t.instrs) {
    ASSERT_EQ(arc::trace::check_instr(t.header, in), "");
    for (int l = 0; l < 32; ++l)
      if ((in.active_mask >> l) & 1u) sum[in.addr[l]] += as_float(in.value[l]);
    for (int lead = 0; lead < 32; ++lead) {
      if (!((in.reduced_mask >> lead) & 1u)) continue;
      float acc = as_float(in.value[lead]);
      for (int l = lead + 1; l < 32; ++l)
        if (((in.active_mask >> l) & 1u) && in.addr[l] == in.addr[lead]) acc = acc + as_float(in.value[l]);
      ++groups;
      if (as_bits(acc) != in.partial_sum[lead]) ++mismatches;
    }
  }
  EXPECT_GT(groups, 0u);
  EXPECT_EQ(mismatches, 0u) << "of " << groups << " reduced groups";
  ASSERT_EQ(t.final_buffer.size(), sum.size());
  double num = 0, den = 0;
  for (size_t i = 0; i < sum.size(); ++i) {
    const double d = as_float(t.final_buffer[i]) - sum[i];
    num += d * d;
    den += sum[i] * sum[i];
  }
  EXPECT_LT(std::sqrt(num / den), 1e-5);
  std::printf("%zu instructions, %zu reduced groups, %zu mismatches\n", t.instrs.size(), groups, mismatches);
}
