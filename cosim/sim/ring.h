// Ring<T>: a FIFO on one power-of-two array that grows (doubling) only when full, for the
// timing model's queues: their sizes are bounded (link capacities, the LSU depth), so once
// warm a push or pop allocates nothing (std::deque frees and allocates a node every few
// elements as a queue slides along it).
#pragma once
#include <cstddef>
#include <new>
#include <utility>
#include <vector>

namespace arc::sim {

// Storage on cache-line boundaries: a Link's slot (the cycle and a 56-byte Request) is one line,
// not two, and the model touches each slot once, from cold, per request that passes.
template <class T>
struct LineAligned {
  using value_type = T;
  static constexpr std::align_val_t kAlign{64};
  LineAligned() = default;
  template <class U>
  LineAligned(const LineAligned<U>&) {}
  T* allocate(size_t n) { return static_cast<T*>(::operator new(n * sizeof(T), kAlign)); }
  void deallocate(T* p, size_t) { ::operator delete(p, kAlign); }
  template <class U>
  bool operator==(const LineAligned<U>&) const { return true; }
  template <class U>
  bool operator!=(const LineAligned<U>&) const { return false; }
};

template <class T>
class Ring {
 public:
  bool empty() const { return n_ == 0; }
  size_t size() const { return n_; }
  T& front() { return buf_[head_]; }
  const T& front() const { return buf_[head_]; }
  T& operator[](size_t i) { return buf_[(head_ + i) & mask_]; }
  const T& operator[](size_t i) const { return buf_[(head_ + i) & mask_]; }
  // The slot at the back, made part of the queue: the caller assigns its fields (one move
  // each, no temporary element).
  T& append_slot() {
    if (n_ == buf_.size()) grow();
    T& slot = buf_[(head_ + n_) & mask_];
    ++n_;
    return slot;
  }
  void push_back(T&& x) { append_slot() = std::move(x); }
  void pop_front() {
    buf_[head_] = T();  // drops what the element holds (e.g. a shared op block) now
    drop_front();
  }
  // pop_front() for a front already moved from (it holds nothing left to drop).
  void drop_front() {
    head_ = --n_ == 0 ? 0 : (head_ + 1) & mask_;  // an emptied ring starts again at slot 0: its warm first slots
  }
  // Removes element i, keeping the others' order (shifts the ones before it back by one).
  void erase_at(size_t i) {
    for (size_t k = i; k > 0; --k) (*this)[k] = std::move((*this)[k - 1]);
    pop_front();
  }

 private:
  void grow() {
    std::vector<T, LineAligned<T>> b(buf_.empty() ? 8 : 2 * buf_.size());
    for (size_t i = 0; i < n_; ++i) b[i] = std::move((*this)[i]);
    buf_ = std::move(b);
    head_ = 0;
    mask_ = buf_.size() - 1;
  }
  std::vector<T, LineAligned<T>> buf_;
  size_t head_ = 0, n_ = 0, mask_ = 0;
};

}  // namespace arc::sim
