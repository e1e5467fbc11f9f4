// Link<T>: a point-to-point, single-producer single-consumer FIFO with a fixed capacity and a
// latency, the one way modules of the timing model hand work to each other.
//  - push(x, delay >= 1): x becomes visible to the consumer `delay` cycles later; the
//    consumer's wake event is notified then.
//  - A slot freed by pop() in cycle t is usable by the producer from cycle t+1 (credit
//    return). A producer that found the link full calls await_room(); the next pop then
//    notifies its wake event for t+1 (a producer with room never needs that wake, so none
//    is sent: it would run and find nothing to do).
// Because nothing is visible in the cycle it happens, same-cycle evaluation order of the
// producer and consumer cannot change what either sees.
#pragma once
#include <cassert>
#include <cstdint>
#include <utility>

#include "clock.h"
#include "ring.h"

namespace arc::sim {

template <class T>
class Link {
 public:
  explicit Link(size_t capacity = 1) : capacity_(capacity) {}
  void bind(Wake* consumer_wake, Wake* producer_wake) {
    consumer_wake_ = consumer_wake;
    producer_wake_ = producer_wake;
  }
  // The consumer keeps a bit per input link (`*mask` bit `bit` set while the link holds
  // anything), so a module with several inputs looks only at those holding work.
  void watch(uint32_t* mask, uint32_t bit) {
    mask_ = mask;
    bit_ = bit;
  }
  // Producer side: a function run (with `ctx`) when a pop frees room the producer waited for,
  // a cycle before the producer's wake: it may start loading what that run will read.
  void set_room_hint(void (*hint)(void*), void* ctx) {
    room_hint_ = hint;
    hint_ctx_ = ctx;
  }
  void set_capacity(size_t c) { capacity_ = c; }
  size_t capacity() const { return capacity_; }

  // Producer side.
  size_t occupied(Cycle now) const { return q_.size() + (pop_cycle_ == now ? pops_now_ : 0); }
  size_t free_slots(Cycle now) const { return capacity_ - occupied(now); }
  bool can_push(Cycle now) const { return occupied(now) < capacity_; }
  // The producer could not push in cycle `now`: wake it when a slot is usable again (next
  // cycle if a pop this cycle already freed one, else the cycle after the next pop).
  void await_room(Cycle now) {
    if (q_.size() < capacity_) {
      if (producer_wake_) producer_wake_->at(now + 1);
    } else {
      producer_waits_ = true;
    }
  }
  // x by rvalue reference: moved once, straight into its slot (a by-value parameter cost a
  // second move and a destructor per hand-over, on every request's way to its ROP unit).
  void push(Cycle now, T&& x, Cycle delay = 1) {
    assert(delay >= 1 && can_push(now));
    if (q_.empty()) front_at_ = now + delay;
    auto& slot = q_.append_slot();
    slot.first = now + delay;
    slot.second = std::move(x);
    if (mask_) *mask_ |= bit_;
    if (consumer_wake_ && !consumer_busy_ && !(asleep_ && *asleep_)) consumer_wake_->at(now + delay);
  }
  // Consumer side: while busy, pushes do not wake the consumer (it looks at the link itself
  // when it is done: a wake then would only find it busy).
  void set_consumer_busy(bool busy) { consumer_busy_ = busy; }
  // The same, through a flag the consumer keeps for all its inputs at once: while *asleep,
  // pushes do not wake it (a consumer that could not take anything sleeps until something
  // else wakes it, then looks at every input).
  void set_consumer_asleep_flag(const bool* asleep) { asleep_ = asleep; }

  // Consumer side.
  bool ready(Cycle now) const { return front_at_ <= now; }
  const T& front() const { return q_.front().second; }
  T& front_mut() { return q_.front().second; }  // consumer only, for a partly taken item
  T pop(Cycle now) {
    assert(ready(now));
    T x = std::move(q_.front().second);
    q_.drop_front();  // moved from: nothing left in the slot to drop
    front_at_ = q_.empty() ? kNever : q_.front().first;
    note_pop(now);
    return x;
  }
  // pop() for a front the consumer has already moved from (e.g. straight into the next link):
  // one move per hand-over instead of two.
  void pop_moved(Cycle now) {
    assert(ready(now));
    q_.drop_front();
    front_at_ = q_.empty() ? kNever : q_.front().first;
    note_pop(now);
  }
  // Consumer look-ahead: item i (0 = front) and taking it out of order.
  bool ready_at(Cycle now, size_t i) const { return i < q_.size() && q_[i].first <= now; }
  const T& item(size_t i) const { return q_[i].second; }
  Cycle ready_time(size_t i) const { return q_[i].first; }  // the cycle item i becomes visible
  // pop_at() whose item the consumer no longer needs (it read it in place): the front's op
  // block (if any) is let go and the slot dropped, without moving the item out.
  void drop_at(Cycle now, size_t i) {
    if (i != 0) {
      pop_at(now, i);
      return;
    }
    q_.front().second = T();
    pop_moved(now);
  }
  T pop_at(Cycle now, size_t i) {
    if (i == 0) return pop(now);
    T x = std::move(q_[i].second);
    q_.erase_at(i);
    note_pop(now);
    return x;
  }
  // The cycle the front becomes visible (kNever when empty).
  Cycle next_ready() const { return front_at_; }
  bool empty() const { return q_.empty(); }
  size_t size() const { return q_.size(); }

 private:
  void note_pop(Cycle now) {
    if (mask_ && q_.empty()) *mask_ &= ~bit_;
    if (pop_cycle_ != now) {
      pop_cycle_ = now;
      pops_now_ = 0;
    }
    ++pops_now_;
    if (producer_wake_ && producer_waits_) {
      producer_waits_ = false;
      producer_wake_->at(now + 1);
      if (room_hint_) room_hint_(hint_ctx_);
    }
  }

  // The front's cycle, kept here (kNever when empty): ready() and next_ready() are asked far
  // more often than items move, and the slot itself is out of cache when they are.
  Cycle front_at_ = kNever;
  Ring<std::pair<Cycle, T>> q_;
  size_t capacity_;
  Cycle pop_cycle_ = kNever;
  size_t pops_now_ = 0;
  bool producer_waits_ = false;
  bool consumer_busy_ = false;
  const bool* asleep_ = nullptr;
  Wake* consumer_wake_ = nullptr;
  Wake* producer_wake_ = nullptr;
  uint32_t* mask_ = nullptr;
  uint32_t bit_ = 0;
  void (*room_hint_)(void*) = nullptr;
  void* hint_ctx_ = nullptr;
};

// A value written in cycle t that readers see from cycle t+1 (a register between modules).
// Several writers in one cycle (modify) each update the current value in place; what any of
// them reads in that cycle (seen) is the value as the cycle began, so the order in which they
// run never changes what they see.
template <class T>
class Registered {
 public:
  explicit Registered(T init = T{}) : cur_(init), prev_(init) {}
  void write(Cycle now, T v) { modify(now) = v; }
  T& modify(Cycle now) {
    if (written_ != now) {
      prev_ = cur_;
      written_ = now;
    }
    return cur_;
  }
  const T& seen(Cycle now) const { return written_ == now ? prev_ : cur_; }
  T read(Cycle now) const { return seen(now); }

 private:
  T cur_, prev_;
  Cycle written_ = kNever;
};

}  // namespace arc::sim
