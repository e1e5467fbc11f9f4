// Read an ARCsim trace with the installed trace library: trace_summary FILE
#include <cstdio>

#include "error.h"
#include "trace.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: trace_summary FILE\n");
    return 2;
  }
  try {
    arc::trace::Reader r(argv[1]);
    arc::trace::Instr in;
    uint64_t reduced_groups = 0;
    while (r.next(in)) reduced_groups += static_cast<uint64_t>(__builtin_popcount(in.reduced_mask));
    const auto& h = r.header();
    std::printf("kernel %s, method %s, %llu instructions, %llu lane updates, %llu reduced groups, %zu buffer words\n",
                h.kernel_name.c_str(), arc::trace::method_name(h.method), static_cast<unsigned long long>(r.instructions()),
                static_cast<unsigned long long>(r.lanes()), static_cast<unsigned long long>(reduced_groups),
                r.final_buffer().size());
  } catch (const arc::Error& e) {
    std::fprintf(stderr, "trace_summary: error: %s\n", e.what());
    return 2;
  }
}
