#include "request.h"

#include <memory>
#include <new>
#include <type_traits>
#include <vector>

#include "huge_pages.h"

namespace arc::sim {

namespace {

// The free lists. Single-threaded (one model per process; tests fork per run).
bool g_pools_alive = false;

// Blocks are carved from 2 MB slabs advised for huge pages (huge_pages.h): a busy full-form run
// keeps ~16,000 blocks (26 MB) in flight in the LSU, crossbar and ROP queues, and one
// std::make_unique per block faulted them in 4 KB at a time (half of issue 16's full-form
// trace's remaining page faults).
struct Pools {
  Pools() { g_pools_alive = true; }
  ~Pools() { g_pools_alive = false; }  // a handle released after this (static teardown) just lets go
  std::vector<HugePtr<void>> slabs;  // every block ever made lives in one (OpBlock: plain data)
  OpBlock* next = nullptr;  // the current slab's next unused block
  size_t left = 0;          // blocks left in it
  std::vector<OpBlock*> free_blocks;
};
static_assert(std::is_trivially_destructible_v<OpBlock>, "slabs are freed without destroying their blocks");

Pools& pools() {
  static Pools p;
  return p;
}

}  // namespace

OpsRef OpsRef::make() {
  Pools& p = pools();
  OpBlock* b;
  if (p.free_blocks.empty()) {
    if (p.left == 0) {
      p.slabs.emplace_back(huge_block(kHugePage));
      p.next = static_cast<OpBlock*>(p.slabs.back().get());
      p.left = kHugePage / sizeof(OpBlock);
    }
    b = new (p.next++) OpBlock();  // zeroed, as a new block always was
    --p.left;
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
