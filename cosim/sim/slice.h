// What the ROP units keep per L2 slice (rop_slices; RopUnit): when the slice may start its
// next multi-word request (rop_slice_request_interval) and its next one-word op
// (rop_slice_op_interval), and which words' runs of ops are queued on it.
//
// A slice serves its queue in order. Its ops come from many SMs, so the words of the runs under
// way on it arrive interleaved, and an op on a word that is still waiting out its interval
// (rop_same_addr_interval) holds up the ops behind it. fifo_gap() gives the mean cycles per op
// of that queue for n words drawn at random, each op one slot after the one before at the
// least: n = 1 is the word's own interval, and it falls toward the slot as n grows. The model's
// run of m same-word ops (one warp instruction) takes m x fifo_gap(n) of its slice's time, n
// counting its word and the other words whose runs started on the slice in the last
// rop_slice_queue_cycles (the words queued with it); a lone run, or a lone op, takes m slots (its
// word's interval is what paces it, and other traffic fills the gaps).
#pragma once
#include <array>
#include <cstdint>
#include <vector>

namespace arc::sim {

struct SliceState {
  static constexpr uint32_t kTracked = 16;  // words tracked per slice; more count as 16 (fifo_gap(16): 1.25 slots at H100's values)
  uint64_t request_due = 0;                 // next multi-word request, 1/kSubCycles cycle
  uint64_t op_due = 0;                      // next one-word op, 1/kSubCycles cycle
  std::array<uint32_t, kTracked> word{};
  std::array<uint64_t, kTracked> until{};   // until when that word counts as queued (1/kSubCycles cycle; 0: free)

  // Words other than w that count as queued at time t (1/kSubCycles cycle).
  // (Branch-free: which entries are live is data, not a pattern a branch predictor learns; `&`
  // rather than `&&`, so both tests are always made.)
  uint32_t busy_others(uint32_t w, uint64_t t) const {
    uint32_t n = 0;
    for (uint32_t i = 0; i < kTracked; ++i) n += static_cast<uint32_t>(until[i] > t) & static_cast<uint32_t>(word[i] != w);
    return n;
  }
  // Word w counts as queued until `end`: its entry, else a free one, else the one ending first.
  void note_run(uint32_t w, uint64_t end) {
    uint32_t pick = kTracked;
    for (uint32_t i = 0; i < kTracked; ++i)  // (no early exit: a word has at most one entry)
      pick = (static_cast<uint32_t>(until[i] != 0) & static_cast<uint32_t>(word[i] == w)) ? i : pick;
    if (pick == kTracked) {  // the one ending first, the lower word on a tie (not the lower slot:
      pick = 0;              // which words remain must not depend on the order of same-cycle notes)
      for (uint32_t i = 1; i < kTracked; ++i) {
        const bool before = (static_cast<uint32_t>(until[i] < until[pick]) |
                             (static_cast<uint32_t>(until[i] == until[pick]) & static_cast<uint32_t>(word[i] < word[pick])));
        pick = before ? i : pick;
      }
    }
    word[pick] = w;
    until[pick] = end;
  }
};

// Mean gap between the ops an in-order slice starts when each op's word is drawn at random from
// n, an op starts at least `slot` after the one before and `word_interval` after the last on its
// word (cycles). Computed by a fixed-seed replay of 50,000 ops: the same on every machine.
double fifo_gap(uint32_t n, double slot, double word_interval);

// fifo_gap for n = 0..SliceState::kTracked in 1/sub cycle (n = 0 and 1: the slot, see above).
std::vector<uint64_t> fifo_gap_table(double slot, double word_interval, uint64_t sub);

}  // namespace arc::sim
