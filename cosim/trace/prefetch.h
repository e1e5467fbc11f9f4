// PrefetchReader: a trace Reader on a worker thread that decodes a few batches of
// instructions ahead of the caller, so decompression, decoding and the per-record checks
// overlap the caller's own work (on a second core they cost no wall time). Same contract as
// Reader::next: every instruction in file order, and any problem throws arc::Error with the
// Reader's one-line message, raised in the caller's thread at the instruction where it is.
// Memory: depth x batch instructions.
#pragma once
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "trace.h"

namespace arc::trace {

class PrefetchReader {
 public:
  // Opens the file and reads its header here (errors throw here), then starts the worker.
  explicit PrefetchReader(const std::string& path, size_t batch = 2048, size_t depth = 4);
  ~PrefetchReader();  // stops the worker and waits for it
  PrefetchReader(const PrefetchReader&) = delete;
  PrefetchReader& operator=(const PrefetchReader&) = delete;

  const Header& header() const { return header_; }
  // The next instruction, valid until the following call; nullptr after the last one.
  const Instr* next();

 private:
  struct Batch {
    std::vector<Instr> v;
    size_t n = 0;  // filled
  };
  void work();

  Reader reader_;  // the worker's alone once it runs
  Header header_;
  size_t batch_;
  std::mutex mu_;
  std::condition_variable filled_, emptied_;
  std::deque<Batch> full_, free_;
  bool done_ = false, stop_ = false;  // worker: no more batches; caller: worker should stop
  std::exception_ptr error_;
  Batch cur_;
  size_t at_ = 0;
  std::thread worker_;
};

}  // namespace arc::trace
