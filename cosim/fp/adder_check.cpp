#include "adder_check.h"

#include <fmt/format.h>

namespace arc::fp {

AdderCheckResult check_adder(const AddFn& dut, FtzMode ftz, uint64_t random_vectors, uint64_t seed,
                             size_t keep_mismatches, const ProgressFn& progress) {
  AdderCheckResult r;
  const auto& sv = special_values();
  const uint64_t total = sv.size() * sv.size() + random_vectors;
  auto one = [&](uint32_t a, uint32_t b, VectorClass cls) {
    const uint32_t got = dut(a, b);
    const uint32_t want = add_ref(a, b, ftz);
    ++r.per_class[static_cast<size_t>(cls)];
    if (got == want) {
      ++r.passed;
    } else {
      ++r.failed;
      if (r.first_mismatches.size() < keep_mismatches) r.first_mismatches.push_back({a, b, got, want, cls});
    }
  };
  for (uint32_t a : sv)
    for (uint32_t b : sv) one(a, b, VectorClass::Special);
  r.special_pairs = sv.size() * sv.size();

  VectorGenerator gen(seed);
  constexpr uint64_t kProgressStep = 1u << 20;
  for (uint64_t i = 0; i < random_vectors; ++i) {
    VectorClass cls;
    const auto [a, b] = gen.next(&cls);
    one(a, b, cls);
    if (progress && (i % kProgressStep) == 0) progress(r.special_pairs + i, total);
  }
  if (progress) progress(total, total);
  return r;
}

std::string describe(const Mismatch& m) {
  return fmt::format("a=0x{:08X} b=0x{:08X} got=0x{:08X} want=0x{:08X} ({})", m.a, m.b, m.got, m.want,
                     to_string(m.cls));
}

}  // namespace arc::fp
