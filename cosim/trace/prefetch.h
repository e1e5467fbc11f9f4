// PrefetchReader: a trace Reader on a worker thread (BatchWorker) that decodes a few batches
// of instructions ahead of the caller, so decompression, decoding and the per-record checks
// overlap the caller's own work. Same contract as Reader::next: every instruction in file
// order, and any problem throws arc::Error with the Reader's one-line message, raised in the
// caller's thread at the instruction where it is; the rest of the file after the records is
// checked before next() says it has no more (its final buffer read, not kept). Memory: depth x
// batch instructions.
#pragma once
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "batch_worker.h"
#include "trace.h"

namespace arc::trace {

class PrefetchReader {
 public:
  // Opens the file and reads its header here (errors throw here), then starts the worker.
  explicit PrefetchReader(const std::string& path, size_t batch = 2048, size_t depth = 4);

  const Header& header() const { return header_; }
  // The next instruction, valid until the following call; nullptr after the last one.
  const Instr* next() {
    if (cur_ && at_ < cur_->n) return &cur_->v[at_++];
    return refill();
  }

 private:
  struct Batch {
    std::vector<Instr> v;
    size_t n = 0;  // filled
  };
  const Instr* refill();

  Reader reader_;  // the worker's alone once it runs
  Header header_;
  size_t batch_;
  Batch* cur_ = nullptr;
  size_t at_ = 0;
  std::unique_ptr<BatchWorker<Batch>> worker_;  // last: stopped before the reader goes
};

}  // namespace arc::trace
