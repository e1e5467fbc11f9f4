#include "request.h"

#include "huge_pages.h"

namespace arc::sim {

namespace {

// The free lists. Single-threaded (one model per process; tests fork per run).
bool g_pools_alive = false;

// Blocks are made in huge-page slabs (huge_pages.h): requests in flight hold thousands, whose
// values the ROP units read all over them (a TLB miss per request with one heap block each).
struct Pools {
  Pools() { g_pools_alive = true; }
  ~Pools() { g_pools_alive = false; }  // a handle released after this (static teardown) just lets go
  static constexpr size_t kPerSlab = kHugeBlockBytes / sizeof(OpBlock);
  std::vector<HugeBlock<OpBlock>> slabs;  // every block ever made (owns them)
  size_t used = kPerSlab;                 // blocks handed out of the last slab
  std::vector<OpBlock*> free_blocks;
};

Pools& pools() {
  static Pools p;
  return p;
}

}  // namespace

OpsRef OpsRef::make() {
  Pools& p = pools();
  OpBlock* b;
  if (p.free_blocks.empty()) {
    if (p.used == Pools::kPerSlab) {
      p.slabs.push_back(new_huge_block<OpBlock>());
      p.used = 0;
    }
    b = &p.slabs.back()[p.used++];
  } else {
    b = p.free_blocks.back();
    p.free_blocks.pop_back();
  }
  b->refs = 1;
  b->size = 0;
  return OpsRef(b);
}

void OpsRef::release() {
  if (b_ && --b_->refs == 0 && g_pools_alive) pools().free_blocks.push_back(b_);
  b_ = nullptr;
}

}  // namespace arc::sim
