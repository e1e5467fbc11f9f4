#include "coalesce.h"

#include <algorithm>
#include <cassert>
#include <cstring>

namespace arc::sim {

namespace {

// Every op its own request of one round.
void append_singles(Packet& out, const LaneOp* ops, size_t n, uint32_t sm, uint32_t single, uint32_t single_link) {
  for (size_t i = 0; i < n; ++i) {
    out.emplace_back(ops[i], sm);
    out.back().bytes = single;
    out.back().link_bytes = single_link;
  }
}

// Where runs are on: when every granule the ops touch holds one word, the requests below
// make (in granule order, a run per granule of several ops, the op itself for a granule of
// one) without sorting the ops; false (nothing appended) when some granule holds two words.
bool append_word_runs(Packet& out, const LaneOp* ops, size_t n, uint32_t sm, const CoalesceSetup& setup,
                      uint32_t shift, uint32_t single, uint32_t single_link) {
  struct Granule {
    uint32_t gran, word, count, lanes;  // gran = word >> shift (compared for every op)
    uint32_t first;  // its first op
  };
  Granule g[OpBlock::kCap];
  uint32_t ng = 0;
  for (size_t i = 0; i < n; ++i) {
    const uint32_t a = ops[i].addr, ga = a >> shift;
    uint32_t k = 0;
    while (k < ng && g[k].gran != ga) ++k;
    if (k == ng) {
      g[ng++] = {ga, a, 1, ops[i].lanes, static_cast<uint32_t>(i)};
    } else {
      if (g[k].word != a) return false;  // two words in one granule: the general path
      ++g[k].count;
      g[k].lanes += ops[i].lanes;
    }
  }
  if (ng == n) {  // nothing shares a granule: single-op requests
    append_singles(out, ops, n, sm, single, single_link);
    return true;
  }
  uint32_t at = 0;  // the granule's first op in granule order (Request::first)
  for (uint32_t k = 0; k < ng; ++k) {
    if (g[k].count > 1) {
      out.push_back(run_request(g[k].word, g[k].count, g[k].lanes, sm, setup));
    } else {
      Request r;
      r.sm = static_cast<uint16_t>(sm);
      r.first = static_cast<uint8_t>(at);
      r.one = ops[g[k].first];
      r.bytes = single;
      r.link_bytes = single_link;
      out.push_back(std::move(r));
    }
    at += g[k].count;
  }
  return true;
}

// The requests of one instruction, each priced per round (append_requests adds the
// instruction's own cost).
void append_round_requests(Packet& out, const LaneOp* ops, size_t n, uint32_t sm, const CoalesceSetup& setup,
                           uint32_t vec) {
  assert(n <= OpBlock::kCap);  // one warp instruction's ops (32 lanes x up to 4 floats): the arrays below
  out.reserve(out.size() + n);
  const bool off = setup.granule_words == 0;
  const uint32_t single = off ? setup.flit_bytes : l2_round_bytes(1, 1, 1, setup);
  const uint32_t single_link = off ? setup.flit_bytes : round_bytes(1, 1, 1, setup);
  auto singles = [&] { append_singles(out, ops, n, sm, single, single_link); };
  if (off || n == 1) {
    singles();
    return;
  }
  // A warp-uniform instruction (every op on one word): one request of n rounds, one word each.
  bool uniform = true;
  for (size_t i = 1; i < n && uniform; ++i) uniform = ops[i].addr == ops[0].addr;
  if (uniform && setup.runs) {
    uint32_t lanes = 0;
    for (size_t i = 0; i < n; ++i) lanes += ops[i].lanes;
    out.push_back(run_request(ops[0].addr, static_cast<uint32_t>(n), lanes, sm, setup));
    return;
  }
  if (uniform) {
    OpsRef shared = OpsRef::make();
    std::copy(ops, ops + n, shared->ops);
    shared->size = static_cast<uint32_t>(n);
    Request r;
    r.one = ops[0];  // addr() reads it
    r.sm = static_cast<uint16_t>(sm);
    r.count = static_cast<uint8_t>(n);
    r.rounds = static_cast<uint8_t>(n);
    r.many = std::move(shared);
    r.bytes = static_cast<uint32_t>(n) * single;
    r.link_bytes = static_cast<uint32_t>(n) * single_link;
    out.push_back(std::move(r));
    return;
  }
  const uint32_t shift = static_cast<uint32_t>(__builtin_ctz(setup.granule_words));  // a power of two (config check)
  if (setup.runs && append_word_runs(out, ops, n, sm, setup, shift, single, single_link)) return;
  // Granules in order of first appearance; each granule's ops keep their order (stable).
  uint32_t granules[OpBlock::kCap], of[OpBlock::kCap], ngran = 0;
  for (size_t i = 0; i < n; ++i) {
    const uint32_t gi = ops[i].addr >> shift;
    uint32_t k = 0;
    while (k < ngran && granules[k] != gi) ++k;
    if (k == ngran) granules[ngran++] = gi;
    of[i] = k;
  }
  if (ngran == n) {  // nothing shares a granule: single-op requests
    singles();
    return;
  }
  // The ops in granule order, in the op block the requests of more than one op share (made
  // when the first such request needs it: a granule of one word becomes a run where runs are on).
  static thread_local LaneOp sorted[OpBlock::kCap];  // scratch (a local array would be initialized per call)
  const LaneOp* v = ops;
  if (ngran > 1) {  // a stable counting sort by granule
    uint32_t at[OpBlock::kCap + 1];
    std::fill(at, at + ngran + 1, 0u);
    for (size_t i = 0; i < n; ++i) ++at[of[i] + 1];
    for (uint32_t k = 0; k < ngran; ++k) at[k + 1] += at[k];
    for (size_t i = 0; i < n; ++i) sorted[at[of[i]]++] = ops[i];
    v = sorted;
  }
  OpsRef shared;
  uint32_t words[OpBlock::kCap], per_word[OpBlock::kCap];
  const bool by_sector = setup.sector_bytes != 0 || setup.l2_sector() != 0 || setup.multi_lane_bytes != 0;
  for (size_t i = 0; i < n;) {
    size_t j = i;
    uint32_t nwords = 0, rounds = 0;
    const uint32_t gi = v[i].addr >> shift;
    while (j < n && (v[j].addr >> shift) == gi) {
      uint32_t k = 0;
      while (k < nwords && words[k] != v[j].addr) ++k;
      if (k == nwords) {  // a new word (at most n <= kCap)
        words[nwords] = v[j].addr;
        per_word[nwords++] = 0;
      }
      rounds = std::max(rounds, ++per_word[k]);
      ++j;
    }
    const uint32_t count = static_cast<uint32_t>(j - i);
    if (count > 1 && nwords == 1 && setup.runs) {
      // One word: `count` one-word rounds on one sector, what run_request prices.
      uint32_t lanes = 0;
      for (size_t k = i; k < j; ++k) lanes += v[k].lanes;
      out.push_back(run_request(v[i].addr, count, lanes, sm, setup));
      i = j;
      continue;
    }
    Request r;
    r.sm = static_cast<uint16_t>(sm);
    r.first = static_cast<uint8_t>(i);
    r.count = static_cast<uint8_t>(count);
    r.one = v[i];  // the op itself (count 1), else its first (addr() reads it)
    if (r.count == 1) {
      r.bytes = single;
      r.link_bytes = single_link;
    } else {
      if (!shared) {
        shared = OpsRef::make();
        std::copy(v, v + n, shared->ops);
        shared->size = static_cast<uint32_t>(n);
      }
      r.many = shared;
      r.one_word = nwords == 1;
      // One lane's float2 / float4: its words lie in one aligned block of vec words.
      r.vector_lane = vec > 1 && nwords <= vec;
      for (uint32_t k = 1; k < nwords && r.vector_lane; ++k) r.vector_lane = words[k] / vec == words[0] / vec;
      r.rounds = static_cast<uint8_t>(rounds);
      // Round t updates the words with more than t ops: summed over the rounds, a header
      // each and word_bytes per op; by sector, each round also its sectors and lanes.
      r.link_bytes = rounds * setup.header_bytes + setup.word_bytes * r.count;
      r.bytes = rounds * setup.l2_header() + setup.word_bytes * r.count;
      if (by_sector && nwords == 1) {
        // Every round: the one word, on one sector, one lane (a vector lane's words are one lane).
        r.link_bytes += rounds * setup.sector_bytes;
        r.bytes += rounds * setup.l2_sector();
      } else if (by_sector) {
        for (uint32_t t = 0; t < rounds; ++t) {
          uint64_t sectors[2] = {0, 0};  // the granule's 32-byte sectors this round touches (<= 128: 4 KB)
          uint32_t w = 0;
          for (uint32_t k = 0; k < nwords; ++k)
            if (per_word[k] > t) {
              ++w;
              const uint32_t sec = (words[k] >> 3) & 127;
              sectors[sec >> 6] |= uint64_t{1} << (sec & 63);
            }
          const auto s = static_cast<uint32_t>(__builtin_popcountll(sectors[0]) + __builtin_popcountll(sectors[1]));
          const uint32_t multi = (w + vec - 1) / vec > 1 ? setup.multi_lane_bytes : 0;
          r.link_bytes += setup.sector_bytes * s + multi;
          r.bytes += setup.l2_sector() * s + multi;
        }
      }
    }
    out.push_back(std::move(r));
    i = j;
  }
}

}  // namespace

bool append_word_groups(Packet& out, const uint32_t* words, const uint32_t* counts, uint32_t nw, uint32_t n,
                        uint32_t sm, const CoalesceSetup& setup) {
  // append_word_runs() on those ops: with one word per granule, its granules are these words
  // in this order.
  const uint32_t shift = static_cast<uint32_t>(__builtin_ctz(setup.granule_words));
  for (uint32_t k = 1; k < nw; ++k)
    for (uint32_t j = 0; j < k; ++j)
      if (words[j] >> shift == words[k] >> shift) return false;
  const uint32_t single = l2_round_bytes(1, 1, 1, setup), single_link = round_bytes(1, 1, 1, setup);
  const size_t first = out.size();
  if (nw == n) {  // nothing shares a granule: append_singles()
    for (uint32_t k = 0; k < nw; ++k) {
      out.emplace_back(LaneOp{words[k], 0, 1}, sm);
      out.back().bytes = single;
      out.back().link_bytes = single_link;
    }
  } else {
    uint32_t at = 0;
    for (uint32_t k = 0; k < nw; ++k) {
      if (counts[k] > 1) {
        out.push_back(run_request(words[k], counts[k], counts[k], sm, setup));
      } else {
        Request r;
        r.sm = static_cast<uint16_t>(sm);
        r.first = static_cast<uint8_t>(at);
        r.one = LaneOp{words[k], 0, 1};
        r.bytes = single;
        r.link_bytes = single_link;
        out.push_back(std::move(r));
      }
      at += counts[k];
    }
  }
  out[first].bytes += setup.instruction_bytes;  // on the L2 side, once (as append_requests)
  return true;
}

void append_uniform(Packet& out, uint32_t addr, const uint8_t* values, uint32_t n, uint32_t sm,
                    const CoalesceSetup& setup) {
  assert(n >= 1 && n <= trace::kLanes);
  auto value = [values](uint32_t k) {
    uint32_t v;
    std::memcpy(&v, values + 4 * k, 4);
    return v;
  };
  if (setup.granule_words == 0 || n == 1 || setup.runs) {  // not the usual case: as the ops would go
    LaneOp ops[trace::kLanes];
    for (uint32_t k = 0; k < n; ++k) ops[k] = {addr, value(k), 1};
    append_requests(out, ops, n, sm, setup);
    return;
  }
  // What append_round_requests() makes of n ops on one word without runs: one request of n
  // one-word rounds, here as a values run (the same ops, values only).
  OpsRef shared = OpsRef::make();
  std::memcpy(shared->values, values, 4 * size_t{n});
  shared->size = n;
  Request r;
  r.one = LaneOp{addr, 0, n};
  r.values_run = true;
  r.sm = static_cast<uint16_t>(sm);
  r.count = static_cast<uint8_t>(n);
  r.rounds = static_cast<uint8_t>(n);
  r.many = std::move(shared);
  r.bytes = n * l2_round_bytes(1, 1, 1, setup) + setup.instruction_bytes;  // (the instruction's cost: once)
  r.link_bytes = n * round_bytes(1, 1, 1, setup);
  out.push_back(std::move(r));
}

void append_requests(Packet& out, const LaneOp* ops, size_t n, uint32_t sm, const CoalesceSetup& setup,
                     uint32_t vec) {
  const size_t first = out.size();
  append_round_requests(out, ops, n, sm, setup, vec);
  if (out.size() > first) out[first].bytes += setup.instruction_bytes;  // on the L2 side, once
}

}  // namespace arc::sim
