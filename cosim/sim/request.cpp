#include "request.h"

namespace arc::sim {

namespace {

// The free lists. Single-threaded (one model per process; tests fork per run).
bool g_pools_alive = false;

struct Pools {
  Pools() { g_pools_alive = true; }
  ~Pools() { g_pools_alive = false; }  // a handle released after this (static teardown) just lets go
  std::vector<std::unique_ptr<OpBlock>> blocks;  // every block ever made (owns them)
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
    p.blocks.push_back(std::make_unique<OpBlock>());
    b = p.blocks.back().get();
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
