// hwy_targets.h: run a test body once on every instruction set this CPU offers (the tests of
// the Highway kernels: gpu_batch_test.cpp, workload_test.cpp)
#pragma once

#include <hwy/targets.h>

#include <cstdint>

namespace dctwin::test {

// runs f once on every instruction set this CPU offers (AVX-512, AVX2, SSE4, the scalar
// fallback ...), Highway's dispatch pinned to it; returns how many; the dispatch is free again
// afterwards, also when f fails
template <class F>
int onEveryTarget(F&& f) {
  struct Free {
    ~Free() {
      hwy::SetSupportedTargetsForTest(0);
      hwy::GetChosenTarget().DeInit();
    }
  } free_after;
  const std::int64_t targets = hwy::SupportedTargets() & HWY_TARGETS;
  int ran = 0;
  for (std::int64_t bit = 1; bit != 0 && bit <= targets; bit <<= 1) {
    if (!(targets & bit)) continue;
    hwy::SetSupportedTargetsForTest(bit);
    hwy::GetChosenTarget().DeInit();
    f();
    ++ran;
  }
  return ran;
}

}  // namespace dctwin::test
