#include "progress.h"

#include <unistd.h>

#include <cstdio>

namespace arc {

Progress::Progress(std::string label, uint64_t total, bool enabled)
    : label_(std::move(label)), total_(total), enabled_(enabled && isatty(STDERR_FILENO)),
      start_(std::chrono::steady_clock::now()), last_(start_) {}

Progress::~Progress() { finish(); }

void Progress::update(uint64_t done) {
  if (!enabled_ || finished_) return;
  const auto now = std::chrono::steady_clock::now();
  if (done < total_ && now - last_ < std::chrono::milliseconds(100)) return;
  last_ = now;
  const double frac = total_ ? static_cast<double>(done) / static_cast<double>(total_) : 1.0;
  const double secs = std::chrono::duration<double>(now - start_).count();
  const double eta = frac > 0 ? secs * (1 - frac) / frac : 0;
  constexpr int kWidth = 30;
  const int fill = static_cast<int>(frac * kWidth);
  std::fprintf(stderr, "\r%s [%-*s] %5.1f%%  %llu/%llu  %.1fs eta %.1fs ", label_.c_str(), kWidth,
               std::string(static_cast<size_t>(fill), '#').c_str(), 100 * frac,
               static_cast<unsigned long long>(done), static_cast<unsigned long long>(total_), secs, eta);
  std::fflush(stderr);
}

void Progress::finish() {
  if (!enabled_ || finished_) return;
  update(total_);
  finished_ = true;
  std::fprintf(stderr, "\n");
}

}  // namespace arc
