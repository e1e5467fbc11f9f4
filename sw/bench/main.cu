// arc_bench: checks, times and traces the ARC-SW reduce methods on the GPU workloads.
//   benchmark: per workload x method x threshold, median gradient-step time of --reps runs
//              (cudaEvent, after --warmup), speedups vs Baseline, agreement with Baseline;
//   --fd:      finite differences on tiny scenes vs the GPU gradient;
//   --trace:   one capture in the project's trace format (cosim/trace).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "report.h"
#include "trace_out.h"
#include "workload.h"
#include "../workloads/common.cuh"

namespace arc::sw {
namespace {

// Agreement with Baseline: float atomics commute only up to rounding, so two runs of one
// method already differ by ~1e-7 relative; any real error (a lost or doubled lane) is >= 1e-3.
constexpr double kAgreeTol = 1e-4;

std::unique_ptr<Workload> make(const std::string& w, const BenchArgs& a, int width, int height, size_t prims) {
  // gs[-garden|-object][-il]: the scene (fog = gauss-frustum-v1; Gaussians on surfaces =
  // gauss-surface-v1, issue 23) and the gradient layout (separate arrays by default, -il the
  // interleaved record).
  if (w.rfind("gs", 0) == 0) {
    std::string core = w;
    auto strip = [&](const std::string& suffix) {
      const bool has = core.size() > suffix.size() && core.compare(core.size() - suffix.size(), suffix.size(), suffix) == 0;
      if (has) core.resize(core.size() - suffix.size());
      return has;
    };
    const bool depth = strip("-depth");  // gs[-scene]-depth: the inverse-depth gradient too
    const bool abs = strip("-abs");  // gs[-scene]-abs: gsplat's absgrad too (separate arrays)
    const bool il = strip("-il");
    const std::string scene = core == "gs" ? "fog" : core.substr(3);
    return make_gs(width, height, prims ? prims : a.gaussians, a.seed, scene, !il, abs && !il, depth && !il && !abs);
  }
  if (w == "pulsar") return make_pulsar(width, height, prims ? prims : a.spheres, a.seed);
  return make_tex(width, height, a.tex_w, a.tex_h, a.seed);
}

double rel_l2(const std::vector<float>& g, const std::vector<float>& ref) {
  double num = 0, den = 0;
  for (size_t i = 0; i < g.size(); ++i) {
    const double d = static_cast<double>(g[i]) - ref[i];
    num += d * d;
    den += static_cast<double>(ref[i]) * ref[i];
  }
  if (!std::isfinite(num)) return INFINITY;
  return std::sqrt(num / std::max(den, 1e-300));
}

struct Timing {
  double median = 0, min = 0, max = 0;
  int reps = 0;
};
// Median of `reps` timed runs after `warmup` (at least one); a method whose warm run takes
// over 50 ms (e.g. CAS loops under heavy contention) gets no more warm-ups and 10 timed runs.
template <class F>
Timing time_it(int warmup, int reps, F&& f) {
  EventTimer t;
  t.start();
  f();
  const float first = t.stop();
  for (int i = 1; i < warmup && first <= 50.0f; ++i) f();
  ARC_CUDA(cudaDeviceSynchronize());
  if (first > 50.0f) reps = std::min(reps, 10);
  std::vector<double> ms;
  for (int i = 0; i < reps; ++i) {
    t.start();
    f();
    ms.push_back(t.stop());
  }
  std::sort(ms.begin(), ms.end());
  return {ms[ms.size() / 2], ms.front(), ms.back(), static_cast<int>(ms.size())};
}

int run_trace(const BenchArgs& a, const cudaDeviceProp& prop) {
  // The trace format names one buffer and a stride: gs workloads are traced with their
  // interleaved layout (same scene, same sums; only the gradient addresses differ).
  std::string tw = a.trace_workload;
  if (tw.rfind("gs", 0) == 0 && tw.find("-il") == std::string::npos) {
    for (const std::string suf : {"-abs", "-depth"})
      if (tw.size() > suf.size() && tw.compare(tw.size() - suf.size(), suf.size(), suf) == 0) tw.resize(tw.size() - suf.size());
    tw += "-il";
    std::printf("trace: %s traced as %s (separate gradient arrays cannot be named by the trace format)\n",
                a.trace_workload.c_str(), tw.c_str());
  }
  auto w = make(tw, a, a.trace_width, a.trace_height, a.trace_prims);
  w->forward();
  w->backward(MethodSpec{"baseline", 1}, 0);
  const auto ref = w->grads();
  w->capture_values = !a.trace_timing_only;  // the recorder stores lane values only when the trace keeps them
  CaptureResult c = w->capture(a.trace_method, a.trace_threshold);
  if (c.overflow)
    throw arc::Error("trace: " + std::to_string(c.overflow) +
                     " calls found their warp's slot range full: the recording pass made more calls than the counting pass");
  // The traced floor writes no gradient: nothing to agree on (its trace is timing-only).
  const bool floor = a.trace_method == "floor";
  const double agree = floor ? 0.0 : rel_l2(c.grads, ref);
  TraceInfo info;
  info.gpu_name = prop.name;
  info.sm_count = static_cast<uint32_t>(prop.multiProcessorCount);
  info.kernel_name = w->kernel_name();
  info.method = a.trace_method;
  info.threshold = static_cast<uint32_t>(a.trace_threshold);
  info.generator = w->generator();
  info.seed = w->seed();
  info.reduce_ftz = 0;  // sw/ is built without -ftz / --use_fast_math: add.f32 keeps subnormals
  info.meta = w->describe();
  info.timing_only = a.trace_timing_only;
  info.meta.emplace_back("capture_rel_l2_vs_baseline", floor ? "n/a (floor: no gradient written)" : std::to_string(agree));
  info.meta.emplace_back("cuda_arch", "sm_" + std::to_string(prop.major) + std::to_string(prop.minor));
  // The recorder's own cost: the same kernel untraced, counting calls, recording them.
  info.meta.emplace_back("recorder_untraced_ms", std::to_string(c.untraced_ms));
  info.meta.emplace_back("recorder_count_pass_ms", std::to_string(c.count_ms));
  info.meta.emplace_back("recorder_record_pass_ms", std::to_string(c.record_ms));
  info.meta.emplace_back("recorder_device_bytes", std::to_string(c.device_bytes));
  info.grid_blocks = c.grid_blocks;
  info.threads_per_block = c.threads_per_block;
  for (const auto& kv : a.meta) info.meta.push_back(kv);
  const TraceStats st = write_capture(a.trace_path, info, CaptureRecords{c.heads, c.values, c.first, c.calls}, c.grads);
  std::printf("trace %s: %s/%s thr=%d, %llu instructions, %llu lanes, %llu bytes, rel_l2 vs baseline %.2e; "
              "kernel %.3f ms untraced, %.3f ms counting, %.3f ms recording; record buffers %.1f MB on the GPU\n",
              a.trace_path.c_str(), a.trace_workload.c_str(), a.trace_method.c_str(), a.trace_threshold,
              static_cast<unsigned long long>(st.instructions), static_cast<unsigned long long>(st.lanes),
              static_cast<unsigned long long>(st.bytes), agree, c.untraced_ms, c.count_ms, c.record_ms,
              static_cast<double>(c.device_bytes) / 1e6);
  return agree <= kAgreeTol ? 0 : 1;
}

// bench.json / bench.csv under --out; a failure is reported (naming the path) and remembered,
// never thrown: the rows measured so far stay on the console.
void write_outputs(const BenchArgs& a, const Report& rep, bool& failed) {
  if (a.out_dir.empty()) return;
  for (const auto& [name, text] : {std::pair<std::string, std::string>{"bench.json", to_json(rep)},
                                   std::pair<std::string, std::string>{"bench.csv", to_csv(rep.rows)}}) {
    try {
      write_file(a.out_dir + "/" + name, text);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "arc_bench: error: %s\n", e.what());
      failed = true;
    }
  }
}

int run_bench(const BenchArgs& a, const cudaDeviceProp& prop) {
  Report rep;
  rep.meta.emplace_back("gpu", prop.name);
  rep.meta.emplace_back("sm_count", std::to_string(prop.multiProcessorCount));
  rep.meta.emplace_back("cuda_arch", "sm_" + std::to_string(prop.major) + std::to_string(prop.minor));
  int drv = 0, rt = 0;
  ARC_CUDA(cudaDriverGetVersion(&drv));
  ARC_CUDA(cudaRuntimeGetVersion(&rt));
  rep.meta.emplace_back("cuda_driver_api", std::to_string(drv));
  rep.meta.emplace_back("cuda_runtime", std::to_string(rt));
  rep.meta.emplace_back("seed", std::to_string(a.seed));
  rep.meta.emplace_back("reps", std::to_string(a.reps));
  rep.meta.emplace_back("warmup", std::to_string(a.warmup));
  rep.meta.emplace_back("agree_tolerance_rel_l2", std::to_string(kAgreeTol));
  for (const auto& kv : a.meta) rep.meta.push_back(kv);
  bool ok = true;
  bool write_failed = false;

  if (a.fd) {
    // Every checked method's own gradient (threshold 1: the most reducing) against finite
    // differences of the loss on a tiny scene (issue 20: each new row checked by finite
    // differences too, not only against Baseline). The bound and the floor write wrong
    // gradients by construction and are skipped.
    for (const auto& wn : a.workloads) {
      auto w = wn.rfind("gs", 0) == 0 ? make(wn, a, 48, 32, wn == "gs" || wn == "gs-il" ? 40 : 60)
               : wn == "pulsar"         ? make_pulsar(48, 32, 40, a.seed)
                                        : make_tex(40, 24, 8, 8, a.seed);
      std::vector<MethodSpec> fd_methods{MethodSpec{"baseline", 1}};
      for (const auto& m : a.methods)
        if (!m.bound() && !m.floor() && !m.clamp && m.label() != "baseline" && w->supports(m)) fd_methods.push_back(m);
      for (const auto& m : fd_methods) {
        std::string detail;
        const double e = w->fd_check(detail, m, 1);
        const bool pass = e < 1e-2;
        ok &= pass;
        char buf[256];
        std::snprintf(buf, sizeof buf, "%s rel_l2 %.3e (tol 1e-2), %s", pass ? "PASS" : "FAIL", e, detail.c_str());
        const std::string key = m.label() == "baseline" ? "fd." + wn : "fd." + wn + "." + m.label();
        rep.checks.emplace_back(key, buf);
        std::printf("finite differences %s %s: %s\n", wn.c_str(), m.label().c_str(), buf);
      }
    }
  }

  for (const auto& wn : a.workloads) {
    auto w = make(wn, a, a.width, a.height, 0);
    const Timing fwd = time_it(a.warmup, a.reps, [&] { w->forward(); });
    for (const auto& kv : w->describe()) rep.meta.push_back(kv);
    std::vector<float> ref, ref_clamp;  // Baseline's gradients, unclamped and clamped
    for (const auto& m : a.methods) {
      if (!w->supports(m)) continue;
      std::vector<int> thrs{-1};
      // Option variants (CAS loop, clamp) of SW-S/SW-B: a shorter threshold list.
      if (m.name == "sws" || m.name == "swb" || m.name == "swt") thrs = m.label() == m.label_base() ? a.thresholds : a.opt_thresholds;
      for (int thr : thrs) {
        const int t = std::max(thr, 0);
        const Timing bt = time_it(a.warmup, a.reps, [&] { w->backward(m, t); });
        std::vector<float> g;
        const std::vector<float>* want = &ref;
        if (a.check) {
          g = w->grads();
          if (ref.empty()) {
            if (m.label() != "baseline") throw arc::Error("--methods must start with baseline");
            // Baseline against a second Baseline run: the run-to-run rounding spread.
            w->backward(m, t);
            ref = w->grads();
          }
          if (m.clamp) {  // clamped methods are checked against clamped Baseline
            if (ref_clamp.empty()) {
              MethodSpec bc{"baseline", 1};
              bc.clamp = true;
              w->backward(bc, 0);
              ref_clamp = w->grads();
            }
            want = &ref_clamp;
          }
        }
        ResultRow r;
        r.workload = wn;
        r.method = m.label();
        r.threshold = thr;
        r.grad_ms = bt.median;
        r.grad_ms_min = bt.min;
        r.grad_ms_max = bt.max;
        r.fwd_ms = fwd.median;
        r.rel_l2 = a.check ? rel_l2(g, *want) : 0.0;
        r.bound = m.bound();
        r.floor = m.floor();
        // The no-atomics bound and the compute floor are wrong by construction: reported,
        // never checked.
        r.check_ok = !a.check || r.bound || r.floor || r.rel_l2 <= kAgreeTol;
        r.reps = bt.reps;
        ok &= r.check_ok;
        std::printf("%-7s %-19s thr %3d  grad %8.3f ms  fwd %7.3f ms  rel_l2 %.1e %s\n", wn.c_str(),
                    r.method.c_str(), thr, r.grad_ms, r.fwd_ms, r.rel_l2,
                    r.bound   ? "(no-atomics bound: WRONG by construction)"
                    : r.floor ? "(compute floor: no gradient writes, WRONG by construction; a floor, not a result)"
                    : r.check_ok ? ""
                                 : "MISMATCH");
        std::fflush(stdout);
        rep.rows.push_back(r);
      }
    }
    // Written after every workload too, so a run cut short keeps what it measured. A failed
    // write names its path and the run goes on (every row is printed as it is measured, and
    // again as CSV at the end).
    fill_speedups(rep.rows);
    write_outputs(a, rep, write_failed);
  }
  fill_speedups(rep.rows);
  std::printf("\n%s", to_table(rep.rows).c_str());
  std::printf("%s\n", ok ? "all checks passed" : "SOME CHECKS FAILED");
  if (write_failed) {
    std::printf("\nbench.csv (not written to %s):\n%s", a.out_dir.c_str(), to_csv(rep.rows).c_str());
    std::fprintf(stderr, "arc_bench: error: could not write the results under '%s' (see above); every row is printed above\n",
                 a.out_dir.c_str());
    return 2;
  }
  return ok ? 0 : 1;
}

}  // namespace
}  // namespace arc::sw

int main(int argc, char** argv) {
  try {
    const arc::sw::BenchArgs a = arc::sw::parse_args(std::vector<std::string>(argv + 1, argv + argc));
    // Before any GPU work: the output directory exists (created) and takes files.
    if (a.trace_path.empty() && !a.out_dir.empty()) arc::sw::prepare_out_dir(a.out_dir);
    cudaDeviceProp prop{};
    ARC_CUDA(cudaGetDeviceProperties(&prop, 0));
    return a.trace_path.empty() ? arc::sw::run_bench(a, prop) : arc::sw::run_trace(a, prop);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "arc_bench: error: %s\n", e.what());
    return 2;
  }
}
