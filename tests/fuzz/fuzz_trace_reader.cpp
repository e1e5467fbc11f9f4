// libFuzzer target: the trace reader on arbitrary bytes. Any input must either read cleanly or
// throw arc::Error; a crash, hang, sanitizer report or other exception is a bug.
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <string>

#include "error.h"
#include "trace.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // The reader takes a path: hand it an in-memory file.
  static const int fd = memfd_create("arcsim-fuzz-trace", 0);
  if (fd < 0) return 0;
  if (ftruncate(fd, 0) != 0 || pwrite(fd, data, size, 0) != static_cast<ssize_t>(size)) return 0;
  static const std::string path = "/proc/self/fd/" + std::to_string(fd);
  try {
    arc::trace::Reader r(path);
    arc::trace::Instr in;
    uint64_t n = 0;
    while (r.next(in) && ++n < 1'000'000) {
    }
    (void)r.final_buffer();
  } catch (const arc::Error&) {
    // expected for malformed input
  }
  return 0;
}
