#include "prefetch.h"

namespace arc::trace {

PrefetchReader::PrefetchReader(const std::string& path, size_t batch, size_t depth)
    : reader_(path), header_(reader_.header()), batch_(batch < 1 ? 1 : batch) {
  for (size_t i = 0; i < (depth < 1 ? 1 : depth); ++i) free_.push_back(Batch{std::vector<Instr>(batch_), 0});
  worker_ = std::thread([this] { work(); });
}

PrefetchReader::~PrefetchReader() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  emptied_.notify_all();
  worker_.join();
}

void PrefetchReader::work() {
  try {
    for (;;) {
      Batch b;
      {
        std::unique_lock<std::mutex> lock(mu_);
        emptied_.wait(lock, [this] { return stop_ || !free_.empty(); });
        if (stop_) return;
        b = std::move(free_.front());
        free_.pop_front();
      }
      b.n = 0;
      while (b.n < batch_ && reader_.next(b.v[b.n])) ++b.n;
      const bool last = b.n < batch_;
      {
        std::lock_guard<std::mutex> lock(mu_);
        if (b.n) full_.push_back(std::move(b));
        done_ = last;
      }
      filled_.notify_one();
      if (last) return;
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

const Instr* PrefetchReader::next() {
  if (at_ < cur_.n) return &cur_.v[at_++];
  std::unique_lock<std::mutex> lock(mu_);
  if (!cur_.v.empty()) {  // hand the used batch back
    cur_.n = 0;
    free_.push_back(std::move(cur_));
    cur_ = Batch{};
    emptied_.notify_one();
  }
  filled_.wait(lock, [this] { return !full_.empty() || done_; });
  if (full_.empty()) {
    if (error_) std::rethrow_exception(error_);
    return nullptr;
  }
  cur_ = std::move(full_.front());
  full_.pop_front();
  at_ = 0;
  return &cur_.v[at_++];
}

}  // namespace arc::trace
