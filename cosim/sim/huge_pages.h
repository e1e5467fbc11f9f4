// HugeBlock: a 2 MB, 2 MB-aligned array of trivially destructible T, marked (Linux) for
// transparent huge pages (the kernel's madvise mode gives them only to regions that ask). For
// the model's pools that are read and written all over (read-ahead chunks, shared op blocks):
// with 4 KB pages most of those accesses, and the prefetches ahead of them, missed the TLB.
#pragma once
#include <cstddef>
#include <cstdlib>
#include <memory>
#include <new>
#include <type_traits>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace arc::sim {

constexpr size_t kHugeBlockBytes = size_t{2} << 20;

struct HugeBlockFree {
  void operator()(void* p) const { std::free(p); }  // elements are trivially destructible
};
template <class T>
using HugeBlock = std::unique_ptr<T[], HugeBlockFree>;

// kHugeBlockBytes / sizeof(T) default-constructed T.
template <class T>
HugeBlock<T> new_huge_block() {
  static_assert(std::is_trivially_destructible_v<T> && sizeof(T) <= kHugeBlockBytes);
  void* p = std::aligned_alloc(kHugeBlockBytes, kHugeBlockBytes);
  if (!p) throw std::bad_alloc();
#if defined(__linux__)
  madvise(p, kHugeBlockBytes, MADV_HUGEPAGE);  // a hint: without it, 4 KB pages
#endif
  HugeBlock<T> b(static_cast<T*>(p));
  std::uninitialized_default_construct_n(b.get(), kHugeBlockBytes / sizeof(T));
  return b;
}

}  // namespace arc::sim
