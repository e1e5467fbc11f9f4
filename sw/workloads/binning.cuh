// Tile binning shared by the splat and sphere rasterizers: every primitive is duplicated
// into each 16x16 tile its screen rectangle touches, keyed (tile << 32 | depth bits), and
// the keys are radix-sorted (CUB) so each tile's list runs front to back.
#pragma once
#include <cstdint>

#include "common.cuh"

namespace arc::sw {

constexpr int kTile = 16;

class TileBinner {
 public:
  // rect[i] = tiles [x0, x1) x [y0, y1) (empty = culled); depth[i] > 0.
  void bin(const int4* rect, const float* depth, int n, int tiles_x, int tiles_y);
  const uint32_t* list() const { return vals_sorted_.get(); }  // primitive ids by tile, depth
  const uint2* ranges() const { return ranges_.get(); }       // [begin, end) per tile
  size_t entries() const { return entries_; }
  std::vector<uint32_t> list_host() const;
  std::vector<uint2> ranges_host() const { return ranges_.download(); }

 private:
  DevBuf<uint32_t> counts_, offsets_;
  DevBuf<uint64_t> keys_, keys_sorted_;
  DevBuf<uint32_t> vals_, vals_sorted_;
  DevBuf<uint2> ranges_;
  DevBuf<unsigned char> temp_;
  size_t entries_ = 0;
};

}  // namespace arc::sw
