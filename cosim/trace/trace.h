// The ARCsim warp-atomic trace: one writer and one reader, used by everything (the CUDA
// capture in sw/, the generator, `arcsim trace`, `arcsim verify`). Format: FORMAT.md here.
// This header is deliberately light (standard library only) so a CUDA host program can
// include it; zstd and zlib stay inside the library.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace arc::trace {

constexpr uint16_t kVersion = 3;        // format version this build writes
constexpr uint16_t kOldestVersion = 1;  // oldest version it still reads (FORMAT.md "Versioning")
constexpr int kLanes = 32;
constexpr uint32_t kMaxParams = 64;     // parameters one recorded call may write (Instr::nparams)

// How the producing kernel issued its atomics (ARC paper section 4; DESIGN.md data path 2).
// Cub = cub::WarpReduce (sum order is CUB's); Adaptive = per-warp choice of serial sums or
// the butterfly (kFlagTreeSum marks the latter). SwT = the transposed reduce-scatter (issue
// 23): SW-B's eligibility and butterfly sums (tree order), but the call's NP parameter sums go
// out as ONE warp-level instruction of NP lanes instead of NP one-lane instructions (each
// parameter's record still carries its own reduced leader and sum, as SW-B's).
enum class Method : uint8_t { Baseline = 0, SwS = 1, SwB = 2, Hw = 3, Cub = 4, Adaptive = 5, SwT = 6 };
const char* method_name(Method m);            // "baseline", "sw-s", "sw-b", "hw", "cub", "adaptive", "sw-t"
Method method_from_name(const std::string&);  // inverse; throws arc::Error on an unknown name

// What an instruction's compute gap counts.
enum class GapUnit : uint8_t { Cycles = 0, Instructions = 1 };

// Per-instruction flags (Instr::flags). Undefined bits must be zero.
constexpr uint32_t kFlagFirstOfWarp = 1u << 0;  // no earlier atomic in this warp: gap counts from warp start
constexpr uint32_t kFlagGapClamped = 1u << 1;   // the real gap exceeded 2^32-1 and was clamped
// How this instruction's partial sums were formed (neither bit: serial, ascending lanes):
constexpr uint32_t kFlagTreeSum = 1u << 2;      // butterfly __shfl_down 16,8,4,2,1, zeros for inactive lanes
constexpr uint32_t kFlagOpaqueSum = 1u << 3;    // a library's order (e.g. CUB): not checkable bit for bit
// Vector atomics (issue 17): the call's parameters leave in chunks of 2 or 4 consecutive
// params per lane, one vector RED (red.global.add.v2/v4.f32) each; neither bit: scalar REDs.
constexpr uint32_t kFlagVec2 = 1u << 4;
constexpr uint32_t kFlagVec4 = 1u << 5;
// Adaptive rule v4's group tree (issue 20): each address group summed over its own lanes' ranks,
// rank r + s into rank r at s = 1, 2, 4, ... (golden::group_tree_sum). A sum-order flag as bits 2/3:
// at most one of the three.
constexpr uint32_t kFlagGroupTreeSum = 1u << 6;
// Adaptive rule v5's pair send (issue 20, sw/include/arc/pair_reduce.cuh): this instruction's
// lanes were regrouped from a pair call's two records, and reduced_mask bit l means lane l sent
// its value plus lane l+1's (same address; lane l+1 sends nothing): the group tree over those two
// lanes (golden::group_tree_sum). A sum-order flag: at most one of bits 2, 3, 6, 7.
constexpr uint32_t kFlagPairSum = 1u << 7;
// One of a pair call's two plain records (Baseline or Floor): this record and the same warp's
// next record are records 0 and 1 of one arc::reduce_pair call (same mask and params). No reduced
// lanes. The timing model's adaptive mode sends such a pair regrouped, as rule v5 does.
constexpr uint32_t kFlagPairCall = 1u << 8;
constexpr uint32_t kFlagsSumOrder = kFlagTreeSum | kFlagOpaqueSum | kFlagGroupTreeSum | kFlagPairSum;
constexpr uint32_t kFlagsDefined = kFlagFirstOfWarp | kFlagGapClamped | kFlagTreeSum | kFlagOpaqueSum | kFlagVec2 |
                                   kFlagVec4 | kFlagGroupTreeSum | kFlagPairSum | kFlagPairCall;
// Floats per lane update of an instruction with these flags: 1, 2 or 4.
inline uint32_t vec_width(uint32_t flags) { return (flags & kFlagVec4) ? 4u : (flags & kFlagVec2) ? 2u : 1u; }


