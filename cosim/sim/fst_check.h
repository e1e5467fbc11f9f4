// Whether an FST waveform reads back: Verilator's FST writer reports no failed write, so a disk
// that fills while it writes leaves a short file that exits 0. Read back with the FST reader that
// ships in the same runtime (gtkwave's fstapi, compiled into the Verilated models' library), such
// a file fails to open. The writers call this before their AtomicFile::commit().
#pragma once
#include <gtkwave/fstapi.h>

#include <string>

#include "error.h"

namespace arc::sim {

inline void check_fst_reads_back(const std::string& tmp_path, const std::string& shown_path) {
  void* r = fstReaderOpen(tmp_path.c_str());
  if (!r)
    throw Error("cannot write " + shown_path +
                ": the waveform does not read back (the disk may be full; the FST writer reports no failed write)");
  fstReaderClose(r);
}

}  // namespace arc::sim
