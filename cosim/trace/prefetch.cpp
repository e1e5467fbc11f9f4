#include "prefetch.h"

namespace arc::trace {

PrefetchReader::PrefetchReader(const std::string& path, size_t batch, size_t depth)
    : reader_(path), header_(reader_.header()), batch_(batch < 1 ? 1 : batch) {
  reader_.drop_final_buffer();  // checked when the records end (Reader::next), never asked for here
  worker_ = std::make_unique<BatchWorker<Batch>>(
      depth, [this] { return Batch{std::vector<Instr>(batch_), 0}; },
      [this](Batch& b) {
        b.n = 0;
        while (b.n < batch_ && reader_.next(b.v[b.n])) ++b.n;
        return b.n == batch_;
      });
}

const Instr* PrefetchReader::refill() {
  for (;;) {
    cur_ = worker_->next();
    at_ = 0;
    if (!cur_) return nullptr;
    if (cur_->n) return &cur_->v[at_++];
  }
}

}  // namespace arc::trace
