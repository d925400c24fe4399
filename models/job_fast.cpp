// job_fast.cpp: see job_fast.h; compiled once per instruction set by Highway's foreach_target
#include "models/job_fast.h"

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <limits>
#include <type_traits>

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "models/job_fast.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
// (after foreach_target)
#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace dctwin {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// whether the n bytes at p (n <= 8) all equal b
inline bool allBytes(const void* p, std::size_t n, unsigned char b) {
  std::uint64_t x = 0;
  std::memcpy(&x, p, n);
  const std::uint64_t ones = ~std::uint64_t(0) >> (64 - 8 * n), want = ones / 0xff * b;
  return (x & ones) == want;
}

// v's lanes into the four slots of a part's sum: lane l of the GPU at offset o (from the part's
// first GPU; o a multiple of 4, or of the vector length where that is less) to slot (o + l) % 4,
// each slot's adds in GPU order, as the scalar path makes them
template <class D>
HWY_INLINE void addSlots(D d, hn::Vec<D> v, std::size_t o, double* slots, double* scratch) {
  using D4 = hn::CappedTag<double, 4>;
  const D4 d4;
  if constexpr (std::is_same_v<D, D4>) {  // 4 lanes (or fewer: o is then a multiple of them)
    (void)d, (void)scratch;
    double* s = slots + (o & 3);
    hn::StoreU(hn::Add(hn::LoadU(d4, s), v), d4, s);
#if HWY_TARGET != HWY_SCALAR
  } else if constexpr (std::is_same_v<hn::Half<D>, D4>) {  // 8 lanes: slots 0-3, then 0-3 again
    (void)scratch;
    const hn::Vec<D4> lo = hn::LowerHalf(d4, v), hi = hn::UpperHalf(d4, v);
    hn::StoreU(hn::Add(hn::Add(hn::LoadU(d4, slots), lo), hi), d4, slots);
#endif
  } else {
    const std::size_t N = hn::Lanes(d), M = hn::Lanes(d4);
    hn::Store(v, d, scratch);
    for (std::size_t k = 0; k < N; k += M) {
      double* s = slots + ((o + k) & 3);
      hn::StoreU(hn::Add(hn::LoadU(d4, s), hn::LoadU(d4, scratch + k)), d4, s);
    }
  }
}

// the step's phase and utilizations of a vector of GPUs, each the same for all (u: a_sm, a_hbm,
// a_nvlink, a_network, memory_bound). Stored whether they changed or not: with the window's steps
// in blocks (the GPU layer's runBlock) a chunk's arrays stay in its core's cache over the block's
// steps, so a line stored again costs nothing more than a clean one, while the comparisons that
// skipped the stores (a load, a compare and a branch per array) cost 1.6 % of the default pod's
// instructions and its branches mispredicted where a vector's GPUs had just changed phase (the
// thirteenth round: the pod -7 % and the hall -4 % wall time, docs/performance.md)
template <class D, class D16>
HWY_INLINE void storeOutputs(D d, D16 d16, const JobFastArgs& a, std::size_t g, std::uint16_t p,
                             const double* u) {
  double* const out[5] = {a.out_sm + g, a.out_hbm + g, a.out_nvl + g, a.out_net + g, a.out_mem + g};
  hn::StoreU(hn::Set(d16, p), d16, a.phase_now + g);
  for (int k = 0; k < 5; ++k) hn::StoreU(hn::Set(d, u[k]), d, out[k]);
}

