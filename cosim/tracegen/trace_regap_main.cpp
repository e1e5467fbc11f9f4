// trace_regap: copies an arcsim trace with every compute gap multiplied by a factor
// (issue 9 validation: the captured clock64 gaps include the recorder's own cost and the time
// the warp stalled on the GPU's atomics; scripts/validate_capture.sh rescales them so that the
// gaps add up to the measured no-atomics bound). Factor 0 = atomics only.
// Build: cmake --build build --target trace_regap (links arc_trace and arc_common).
// Usage: trace_regap IN OUT FACTOR
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <exception>
#include <stdexcept>
#include <string>
#include <memory>

#include "atomic_file.h"
#include "numarg.h"
#include "trace.h"

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: trace_regap IN OUT FACTOR\n");
    return 2;
  }
  try {
    const double f = arc::parse_real(argv[3], "FACTOR", 0.0, 1e6);
    arc::check_outputs({{"IN", argv[1]}}, {{"OUT", argv[2]}});
    arc::trace::Reader r(argv[1]);
    arc::AtomicFile out(argv[2]);  // OUT appears only when complete
    arc::trace::Header h = r.header();
    h.metadata.emplace_back("gap_rescaled_by", argv[3]);
    auto writer = std::make_unique<arc::trace::Writer>(out.temp_path(), h);
    arc::trace::Writer& w = *writer;
    arc::trace::Instr in;
    unsigned long long before = 0, after = 0;
    while (r.next(in)) {
      before += in.gap;
      const double g = std::floor(static_cast<double>(in.gap) * f + 0.5);
      in.gap = static_cast<uint32_t>(std::min(g, 4294967295.0));
      after += in.gap;
      w.write(in);
    }
    w.finish(r.final_buffer());
    const unsigned long long n = w.instructions();
    writer.reset();
    out.commit();
    std::printf("%s -> %s: %llu instructions, gap sum %llu -> %llu\n", argv[1], argv[2],
                n, before, after);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "trace_regap: error: %s\n", e.what());
    return 2;
  }
  return 0;
}
