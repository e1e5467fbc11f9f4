#include "run.h"

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <optional>
#include <systemc>

#include "arc_unit_rtl.h"
#include "atomic_file.h"
#include "error.h"
#include "fst_check.h"
#include "proc.h"
#include "gpu_model.h"
#include "pair_regroup.h"
#include "progress.h"
#include "workload.h"

namespace arc::sim {

namespace {

RunResult run_model(const RunSpec& spec, const TraceSummary& trace, InstrSource& plain, double t0) {
  validate(spec);
  // Adaptive sends a pair call's two records regrouped (rule v5): the source hands them so.
  const std::unique_ptr<InstrSource> regroup = spec.mode == Mode::Adaptive ? pair_regroup_source(plain, trace) : nullptr;
  InstrSource& source = regroup ? *regroup : plain;
  const Workload work = build_workload(trace, static_cast<uint32_t>(spec.gpu.sms),
                                       static_cast<uint32_t>(spec.gpu.subcores_per_sm),
                                       static_cast<uint32_t>(spec.gpu.warps_per_subcore));
  if (spec.fidelity == Fidelity::Rtl && !spec.wave_path.empty()) enable_rtl_tracing();
  // The model keeps tables of every word of the trace's gradient buffer (its header's
  // buffer_words): one too large for memory is named here, not left as a bare bad_alloc.
  const auto make_model = [&] {
    try {
      return std::make_unique<GpuModel>("gpu", spec, trace, work, source);
    } catch (const std::bad_alloc&) {
      throw Error(fmt::format("out of memory building the timing model: the trace's gradient buffer of {} words "
                              "(header buffer_words) needs per-word tables larger than this machine gives the process",
                              trace.header.buffer_words));
    }
  };
  const std::unique_ptr<GpuModel> owned = make_model();
  GpuModel& model = *owned;
  sc_core::sc_start(sc_core::SC_ZERO_TIME);  // elaboration done, time 0
  std::optional<AtomicFile> wave_file;  // the FST appears at wave_path only when complete
  std::optional<RtlWave> wave;
  if (spec.fidelity == Fidelity::Rtl && !spec.wave_path.empty()) {
    wave_file.emplace(spec.wave_path);
    wave.emplace(wave_file->temp_path(), model.arc_units());
  }
  Progress bar(spec.label(), work.instructions, spec.progress);
  // Progress granularity (idle time inside a chunk is skipped), or the --stats-interval period:
  // after each chunk the cumulative counters are one sample of the time series (add_sample:
  // a run of samples with no counter change keeps its two ends, the same at both fidelities).
  const Cycle chunk = spec.stats_interval ? static_cast<Cycle>(spec.stats_interval) : 4096;
  std::vector<Sample> series;
  Cycle at = 0;
  try {
    while (sc_core::sc_pending_activity()) {
      Calendar::instance()->run_before(sc_core::sc_time_stamp().value() / ticks_per_cycle() + chunk);
      sc_core::sc_start(cycles(chunk));
      at += chunk;
      if (spec.stats_interval) add_sample(series, model.stats().sample(at));
      bar.update(model.stats().instructions);
      // Nothing is due until the next wake (warps in long compute gaps): the chunks before it
      // change no counter. They go in one sc_start, with one sample at the last boundary
      // before the wake, so an idle stretch keeps its two ends and the series stays bounded
      // by the busy time, not the gaps (a 2^32-cycle gap at --stats-interval 1 would be 4G
      // samples). The skipped span ends at least one chunk before the wake.
      const Cycle next = Calendar::instance()->next_wake();
      if (next != kNever && next > at && next - at >= 2 * chunk) {
        const Cycle skip = ((next - at) / chunk - 1) * chunk;
        sc_core::sc_start(cycles(skip));
        at += skip;
        if (spec.stats_interval) add_sample(series, model.stats().sample(at));
      }
    }
  } catch (const std::bad_alloc&) {
    if (!spec.stats_interval) throw;
    throw Error(fmt::format("out of memory at cycle {}: --stats-interval {} keeps a sample every {} busy cycles ({} so far); "
                            "give a larger interval",
                            at, spec.stats_interval, spec.stats_interval, series.size()));
  } catch (const sc_core::sc_report& r) {
    // An arc::Error thrown inside a module (e.g. a trace found corrupt while streaming) reaches
    // here as SystemC's multi-line report: pass on its one line.
    std::string msg = r.get_msg();
    const std::string wrap = "uncaught exception: ";
    if (msg.compare(0, wrap.size(), wrap) == 0) msg.erase(0, wrap.size());
    throw Error(msg);
  }
  bar.finish();
  model.finish();
  wave.reset();
  // A summary from the file's warp table: the per-word counts come from the stream now.
  const TraceSummary streamed = trace.from_table ? source.finish(trace) : TraceSummary{};
  model.check_end(work, trace.from_table ? streamed : trace);
  if (wave_file) {
    check_fst_reads_back(wave_file->temp_path(), wave_file->path());
    wave_file->commit();
  }
  RunResult r;
  r.label = spec.label();
  r.stats = model.stats();
  r.stats.warps_resident_per_subcore = work.warps_resident;
  r.stats.warps_remapped = work.remapped ? 1 : 0;
  r.stats.series = std::move(series);
  // Every unit appears in the breakdowns, also one that never saw a request.
  r.stats.per_sm.resize(static_cast<size_t>(spec.gpu.sms));
  r.stats.per_subcore.resize(static_cast<size_t>(spec.gpu.sms * spec.gpu.subcores_per_sm));
  r.stats.per_rop.resize(static_cast<size_t>(spec.gpu.rop_units));
  r.image = model.take_image();  // moved, not copied: untouched words stay unmapped
  r.commits = model.commits().sorted();
  r.cpu_seconds = process_cpu_seconds() - t0;
  r.lookahead_peak = source.buffered_peak();
  r.lookahead_bytes_peak = source.buffered_bytes_peak();
  return r;
}

}  // namespace

RunResult run_in_process(const RunSpec& spec, const trace::Trace& trace) {
  const double t0 = process_cpu_seconds();
  const TraceSummary summary = summarize(trace);
  const auto source = memory_source(trace, summary);
  return run_model(spec, summary, *source, t0);
}

RunResult run_in_process(const RunSpec& spec, const std::string& path, const TraceSummary& summary) {
  const double t0 = process_cpu_seconds();
  const auto source = file_source(path, summary);
  return run_model(spec, summary, *source, t0);
}

namespace {

void write_all(int fd, const void* p, size_t n) {
  const char* c = static_cast<const char*>(p);
  while (n) {
    const ssize_t w = ::write(fd, c, n);
    if (w <= 0) _exit(4);
    c += w;
    n -= static_cast<size_t>(w);
  }
}

// How encode() sends the memory image (the byte after its length).
constexpr uint8_t kImageDense = 0, kImageZero = 1, kImageSparse = 2;

template <class T>
void put(std::string& buf, const T& v) {
  buf.append(reinterpret_cast<const char*>(&v), sizeof v);
}

std::string encode(const RunResult& r) {
  std::string buf;
  const std::string js = nlohmann::json{{"label", r.label},
                                        {"stats", to_json(r.stats)},
                                        {"cpu_seconds", r.cpu_seconds},
                                        {"lookahead_peak", r.lookahead_peak},
                                        {"lookahead_bytes_peak", r.lookahead_bytes_peak},
                                        {"peak_rss_kb", r.peak_rss_kb}}
                             .dump();
  put(buf, static_cast<uint64_t>(js.size()));
  buf += js;
  // The image: its length, then its form and words. Every word 0 (a timing-only trace): nothing
  // more. Fewer than half the words non-zero: their count, then (index, word) pairs (a small
  // trace on a large buffer, e.g. the calibration's 16M-word one, no longer sends 64 MB of
  // zeros through the pipe). Else: the words in one block.
  // (Only the image's touched pages are read: the rest is zero.)
  put(buf, static_cast<uint64_t>(r.image.size()));
  const ZeroTable<uint32_t>& image = r.image;
  uint64_t nonzero = 0;
  image.for_each_touched([&](size_t a, size_t b) {
    nonzero += static_cast<uint64_t>(std::count_if(image.begin() + a, image.begin() + b, [](uint32_t w) { return w != 0; }));
  });
  if (nonzero == 0) {
    put(buf, kImageZero);
  } else if (nonzero < r.image.size() / 2) {
    put(buf, kImageSparse);
    put(buf, nonzero);
    buf.reserve(buf.size() + nonzero * 2 * sizeof(uint32_t) + 64);
    image.for_each_touched([&](size_t a, size_t b) {
      for (size_t i = a; i < b; ++i)
        if (image[i]) {
          put(buf, static_cast<uint32_t>(i));
          put(buf, image[i]);
        }
    });
  } else {
    put(buf, kImageDense);
    buf.append(reinterpret_cast<const char*>(image.data()), image.size() * sizeof(uint32_t));
  }
  put(buf, static_cast<uint64_t>(r.commits.size()));
  for (const auto& [a, v] : r.commits) {
    put(buf, a);
    put(buf, v);
  }
  return buf;
}

struct Cursor {
  const std::string& s;
  size_t at = 0;
  void copy_to(void* out, size_t n) {
    if (at + n > s.size()) throw Error("timing-model child process returned a truncated result");
    std::memcpy(out, s.data() + at, n);
    at += n;
  }
  template <class T>
  T get() {
    if (at + sizeof(T) > s.size()) throw Error("timing-model child process returned a truncated result");
    T v;
    std::memcpy(&v, s.data() + at, sizeof v);
    at += sizeof v;
    return v;
  }
  std::string bytes(size_t n) {
    if (at + n > s.size()) throw Error("timing-model child process returned a truncated result");
    std::string out = s.substr(at, n);
    at += n;
    return out;
  }
};

RunResult decode(const std::string& s, size_t at) {
  Cursor c{s, at};
  RunResult r;
  const auto j = nlohmann::json::parse(c.bytes(c.get<uint64_t>()));
  r.label = j.at("label").get<std::string>();
  r.stats = stats_from_json(j.at("stats"));
  r.cpu_seconds = j.at("cpu_seconds").get<double>();
  r.lookahead_peak = j.at("lookahead_peak").get<uint64_t>();
  r.lookahead_bytes_peak = j.at("lookahead_bytes_peak").get<uint64_t>();
  r.peak_rss_kb = j.at("peak_rss_kb").get<uint64_t>();
  r.image = ZeroTable<uint32_t>(c.get<uint64_t>());
  switch (c.get<uint8_t>()) {
    case kImageZero:
      break;
    case kImageSparse:
      for (uint64_t n = c.get<uint64_t>(); n; --n) {
        const auto i = c.get<uint32_t>();
        if (i >= r.image.size()) throw Error("timing-model child process returned a corrupt image");
        r.image[i] = c.get<uint32_t>();
      }
      break;
    case kImageDense:
      c.copy_to(r.image.data(), r.image.size() * sizeof(uint32_t));
      break;
    default:
      throw Error("timing-model child process returned a corrupt image");
  }
  r.commits.resize(c.get<uint64_t>());
  for (auto& [a, v] : r.commits) {
    a = c.get<uint32_t>();
    v = c.get<uint32_t>();
  }
  return r;
}


template <class Run>
RunResult isolated(const RunSpec& spec, Run run) {
  validate(spec);  // bad input fails here, in the parent, with one line
  int fds[2];
  if (::pipe(fds) != 0) throw Error("cannot create a pipe for the timing-model child process");
  std::fflush(nullptr);
  const pid_t pid = ::fork();
  if (pid < 0) throw Error("cannot fork the timing-model child process");
  if (pid == 0) {
    ::close(fds[0]);
    ::setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
    char tag = 'R';
    std::string payload;
    try {
      RunResult r = run();
      rusage ru{};
      ::getrusage(RUSAGE_SELF, &ru);
      r.peak_rss_kb = static_cast<uint64_t>(ru.ru_maxrss);
      payload = encode(r);
    } catch (const std::bad_alloc&) {
      tag = 'E';
      payload = out_of_memory(" in the timing model");
    } catch (const std::exception& e) {
      tag = 'E';
      payload = e.what();
    }
    write_all(fds[1], &tag, 1);
    write_all(fds[1], payload.data(), payload.size());
    ::close(fds[1]);
    std::fflush(nullptr);
    _exit(0);  // no static destructors of the parent's objects in the child
  }
  ::close(fds[1]);
  std::string buf;
  char chunk[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fds[0], chunk, sizeof chunk);
    if (n <= 0) break;
    buf.append(chunk, static_cast<size_t>(n));
  }
  ::close(fds[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    if (!spec.wave_path.empty()) {  // what its waveform writer left (the FST and its side file)
      const std::string tmp = AtomicFile::temp_path_of(spec.wave_path, pid);
      ::unlink(tmp.c_str());
      ::unlink((tmp + ".hier").c_str());
    }
    throw Error("timing-model child process for " + spec.label() + " was killed by signal " + std::to_string(sig) +
                " (" + strsignal(sig) + ")" +
                (sig == SIGBUS ? ": a file it writes through memory (the --wave FST) could not grow; is the disk full?"
                 : sig == SIGKILL ? ": out of memory, or killed by a user" : ""));
  }
  if (buf.empty() || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
    throw Error("timing-model child process for " + spec.label() + " died (exit status " +
                std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : status) + ")");
  if (buf[0] == 'E') throw Error(buf.substr(1));
  return decode(buf, 1);
}

}  // namespace

RunResult run_isolated(const RunSpec& spec, const trace::Trace& trace) {
  return isolated(spec, [&] { return run_in_process(spec, trace); });
}

RunResult run_isolated(const RunSpec& spec, const std::string& path, const TraceSummary& summary) {
  return isolated(spec, [&] { return run_in_process(spec, path, summary); });
}

}  // namespace arc::sim