std::size_t JobFastRunImpl(const JobFastArgs& a, std::size_t g, std::size_t g1, JobFastState& st) {
  const hn::ScalableTag<double> d;
  const hn::RebindToUnsigned<decltype(d)> du;
  const hn::Rebind<std::uint16_t, decltype(d)> d16;
  using V = hn::Vec<decltype(d)>;
  const std::size_t N = hn::Lanes(d);
  // the record as four words: the layout the loads below read (workload.h)
  static_assert(sizeof(GpuProgress) == 4 * sizeof(double));
  static_assert(offsetof(GpuProgress, phase) == 0 && offsetof(GpuProgress, waiting) == 4 &&
                offsetof(GpuProgress, on_spare) == 5 && offsetof(GpuProgress, work) == 8 &&
                offsetof(GpuProgress, wait_time) == 16 && offsetof(GpuProgress, t_local) == 24);
  const V zero = hn::Zero(d), one = hn::Set(d, 1.0), d_run = hn::Set(d, a.d_run),
          d_fast = hn::Set(d, a.d_fast), tb = hn::Set(d, a.tb);
  const auto mask40 = hn::Set(du, 0xffffffffffull);  // the phase and the waiting flag
  const std::size_t g0 = g;
  if ((g - a.g0) & 3) return 0;  // the slots' lanes (addSlots)
  alignas(64) double lane[HWY_MAX_BYTES / sizeof(double)];
  for (; g + N <= g1; g += N) {
    // the progress records: the first word (phase | waiting << 32 | on_spare << 40), the work,
    // the wait time, the local time
    double* rec = reinterpret_cast<double*>(a.gpu + g);
    V w0, work, wait, t_local;
    hn::LoadInterleaved4(d, rec, w0, work, wait, t_local);
    const auto flags = hn::And(hn::BitCast(du, w0), mask40);
    // one phase, every GPU on, all running or (known part) all waiting (on a spare or not: the
    // same operations)
    std::uint32_t p32;
    std::memcpy(&p32, &a.gpu[g].phase, sizeof p32);
    const int p = int(p32);
    if (!allBytes(a.alive + g, N, 1)) break;  // every GPU on (alive is 0 or 1)
    if (hn::AllTrue(du, hn::Eq(flags, hn::Set(du, std::uint64_t(p32) | (1ull << 32))))) {
      // waiting to the step end: the finish's barrier wait
      if (!(st.known && a.wait_ok)) break;
      hn::StoreInterleaved4(w0, work, hn::Add(wait, d_run), tb, d, rec);
      addSlots(d, a.weight ? hn::Mul(hn::LoadU(d, a.weight + g), d_run) : d_run, g - a.g0,
               a.sums3_wait, lane);
      if (a.time_map) {  // (category-major: the vector's GPUs side by side)
        double* tm = a.time_map + kTimeBarrierWait * a.ngpu + g;
        hn::StoreU(hn::Add(hn::LoadU(d, tm), d_run), d, tm);
      }
      st.waited = true;
      storeOutputs(d, d16, a, g, std::uint16_t(p), a.wait_util);
      continue;
    }
    if (p < 0 || p >= a.nfast) break;
    if (!hn::AllTrue(du, hn::Eq(flags, hn::Set(du, std::uint64_t(p32))))) break;
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
      case JobStepCtx::kFastComm: {
        // commRate: 1 where the level's links are at full bandwidth; a collective at degraded
        // links (rate below 1, a division per GPU) takes the scalar path
        const int level = f.spec->level;
        const double* bw = level == 1 ? a.bw_nvl : level == 2 ? a.bw_net : nullptr;
        if (bw && !hn::AllTrue(d, hn::Ge(hn::LoadU(d, bw + g), one))) return g - g0;
        rate = one;
        break;
      }
      default:
        return g - g0;
    }
    // the loss category: the phase's, or the clock cause, the same for every lane
    int lc = f.lc;
    if (lc < 0) {
      lc = a.cause ? int(a.cause[g]) : int(kTimeClockOther);
      if (a.cause && !allBytes(a.cause + g, N, a.cause[g])) break;
    }
    // the phase goes on past the step end (the scalar path's test)
    const V dur = hn::Set(d, f.dur);
    const V remaining = hn::Sub(dur, work);
    const auto go =
        hn::And(hn::And(hn::Gt(remaining, hn::Set(d, kWorkTol * f.dur)), hn::Gt(rate, zero)),
                hn::Gt(remaining, hn::Mul(rate, d_fast)));
    if (!hn::AllTrue(d, go)) break;
    // the map: the part's in the four slots, each GPU's own in full
    const V useful = hn::Mul(d_run, hn::Min(hn::Max(rate, zero), one)),
            loss = hn::Sub(d_run, useful);
    if (a.weight) {
      const V w = hn::LoadU(d, a.weight + g);
      addSlots(d, hn::Mul(w, useful), g - a.g0, a.sums1 + 4 * f.uc, lane);
      addSlots(d, hn::Mul(w, loss), g - a.g0, a.sums1 + 4 * lc, lane);
    } else {
      addSlots(d, useful, g - a.g0, a.sums1 + 4 * f.uc, lane);
      addSlots(d, loss, g - a.g0, a.sums1 + 4 * lc, lane);
    }
    if (a.time_map) {  // (category-major: the vector's GPUs side by side; useful first, as the
                       // scalar path adds them where the two categories are one)
      double* tu = a.time_map + std::size_t(f.uc) * a.ngpu + g;
      hn::StoreU(hn::Add(hn::LoadU(d, tu), useful), d, tu);
      double* tl = a.time_map + std::size_t(lc) * a.ngpu + g;
      hn::StoreU(hn::Add(hn::LoadU(d, tl), loss), d, tl);
    }
    if (st.run_gpu == std::numeric_limits<std::size_t>::max()) st.run_gpu = g;
    st.run_last = g + N - 1;
    st.running = st.known = true;
    work = hn::Add(work, hn::Mul(rate, d_run));
    hn::StoreInterleaved4(w0, work, wait, tb, d, rec);
    storeOutputs(d, d16, a, g, std::uint16_t(p), &f.a_sm);
  }
  return g - g0;
}

}  // namespace HWY_NAMESPACE
}  // namespace dctwin
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace dctwin {

HWY_EXPORT(JobFastRunImpl);

std::size_t jobFastRun(const JobFastArgs& a, std::size_t g, std::size_t g1, JobFastState& s) {
  return HWY_DYNAMIC_DISPATCH(JobFastRunImpl)(a, g, g1, s);
}

}  // namespace dctwin
#endif  // HWY_ONCE
