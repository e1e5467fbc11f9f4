// What `arcsim trace strip` and `arcsim trace upgrade` share: every record of a trace written
// again under a (possibly changed) header into a new file, atomically (arc::AtomicFile: the
// output appears whole or not at all).
#pragma once
#include <cstdint>
#include <string>

#include "atomic_file.h"
#include "trace.h"

namespace arc::cli {

struct CopyResult {
  uint64_t instructions = 0, lane_updates = 0, bytes = 0;
};

// Reads r to its end, writing each record under header h to out; keep_final_buffer: the
// trace's final buffer follows (a timing-only output has none). The input is checked to its
// end (Reader::next reads and checks everything after the records, a version-3 file's warp
// table against the records included) before the output is committed: a corrupt input writes
// nothing.
inline CopyResult copy_records(arc::trace::Reader& r, const arc::trace::Header& h,
                               const std::string& out, bool keep_final_buffer) {
  arc::AtomicFile file(out);
  CopyResult c;
  {
    arc::trace::Writer w(file.temp_path(), h);
    arc::trace::Instr instr;
    while (r.next(instr)) {
      w.write(instr);
      ++c.instructions;
      c.lane_updates += static_cast<uint64_t>(__builtin_popcount(instr.active_mask));
    }
    if (keep_final_buffer) w.finish(r.final_buffer());
    else w.finish();
    c.bytes = w.bytes_written();
  }
  file.commit();
  return c;
}

}  // namespace arc::cli
