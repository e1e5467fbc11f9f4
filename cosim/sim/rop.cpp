#include "rop.h"

#include <algorithm>
#include <cstddef>
#include <type_traits>

#include "cache_hint.h"

namespace arc::sim {

std::vector<std::pair<uint32_t, uint32_t>> CommitLog::sorted() const {
  std::vector<Entry> e = entries;
  std::stable_sort(e.begin(), e.end(), [](const Entry& a, const Entry& b) {
    return a.cycle != b.cycle ? a.cycle < b.cycle : a.unit < b.unit;
  });
  std::vector<std::pair<uint32_t, uint32_t>> out;
  out.reserve(e.size());
  for (const Entry& x : e) out.emplace_back(x.addr, x.value);
  return out;
}

RopUnit::RopUnit(sc_core::sc_module_name name, uint32_t unit, const RopSetup& setup, golden::MemoryImage& image,
                 CommitLog& log, ZeroTable<WordState>& words, std::vector<Registered<uint64_t>>& lines,
                 std::vector<Registered<SliceState>>& slices, Stats& stats)
    : sc_module(name),
      unit_(unit),
      setup_(setup),
      image_(image),
      log_(log),
      words_(words),
      lines_(lines),
      slices_(slices),
      stats_(stats) {
  blocked_.assign(setup_.window, 0);
  wake.bind([this] { step(); });
}

// A request the next step will likely start (the front): start loading what its commit
// reads, its ops (a shared op block, written at issue long before), its word's state and image
// word. A model cycle is far longer than a memory access, so they are in cache by then (the
// ops' load was a quarter of this unit's time on a full trace).
void RopUnit::prefetch(const Request& r) const {
  if (r.values_run) {
    load_hint(r.many->values);
    load_hint(reinterpret_cast<const char*>(r.many->values + r.count) - 1);
  } else if (r.many) {
    const auto* p = reinterpret_cast<const char*>(r.begin()), *end = reinterpret_cast<const char*>(r.end());
    for (; p < end; p += 64) load_hint(p);
    load_hint(end - 1);
  }
  load_hint(&std::as_const(words_)[r.addr()]);  // (const: a hint marks no page touched)
  if (!lines_.empty()) load_hint(&lines_[r.addr() / setup_.line_words]);
  if (setup_.values && r.addr() < image_.size()) load_hint(image_.words().data() + r.addr());
}

void RopUnit::step() {
  const Cycle now = now_cycle();
  const uint64_t O = uint64_t{setup_.ops_per_cycle} * setup_.flit_bytes;
  uint32_t started = 0;
  Cycle retry = kNever;
  // Per-lane requests, one per cycle, in order, and a 1-cycle interval: the word rule can never
  // bite: no look-up.
  const bool serialize = setup_.same_addr_sub > kSubCycles || setup_.ops_per_cycle > 1 || setup_.window > 1 ||
                         setup_.coalesced || !lines_.empty() || !slices_.empty();
  auto whole = [](uint64_t sub) { return (sub + kSubCycles - 1) / kSubCycles; };  // first whole cycle
  // Words met while looking ahead, with a one-word filter in front of the list: a word whose
  // bit is clear was not met (most look-aheads meet a few one-word requests: no list search).
  uint64_t seen_bits = 0;
  auto bit = [](uint32_t a) { return uint64_t{1} << ((a * 0x9E3779B1u) >> 26); };
  auto seen = [&](uint32_t a) {
    return (seen_bits & bit(a)) && std::find(seen_.begin(), seen_.end(), a) != seen_.end();
  };
  while (in.ready(now) && std::max<uint64_t>(next_slot_, now * O) < (now + 1) * O) {
    size_t pick = SIZE_MAX;
    seen_.clear();
    seen_bits = 0;
    for (size_t i = 0; i < setup_.window && in.ready_at(now, i); ++i) {
      if (!serialize) {
        pick = i;
        break;
      }
      // The request's distinct words (a word's ops repeat its address: a warp-uniform
      // request is 32 ops on one word, one look-up; most requests are one word: no list).
      const Request& r = in.item(i);
      uint32_t list[OpBlock::kCap], nw = 0;
      const uint32_t* words = list;
      if (r.one_word) {
        words = &r.one.addr;
        nw = 1;
      } else {
        for (const LaneOp& op : r)
          if (nw == 0 || list[nw - 1] != op.addr) list[nw++] = op.addr;
      }
      // One word: whether an older request in the window is on it, looked up once (nothing
      // joins seen_ before this request's own words at the end).
      const bool one_met = nw == 1 && seen(words[0]);
      bool ok = true;
      // Known to wait until at least blocked_[i] (a look at an earlier cycle found a due time
      // that far ahead; due times only move later): no look-ups until then.
      if (blocked_[i] > now) {
        ok = false;
        retry = std::min(retry, blocked_[i]);
      }
      if (nw == 1) {
        if (one_met) ok = false;  // an older request on its word waits
      } else {
        for (uint32_t k = 0; k < nw && ok; ++k)
          if (seen(words[k])) ok = false;
      }
      Cycle until = 0;  // the latest due time found in the future
      auto wait_for = [&](uint64_t due_sub) {
        const Cycle f = whole(due_sub);
        if (f > now) {
          ok = false;
          retry = std::min(retry, f);
          until = std::max(until, f);
        }
      };
      if (ok)
        for (uint32_t k = 0; k < nw; ++k) wait_for(std::as_const(words_)[words[k]].free_sub);
      // The line's turn too: a request of several lanes' words of one line
      // (rop_same_line_interval), or any one-address request when one-word ops take the line's
      // data path (rop_line_op_interval); and its slice's turn (request pace or in-order queue).
      const bool multi_lane = !r.one_word && !r.vector_lane;  // several lanes' words of one line
      if (ok && !lines_.empty() && (multi_lane || setup_.line_op_sub))
        wait_for(lines_[r.addr() / setup_.line_words].seen(now));
      if (ok && !slices_.empty()) {
        const SliceState& sl = slices_[slice_of_line(r.addr() / setup_.line_words, setup_.slices)].seen(now);
        if (multi_lane && setup_.slice_request_sub) wait_for(sl.request_due);
        if (!multi_lane && setup_.slice_op_sub) wait_for(sl.op_due);
      }
      if (ok) {
        pick = i;
        break;
      }
      if (until) blocked_[i] = until;
      if (nw == 1) {
        if (!one_met) {
          seen_.push_back(words[0]);
          seen_bits |= bit(words[0]);
        }
      } else {
        for (uint32_t k = 0; k < nw; ++k)
          if (!seen(words[k])) {
            seen_.push_back(words[k]);
            seen_bits |= bit(words[k]);
          }
      }
    }
    if (pick == SIZE_MAX) break;
    // The request is read where it waits and leaves the link after its commit (the front, the
    // usual pick: no copy out of its slot).
    const Request& r = in.item(pick);
    next_slot_ = std::max<uint64_t>(next_slot_, now * O) + r.bytes;
    // Commit, run by run of consecutive ops on one word: with serialization the m-th op of a
    // run is due same_addr_interval x m after its first (each waits for the one before) and
    // starts at the first whole cycle at or after that.
    Cycle last = now;
    const uint64_t gap = serialize ? setup_.same_addr_sub : 0;
    // Due inside this cycle: keep the due time's fraction (a backlog advances by the exact
    // interval); idle since an earlier cycle: start afresh at this one.
    auto due = [&](uint64_t free_sub) { return free_sub + kSubCycles > now * kSubCycles ? free_sub : now * kSubCycles; };
    // A request of several lanes' words of one line takes the line's (and slice's) request
    // interval; one address (a word, or one lane's vector) takes them per round, one op each.
    const bool multi_lane = !r.one_word && !r.vector_lane;
    const uint32_t addr_rounds = r.one_word ? r.count : r.rounds;
    if (!lines_.empty()) {
      uint64_t& line = lines_[r.addr() / setup_.line_words].modify(now);
      if (multi_lane) line = due(line) + setup_.same_line_sub;
      else if (setup_.line_op_sub) line = due(line) + uint64_t{addr_rounds} * setup_.line_op_sub;
    }
    Registered<SliceState>* slice_reg =
        slices_.empty() ? nullptr : &slices_[slice_of_line(r.addr() / setup_.line_words, setup_.slices)];
    // What this cycle's earlier starts on the slice (by any unit) did is not seen (the queue's
    // words are counted as the cycle began), but adds to its due times.
    const uint32_t others = slice_reg && !multi_lane && setup_.slice_op_sub && addr_rounds > 1
                                ? slice_reg->seen(now).busy_others(r.addr(), now * kSubCycles)
                                : 0;
    SliceState* slice = slice_reg ? &slice_reg->modify(now) : nullptr;
    if (slice && multi_lane && setup_.slice_request_sub) slice->request_due = due(slice->request_due) + setup_.slice_request_sub;
    if (slice && !multi_lane && setup_.slice_op_sub) {
      // In order: a run among other queued words' runs interleaves with them (fifo_gap); alone, or a
      // lone op, it takes a slot per op.
      const uint64_t per_op = others
                                  ? setup_.slice_gap_sub[std::min<uint32_t>(others + 1, SliceState::kTracked)]
                                  : setup_.slice_op_sub;
      slice->op_due = due(slice->op_due) + uint64_t{addr_rounds} * per_op;
    }
    // One word's run: `rounds` ops carrying `lanes` lane updates; value_of(k) = op k's value,
    // or nullptr for a run request (values 0, nothing to apply or log).
    auto commit = [&](uint32_t addr, uint32_t rounds, uint32_t lanes, const auto& value_of) {
      WordState& w = words_[addr];
      // (or later: a run earlier in this request on the word)
      const uint64_t t0 = serialize ? due(w.free_sub) : now * kSubCycles;
      if constexpr (!std::is_same_v<std::decay_t<decltype(value_of)>, std::nullptr_t>) {
        if (setup_.values) image_.apply_run(addr, rounds, value_of);  // (a timing-only trace adds 0 to 0)
        for (uint32_t k = 0; log_.enabled && k < rounds; ++k)
          log_.entries.push_back({whole(t0 + k * gap), unit_, addr, value_of(k)});
      }
      const uint64_t t = t0 + uint64_t{rounds} * gap;
      w.arrived += lanes;
      if (serialize) w.free_sub = t;
      last = std::max<Cycle>(last, whole(t - gap));
    };
    if (r.run()) {
      commit(r.one.addr, r.count, r.one.lanes, nullptr);
    } else if (r.values_run) {
      const uint32_t* v = r.many->values;
      commit(r.one.addr, r.count, r.count, [v](size_t k) { return v[k]; });
    } else {
      for (const LaneOp *op = r.begin(), *end = r.end(); op != end;) {
        const LaneOp* first = op;
        uint32_t lanes = 0;
        for (; op != end && op->addr == first->addr; ++op) lanes += op->lanes;
        commit(first->addr, static_cast<uint32_t>(op - first), lanes, [first](size_t k) { return first[k].value; });
      }
    }
    if (slice && !multi_lane && setup_.slice_op_sub && addr_rounds > 1) slice->note_run(r.addr(), now * kSubCycles + setup_.slice_queue_sub);
    stats_.rop_ops += r.count;
    ++stats_.rop_requests;
    stats_.rop_bytes += r.bytes;
    stats_.rop(unit_).ops += r.count;
    stats_.rop(unit_).bytes += r.bytes;
    last_done_ = std::max(last_done_, last + setup_.latency);
    ++started;
    in.drop_at(now, pick);  // r is gone from here on
    std::copy(blocked_.begin() + pick + 1, blocked_.end(), blocked_.begin() + pick);  // the window moves up
    blocked_.back() = 0;
  }
  // What the next step reads: the front's commit, and with values (their op blocks and image
  // words, written or read far apart in time: out of cache) the whole look-ahead window's, since
  // a blocked front lets a later request start (a timing-only trace's window is cheaper to look
  // up than to hint: measured slower with the whole window).
  for (size_t i = 0, n = std::min<size_t>(setup_.values ? setup_.window : 1, in.size()); i < n; ++i)
    prefetch(in.item(i));
  if (started) {
    ++stats_.rop_busy_unit_cycles;
    ++stats_.rop(unit_).busy_cycles;
  }
  // The next wake: the first cycle at which what the window may start can change. A request in
  // the look-ahead window that is not visible yet wakes us when it becomes visible (its push's
  // own wake may have been superseded by an earlier one of ours). While the window is full, an
  // arrival lands behind it and can start only after one of the window's requests has left,
  // which only this unit's step does: pushes need not wake us then (on a busy unit most
  // arrivals did, to find the same blocked window). Due times only move later, so `retry` (the
  // earliest a blocked request's word, line or slice is free) is never late.
  Cycle next = kNever;
  const size_t span = std::min<size_t>(setup_.window, in.size());
  for (size_t i = 0; i < span; ++i)
    if (in.ready_time(i) > now) next = std::min(next, in.ready_time(i));
  if (in.ready(now)) {
    if (std::max<uint64_t>(next_slot_, now * O) >= (now + 1) * O) next = std::min<Cycle>(next, next_slot_ / O);  // slots used up
    else next = std::min(next, retry);
  }
  in.set_consumer_busy(in.size() >= setup_.window);
  wake.at(next);
}

}  // namespace arc::sim
