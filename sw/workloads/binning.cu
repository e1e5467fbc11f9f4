#include "binning.cuh"

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>

namespace arc::sw {
namespace {

__global__ void count_tiles(const int4* rect, int n, uint32_t* counts) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const int4 r = rect[i];
  counts[i] = (r.z > r.x && r.w > r.y) ? static_cast<uint32_t>((r.z - r.x) * (r.w - r.y)) : 0u;
}

__global__ void duplicate(const int4* rect, const float* depth, const uint32_t* incl, int n, int tiles_x,
                          uint64_t* keys, uint32_t* vals) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const int4 r = rect[i];
  if (!(r.z > r.x && r.w > r.y)) return;
  uint32_t o = i == 0 ? 0 : incl[i - 1];
  const uint64_t d = __float_as_uint(depth[i]);  // positive floats order like their bits
  for (int y = r.y; y < r.w; ++y)
    for (int x = r.x; x < r.z; ++x) {
      keys[o] = (static_cast<uint64_t>(y * tiles_x + x) << 32) | d;
      vals[o] = static_cast<uint32_t>(i);
      ++o;
    }
}

__global__ void find_ranges(const uint64_t* keys, size_t m, uint2* ranges) {
  const size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
  if (i >= m) return;
  const uint32_t t = static_cast<uint32_t>(keys[i] >> 32);
  if (i == 0) ranges[t].x = 0;
  else if (static_cast<uint32_t>(keys[i - 1] >> 32) != t) {
    ranges[static_cast<uint32_t>(keys[i - 1] >> 32)].y = static_cast<uint32_t>(i);
    ranges[t].x = static_cast<uint32_t>(i);
  }
  if (i == m - 1) ranges[t].y = static_cast<uint32_t>(m);
}

int bits_for(uint32_t x) {
  int b = 0;
  while ((1ull << b) <= x) ++b;
  return b;
}

}  // namespace

void TileBinner::bin(const int4* rect, const float* depth, int n, int tiles_x, int tiles_y) {
  const int tiles = tiles_x * tiles_y;
  if (n <= 0) {  // no primitive: no entry (the scan below reads its last element)
    entries_ = 0;
    ranges_.resize(tiles);
    ranges_.zero();
    return;
  }
  // The tile entries are counted and offset in 32 bits: fine while a frame has < 2^32 of them
  // (1080p with 10^7 Gaussians has ~10^8).
  counts_.resize(n);
  offsets_.resize(n);
  count_tiles<<<div_up(n, 256), 256>>>(rect, n, counts_.get());
  ARC_LAUNCH();
  size_t scan_bytes = 0;
  ARC_CUDA(cub::DeviceScan::InclusiveSum(nullptr, scan_bytes, counts_.get(), offsets_.get(), n));
  temp_.resize(scan_bytes);
  ARC_CUDA(cub::DeviceScan::InclusiveSum(temp_.get(), scan_bytes, counts_.get(), offsets_.get(), n));
  uint32_t total = 0;
  ARC_CUDA(cudaMemcpy(&total, offsets_.get() + n - 1, 4, cudaMemcpyDeviceToHost));
  entries_ = total;
  ranges_.resize(tiles);
  ranges_.zero();
  if (total == 0) return;
  keys_.resize(total);
  keys_sorted_.resize(total);
  vals_.resize(total);
  vals_sorted_.resize(total);
  duplicate<<<div_up(n, 256), 256>>>(rect, depth, offsets_.get(), n, tiles_x, keys_.get(), vals_.get());
  ARC_LAUNCH();
  size_t sort_bytes = 0;
  const int end_bit = 32 + bits_for(static_cast<uint32_t>(tiles));
  ARC_CUDA(cub::DeviceRadixSort::SortPairs(nullptr, sort_bytes, keys_.get(), keys_sorted_.get(), vals_.get(),
                                           vals_sorted_.get(), total, 0, end_bit));
  temp_.resize(sort_bytes);
  ARC_CUDA(cub::DeviceRadixSort::SortPairs(temp_.get(), sort_bytes, keys_.get(), keys_sorted_.get(), vals_.get(),
                                           vals_sorted_.get(), total, 0, end_bit));
  find_ranges<<<div_up(total, 256), 256>>>(keys_sorted_.get(), total, ranges_.get());
  ARC_LAUNCH();
}

std::vector<uint32_t> TileBinner::list_host() const {
  std::vector<uint32_t> v(entries_);
  if (entries_) ARC_CUDA(cudaMemcpy(v.data(), vals_sorted_.get(), 4 * entries_, cudaMemcpyDeviceToHost));
  return v;
}

}  // namespace arc::sw
