#include "args.h"

#include <algorithm>
#include <cstdlib>

#include "error.h"

namespace arc::sw {
namespace {

const std::vector<std::string> kMethods{"baseline", "sws", "swb", "cub", "adaptive", "block"};

long long to_int(const std::string& opt, const std::string& v, long long lo, long long hi) {
  size_t used = 0;
  long long x = 0;
  try {
    x = std::stoll(v, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != v.size()) throw arc::Error(opt + ": '" + v + "' is not an integer");
  if (x < lo || x > hi)
    throw arc::Error(opt + ": " + v + " is out of range [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
  return x;
}

}  // namespace

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
                     "' (baseline, sws, swb, cub, adaptive, block; options -v2/-v4, -cas, -noatomic, -clamp, -skip)");
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
  return m;
}

bool known_workload(const std::string& w) { return w == "gs" || w == "pulsar" || w == "tex"; }

std::string usage() {
  return "usage: arc_bench [--workloads gs,pulsar,tex] [--methods baseline,sws,swb,cub,adaptive,block\n"
         "                 [-v4][-cas|-noatomic][-clamp][-skip],...]\n"
         "                 [--thresholds 1,2,4,...] [--opt-thresholds 1,2,8,16] [--reps N] [--warmup N]\n"
         "                 [--size WxH] [--gaussians N] [--spheres N] [--tex WxH] [--seed S] [--out DIR]\n"
         "                 [--no-check] [--fd] [--meta key=value]...\n"
         "                 [--trace FILE --trace-workload W --trace-method M --trace-threshold T\n"
         "                  --trace-size WxH --trace-prims N]\n";
}

BenchArgs parse_args(const std::vector<std::string>& argv) {
  BenchArgs a;
  auto size_pair = [](const std::string& opt, const std::string& v, int& w, int& h) {
    const size_t x = v.find('x');
    if (x == std::string::npos) throw arc::Error(opt + ": expected WxH, got '" + v + "'");
    w = static_cast<int>(to_int(opt, v.substr(0, x), 1, 16384));
    h = static_cast<int>(to_int(opt, v.substr(x + 1), 1, 16384));
  };
  for (size_t i = 0; i < argv.size(); ++i) {
    const std::string& o = argv[i];
    auto val = [&]() -> const std::string& {
      if (i + 1 >= argv.size()) throw arc::Error(o + ": needs a value");
      return argv[++i];
    };
    if (o == "--workloads") {
      a.workloads = split_list(val());
      for (const auto& w : a.workloads)
        if (!known_workload(w)) throw arc::Error("--workloads: unknown workload '" + w + "' (gs, pulsar, tex)");
      if (a.workloads.empty()) throw arc::Error("--workloads: empty list");
    } else if (o == "--methods") {
      a.methods.clear();
      for (const auto& m : split_list(val())) a.methods.push_back(parse_method(m));
      if (a.methods.empty()) throw arc::Error("--methods: empty list");
    } else if (o == "--thresholds") {
      a.thresholds.clear();
      for (const auto& t : split_list(val())) a.thresholds.push_back(static_cast<int>(to_int(o, t, 0, 32)));
      if (a.thresholds.empty()) throw arc::Error("--thresholds: empty list");
    } else if (o == "--opt-thresholds") {
      a.opt_thresholds.clear();
      for (const auto& t : split_list(val())) a.opt_thresholds.push_back(static_cast<int>(to_int(o, t, 0, 32)));
      if (a.opt_thresholds.empty()) throw arc::Error("--opt-thresholds: empty list");
    } else if (o == "--reps") {
      a.reps = static_cast<int>(to_int(o, val(), 1, 100000));
    } else if (o == "--warmup") {
      a.warmup = static_cast<int>(to_int(o, val(), 0, 1000));
    } else if (o == "--size") {
      size_pair(o, val(), a.width, a.height);
    } else if (o == "--gaussians") {
      a.gaussians = static_cast<size_t>(to_int(o, val(), 1, 100000000));
    } else if (o == "--spheres") {
      a.spheres = static_cast<size_t>(to_int(o, val(), 1, 100000000));
    } else if (o == "--tex") {
      size_pair(o, val(), a.tex_w, a.tex_h);
    } else if (o == "--seed") {
      a.seed = static_cast<uint64_t>(to_int(o, val(), 0, (1ll << 62)));
    } else if (o == "--out") {
      a.out_dir = val();
    } else if (o == "--no-check") {
      a.check = false;
    } else if (o == "--fd") {
      a.fd = true;
    } else if (o == "--meta") {
      const std::string& kv = val();
      const size_t eq = kv.find('=');
      if (eq == std::string::npos || eq == 0) throw arc::Error("--meta: expected key=value, got '" + kv + "'");
      a.meta.emplace_back(kv.substr(0, eq), kv.substr(eq + 1));
    } else if (o == "--trace") {
      a.trace_path = val();
    } else if (o == "--trace-workload") {
      a.trace_workload = val();
      if (!known_workload(a.trace_workload)) throw arc::Error("--trace-workload: unknown '" + a.trace_workload + "'");
    } else if (o == "--trace-method") {
      const MethodSpec m = parse_method(val());
      if (m.vec != 1) throw arc::Error("--trace-method: vector atomics are not traced");
      if (m.label() != m.name) throw arc::Error("--trace-method: only plain methods are traced");
      if (m.name == "block") throw arc::Error("--trace-method: the block-level method is not traceable (warp-level format)");
      a.trace_method = m.name;
    } else if (o == "--trace-threshold") {
      a.trace_threshold = static_cast<int>(to_int(o, val(), 0, 32));
    } else if (o == "--trace-size") {
      size_pair(o, val(), a.trace_width, a.trace_height);
    } else if (o == "--trace-prims") {
      a.trace_prims = static_cast<size_t>(to_int(o, val(), 1, 10000000));
    } else if (o == "--help" || o == "-h") {
      throw arc::Error(usage());
    } else {
      throw arc::Error("unknown option '" + o + "'\n" + usage());
    }
  }
  return a;
}

}  // namespace arc::sw
