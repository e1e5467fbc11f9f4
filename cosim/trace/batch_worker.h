// BatchWorker<B>: a producer thread that fills batches of type B ahead of their consumer, so
// the producer's work (decompressing, decoding, checking, packing trace records) overlaps the
// consumer's (on a second core it costs no wall time). `fill(b)` fills one batch and returns
// false when it was the last (it may be empty then); at most `depth` batches are in flight.
// The consumer's next() hands back the batch it had and returns the next one in order, or
// nullptr after the last; an exception thrown by fill() is rethrown there, in the consumer's
// thread, after every batch filled before it.
#pragma once
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <utility>

namespace arc::trace {

template <class B>
class BatchWorker {
 public:
  BatchWorker(size_t depth, std::function<B()> make, std::function<bool(B&)> fill) : fill_(std::move(fill)) {
    for (size_t i = 0; i < (depth < 1 ? 1 : depth); ++i) free_.push_back(make());
    worker_ = std::thread([this] { work(); });
  }
  ~BatchWorker() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stop_ = true;
    }
    emptied_.notify_all();
    worker_.join();
  }
  BatchWorker(const BatchWorker&) = delete;
  BatchWorker& operator=(const BatchWorker&) = delete;

  B* next() {
    std::unique_lock<std::mutex> lock(mu_);
    if (have_) {
      free_.push_back(std::move(cur_));
      have_ = false;
      emptied_.notify_one();
    }
    filled_.wait(lock, [this] { return !full_.empty() || done_; });
    if (full_.empty()) {
      if (error_) std::rethrow_exception(error_);
      return nullptr;
    }
    cur_ = std::move(full_.front());
    full_.pop_front();
    have_ = true;
    return &cur_;
  }

 private:
  void work() {
    try {
      for (;;) {
        B b;
        {
          std::unique_lock<std::mutex> lock(mu_);
          emptied_.wait(lock, [this] { return stop_ || !free_.empty(); });
          if (stop_) return;
          b = std::move(free_.front());
          free_.pop_front();
        }
        const bool more = fill_(b);
        {
          std::lock_guard<std::mutex> lock(mu_);
          full_.push_back(std::move(b));
          done_ = !more;
        }
        filled_.notify_one();
        if (!more) return;
      }
    } catch (...) {
      {
        std::lock_guard<std::mutex> lock(mu_);
        error_ = std::current_exception();
        done_ = true;
      }
      filled_.notify_one();
    }
  }

  std::function<bool(B&)> fill_;
  std::mutex mu_;
  std::condition_variable filled_, emptied_;
  std::deque<B> full_, free_;
  bool done_ = false, stop_ = false;  // worker: no more batches; consumer: worker should stop
  std::exception_ptr error_;
  B cur_{};
  bool have_ = false;
  std::thread worker_;  // last: starts after every member above exists
};

}  // namespace arc::trace
