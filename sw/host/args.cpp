#include "args.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdlib>
#include <optional>

#include "error.h"
#include "numarg.h"

namespace arc::sw {
namespace {

const std::vector<std::string> kMethods{"baseline", "sws", "swb", "cub", "adaptive", "block", "gsplat", "swt", "floor", "shm", "tile", "regroup"};

long long to_int(const std::string& opt, const std::string& v, long long lo, long long hi) {
  return arc::parse_int(v, opt, lo, hi);  // decimal only, one range check for every tool
}

}  // namespace

// Runs CLI11 on argv; a parse problem (unknown flag, missing value) is one arc::Error line.
void parse_cli(CLI::App& app, const std::vector<std::string>& argv, const std::string& usage_text) {
  bool help = false;
  app.set_help_flag();
  app.add_flag("-h,--help", help);
  std::vector<std::string> rev(argv.rbegin(), argv.rend());  // CLI11 takes them last-first
  try {
    app.parse(rev);
  } catch (const CLI::ExtrasError& e) {
    throw arc::Error(std::string(e.what()) + "\n" + usage_text);
  } catch (const CLI::ParseError& e) {
    throw arc::Error(std::string(e.what()));
  }
  if (help) throw arc::Error(usage_text);
}

std::vector<std::string> split_list(const std::string& s) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i <= s.size()) {
    const size_t j = std::min(s.find(',', i), s.size());
    if (j > i) out.push_back(s.substr(i, j - i));
    i = j + 1;
  }
  return out;
}

MethodSpec parse_method(const std::string& s) {
  const auto parts = [&] {
    std::vector<std::string> v;
    size_t i = 0;
    while (true) {
      const size_t j = s.find('-', i);
      v.push_back(s.substr(i, j == std::string::npos ? std::string::npos : j - i));
      if (j == std::string::npos) break;
      i = j + 1;
    }
    return v;
  }();
  MethodSpec m;
  m.name = parts[0];
  if (std::find(kMethods.begin(), kMethods.end(), m.name) == kMethods.end())
    throw arc::Error("--methods: unknown method '" + s +
                     "' (baseline, sws, swb, cub, adaptive, block, gsplat, swt, floor, shm, tile, regroup; options -v2/-v4, -cas, -noatomic, -clamp, "
                     "-skip)");
  int stage = 0;  // options must come in label order, each at most once
  auto order = [&](int st, const std::string& opt) {
    if (st <= stage) throw arc::Error("--methods: option '" + opt + "' repeated or out of order in '" + s + "'");
    stage = st;
  };
  for (size_t k = 1; k < parts.size(); ++k) {
    const std::string& o = parts[k];
    if (o.size() >= 2 && o[0] == 'v') {
      order(1, o);
      m.vec = static_cast<int>(to_int("--methods", o.substr(1), 1, 4));
      if (m.vec == 3) throw arc::Error("--methods: vector width must be 1, 2 or 4 in '" + s + "'");
    } else if (o == "cas" || o == "noatomic") {
      order(2, o);
      m.add = o;
    } else if (o == "clamp") {
      order(3, o);
      m.clamp = true;
    } else if (o == "skip") {
      order(4, o);
      m.skip = true;
    } else {
      throw arc::Error("--methods: unknown option '" + o + "' in '" + s + "' (-v2/-v4, -cas, -noatomic, -clamp, -skip)");
    }
  }
  if (m.add == "cas" && m.vec != 1) throw arc::Error("--methods: CAS-loop adds are scalar ('" + s + "')");
  if (m.add == "noatomic" && m.name != "baseline")
    throw arc::Error("--methods: the no-atomics bound is Baseline's kernel ('" + s + "')");
  if (m.skip && m.name != "baseline")
    throw arc::Error("--methods: -skip adds the empty-warp skip to Baseline; the other methods have it ('" + s + "')");
  if ((m.name == "floor" || m.name == "gsplat") && m.label() != m.name)
    throw arc::Error("--methods: " + m.name + " takes no options ('" + s + "')");
  if (m.name == "swt" && m.label() != m.label_base())
    throw arc::Error("--methods: swt takes only -v2/-v4 ('" + s + "')");
  if ((m.name == "shm" || m.name == "tile" || m.name == "regroup") && (m.label() != m.label_base() || m.vec == 2))
    throw arc::Error("--methods: " + m.name + " takes only -v4 ('" + s + "')");
  return m;
}

bool known_workload(const std::string& w) {
  for (const char* g : {"gs", "gs-garden", "gs-object"})
    if (w == g || w == std::string(g) + "-il" || w == std::string(g) + "-abs" || w == std::string(g) + "-depth")
      return true;
  return w == "pulsar" || w == "tex";
}

std::string usage() {
  return "usage: arc_bench [--workloads gs[-il|-abs|-depth],gs-garden[-il],gs-object[-il],pulsar,tex] [--methods baseline,sws,swb,cub,adaptive,block,gsplat,swt,floor,shm,tile,regroup\n"
         "                 [-v4][-cas|-noatomic][-clamp][-skip],...]\n"
         "                 [--thresholds 1,2,4,...] [--opt-thresholds 1,2,8,16] [--reps N] [--warmup N]\n"
         "                 [--size WxH] [--gaussians N] [--spheres N] [--tex WxH] [--seed S] [--out DIR]\n"
         "                 [--no-check] [--fd] [--meta key=value]...\n"
         "                 [--trace FILE --trace-workload W --trace-method M --trace-threshold T\n"
         "                  --trace-size WxH --trace-prims N [--trace-timing-only]]\n";
}

