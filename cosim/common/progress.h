// A one-line progress bar on stderr for long runs. Silent when stderr is not a terminal
// (CI logs, pipes) or when disabled, so machine-readable stdout is never disturbed.
#pragma once
#include <chrono>
#include <cstdint>
#include <string>

namespace arc {

class Progress {
 public:
  Progress(std::string label, uint64_t total, bool enabled = true);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  void update(uint64_t done);  // cheap; redraws at most ~10 times a second
  void finish();

 private:
  std::string label_;
  uint64_t total_;
  bool enabled_;
  bool finished_ = false;
  std::chrono::steady_clock::time_point start_, last_;
};

}  // namespace arc
