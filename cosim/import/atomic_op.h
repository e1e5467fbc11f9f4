// Which SASS opcodes are atomics, and which of them ARCsim keeps: global float32 add
// reductions (RED, REDG, ATOM, ATOMG with .ADD and .F32, .F32x2 or .F32x4).
#pragma once
#include <string>
#include <string_view>

namespace arc::import {

struct AtomicOp {
  bool atomic = false;   // a memory atomic or reduction of any kind
  bool keep = false;     // a global float32 add (what ARC reduces)
  bool generic = false;  // ATOM: generic addressing, may point into shared memory
  int vector = 1;        // float words per lane: 1, 2 (F32x2) or 4 (F32x4)
  std::string key;       // "RED.ADD.F32", "ATOMS.CAS.64", ... (name.operation.type)
};

// RED/REDG/ATOM/ATOMG/ATOMS/REDAS and the bulk/tensor reductions are atomics; a missing type
// modifier means U32, as in SASS.
AtomicOp classify_atomic(std::string_view opcode);

}  // namespace arc::import