struct Header {
  std::string gpu_name;                 // e.g. "NVIDIA H100 80GB HBM3" or "synthetic"
  uint32_t sm_count = 0;
  uint32_t subcores_per_sm = 4;
  std::string kernel_name;
  Method method = Method::Baseline;
  uint32_t balancing_threshold = 0;     // SW-S/SW-B: a group of >= this many lanes is reduced in core
  std::string scene_generator;          // scene (or synthetic trace) generator name
  uint64_t scene_seed = 0;
  uint64_t buffer_words = 0;            // gradient buffer length in float (32-bit) words
  uint8_t reduce_ftz = 0;               // FTZ mode of the code that made the partial sums: 1 flush, 0 keep subnormals
  GapUnit gap_unit = GapUnit::Cycles;
  // Version 2. A timing-only trace carries no lane values, partial sums or final buffer (the
  // reader gives zeros and an empty final buffer): enough to simulate time, not to verify bits.
  bool timing_only = false;
  // Launch shape of the traced kernel (0 = unknown, e.g. a version-1 trace): the timing model
  // admits resident_warps_per_sm warps per SM (capped by the simulated GPU's limit).
  uint32_t grid_blocks = 0;
  uint32_t threads_per_block = 0;
  uint32_t resident_warps_per_sm = 0;
  uint32_t barriers_per_block = 0;       // block-wide barriers each block executed (recorded, not modelled)
  std::vector<std::pair<std::string, std::string>> metadata;  // free-form key/value, order kept
};

// One warp-level atomic add instruction (red/atom.add.f32 on a float gradient buffer).
struct Instr {
  uint32_t sm = 0;
  uint32_t subcore = 0;       // < Header::subcores_per_sm
  uint32_t warp = 0;          // warp id within the SM, as the producer numbers warps
  uint64_t seq = 0;           // per-warp sequence number of this atomic
  uint32_t active_mask = 0;   // bit l = lane l issued an update (never 0)
  uint32_t gap = 0;           // compute since this warp's previous atomic (Header::gap_unit)
  uint32_t flags = 0;         // kFlag*
  // Address groups = active lanes with equal addresses; a group's leader is its lowest lane.
  // Bit l set: the group led by lane l was reduced on the GPU and partial_sum[l] holds the
  // result bits (SW-S: serial sum in ascending lane order starting from lane l's value; see
  // sum_order() for tree and library sums).
  uint32_t reduced_mask = 0;
  // One reduce call that writes several parameters of a primitive is one record in the file
  // and nparams consecutive Instrs in memory (param 0 .. nparams-1): same warp, mask, flags and
  // groups; parameter p's addresses are param 0's + p * stride; consecutive seq; param 0 carries
  // the call's gap (and kFlagFirstOfWarp), the others gap 0. A call's fixed SW cost (match,
  // ballot) is paid once, at param 0.
  uint8_t param = 0;
  uint8_t nparams = 1;
  std::array<uint32_t, kLanes> addr{};         // word index into the gradient buffer (active lanes)
  std::array<uint32_t, kLanes> value{};        // binary32 bit pattern (active lanes)
  std::array<uint32_t, kLanes> partial_sum{};  // binary32 bits at reduced leaders only
};

enum class SumOrder { Serial, Tree, Opaque, GroupTree, Pair };
// The order of in's partial sums: the flags, else the method (sw-b: tree, cub: opaque).
SumOrder sum_order(Method m, const Instr& in);

// True when a and b carry the same trace content (lanes outside the masks are ignored).
bool same_content(const Instr& a, const Instr& b);

// Checks an instruction against the header; returns "" when valid, else what is wrong
// (empty mask, address out of range, subcore out of range, reduced_mask bit on a lane that
// is not an active group leader, undefined flag bits, param >= nparams, nparams out of range).
std::string check_instr(const Header& h, const Instr& in);

// One warp of a trace as its warp table lists it (version 3, FORMAT.md "Warp table"): where it
// ran (its first record's ids) and what it issued.
struct WarpEntry {
  uint32_t sm = 0, subcore = 0, warp = 0;
  uint64_t instructions = 0;  // warp instructions (a call of k params is k)
  uint64_t gap_sum = 0;       // sum of their gaps (Header::gap_unit)
};
inline bool operator==(const WarpEntry& a, const WarpEntry& b) {
  return a.sm == b.sm && a.subcore == b.subcore && a.warp == b.warp && a.instructions == b.instructions &&
         a.gap_sum == b.gap_sum;
}
// A trace's warp table and totals, read without decoding a record (Reader::warp_table).
struct WarpTable {
  std::vector<WarpEntry> warps;  // in order of first appearance in the records
  uint64_t instructions = 0, lanes = 0;  // the end block's totals
};

struct WriterOptions {
  uint32_t records_per_block = 16384;   // a block is flushed every N records (constant memory)
  int zstd_level = 3;
};

