// arc_bench's command line: defaults, lists, method names, and every kind of bad input.
#include <gtest/gtest.h>

#include "args.h"
#include "error.h"

using arc::sw::parse_args;

TEST(SwArgs, Defaults) {
  const auto a = parse_args({});
  EXPECT_EQ(a.workloads.size(), 4u);  // gs, gs-il, pulsar, tex
  ASSERT_EQ(a.methods.size(), 5u);
  EXPECT_EQ(a.methods[0].name, "baseline");
  EXPECT_EQ(a.width, 1920);
  EXPECT_EQ(a.height, 1080);
  EXPECT_GE(a.gaussians, 500000u);
  EXPECT_GE(a.reps, 10);
  EXPECT_TRUE(a.trace_path.empty());
}

TEST(SwArgs, ListsAndValues) {
  const auto a = parse_args({"--workloads", "gs,tex", "--methods", "baseline,sws-v4,adaptive", "--thresholds",
                             "0,4,32", "--reps", "15", "--size", "640x480", "--gaussians", "1234", "--seed", "7",
                             "--out", "/tmp/x", "--fd", "--no-check", "--meta", "gpu=H100", "--meta", "k=a=b"});
  EXPECT_EQ(a.workloads, (std::vector<std::string>{"gs", "tex"}));
  ASSERT_EQ(a.methods.size(), 3u);
  EXPECT_EQ(a.methods[1].name, "sws");
  EXPECT_EQ(a.methods[1].vec, 4);
  EXPECT_EQ(a.methods[1].label(), "sws-v4");
  EXPECT_EQ(a.methods[2].label(), "adaptive");
  EXPECT_EQ(a.thresholds, (std::vector<int>{0, 4, 32}));
  EXPECT_EQ(a.reps, 15);
  EXPECT_EQ(a.width, 640);
  EXPECT_EQ(a.height, 480);
  EXPECT_EQ(a.gaussians, 1234u);
  EXPECT_EQ(a.seed, 7u);
  EXPECT_EQ(a.out_dir, "/tmp/x");
  EXPECT_TRUE(a.fd);
  EXPECT_FALSE(a.check);
  ASSERT_EQ(a.meta.size(), 2u);
  EXPECT_EQ(a.meta[1].first, "k");
  EXPECT_EQ(a.meta[1].second, "a=b");
}

TEST(SwArgs, Trace) {
  const auto a = parse_args({"--trace", "t.arctrace", "--trace-workload", "pulsar", "--trace-method", "sws",
                             "--trace-threshold", "3", "--trace-size", "32x16", "--trace-prims", "50"});
  EXPECT_EQ(a.trace_path, "t.arctrace");
  EXPECT_EQ(a.trace_workload, "pulsar");
  EXPECT_EQ(a.trace_threshold, 3);
  EXPECT_EQ(a.trace_width, 32);
  EXPECT_EQ(a.trace_height, 16);
  EXPECT_EQ(a.trace_prims, 50u);
  EXPECT_FALSE(a.trace_timing_only);
  EXPECT_TRUE(parse_args({"--trace", "t.arctrace", "--trace-timing-only"}).trace_timing_only);
}

TEST(SwArgs, SplitList) {
  EXPECT_EQ(arc::sw::split_list("a,,b,"), (std::vector<std::string>{"a", "b"}));
  EXPECT_TRUE(arc::sw::split_list("").empty());
}

TEST(SwArgs, BadInputThrows) {
  const std::vector<std::vector<std::string>> bad = {
      {"--bogus"},
      {"--reps"},
      {"--reps", "0"},
      {"--reps", "12x"},
      {"--thresholds", "33"},
      {"--thresholds", ""},
      {"--size", "640"},
      {"--size", "0x10"},
      {"--methods", "fast"},
      {"--methods", "sws-v3"},
      {"--methods", "sws-vx"},
      {"--workloads", "nerf"},
      {"--meta", "novalue"},
      {"--meta", "=v"},
      {"--trace-method", "sws-v4"},
      {"--trace-workload", "x"},
      {"--help"},
  };
  int thrown = 0;
  for (const auto& argv : bad) {
    EXPECT_THROW(parse_args(argv), arc::Error) << argv[0];
    try {
      parse_args(argv);
    } catch (const arc::Error&) {
      ++thrown;
    }
  }
  EXPECT_EQ(thrown, static_cast<int>(bad.size()));
}

// Issue 11's method options: block-level method, CAS loop, no-atomics bound, clamp, skip.
TEST(SwArgs, MethodOptions) {
  using arc::sw::MethodSpec;
  using arc::sw::parse_method;
  using arc::sw::parse_args;
  const MethodSpec b = parse_method("block-cas-clamp");
  EXPECT_EQ(b.name, "block");
  EXPECT_EQ(b.add, "cas");
  EXPECT_TRUE(b.clamp);
  EXPECT_FALSE(b.skip);
  EXPECT_EQ(b.label(), "block-cas-clamp");
  const MethodSpec n = parse_method("baseline-v4-noatomic");
  EXPECT_EQ(n.vec, 4);
  EXPECT_TRUE(n.bound());
  EXPECT_EQ(n.label(), "baseline-v4-noatomic");
  EXPECT_EQ(parse_method("baseline-skip").label(), "baseline-skip");
  EXPECT_FALSE(parse_method("swb-cas").bound());
  for (const char* bad : {"sws-noatomic", "sws-skip", "sws-v4-cas", "block-clamp-cas", "sws-cas-cas", "swb-fast",
                          "baseline-"}) {
    EXPECT_THROW(parse_method(bad), arc::Error) << bad;
  }
  for (const char* bad : {"block", "sws-cas"}) EXPECT_THROW(parse_args({"--trace-method", bad}), arc::Error) << bad;
}

