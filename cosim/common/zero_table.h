// ZeroTable<T>: a fixed-size array that starts all zero and costs memory, and time, only where it
// is used. The timing model keeps a few tables per gradient word (the memory image, the ROP
// units' word state, the trace summary's per-word counts and sums: ~40 bytes a word); a
// std::vector writes every element when it is made, so a short trace on a 16M-word buffer (the
// calibration's microbenchmark replays) spent most of its time and ~750 MB zeroing words it
// never used. Here the storage is anonymous memory from mmap, whose pages the kernel supplies
// zero-filled on first touch, and the table notes which pages it handed out for writing
// (touched()): a page never handed out is all zero, never faulted in, and the whole-table
// passes (the end-of-run checks, the image's hash and its trip through the pipe) visit only the
// touched ones (for_each_touched). Reading an untouched page through a const accessor is
// correct (it reads zeros) but maps it (on some kernels, as on this project's VMs, as a real
// page).
//
// Every non-const accessor marks what it returns as touched: operator[] its element's page,
// data(), begin() and end() the whole table (a caller may write anywhere through them). So a
// value-initialized T must be all-zero bytes (integers, +0.0, structs of them), and T must be
// trivially copyable.
#pragma once
#include <sys/mman.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

#include "huge_pages.h"

namespace arc {

template <class T>
class ZeroTable {
  static_assert(std::is_trivially_copyable_v<T>, "ZeroTable holds plain data (copied as bytes)");
  static_assert(4096 % sizeof(T) == 0, "an element lies on one page");

 public:
  using value_type = T;
  using size_type = size_t;
  using iterator = T*;
  using const_iterator = const T*;
  using reference = T&;
  using const_reference = const T&;
  static constexpr size_t kPageBytes = 4096;  // the unit of touched(): the kernel's page

  ZeroTable() = default;
  // dense: the caller expects to touch most of the table (a trace with at least as many lane
  // updates as its buffer has words), so it asks for 2 MB huge pages (huge_pages.h): a fault per
  // 2 MB, where a sparse table keeps 4 KB pages and pays only for what it touches.
  explicit ZeroTable(size_t n, bool dense = false) : n_(check(n)), touched_(pages(n), 0) {
    if (n_ == 0) return;
    void* p = ::mmap(nullptr, bytes(), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    p_ = static_cast<T*>(p);
    if (dense) advise_huge(p, bytes());
  }
  // A copy writes only the touched pages (and touches the same ones).
  ZeroTable(const ZeroTable& o) : ZeroTable(o.n_) {
    touched_ = o.touched_;
    o.for_each_touched([&](size_t a, size_t b) { std::memcpy(static_cast<void*>(p_ + a), o.p_ + a, (b - a) * sizeof(T)); });
  }
  explicit ZeroTable(const std::vector<T>& v) : ZeroTable(v.size()) {
    if (n_) std::memcpy(static_cast<void*>(data()), v.data(), bytes());
  }
  ZeroTable(ZeroTable&& o) noexcept
      : p_(std::exchange(o.p_, nullptr)), n_(std::exchange(o.n_, 0)), touched_(std::move(o.touched_)) {
    o.touched_.clear();
  }
  ZeroTable& operator=(ZeroTable o) noexcept {  // copy or move, then swap
    std::swap(p_, o.p_);
    std::swap(n_, o.n_);
    std::swap(touched_, o.touched_);
    return *this;
  }
  ~ZeroTable() {
    if (p_) ::munmap(p_, bytes());
  }

  size_t size() const { return n_; }
  bool empty() const { return n_ == 0; }
  T& operator[](size_t i) {
    touched_[i * sizeof(T) / kPageBytes] = 1;
    return p_[i];
  }
  const T& operator[](size_t i) const { return p_[i]; }
  // Element i without mapping its page when the table never touched it (then it is zero): for
  // a pass over one table's touched pages that reads others at the same index.
  T get(size_t i) const { return touched_[i * sizeof(T) / kPageBytes] ? p_[i] : T{}; }
  T* data() {
    touch_all();
    return p_;
  }
  const T* data() const { return p_; }
  T* begin() { return data(); }
  T* end() { return data() + n_; }
  const T* begin() const { return p_; }
  const T* end() const { return p_ + n_; }
  std::vector<T> to_vector() const { return std::vector<T>(begin(), end()); }

  // f(first, last) for each run [first, last) of elements on touched pages, in order; every
  // element outside them is zero.
  template <class F>
  void for_each_touched(F f) const {
    constexpr size_t kPer = kPageBytes / sizeof(T);
    for (size_t pg = 0; pg < touched_.size();) {
      if (!touched_[pg]) {
        ++pg;
        continue;
      }
      size_t end = pg;
      while (end < touched_.size() && touched_[end]) ++end;
      f(pg * kPer, std::min(n_, end * kPer));
      pg = end;
    }
  }

  friend bool operator==(const ZeroTable& a, const ZeroTable& b) {
    return a.n_ == b.n_ && std::equal(a.begin(), a.end(), b.begin());
  }
  friend bool operator!=(const ZeroTable& a, const ZeroTable& b) { return !(a == b); }
  friend bool operator==(const ZeroTable& a, const std::vector<T>& b) {
    return a.n_ == b.size() && std::equal(a.begin(), a.end(), b.begin());
  }
  friend bool operator==(const std::vector<T>& a, const ZeroTable& b) { return b == a; }
  friend bool operator!=(const ZeroTable& a, const std::vector<T>& b) { return !(a == b); }
  friend bool operator!=(const std::vector<T>& a, const ZeroTable& b) { return !(b == a); }

 private:
  size_t bytes() const { return n_ * sizeof(T); }
  static size_t check(size_t n) {  // n elements' bytes must fit a size_t (as std::vector's max_size)
    if (n > (SIZE_MAX - kPageBytes) / sizeof(T)) throw std::bad_alloc();
    return n;
  }
  static size_t pages(size_t n) { return (n * sizeof(T) + kPageBytes - 1) / kPageBytes; }
  void touch_all() { std::fill(touched_.begin(), touched_.end(), uint8_t{1}); }
  T* p_ = nullptr;
  size_t n_ = 0;
  std::vector<uint8_t> touched_;  // per page of the table: handed out for writing
};

// f(first, last) for each run of indices on a page that any of the tables (of one length, any
// element types) touched, each index once, in order: a pass over several per-word tables that
// reads the rest as zero.
template <class F, class... Tables>
void for_each_touched_in_any(F f, const Tables&... tables) {
  std::vector<std::pair<size_t, size_t>> runs;
  (tables.for_each_touched([&](size_t a, size_t b) { runs.emplace_back(a, b); }), ...);
  std::sort(runs.begin(), runs.end());
  for (size_t i = 0; i < runs.size();) {
    size_t a = runs[i].first, b = runs[i].second;
    for (++i; i < runs.size() && runs[i].first <= b; ++i) b = std::max(b, runs[i].second);
    f(a, b);
  }
}

}  // namespace arc