// Streams a trace to a file. Memory stays bounded by one block whatever the trace length.
class Writer {
 public:
  Writer(const std::string& path, const Header& header, WriterOptions opt = {});  // throws arc::Error
  ~Writer();  // without finish() the file is left without its end marker (readers call it truncated)
  Writer(const Writer&) = delete;
  Writer& operator=(const Writer&) = delete;

  // Throws arc::Error if check_instr() finds a problem. The params of one call (nparams > 1)
  // come in order, one write() each, and are stored as one record once the last arrives; they
  // must agree as Instr::param describes.
  void write(const Instr& in);
  // Stores the final gradient buffer (exactly header.buffer_words words; none for a
  // timing-only trace), the warp table and the end marker, then closes the file.
  void finish(const uint32_t* final_buffer, size_t words);
  void finish(const std::vector<uint32_t>& final_buffer) { finish(final_buffer.data(), final_buffer.size()); }
  void finish() { finish(nullptr, 0); }  // timing-only traces

  uint64_t instructions() const;
  uint64_t lanes() const;          // lane updates written (sum of popcount(active_mask))
  uint64_t bytes_written() const;  // file size so far (final after finish())

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Reads a trace file front to back, checking every checksum; any problem throws arc::Error
// with one line naming it (file, block, record).
class Reader {
 public:
  explicit Reader(const std::string& path);  // opens and reads the header
  ~Reader();
  Reader(const Reader&) = delete;
  Reader& operator=(const Reader&) = delete;

  const Header& header() const;
  uint16_t version() const;  // format version of the file (1 to 3)
  // The warp table of a version-3 file (nullopt for versions 1 and 2), read by hopping from
  // block header to block header (every header checksum checked, no record decoded) to the
  // table and end blocks; independent of next()'s position. Reading the records to the end
  // checks the table against them: its form, its total, and entry by entry (each warp in order
  // of first appearance, with its instructions and gap sum) unless skip_warp_entries().
  std::optional<WarpTable> warp_table() const;
  // The next instruction (a call's params one by one); false after the last one. Before it
  // says so, the rest of the file (final buffer, warp table, end block, and that nothing
  // follows it) is read and checked as final_buffer() does: a reader that reads every record
  // has checked the whole file (FORMAT.md "Blocks"); any problem throws here.
  bool next(Instr& out);
  // The same without a copy: valid until the next call (or the Reader's end); nullptr after the last one.
  const Instr* next();
  // The next record (one call) whole, without making its params: param 0, with the call's
  // param count and address stride (param p: seq + p, gap 0, address + p x stride, the same
  // lanes and flags but first-of-warp). Every param is checked as next() checks it, with the
  // same message. Cheaper than next() for a call of several params in a timing-only trace;
  // valid until the next call; nullptr after the last record. Not after next() inside a call.
  const Instr* next_call(uint32_t& nparams, int64_t& stride);
  // From now on the records' seq numbers are not followed (each reads as its stored delta),
  // which saves a per-warp table look-up per record: for a reader that never reads seq.
  void ignore_seq();
  // From now on (call it before the first record) the warp table's entries are not checked
  // against the records (its form and total still are): for a reader that checks them itself
  // (the timing model's file source, from its per-warp tally), which saves a look-up per record.
  void skip_warp_entries();
  // The record next_call() returned last was encoded warp-uniform (every active lane on one
  // address; a writer may also encode such a record lane by lane, then this is false).
  bool last_call_uniform() const;
  // From now on (call it before the first record) the lane values and partial sums are not
  // unpacked into the Instrs, which read 0 there: packed_values() gives the values as the
  // file stores them. For a reader that copies the values on in lane order (the timing
  // model's file source), which saves a scatter and a gather per lane.
  void keep_values_packed();
  // After keep_values_packed(), the values of the instruction next() returned last: its active
  // lanes' binary32 bits, ascending lanes, each 4 bytes little-endian; valid until the next
  // call to next(). nullptr for a timing-only trace.
  const uint8_t* packed_values() const;
  // The final gradient buffer (reads past any remaining instructions first, and checks the
  // rest of the file to its end); empty for a timing-only trace.
  const std::vector<uint32_t>& final_buffer();
  // From now on the final buffer's blocks are read and checked but their words not kept (a
  // reader that never asks for them: the timing model's, which saves 4 bytes per gradient
  // word); final_buffer() then throws.
  void drop_final_buffer();

  uint64_t instructions() const;  // read so far
  uint64_t lanes() const;         // lane updates read so far
  uint64_t file_bytes() const;    // size of the file
  uint64_t bytes_read() const;    // bytes consumed so far (for progress bars)

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// A whole trace in memory (tests, small traces).
struct Trace {
  Header header;
  std::vector<Instr> instrs;
  std::vector<uint32_t> final_buffer;
};
Trace read_trace(const std::string& path);
void write_trace(const std::string& path, const Trace& t, WriterOptions opt = {});

}  // namespace arc::trace