// Issue 24: parsed through CLI11 and arc's one number check (decimal only, ranges).
TEST(SwArgs, Cli11AndDecimalNumbers) {
  using arc::sw::parse_args;
  EXPECT_EQ(parse_args({"--reps", "010"}).reps, 10);  // decimal, never octal
  EXPECT_EQ(parse_args({"--reps=7"}).reps, 7);        // CLI11's --flag=value form
  for (const auto& bad : std::vector<std::vector<std::string>>{{"--reps", "-1"},
                                                               {"--reps", "0x10"},
                                                               {"--seed", "123456789012345678901"},
                                                               {"--gaussians", "1e6"},
                                                               {"--warmup"}}) {
    EXPECT_THROW(parse_args(bad), arc::Error) << bad[0];
  }
  try {
    parse_args({"--reps", "-1"});
  } catch (const arc::Error& e) {
    EXPECT_NE(std::string(e.what()).find("--reps"), std::string::npos) << e.what();
  }
}

// Issues 20/23: the compute floor, gsplat's reduction and the transposed reduce-scatter.
TEST(SwArgs, FloorGsplatSwt) {
  using arc::sw::parse_args;
  using arc::sw::parse_method;
  EXPECT_TRUE(parse_method("floor").floor());
  EXPECT_FALSE(parse_method("floor").bound());
  EXPECT_FALSE(parse_method("gsplat").floor());
  EXPECT_EQ(parse_method("swt-v4").label(), "swt-v4");
  EXPECT_EQ(parse_method("swt-v4").vec, 4);
  for (const char* bad : {"floor-v4", "floor-clamp", "gsplat-v4", "gsplat-cas", "swt-cas", "swt-clamp", "floor-noatomic"})
    EXPECT_THROW(parse_method(bad), arc::Error) << bad;
  EXPECT_THROW(parse_args({"--trace-method", "floor"}), arc::Error);
  EXPECT_EQ(parse_args({"--trace-method", "swt"}).trace_method, "swt");
  EXPECT_EQ(parse_args({"--trace-method", "gsplat"}).trace_method, "gsplat");
  // Issue 23: scenes with surfaces and the gradient layouts as workloads.
  for (const char* w : {"gs", "gs-il", "gs-garden", "gs-garden-il", "gs-object", "gs-object-il", "gs-abs", "gs-garden-abs"})
    EXPECT_TRUE(arc::sw::known_workload(w)) << w;
  for (const char* w : {"gs-moon", "gs-il-garden", "gs-", "pulsar-il", "gs-il-abs", "gs-abs-il"}) EXPECT_FALSE(arc::sw::known_workload(w)) << w;
}

// Issue 20: block-level shared-memory privatization (shm, -v4 only, not traceable); issue 23:
// the inverse-depth variant of the gs workloads (separate arrays only).
TEST(SwArgs, ShmAndDepth) {
  using arc::sw::parse_args;
  using arc::sw::parse_method;
  EXPECT_EQ(parse_method("shm").label(), "shm");
  EXPECT_EQ(parse_method("shm-v4").vec, 4);
  for (const char* bad : {"shm-v2", "shm-cas", "shm-clamp", "shm-noatomic", "shm-skip"})
    EXPECT_THROW(parse_method(bad), arc::Error) << bad;
  EXPECT_THROW(parse_args({"--trace-method", "shm"}), arc::Error);
  EXPECT_EQ(parse_args({"--methods", "shm,shm-v4"}).methods.size(), 2u);
  for (const char* w : {"gs-depth", "gs-garden-depth", "gs-object-depth"}) EXPECT_TRUE(arc::sw::known_workload(w)) << w;
  for (const char* w : {"gs-il-depth", "gs-depth-il", "gs-abs-depth", "pulsar-depth"})
    EXPECT_FALSE(arc::sw::known_workload(w)) << w;
}

// Issue 20: warp-private sums over pulsar's tile list (tile, -v4 only, not traceable).
TEST(SwArgs, TileTakesOnlyFloat4AndIsNotTraced) {
  using arc::sw::parse_args;
  using arc::sw::parse_method;
  EXPECT_EQ(parse_method("tile").label(), "tile");
  EXPECT_EQ(parse_method("tile-v4").vec, 4);
  for (const char* bad : {"tile-v2", "tile-cas", "tile-clamp", "tile-noatomic", "tile-skip", "tiles"})
    EXPECT_THROW(parse_method(bad), arc::Error) << bad;
  EXPECT_THROW(parse_args({"--trace-method", "tile"}), arc::Error);
  EXPECT_EQ(parse_args({"--methods", "tile,tile-v4,shm"}).methods.size(), 3u);
  // tex's regrouped lanes: the same rules.
  EXPECT_EQ(parse_method("regroup-v4").label(), "regroup-v4");
  for (const char* bad : {"regroup-v2", "regroup-cas", "regroup-noatomic"}) EXPECT_THROW(parse_method(bad), arc::Error) << bad;
  EXPECT_THROW(parse_args({"--trace-method", "regroup"}), arc::Error);
}
