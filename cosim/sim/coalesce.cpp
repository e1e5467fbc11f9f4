#include "coalesce.h"

#include <algorithm>
#include <cassert>

namespace arc::sim {

void append_requests(Packet& out, const LaneOp* ops, size_t n, uint32_t sm, const CoalesceSetup& setup) {
  assert(n <= 32);  // one warp's ops: the fixed arrays below hold 32
  out.reserve(out.size() + n);
  const uint32_t single = setup.granule_words == 0 ? setup.flit_bytes : round_bytes(1, setup);
  auto singles = [&] {
    for (size_t i = 0; i < n; ++i) {
      out.emplace_back(ops[i], sm);
      out.back().bytes = single;
    }
  };
  if (setup.granule_words == 0 || n == 1) {
    singles();
    return;
  }
  const uint32_t g = setup.granule_words;
  // Granules in order of first appearance; each granule's ops keep their order (stable).
  uint32_t granules[32], of[32], ngran = 0;
  for (size_t i = 0; i < n; ++i) {
    uint32_t k = 0;
    while (k < ngran && granules[k] != ops[i].addr / g) ++k;
    if (k == ngran) granules[ngran++] = ops[i].addr / g;
    of[i] = k;
  }
  if (ngran == n) {  // nothing shares a granule: single-op requests
    singles();
    return;
  }
  OpsRef shared = OpsRef::make();
  LaneOp* const v = shared->ops;
  uint32_t nv = 0;
  for (uint32_t k = 0; k < ngran; ++k)
    for (size_t i = 0; i < n; ++i)
      if (of[i] == k) v[nv++] = ops[i];
  shared->size = nv;
  uint32_t words[32], per_word[32];
  for (size_t i = 0; i < nv;) {
    size_t j = i;
    uint32_t nwords = 0;
    while (j < nv && v[j].addr / g == v[i].addr / g) {
      uint32_t k = 0;
      while (k < nwords && words[k] != v[j].addr) ++k;
      if (k == nwords) {  // a new word (at most 32: n <= 32 ops)
        words[nwords] = v[j].addr;
        per_word[nwords++] = 0;
      }
      ++per_word[k];
      ++j;
    }
    Request r;
    r.sm = sm;
    r.first = static_cast<uint32_t>(i);
    r.count = static_cast<uint32_t>(j - i);
    if (r.count == 1) {
      r.one = v[i];
      r.bytes = single;
    } else {
      r.many = shared;
      // rounds: round t updates the words that have more than t ops
      uint32_t bytes = 0;
      const uint32_t rounds = *std::max_element(per_word, per_word + nwords);
      for (uint32_t t = 0; t < rounds; ++t) {
        uint32_t w = 0;
        for (uint32_t k = 0; k < nwords; ++k) w += per_word[k] > t;
        bytes += round_bytes(w, setup);
      }
      r.bytes = bytes;
    }
    out.push_back(std::move(r));
    i = j;
  }
}

}  // namespace arc::sim
