// The transposed reduce-scatter (arc::Method::Swt, sw/include/arc/reduce.cuh) replayed lane by
// lane on the CPU with the layout the device code uses (arc/swt_shape.h): every parameter's sum
// ends at SwtShape::lane_of(p), which is a sender, and is bit-identical to the butterfly's
// (__shfl_down 16..1 at lane 0, and gsplat's shfl_xor cg::reduce); the shuffle counts the
// Adaptive cost model uses are what the exchange issues.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "arc/swt_shape.h"

namespace {

uint32_t bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

// The device exchange (swt_scatter), all 32 lanes in lockstep. Returns each lane's value and
// counts the shuffles issued.
template <int NP, int kVec>
std::vector<float> replay(const std::vector<std::vector<float>>& acc, int& shuffles) {
  using S = arc::detail::SwtShape<NP, kVec>;
  std::vector<std::vector<float>> r(32, std::vector<float>(S::K, 0.0f));
  for (int l = 0; l < 32; ++l)
    for (int i = 0; i < NP; ++i) r[l][i] = acc[l][i];
  shuffles = 0;
  for (int s = 0; s < S::M; ++s) {
    const int off = 16 >> s;
    for (int t = 0; t < (S::K >> (s + 1)); ++t) {
      if (((2 * t) << s) >= NP) {
        for (int l = 0; l < 32; ++l) r[l][t] = 0.0f;
        continue;
      }
      float keep[32], send[32];
      for (int l = 0; l < 32; ++l) {
        const bool hi = ((l >> (4 - s)) & 1) != 0;
        keep[l] = hi ? r[l][2 * t + 1] : r[l][2 * t];
        send[l] = hi ? r[l][2 * t] : r[l][2 * t + 1];
      }
      ++shuffles;
      for (int l = 0; l < 32; ++l) r[l][t] = keep[l] + send[l ^ off];
    }
  }
  for (int off = 16 >> S::M; off >= 1; off >>= 1) {
    ++shuffles;
    std::vector<float> o(32);
    for (int l = 0; l < 32; ++l) o[l] = r[l][0];
    for (int l = 0; l < 32; ++l) r[l][0] = o[l] + o[l ^ off];
  }
  shuffles += kVec - 1;  // the vector gathers
  std::vector<float> out(32);
  for (int l = 0; l < 32; ++l) out[l] = r[l][0];
  return out;
}

// SW-B's butterfly (__shfl_down_sync 16..1, own value past lane 31): lane 0's sum.
float butterfly(std::vector<float> a) {
  for (int off = 16; off >= 1; off >>= 1) {
    std::vector<float> o = a;
    for (int l = 0; l < 32; ++l) a[l] = o[l] + (l + off < 32 ? o[l + off] : o[l]);
  }
  return a[0];
}
// gsplat's cg::reduce (shfl_xor 16..1): lane 0's sum.
float xor_reduce(std::vector<float> a) {
  for (int off = 16; off >= 1; off >>= 1) {
    std::vector<float> o = a;
    for (int l = 0; l < 32; ++l) a[l] = o[l] + o[l ^ off];
  }
  return a[0];
}

template <int NP, int kVec>
void check(uint32_t seed) {
  using S = arc::detail::SwtShape<NP, kVec>;
  std::mt19937 g(seed);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  for (int trial = 0; trial < 50; ++trial) {
    const uint32_t active = trial == 0 ? 0xffffffffu : static_cast<uint32_t>(g()) | 1u;
    std::vector<std::vector<float>> acc(32, std::vector<float>(NP, 0.0f));
    for (int l = 0; l < 32; ++l)
      if ((active >> l) & 1u)
        for (int i = 0; i < NP; ++i) acc[l][i] = u(g) * static_cast<float>(1 << (g() % 20));  // spread exponents
    int sh = 0;
    const std::vector<float> got = replay<NP, kVec>(acc, sh);
    EXPECT_EQ(sh, S::shuffles());
    int senders = 0;
    for (int l = 0; l < 32; ++l)
      if (S::sender(l) && S::param_of(l) < NP && S::param_of(l) % kVec == 0) ++senders;
    EXPECT_EQ(senders, (NP + kVec - 1) / kVec);
    for (int p = 0; p < NP; ++p) {
      const int lane = S::lane_of(p);
      ASSERT_EQ(S::param_of(lane), p);
      ASSERT_TRUE(S::sender(lane));
      std::vector<float> col(32);
      for (int l = 0; l < 32; ++l) col[l] = acc[l][p];
      EXPECT_EQ(bits(got[lane]), bits(butterfly(col))) << "NP " << NP << " param " << p << " trial " << trial;
      EXPECT_EQ(bits(got[lane]), bits(xor_reduce(col))) << "NP " << NP << " param " << p;
    }
  }
}

}  // namespace

TEST(SwSwt, SumsAreTheButterflysAtTheSendingLanes) {
  check<9, 1>(1);   // 3DGS
  check<9, 4>(2);
  check<8, 1>(3);   // Pulsar's record
  check<8, 4>(4);
  check<4, 1>(5);   // tex
  check<4, 4>(6);
  check<1, 1>(7);
  check<3, 2>(8);
  check<12, 1>(9);
  check<17, 1>(10);
  check<32, 1>(11);
}

TEST(SwSwt, ShuffleCounts) {
  using arc::detail::SwtShape;
  EXPECT_EQ((SwtShape<9, 1>::shuffles()), 12);  // vs 45 for the butterfly of 9 values
  EXPECT_EQ((SwtShape<9, 4>::shuffles()), 15);
  EXPECT_EQ((SwtShape<8, 1>::shuffles()), 9);
  EXPECT_EQ((SwtShape<4, 4>::shuffles()), 9);
  EXPECT_EQ((SwtShape<1, 1>::shuffles()), 5);   // a plain butterfly
  EXPECT_EQ((SwtShape<32, 1>::shuffles()), 31);
}
