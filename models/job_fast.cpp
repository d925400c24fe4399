// job_fast.cpp: see job_fast.h; compiled once per instruction set by Highway's foreach_target
#include "models/job_fast.h"

#include <algorithm>
#include <cstddef>
#include <cstring>

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "models/job_fast.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
// (after foreach_target)
#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace dctwin {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

std::size_t JobFastRunImpl(const JobFastArgs& a, std::size_t g, std::size_t g1) {
  const hn::ScalableTag<double> d;
  const hn::RebindToUnsigned<decltype(d)> du;
  const hn::Rebind<std::uint16_t, decltype(d)> d16;
  using V = hn::Vec<decltype(d)>;
  const std::size_t N = hn::Lanes(d);
  // the record as four words: the layout the loads below read (workload.h)
  static_assert(sizeof(GpuProgress) == 4 * sizeof(double));
  static_assert(offsetof(GpuProgress, phase) == 0 && offsetof(GpuProgress, waiting) == 4 &&
                offsetof(GpuProgress, work) == 8 && offsetof(GpuProgress, wait_time) == 16 &&
                offsetof(GpuProgress, t_local) == 24);
  const V zero = hn::Zero(d), one = hn::Set(d, 1.0), d_run = hn::Set(d, a.d_run),
          d_fast = hn::Set(d, a.d_fast), tb = hn::Set(d, a.tb);
  const std::size_t g0 = g;
  for (; g + N <= g1; g += N) {
    // the progress records: the first word (phase | waiting << 32 | on_spare << 40), the work,
    // the wait time, the local time
    double* rec = reinterpret_cast<double*>(a.gpu + g);
    V w0, work, wait, t_local;
    hn::LoadInterleaved4(d, rec, w0, work, wait, t_local);
    const auto word = hn::BitCast(du, w0);
    // one phase, none waiting (the flags' byte is 0), every GPU on
    std::uint32_t p32;
    std::memcpy(&p32, &a.gpu[g].phase, sizeof p32);
    const int p = int(p32);
    if (p < 0 || p >= a.nfast) break;
    const auto first_word = hn::Set(du, std::uint64_t(p32));
    if (!hn::AllTrue(du, hn::Eq(hn::And(word, hn::Set(du, 0xffffffffffull)), first_word))) break;
    bool on = true;
    for (std::size_t l = 0; l < N; ++l) on = on && a.alive[g + l] != 0;
    if (!on) break;
    const JobStepCtx::FastPhase& f = a.fast[p];
    V rate;
    switch (f.kind) {
      case JobStepCtx::kFastCompute:
        rate = hn::LoadU(d, a.speed_c + g);
        break;
      case JobStepCtx::kFastMemory:
        rate = hn::LoadU(d, a.speed_m + g);
        break;
      case JobStepCtx::kFastOne:
        rate = one;
        break;
      default:
        return g - g0;  // a collective at its links' bandwidth: the scalar path
    }
    // the loss category: the phase's, or the clock cause, the same for every lane
    int lc = f.lc;
    if (lc < 0) {
      lc = a.cause ? int(a.cause[g]) : int(kTimeClockOther);
      if (a.cause) {
        bool same = true;
        for (std::size_t l = 1; l < N; ++l) same = same && a.cause[g + l] == a.cause[g];
        if (!same) break;
      }
    }
    // the phase goes on past the step end (the scalar path's test)
    const V dur = hn::Set(d, f.dur);
    const V remaining = hn::Sub(dur, work);
    const auto go =
        hn::And(hn::And(hn::Gt(remaining, hn::Set(d, kWorkTol * f.dur)), hn::Gt(rate, zero)),
                hn::Gt(remaining, hn::Mul(rate, d_fast)));
    if (!hn::AllTrue(d, go)) break;
    // the map, lane by lane in GPU order (the scalar path's sums)
    alignas(64) double useful[HWY_MAX_BYTES / sizeof(double)];
    hn::Store(hn::Mul(d_run, hn::Min(hn::Max(rate, zero), one)), d, useful);
    double* map = a.map1;
    for (std::size_t l = 0; l < N; ++l) {
      const double w = a.weight ? a.weight[g + l] : 1.0, loss = a.d_run - useful[l];
      map[f.uc] += w * useful[l];
      if (a.time_map) a.time_map[(g + l) * kTimeCats + std::size_t(f.uc)] += useful[l];
      map[lc] += w * loss;
      if (a.time_map) a.time_map[(g + l) * kTimeCats + std::size_t(lc)] += loss;
    }
    work = hn::Add(work, hn::Mul(rate, d_run));
    hn::StoreInterleaved4(w0, work, wait, tb, d, rec);
    hn::StoreU(hn::Set(d16, std::uint16_t(p)), d16, a.phase_now + g);
    hn::StoreU(hn::Set(d, f.a_sm), d, a.out_sm + g);
    hn::StoreU(hn::Set(d, f.a_hbm), d, a.out_hbm + g);
    hn::StoreU(hn::Set(d, f.a_nvl), d, a.out_nvl + g);
    hn::StoreU(hn::Set(d, f.a_net), d, a.out_net + g);
    hn::StoreU(hn::Set(d, f.mem), d, a.out_mem + g);
  }
  return g - g0;
}

}  // namespace HWY_NAMESPACE
}  // namespace dctwin
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace dctwin {

HWY_EXPORT(JobFastRunImpl);

std::size_t jobFastRun(const JobFastArgs& a, std::size_t g, std::size_t g1) {
  return HWY_DYNAMIC_DISPATCH(JobFastRunImpl)(a, g, g1);
}

}  // namespace dctwin
#endif  // HWY_ONCE
