#include "subcore.h"

#include <algorithm>
#include <cmath>

#include "golden.h"
#include "lane_mask.h"

namespace arc::sim {

SubCore::SubCore(sc_core::sc_module_name name, const SubCoreSetup& setup, const SubCoreWork& work,
                 InstrSource& source, Stats& stats)
    : sc_module(name), source_(source), stats_(stats), setup_(setup), work_(work) {
  wake.bind([this] { step(); });
  wake.at(0);  // runs at cycle 0 (initialization), then only when woken
  admit_warps(0);
}

void SubCore::room_hint(void* self) {
  SubCore& c = *static_cast<SubCore*>(self);
  if (c.cur_ >= 0) {
    const Warp& w = c.resident_[static_cast<size_t>(c.cur_)];
    c.source_.will_pop(w.src, w.brief);
  }
}

void SubCore::finish() {
  SubcoreStats& s = stats_.subcore(setup_.subcore);
  s.instructions += mine_.instructions;
  s.lane_updates += mine_.lane_updates;
  s.atomic_stall_cycles += mine_.atomic_stall_cycles;
  mine_ = {};
  stats_.dispatch_late_cycles += dispatch_.late_cycles();
}

bool SubCore::drained() const { return resident_.empty() && next_warp_ == work_.warps.size() && cur_ < 0; }

void SubCore::admit_warps(Cycle now) {
  while (resident_.size() < setup_.warps_resident && next_warp_ < work_.warps.size()) {
    const WarpWork& ww = work_.warps[next_warp_++];
    const InstrBrief& b = source_.brief(ww.index);
    ready_at_.push_back(std::max(now + b.gap, reserve_compute(now, b.gap)));
    resident_.push_back({ww.index, ww.count, b});
    gather_.emplace_back();
  }
}

SubCore::ReduceRule SubCore::reduce_rule(const CallShape& shape, uint32_t vec) const {
  // SW-B and SW-T (sw/include/arc/reduce.cuh) reduce only a uniform warp: every active lane on
  // one address. A warp with several addresses sends per-lane atomics; SW-S reduces each group.
  // Adaptive: its call's choice (the butterfly, every group of >= 2 lanes by the group tree, or
  // per-lane atomics).
  if (setup_.mode == Mode::Adaptive) {
    const AdaptiveChoice c = adaptive_choice(shape, vec);
    return {c != AdaptiveChoice::PerLane, c == AdaptiveChoice::Groups ? SumOrder::GroupTree : SumOrder::Butterfly, 2};
  }
  return {setup_.mode == Mode::SwS || shape.uniform(), setup_.mode == Mode::SwS ? SumOrder::Serial : SumOrder::Butterfly,
          setup_.threshold};
}

size_t SubCore::sw_ops(const trace::Instr& in, LaneOp* ops, uint64_t& groups_reduced) const {
  golden::WarpInstr wi;
  wi.active_mask = in.active_mask;
  wi.addr = in.addr;
  wi.value = in.value;
  size_t n_ops = 0;
  if (setup_.mode == Mode::Adaptive && (in.flags & trace::kFlagPairSum)) {
    // Rule v5's pair send (pair_regroup.h): a marked lane sends its value plus the next lane's,
    // the next lane nothing; every other lane its own.
    for (uint32_t m = in.active_mask & ~(in.reduced_mask << 1); m; m &= m - 1) {
      const int l = __builtin_ctz(m);
      if (in.reduced_mask >> l & 1u) {
        ops[n_ops++] = {in.addr[l], golden::group_tree_sum(wi.value, 3u << l, setup_.sw_ftz, fp::Arith::Native), 2};
        ++groups_reduced;
      } else {
        ops[n_ops++] = {in.addr[l], in.value[l], 1};
      }
    }
    return n_ops;
  }
  const auto groups = golden::match_addresses(wi);
  const auto [eligible, order, threshold] = reduce_rule(shape_of(in), vector_width(in.flags));
  for (const golden::Group& g : groups) {
    const uint32_t n = static_cast<uint32_t>(__builtin_popcount(g.lane_mask));
    if (eligible && n >= threshold && n > 1) {
      uint32_t sum = 0;
      switch (order) {
        case SumOrder::Serial: sum = golden::serial_sum(wi, g.lane_mask, setup_.sw_ftz, fp::Arith::Native); break;
        case SumOrder::Butterfly:
          sum = golden::butterfly_sum(wi.value, g.lane_mask, setup_.sw_ftz, fp::Arith::Native);
          break;
        case SumOrder::GroupTree:
          sum = golden::group_tree_sum(wi.value, g.lane_mask, setup_.sw_ftz, fp::Arith::Native);
          break;
      }
      ops[n_ops++] = {g.addr, sum, n};
      ++groups_reduced;
    } else {
      for (uint32_t m = g.lane_mask; m; m &= m - 1) ops[n_ops++] = {g.addr, in.value[__builtin_ctz(m)], 1};
    }
  }
  return n_ops;
}

uint32_t SubCore::vector_width(uint32_t flags) const {
  if (setup_.mode == Mode::ArcHw || setup_.mode == Mode::SwT) return 1;
  return setup_.vector ? setup_.vector : trace::vec_width(flags);
}

CallShape SubCore::shape(const Warp& w) {
  const InstrBrief& b = w.brief;
  CallShape c = b.uniform && !setup_.read_lanes ? uniform_shape(b.active_mask, b.param, b.nparams)
                                                 : shape_of(source_.front(w.src, b));
  c.pair = (b.flags & trace::kFlagPairSum) != 0;
  return c;
}

bool SubCore::uniform_sw_packet(const InstrBrief& b, Packet& p) {
  if (!b.uniform || !setup_.zero_values || setup_.read_lanes) return false;
  if (setup_.mode == Mode::Adaptive && (b.flags & trace::kFlagPairSum)) return false;  // sw_ops: the pair sums
  const uint32_t n = static_cast<uint32_t>(__builtin_popcount(b.active_mask));
  // sw_ops() on one group of n lanes (the sums of +0 lanes are +0).
  const ReduceRule rule = reduce_rule(uniform_shape(b.active_mask, b.param, b.nparams), 1);
  if (rule.eligible && n >= rule.threshold && n > 1) {
    const LaneOp op{b.addr, 0, n};
    p = take_packet();
    append_requests(p, &op, 1, setup_.sm, setup_.coalesce);
    ++stats_.groups_reduced_in_core;
    stats_.lane_adds_in_core += n - 1;
    return true;
  }
  if (!setup_.coalesce.runs || !setup_.coalesce.granule_words) return false;
  p = take_packet();
  append_run(p, b.addr, n, setup_.sm, setup_.coalesce);  // what append_requests makes of the per-lane ops
  return true;
}

bool SubCore::words_packet(size_t src, const InstrBrief& b, uint32_t lanes, Packet& p) {
  uint32_t words[InstrSource::kMaxWordRuns], counts[InstrSource::kMaxWordRuns];
  const uint32_t nw = source_.word_runs(src, b, words, counts);
  if (nw == 0) return false;
  p = take_packet();
  if (append_word_groups(p, words, counts, nw, lanes, setup_.sm, setup_.coalesce)) return true;
  give_back(std::move(p));
  return false;
}

bool SubCore::swt_collect(Gather& g, const trace::Instr& in) {
  const uint32_t n = static_cast<uint32_t>(__builtin_popcount(in.active_mask));
  const int lead = __builtin_ctz(in.active_mask);
  const uint32_t sum = golden::butterfly_sum(in.value, in.active_mask, setup_.sw_ftz, fp::Arith::Native);
  g.swt.push_back({in.addr[static_cast<size_t>(lead)], sum, n});
  ++stats_.groups_reduced_in_core;
  stats_.lane_adds_in_core += n - 1;
  return in.param + 1 < in.nparams;
}

bool SubCore::try_issue(Cycle now) {
  Warp& w = resident_[static_cast<size_t>(cur_)];
  const size_t src = w.src;
  const InstrBrief& b = w.brief;  // the lanes (source_.front) only where needed
  const uint32_t lanes = static_cast<uint32_t>(__builtin_popcount(b.active_mask));
  if (b.active_mask == 0) {
    // A pair send's half with no active lane (pair_regroup.h: the CUDA code skips it): nothing
    // leaves, and it costs nothing (sw_cost.cpp); it is still one of the trace's instructions.
  } else if (setup_.mode == Mode::SwT && b.nparams > 1 && tree_eligible(Mode::SwT, source_.front(src, b), setup_.threshold)) {
    const trace::Instr& in = source_.front(src, b);
    // A reduced call of several parameters: their sums gather in the warp, the last one sends
    // them all (a one-parameter call is sw-b's, below).
    if (in.param + 1 == in.nparams && !to_lsu->can_push(now)) {
      to_lsu->await_room(now);
      return false;
    }
    if (!swt_collect(gather_[static_cast<size_t>(cur_)], in)) {
      Packet p = take_packet();
      Gather& g = gather_[static_cast<size_t>(cur_)];
      append_requests(p, g.swt.data(), g.swt.size(), setup_.sm, setup_.coalesce);
      g.swt.clear();
      to_lsu->push(now, std::move(p));
    }
  } else if (setup_.mode == Mode::ArcHw) {
    if (!to_arc->can_push(now)) {
      to_arc->await_room(now);
      return false;
    }
    if (b.uniform && setup_.zero_values && !setup_.read_lanes) {
      to_arc->push(now, InstrRef{nullptr, b.active_mask, b.addr});  // the unit needs no lanes
    } else {
      // The link is empty, so the unit is done with the previous copy.
      const trace::Instr& in = source_.front(src, b);
      arc_buf_.active_mask = in.active_mask;
      arc_buf_.addr = in.addr;
      arc_buf_.value = in.value;
      to_arc->push(now, InstrRef{&arc_buf_});
    }
  } else {
    const uint32_t vw = vector_width(b.flags);
    const bool sends = vw == 1 || b.param % vw == vw - 1 || b.param + 1u == b.nparams;  // a chunk's last param
    if (sends && !to_lsu->can_push(now)) {
      to_lsu->await_room(now);
      return false;
    }
    if (setup_.mode == Mode::Baseline && vw == 1 && setup_.coalesce.runs && setup_.coalesce.granule_words &&
        b.uniform) {
      // A warp-uniform instruction of a timing-only trace: its one request, built directly
      // (what append_requests makes of its per-lane ops), without reading its lanes.
      Packet p = take_packet();
      append_run(p, b.addr, lanes, setup_.sm, setup_.coalesce);
      to_lsu->push(now, std::move(p));
    } else if (const uint8_t* v = setup_.mode == Mode::Baseline && vw == 1 && b.uniform && !setup_.read_lanes
                                      ? source_.uniform_values(src, b)
                                      : nullptr) {
      // A warp-uniform instruction of a full trace: its requests from its packed values (what
      // append_requests makes of its per-lane ops), without unpacking its lanes.
      Packet p = take_packet();
      append_uniform(p, b.addr, v, lanes, setup_.sm, setup_.coalesce);
      to_lsu->push(now, std::move(p));
    } else if (Packet u; vw == 1 && setup_.mode != Mode::Baseline && !sm_buffered(setup_.mode) &&
                        uniform_sw_packet(b, u)) {
      to_lsu->push(now, std::move(u));
    } else if (Packet g; setup_.mode == Mode::Baseline && vw == 1 && setup_.coalesce.runs &&
                         setup_.coalesce.granule_words && !setup_.read_lanes && words_packet(src, b, lanes, g)) {
      to_lsu->push(now, std::move(g));  // a timing-only instruction on a few words: its requests from them
    } else {
      const trace::Instr& in = source_.front(src, b);
      LaneOp* const ops = ops_.data();  // scratch: no per-issue initialization of 32 ops
      size_t n = 0;
      if (setup_.mode == Mode::Baseline || sm_buffered(setup_.mode)) {  // buffered: per-lane, as baseline
        for (uint32_t m = in.active_mask; m; m &= m - 1) {
          const int l = __builtin_ctz(m);
          ops[n++] = {in.addr[l], in.value[l], 1};
        }
      } else {
        n = sw_ops(in, ops, stats_.groups_reduced_in_core);
        stats_.lane_adds_in_core += lanes - n;  // each in-core add removes one word update
      }
      Packet p;
      if (vw == 1) {
        p = take_packet();
        append_requests(p, ops, n, setup_.sm, setup_.coalesce);
      } else {
        Gather& g = gather_[static_cast<size_t>(cur_)];
        g.vec.insert(g.vec.end(), ops, ops + n);
        if (sends) {
          p = take_packet();
          append_requests(p, g.vec.data(), g.vec.size(), setup_.sm, setup_.coalesce, vw);
          g.vec.clear();
        }
      }
      if (sends) to_lsu->push(now, std::move(p));
    }
  }
  ++stats_.instructions;
  stats_.lane_updates += lanes;
  const uint64_t stall = (now - cur_ready_) + (cur_picked_ - cur_since_);
  stats_.add_stall(stall);
  mine_.atomic_stall_cycles += stall;
  ++mine_.instructions;
  mine_.lane_updates += lanes;
  stats_.issue_end_cycle = std::max(stats_.issue_end_cycle, now);
  // The warp computes its next gap from the cycle after the atomic left.
  const bool more = --w.left > 0;
  source_.pop(src, w.brief, more);  // the instruction (`b`, `in`) is gone from here on
  if (more) {
    ready_at_[static_cast<size_t>(cur_)] =
        std::max(now + 1 + w.brief.gap, reserve_compute(now + 1, w.brief.gap, cur_slots_));
  } else {
    reserve_dispatch(now + 1, cur_slots_);
    resident_.erase(resident_.begin() + cur_);
    gather_.erase(gather_.begin() + cur_);
    ready_at_.erase(ready_at_.begin() + cur_);
    if (rr_ > static_cast<size_t>(cur_)) --rr_;
    admit_warps(now + 1);
  }
  cur_ = -1;
  port_free_at_ = now + 1;
  return true;
}

Cycle SubCore::reserve_dispatch(Cycle from, Cycle slots) {
  if (slots == 0) return from;
  return dispatch_.reserve(from, slots, slots * Dispatch::kUnit);  // back to back
}

Cycle SubCore::reserve_compute(Cycle from, Cycle gap, Cycle sw_slots) {
  if (setup_.gap_issue_rate <= 0 && sw_slots == 0) return from + gap;
  const uint64_t parts = static_cast<uint64_t>(std::llround(setup_.gap_issue_rate * static_cast<double>(gap) *
                                                            static_cast<double>(Dispatch::kUnit))) +
                         sw_slots * Dispatch::kUnit;
  // Spread over the gap, at most one instruction a cycle.
  return dispatch_.reserve(from, std::max<Cycle>(gap, (parts + Dispatch::kUnit - 1) / Dispatch::kUnit), parts);
}

size_t SubCore::first_ready(Cycle by) const {
  const size_t n = ready_at_.size();
  for (size_t k = 0, i = n ? rr_ % n : 0; k < n; ++k, i = i + 1 == n ? 0 : i + 1)
    if (ready_at_[i] <= by) return i;
  return kNone;
}

inline void SubCore::pick(size_t i, Cycle at) {
  const size_t n = resident_.size();
  cur_ = static_cast<int>(i);
  rr_ = i + 1 == n ? 0 : i + 1;
  cur_since_ = ready_at_[i];
  cur_picked_ = at;
  const bool sw = setup_.mode == Mode::SwS || setup_.mode == Mode::SwB || setup_.mode == Mode::SwT ||
                  setup_.mode == Mode::Adaptive;
  Cycle cost = 0, slots = 0;
  if (sw) {
    const Warp& w = resident_[i];
    const CallShape sh = shape(w);
    const uint32_t vw = vector_width(w.brief.flags);
    cost = sw_issue_cycles(setup_.cost, sh, vw);
    // Dispatch is modelled only with the compute on it (gap_issue_rate > 0); at rate 0 the
    // SW sequences hold the MIO port alone, as before the dispatch existed.
    if (setup_.gap_issue_rate > 0) slots = sw_dispatch_slots(setup_.cost, sh, vw);
  }
  // The SW sequence holds the MIO port `cost` cycles; its `slots` dispatch slots join the
  // dispatch queue with the warp's next compute (try_issue), so the port is not held waiting
  // for them.
  cur_slots_ = slots;
  cur_ready_ = at + cost;
  stats_.sw_overhead_cycles += cost;
}

void SubCore::step() {
  const Cycle now = now_cycle();
  if (setup_.plant_lost_wakeup && stats_.instructions > 0) return;  // test only: wake-ups lost from now on
  if (cur_ < 0 && now >= port_free_at_ && !resident_.empty()) {
    // loose round-robin: first ready warp after the last one picked
    if (const size_t i = first_ready(now); i != kNone) pick(i, now);
  }
  if (cur_ >= 0) {
    if (now < cur_ready_) {
      wake.at(cur_ready_);
      return;
    }
    if (!try_issue(now)) return;  // blocked: the LSU port / ARC unit wakes us when it takes work
  }
  // Next time something can happen: the port frees next cycle; the earliest ready warp.
  // (No wake before `floor`: a warp ready by then settles it, no need to look further.)
  const Cycle floor = std::max(port_free_at_, now + 1);
  Cycle next = kNever;
  for (const Cycle r : ready_at_) {
    if (r <= floor) {
      next = floor;
      break;
    }
    next = std::min(next, r);
  }
  if (next == floor) {
    // The warp the port will pick then: the source may start loading its next record now, a
    // cycle before its issue pops it.
    const size_t i = first_ready(floor);
    source_.will_pop(resident_[i].src, resident_[i].brief);
  }
  if (next != kNever && to_lsu && setup_.mode != Mode::SwT && to_lsu->size() >= to_lsu->capacity()) {
    // The LSU port still holds the last packet, and only the LSU taking it makes room. The
    // step at `next` would pick warp i (nothing it reads changes before then: this sub-core's
    // state moves only in its own steps) and, its instruction needing the port (one packet
    // per instruction: vector width 1), find it full and wait for room. So pick it now, as
    // of `next`, and wait for room at once: the LSU's pop wakes us (a pop before `next`
    // wakes us early, to find the pick not yet due). Same picks, same cycles, one step per
    // issue fewer whenever the port is the bottleneck (most issues under back-pressure).
    const size_t i = first_ready(next);
    if (vector_width(resident_[i].brief.flags) == 1) {
      pick(i, next);
      to_lsu->await_room(now);
      return;
    }
  }
  if (next != kNever) wake.at(next);
}

}  // namespace arc::sim
