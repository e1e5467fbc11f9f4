// The raw record one reduce call leaves in the capture buffer on the GPU: the call's active
// lanes, each lane's address of parameter 0 (parameter p is at + p x stride), its NP values and
// the partial sums of the groups reduced on the GPU. Plain data shared by the device recorder
// (trace_rec.cuh) and the host writer (sw/host/trace_out.cpp), which turns one record into one
// trace record of nparams instructions (cosim/trace/FORMAT.md, version 2).
#pragma once
#include <cstdint>

namespace arc {

constexpr int kMaxRecParams = 12;  // parameters one reduce call may record (3DGS: 9, Pulsar: 8)

// A call's timing part: who called, when, which lanes and where. 176 bytes per slot; a
// timing-only capture keeps only this (the 1080p gs pass: 1,511 MB of slots, spares included,
// on the device and again on the host; results/h200/recorder-split/).
struct DevCallHead {
  uint32_t sm;        // %smid
  uint32_t hw_warp;   // %warpid: the warp's slot on its SM (sub-core = slot % 4; the largest slot
                      // seen + 1 is the occupancy the launch reached)
  uint32_t warp;      // global warp number (block-linear), unique for the launch
  uint32_t flags;     // bit 0: first call of the warp; bit 1: a subset of the warp called (divergent);
                      // bit 2 / bit 3: 2- / 4-wide vector atomics; bit 4: an Adaptive pair instruction
                      // (reduced lane l holds value l + value l+1); bit 5: one of a pair call's two
                      // plain records (arc/pair_reduce.cuh)
  uint64_t seq;       // per-warp call number
  uint64_t gap;       // clock64() cycles from the end of the warp's previous call (or its start) to this call's entry
  uint32_t active;    // lanes that issued an update
  uint32_t reduced;   // leaders of groups summed on the GPU
  uint32_t nparams;   // parameters written (1..kMaxRecParams)
  uint32_t stride;    // word distance between consecutive parameters
  uint32_t addr[32];  // word index of parameter 0
};

// A call's values: 3,072 bytes, kept only by a capture of the full form.
struct DevCallValues {
  uint32_t value[kMaxRecParams][32];  // binary32 bits, [param][lane]
  uint32_t psum[kMaxRecParams][32];   // a reduced group's sum at its leader, [param][lane]
};

// One whole call (host side: sw/host/trace_out.h's to_instrs, tests).
struct DevCall : DevCallHead, DevCallValues {};

// DevCall::flags bits of a pair call (arc/pair_reduce.cuh).
constexpr unsigned kDevPairSum = 1u << 4;   // an Adaptive pair instruction (adjacent-lane sums)
constexpr unsigned kDevPairCall = 1u << 5;  // one of a pair call's two plain records

// Per-warp state of the recorder, one per global warp, zeroed before each pass.
struct DevWarpState {
  unsigned long long calls;       // calls made so far in this pass
  unsigned long long last_clock;  // clock64() at the end of the warp's previous call (0: none yet)
};

}  // namespace arc
