#include "slice.h"

#include <algorithm>
#include <cmath>

namespace arc::sim {

double fifo_gap(uint32_t n, double slot, double word_interval) {
  if (n <= 1) return std::max(slot, word_interval);
  constexpr uint32_t kOps = 50000;
  std::vector<double> last(n, -1e18);
  uint64_t x = 0x9E3779B97F4A7C15ull;  // splitmix64: fixed, portable
  auto draw = [&] {
    uint64_t z = (x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return static_cast<uint32_t>((z ^ (z >> 31)) % n);
  };
  double t = 0;  // the first op starts at 0
  last[draw()] = 0;
  for (uint32_t k = 1; k < kOps; ++k) {
    const uint32_t w = draw();
    t = std::max(t + slot, last[w] + word_interval);
    last[w] = t;
  }
  return t / (kOps - 1);
}

std::vector<uint64_t> fifo_gap_table(double slot, double word_interval, uint64_t sub) {
  std::vector<uint64_t> g(SliceState::kTracked + 1);
  for (uint32_t n = 0; n <= SliceState::kTracked; ++n)
    g[n] = static_cast<uint64_t>(std::llround((n <= 1 ? slot : fifo_gap(n, slot, word_interval)) * double(sub)));
  return g;
}

}  // namespace arc::sim
