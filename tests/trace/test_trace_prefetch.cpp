// PrefetchReader (the decoding thread of the timing model's first pass) against Reader: the
// same instructions in the same order, the same one-line error for a damaged file, and no hang
// when it is dropped before the end.
#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <string>

#include "error.h"
#include "prefetch.h"
#include "test_util.h"
#include "trace.h"

namespace arc::trace {
namespace {

using testing::read_bytes;
using testing::small_trace;
using testing::write_bytes;

using testing::error_of;

TEST(TracePrefetch, SameInstructionsAsReaderAcrossBatchSizes) {
  const std::string path = small_trace("t", 7, 5000);
  for (size_t batch : {1, 7, 1000, 4096})
    for (size_t depth : {1, 3}) {
      Reader r(path);
      PrefetchReader p(path, batch, depth);
      EXPECT_EQ(p.header().buffer_words, r.header().buffer_words);
      Instr want;
      size_t n = 0;
      for (const Instr* got = p.next(); got; got = p.next(), ++n) {
        ASSERT_TRUE(r.next(want)) << "prefetch gave more than " << n;
        ASSERT_EQ(got->sm, want.sm) << n;
        ASSERT_EQ(got->warp, want.warp) << n;
        ASSERT_EQ(got->seq, want.seq) << n;
        ASSERT_EQ(got->active_mask, want.active_mask) << n;
        ASSERT_EQ(got->gap, want.gap) << n;
        ASSERT_EQ(0, std::memcmp(got->addr.data(), want.addr.data(), sizeof want.addr)) << n;
        ASSERT_EQ(0, std::memcmp(got->value.data(), want.value.data(), sizeof want.value)) << n;
      }
      EXPECT_FALSE(r.next(want));
      EXPECT_EQ(n, 5000u) << "batch " << batch << " depth " << depth;
      EXPECT_EQ(p.next(), nullptr);  // stays at the end
    }
}

TEST(TracePrefetch, DamagedFileThrowsReadersMessageInTheCallersThread) {
  const std::string path = small_trace("bad", 3, 3000);
  auto b = read_bytes(path);
  b.resize(b.size() * 2 / 3);  // cut in the middle of the records
  write_bytes(path, b);
  const std::string want = error_of([&] {
    Reader r(path);
    Instr in;
    while (r.next(in)) {
    }
  });
  ASSERT_NE(want, "");
  size_t got_before = 0;
  const std::string got = error_of([&] {
    PrefetchReader p(path, 256, 2);
    while (p.next()) ++got_before;
  });
  EXPECT_EQ(got, want);
  EXPECT_GT(got_before, 0u);  // the records before the cut still came through
  EXPECT_NE(error_of([] { PrefetchReader p("/nonexistent/arcsim.arctrace"); }), "");  // at construction
}

TEST(TracePrefetch, DroppedEarlyStopsItsWorker) {
  const std::string path = small_trace("early", 5, 5000);
  for (int k = 0; k < 20; ++k) {
    PrefetchReader p(path, 64, 2);
    for (int i = 0; i < k * 13; ++i) ASSERT_NE(p.next(), nullptr);
  }  // each destructor must join a worker that is blocked waiting for a free batch
}

}  // namespace
}  // namespace arc::trace
