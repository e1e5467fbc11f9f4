// Memory the timing model fills densely and at random (the read-ahead's chunk pool, per-word
// tables of a trace that touches its whole buffer): asked for in 2 MB transparent huge pages
// (madvise MADV_HUGEPAGE), so it takes one page fault and one TLB entry per 2 MB instead of per
// 4 KB. On a VM a page fault is costly (~11 us per 4 KB page here: 26,000 of them, ~0.3 s, on
// issue 16's 1M-instruction trace with values). Where the kernel has no transparent huge pages
// (or they are off), the advice does nothing and the memory is ordinary.
#pragma once
#include <sys/mman.h>

#include <cstddef>
#include <cstdlib>
#include <memory>
#include <new>

namespace arc {

constexpr size_t kHugePage = size_t{2} << 20;

// `bytes` (rounded up to 2 MB) of uninitialized memory on a 2 MB boundary, advised for huge
// pages; release with std::free. Throws std::bad_alloc.
inline void* huge_block(size_t bytes) {
  const size_t n = (bytes + kHugePage - 1) / kHugePage * kHugePage;
  void* p = std::aligned_alloc(kHugePage, n);
  if (!p) throw std::bad_alloc();
  ::madvise(p, n, MADV_HUGEPAGE);  // advice: ignored where unsupported
  return p;
}

// Owner of a huge_block (std::free on release): HugePtr<T> for a block used as T objects.
struct FreeHuge {
  void operator()(void* p) const { std::free(p); }
};
template <class T>
using HugePtr = std::unique_ptr<T, FreeHuge>;

// Advise an existing mapping (2 MB aligned start and length: the whole pages inside it).
inline void advise_huge(void* p, size_t bytes) {
  ::madvise(p, bytes, MADV_HUGEPAGE);
}

}  // namespace arc
