// load_hint(p): start loading the cache line at p, for a read soon after (a software prefetch).
// GCC 12 drops a __builtin_prefetch whose address it reaches through a const member function's
// loads (seen on ChunkQueues; the call then compiles to nothing), so on x86-64 this is the
// instruction itself, which the compiler must keep.
#pragma once

namespace arc::sim {

inline void load_hint(const void* p) {
#if defined(__x86_64__)
  asm volatile("prefetcht0 (%0)" : : "r"(p));
#else
  __builtin_prefetch(p);
#endif
}

}  // namespace arc::sim