BenchArgs parse_args(const std::vector<std::string>& argv) {
  BenchArgs a;
  auto size_pair = [](const std::string& opt, const std::string& v, int& w, int& h) {
    const size_t x = v.find('x');
    if (x == std::string::npos) throw arc::Error(opt + ": expected WxH, got '" + v + "'");
    w = static_cast<int>(to_int(opt, v.substr(0, x), 1, 16384));
    h = static_cast<int>(to_int(opt, v.substr(x + 1), 1, 16384));
  };
  CLI::App app{"arc_bench", "arc_bench"};
  std::optional<std::string> workloads, methods, thresholds, opt_thresholds, reps, warmup, size, gaussians, spheres,
      tex, seed, trace_workload, trace_method, trace_threshold, trace_size, trace_prims;
  std::vector<std::string> meta;
  bool no_check = false;
  for (auto& [flag, v] : std::vector<std::pair<const char*, std::optional<std::string>*>>{
           {"--workloads", &workloads}, {"--methods", &methods}, {"--thresholds", &thresholds},
           {"--opt-thresholds", &opt_thresholds}, {"--reps", &reps}, {"--warmup", &warmup}, {"--size", &size},
           {"--gaussians", &gaussians}, {"--spheres", &spheres}, {"--tex", &tex}, {"--seed", &seed},
           {"--trace-workload", &trace_workload}, {"--trace-method", &trace_method},
           {"--trace-threshold", &trace_threshold}, {"--trace-size", &trace_size}, {"--trace-prims", &trace_prims}})
    app.add_option_function<std::string>(flag, [v = v](const std::string& x) { *v = x; });
  app.add_option("--out", a.out_dir);
  app.add_option("--trace", a.trace_path);
  app.add_option("--meta", meta);
  app.add_flag("--no-check", no_check);
  app.add_flag("--fd", a.fd);
  app.add_flag("--trace-timing-only", a.trace_timing_only);
  parse_cli(app, argv, usage());
  a.check = !no_check;

  if (workloads) {
    a.workloads = split_list(*workloads);
    for (const auto& w : a.workloads)
      if (!known_workload(w)) throw arc::Error("--workloads: unknown workload '" + w + "' (gs, gs-garden, gs-object [-il|-abs|-depth], pulsar, tex)");
    if (a.workloads.empty()) throw arc::Error("--workloads: empty list");
  }
  if (methods) {
    a.methods.clear();
    for (const auto& m : split_list(*methods)) a.methods.push_back(parse_method(m));
    if (a.methods.empty()) throw arc::Error("--methods: empty list");
  }
  auto int_list = [](const char* opt, const std::string& text, std::vector<int>& out) {
    out.clear();
    for (const auto& t : split_list(text)) out.push_back(static_cast<int>(to_int(opt, t, 0, 32)));
    if (out.empty()) throw arc::Error(std::string(opt) + ": empty list");
  };
  if (thresholds) int_list("--thresholds", *thresholds, a.thresholds);
  if (opt_thresholds) int_list("--opt-thresholds", *opt_thresholds, a.opt_thresholds);
  if (reps) a.reps = static_cast<int>(to_int("--reps", *reps, 1, 100000));
  if (warmup) a.warmup = static_cast<int>(to_int("--warmup", *warmup, 0, 1000));
  if (size) size_pair("--size", *size, a.width, a.height);
  if (gaussians) a.gaussians = static_cast<size_t>(to_int("--gaussians", *gaussians, 1, 100000000));
  if (spheres) a.spheres = static_cast<size_t>(to_int("--spheres", *spheres, 1, 100000000));
  if (tex) size_pair("--tex", *tex, a.tex_w, a.tex_h);
  if (seed) a.seed = static_cast<uint64_t>(to_int("--seed", *seed, 0, (1ll << 62)));
  for (const auto& kv : meta) {
    const size_t eq = kv.find('=');
    if (eq == std::string::npos || eq == 0) throw arc::Error("--meta: expected key=value, got '" + kv + "'");
    a.meta.emplace_back(kv.substr(0, eq), kv.substr(eq + 1));
  }
  if (trace_workload) {
    a.trace_workload = *trace_workload;
    if (!known_workload(a.trace_workload)) throw arc::Error("--trace-workload: unknown '" + a.trace_workload + "'");
  }
  if (trace_method) {
    const MethodSpec m = parse_method(*trace_method);
    if (m.vec != 1) throw arc::Error("--trace-method: vector atomics are not traced");
    if (m.label() != m.name) throw arc::Error("--trace-method: only plain methods are traced");
    if (m.name == "block") throw arc::Error("--trace-method: the block-level method is not traceable (warp-level format)");
    if (m.name == "floor" && !a.trace_timing_only)
      throw arc::Error("--trace-method floor: the compute floor writes no gradient, so only its timing-only form "
                       "(--trace-timing-only) is a trace: Baseline's calls with gaps free of atomic traffic");
    if (m.name == "shm") throw arc::Error("--trace-method: shm (block-level shared-memory privatization) is not traceable");
    if (m.name == "regroup") throw arc::Error("--trace-method: regroup (tex's lanes regrouped per texel row) is not traced");
    if (m.name == "tile") throw arc::Error("--trace-method: tile (block-level sums over the tile list) is not traceable");
    a.trace_method = m.name;
  }
  if (trace_threshold) a.trace_threshold = static_cast<int>(to_int("--trace-threshold", *trace_threshold, 0, 32));
  if (trace_size) size_pair("--trace-size", *trace_size, a.trace_width, a.trace_height);
  if (trace_prims) a.trace_prims = static_cast<size_t>(to_int("--trace-prims", *trace_prims, 1, 10000000));
  return a;
}

}  // namespace arc::sw
