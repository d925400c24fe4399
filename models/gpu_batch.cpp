// gpu_batch.cpp: the SIMD form of the GPU model (see gpu_batch.h); compiled once per instruction
// set by Highway's foreach_target, the best one the CPU has is picked at the first call
#include "models/gpu_batch.h"

#include "models/workload.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>

#include <strings.h>

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "models/gpu_batch.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
// (after foreach_target)
#include <hwy/contrib/math/math-inl.h>
#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace dctwin {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// a constant in the lanes of d (the type's parameters are double, the operating point's lanes
// float)
template <class D>
HWY_INLINE hn::Vec<D> K(D d, double v) {
  return hn::Set(d, static_cast<hn::TFromD<D>>(v));
}

// x v(x)^2 and its derivative (clockVoltage in gpu.cpp)
template <class D, class V>
HWY_INLINE V ClockVoltage(D d, const GpuBatchType& t, V x, V* dg) {
  const V one = K(d, 1.0), v0 = K(d, t.v0), vf = K(d, t.v_floor);
  const V lin = hn::MulAdd(hn::Sub(one, v0), x, v0);
  const V v = hn::Max(vf, lin);
  const V vv = hn::Mul(v, v);
  if (dg) {
    const V slope = hn::Mul(hn::Mul(hn::Add(x, x), v), hn::Sub(one, v0));
    *dg = hn::IfThenElse(hn::Ge(lin, vf), hn::Add(vv, slope), vv);
  }
  return hn::Mul(x, vv);
}

// The operating point runs in single precision (docs/models/gpu_batch.md "Precision"): a vector
// DF of floats holds the GPUs of two vectors of the doubles they are stored in, which are loaded
// and stored in halves (or as they are where DF has one lane: the tail, the scalar target). Twice
// the GPUs per instruction. What decides a throttle on a temperature or the memory-bound share is
// compared in double before the lanes are narrowed, as the scalar reference compares it.
template <class DF>
constexpr bool kOneLane = hn::MaxLanes(DF()) == 1;

// lanes [0, Lanes(df)) of the doubles at p, each f(dd, v) in double, then rounded to float
template <class DF, class F>
HWY_INLINE hn::Vec<DF> LoadNarrow(DF df, const double* p, F f) {
  if constexpr (kOneLane<DF>) {
    const hn::Rebind<double, DF> dd;
    return hn::DemoteTo(df, f(dd, hn::LoadU(dd, p)));
  }
#if HWY_TARGET != HWY_SCALAR
  else {
    const hn::Half<DF> dh;
    const hn::Rebind<double, decltype(dh)> dd;
    const std::size_t h = hn::Lanes(dd);
    return hn::Combine(df, hn::DemoteTo(dh, f(dd, hn::LoadU(dd, p + h))),
                       hn::DemoteTo(dh, f(dd, hn::LoadU(dd, p))));
  }
#endif
}
template <class DF>
HWY_INLINE hn::Vec<DF> LoadNarrow(DF df, const double* p) {
  return LoadNarrow(df, p, [](auto, auto v) { return v; });
}

// u64 lanes f(d64, o) (o: the half's first lane) narrowed to the u32 lanes of DF's unsigned tag
template <class DF, class F>
HWY_INLINE hn::Vec<hn::RebindToUnsigned<DF>> NarrowBits(DF, F f) {
  const hn::RebindToUnsigned<DF> du;
  if constexpr (kOneLane<DF>) {
    const hn::Rebind<std::uint64_t, DF> d64;
    return hn::TruncateTo(du, f(d64, std::size_t(0)));
  }
#if HWY_TARGET != HWY_SCALAR
  else {
    const hn::Half<decltype(du)> dh;
    const hn::Rebind<std::uint64_t, decltype(dh)> d64;
    const std::size_t h = hn::Lanes(d64);
    return hn::Combine(du, hn::TruncateTo(dh, f(d64, h)),
                       hn::TruncateTo(dh, f(d64, std::size_t(0))));
  }
#endif
}
// the bits of lanes [0, Lanes(df)) at p (all of them below bit 32)
template <class DF>
HWY_INLINE hn::Vec<hn::RebindToUnsigned<DF>> LoadBits(DF df, const std::uint64_t* p) {
  return NarrowBits(df, [&](auto d64, std::size_t o) { return hn::LoadU(d64, p + o); });
}

// the lanes of v to the doubles at p, and the u32 lanes of b to the u64 at p
template <class DF>
HWY_INLINE void StoreWide(DF, hn::Vec<DF> v, double* p) {
  if constexpr (kOneLane<DF>) {
    const hn::Rebind<double, DF> dd;
    hn::StoreU(hn::PromoteTo(dd, v), dd, p);
  }
#if HWY_TARGET != HWY_SCALAR
  else {
    const hn::Half<DF> dh;
    const hn::Rebind<double, decltype(dh)> dd;
    hn::StoreU(hn::PromoteTo(dd, hn::LowerHalf(dh, v)), dd, p);
    hn::StoreU(hn::PromoteTo(dd, hn::UpperHalf(dh, v)), dd, p + hn::Lanes(dd));
  }
#endif
}
template <class DU>
HWY_INLINE void StoreWideBits(DU, hn::Vec<DU> b, std::uint64_t* p) {
  if constexpr (kOneLane<DU>) {
    const hn::Rebind<std::uint64_t, DU> d64;
    hn::StoreU(hn::PromoteTo(d64, b), d64, p);
  }
#if HWY_TARGET != HWY_SCALAR
  else {
    const hn::Half<DU> dh;
    const hn::Rebind<std::uint64_t, decltype(dh)> d64;
    hn::StoreU(hn::PromoteTo(d64, hn::LowerHalf(dh, b)), d64, p);
    hn::StoreU(hn::PromoteTo(d64, hn::UpperHalf(dh, b)), d64, p + hn::Lanes(d64));
  }
#endif
}

// pass 1 runs in three steps over a block of up to kNewtonBlock vectors, so that the power-cap
// Newton iterations of the block's vectors, each a chain of dependent divisions, overlap instead
// of waiting on one another: PrepareLanes (the target clock, the power terms and whether the cap
// binds), NewtonBlock (the capped lanes' clocks), FinishLanes (the thermal limits, the stores).
// The scratch holds what the steps hand on, per lane of the block.
constexpr std::size_t kNewtonBlock = 16, kMaxLanes = HWY_MAX_BYTES / sizeof(float);
struct Scratch {
  alignas(64) float A[kNewtonBlock * kMaxLanes], B[kNewtonBlock * kMaxLanes],
      cap[kNewtonBlock * kMaxLanes], x[kNewtonBlock * kMaxLanes], z[kNewtonBlock * kMaxLanes],
      P_hbm[kNewtonBlock * kMaxLanes];
  // the flags with kIdle where the GPU has no work (step 3 reads them from here)
  alignas(64) std::uint32_t capped[kNewtonBlock * kMaxLanes], low[kNewtonBlock * kMaxLanes],
      flags[kNewtonBlock * kMaxLanes];
  bool any[kNewtonBlock];  // the vector has a capped lane
};
constexpr std::uint64_t kIdle = std::uint64_t(1) << 16;  // (above the kBatch* flags)

// what step 1 reads of lanes [i, i + Lanes(df)) beyond the power terms: the flags and the idle
// mask (from the utilizations as floats: exact for any utilization above 1.4e-45, the least float)
template <class DF>
struct Inputs {
  hn::Vec<hn::RebindToUnsigned<DF>> flags;
  hn::Mask<DF> idle;
};

template <class DF, class V = hn::Vec<DF>>
HWY_INLINE Inputs<DF> LoadInputs(DF df, const GpuBatchIo& io, std::size_t i, V a_sm, V a_hbm,
                                 V a_nvl) {
  using TU = hn::TFromD<hn::RebindToUnsigned<DF>>;
  const hn::RebindToUnsigned<DF> du;
  const V zero = hn::Zero(df);
  Inputs<DF> in;
  // the flags: per entry, or from the memory-bound share (compared in double) and the block's bits
  if (io.flags) {
    in.flags = LoadBits(df, io.flags + i);
  } else {
    const auto mb = NarrowBits(df, [&](auto d64, std::size_t o) {
      const hn::Rebind<double, decltype(d64)> dd;
      const auto m = hn::Gt(hn::LoadU(dd, io.mem_bound + i + o), hn::Set(dd, 0.5));
      return hn::IfThenElseZero(hn::RebindMask(d64, m), hn::Set(d64, kBatchMemoryBound));
    });
    in.flags = hn::Or(hn::Set(du, TU(io.flags_all)), mb);
  }
  in.idle = hn::And(hn::And(hn::Le(a_sm, zero), hn::Le(a_hbm, zero)), hn::Le(a_nvl, zero));
  return in;
}

template <class D, class VU>
HWY_INLINE hn::Mask<D> Bit(D d, VU v, std::uint64_t b) {
  const hn::RebindToUnsigned<D> du;
  return hn::RebindMask(d, hn::TestBit(v, hn::Set(du, hn::TFromD<decltype(du)>(b))));
}

// the target clock: idle (or held at full clock by a process), memory-bound, or full
template <class DF>
HWY_INLINE hn::Vec<DF> TargetClock(DF df, const GpuBatchType& t, const Inputs<DF>& in) {
  return hn::IfThenElse(
      in.idle, hn::IfThenElse(Bit(df, in.flags, kBatchHeld), K(df, 1.0), K(df, t.x_idle)),
      hn::IfThenElse(Bit(df, in.flags, kBatchMemoryBound), K(df, t.x_mem), K(df, 1.0)));
}

// the power cap of lanes [i, i + Lanes(df)): per entry, or min(cap, cap_max, cap_scale cap)
// (GpuBatchIo::cap), in double and then rounded
template <class DF>
HWY_INLINE hn::Vec<DF> LoadCap(DF df, const GpuBatchIo& io, std::size_t i) {
  if (!io.cap) {
    double c = io.cap_all;
    if (!io.flags) {
      c = std::min(io.cap_all, io.cap_max);
      if (io.cap_scale < 1.0) c = std::min(c, io.cap_scale * io.cap_all);
    }
    // (no cap: the largest float, not a conversion out of its range)
    return K(df, std::min(c, double(std::numeric_limits<float>::max())));
  }
  if (io.flags) return LoadNarrow(df, io.cap + i);
  return LoadNarrow(df, io.cap + i, [&](auto dd, auto cap_gpu) {
    auto c = hn::Min(cap_gpu, hn::Set(dd, io.cap_max));
    if (io.cap_scale < 1.0) c = hn::Min(c, hn::Mul(hn::Set(dd, io.cap_scale), cap_gpu));
    return c;
  });
}

// step 1 for lanes [i, i + Lanes(df)), scratch lanes [k, k + Lanes(df)) of vector v: the power at
// clock z is B + A z v(z)^2; the cap binds where the target clock's power exceeds it
template <class DF>
HWY_INLINE void PrepareLanes(DF df, const GpuBatchType& t, const GpuBatchParams& p,
                             const GpuBatchIo& io, std::size_t i, Scratch& S, std::size_t k,
                             std::size_t v) {
  using V = hn::Vec<DF>;
  const hn::RebindToUnsigned<DF> du;
  const V zero = hn::Zero(df), xi = K(df, t.x_idle);
  const V a_sm = LoadNarrow(df, io.a_sm + i), a_hbm = LoadNarrow(df, io.a_hbm + i),
          a_nvl = LoadNarrow(df, io.a_nvl + i);
  const Inputs<DF> in = LoadInputs(df, io, i, a_sm, a_hbm, a_nvl);
  const V x = TargetClock(df, t, in);
  const V cap = LoadCap(df, io, i);
  const V A = hn::MulAdd(hn::LoadU(df, p.P_sm + i), a_sm, hn::LoadU(df, p.P_clk + i));
  // the leakage's exponent beta (T_j - T_leak_ref) in double (T_j's digits), the exp in float
  const V arg = LoadNarrow(df, io.T_j + i, [&](auto dd, auto Tj) {
    return hn::Mul(hn::Set(dd, t.beta), hn::Sub(Tj, hn::Set(dd, t.T_leak_ref)));
  });
  const V leak = hn::Mul(hn::LoadU(df, p.P_leak + i), hn::Exp(df, arg));
  const V B =
      hn::MulAdd(K(df, t.P_nvl_max), a_nvl,
                 hn::MulAdd(K(df, t.P_hbm_max), a_hbm, hn::Add(hn::LoadU(df, p.P_base + i), leak)));
  const V fx = hn::MulAdd(A, ClockVoltage(df, t, x, static_cast<V*>(nullptr)), B);
  const auto capped = hn::And(hn::Gt(fx, cap), hn::Gt(x, xi));
  hn::Store(A, df, S.A + k);
  hn::Store(B, df, S.B + k);
  hn::Store(x, df, S.x + k);
  hn::Store(hn::MulAdd(K(df, t.P_hbm_max), a_hbm, K(df, t.P_hbm_idle)), df, S.P_hbm + k);
  using TU = hn::TFromD<decltype(du)>;
  hn::Store(
      hn::Or(in.flags, hn::IfThenElseZero(hn::RebindMask(du, in.idle), hn::Set(du, TU(kIdle)))), du,
      S.flags + k);
  S.any[v] = !hn::AllFalse(df, capped);
  if (!S.any[v]) return;
  // even the idle clock exceeds the cap (or nothing scales with the clock): the idle clock
  const V f_idle = hn::MulAdd(A, K(df, t.g_idle), B);
  const auto low = hn::Or(hn::Ge(f_idle, cap), hn::Le(A, zero));
  // warm start: the clock of the last step where it lies between the idle and the target clock
  // (the cap binds from step to step and moves little), else the target clock. P is convex, so
  // Newton from below the root lands above it and then falls monotonically
  const V prev = LoadNarrow(df, io.x + i);
  hn::Store(cap, df, S.cap + k);
  hn::Store(hn::IfThenElse(hn::And(hn::Gt(prev, xi), hn::Lt(prev, x)), prev, x), df, S.z + k);
  hn::Store(hn::BitCast(du, hn::VecFromMask(df, capped)), du, S.capped + k);
  hn::Store(hn::BitCast(du, hn::VecFromMask(df, low)), du, S.low + k);
}

// step 2: the capped lanes' clocks, vectors [0, nv) of the scratch, each until none of its solved
// lanes moves by more than kGpuBatchNewtonTol (at most kGpuBatchNewton steps): a vector's result
// does not depend on the others of the block
template <class DF>
HWY_INLINE void NewtonBlock(DF df, const GpuBatchType& t, Scratch& S, std::size_t nv) {
  using V = hn::Vec<DF>;
  const hn::RebindToUnsigned<DF> du;
  const std::size_t N = hn::Lanes(df);
  const V xi = K(df, t.x_idle), tol = K(df, kGpuBatchNewtonTol);
  bool moving[kNewtonBlock];
  bool any = false;
  for (std::size_t v = 0; v < nv; ++v) {
    moving[v] = S.any[v];
    any = any || moving[v];
  }
  for (int it = 0; it < kGpuBatchNewton && any; ++it) {
    any = false;
    for (std::size_t v = 0; v < nv; ++v) {
      if (!moving[v]) continue;
      const std::size_t k = v * N;
      const V A = hn::Load(df, S.A + k), B = hn::Load(df, S.B + k), cap = hn::Load(df, S.cap + k);
      const V z = hn::Load(df, S.z + k);
      const auto solve = hn::AndNot(hn::MaskFromVec(hn::BitCast(df, hn::Load(du, S.low + k))),
                                    hn::MaskFromVec(hn::BitCast(df, hn::Load(du, S.capped + k))));
      V dg;
      const V g = ClockVoltage(df, t, z, &dg);
      const V step = hn::Div(hn::Sub(hn::MulAdd(A, g, B), cap), hn::Mul(A, dg));
      const V z1 = hn::Max(hn::Sub(z, step), xi);
      hn::Store(z1, df, S.z + k);
      moving[v] = !hn::AllFalse(df, hn::And(solve, hn::Gt(hn::Abs(hn::Sub(z1, z)), tol)));
      any = any || moving[v];
    }
  }
}

// the clock cause of GpuThrottle bits `why` (gpuBatchClockCause), one byte per lane to `cause`
template <class D>
HWY_INLINE void StoreClockCause(D du, hn::Vec<D> why, unsigned char* cause) {
  using T = hn::TFromD<D>;
  const hn::Rebind<std::uint8_t, D> d8;
  const auto zero = hn::Zero(du);
  auto has = [&](std::uint64_t b) { return hn::Ne(hn::And(why, hn::Set(du, T(b))), zero); };
  auto c = hn::Set(du, T(kTimeClockOther));
  c = hn::IfThenElse(has(kThrottleSwPowerCap), hn::Set(du, T(kTimePowerCap)), c);
  c = hn::IfThenElse(has(kThrottlePowerBrake), hn::Set(du, T(kTimePowerBrake)), c);
  c = hn::IfThenElse(has(kThrottleSwThermal | kThrottleHwThermal | kThrottleHwSlowdown),
                     hn::Set(du, T(kTimeThermal)), c);
  hn::StoreU(hn::TruncateTo(d8, c), d8, cause);
}

// step 3 for lanes [i, i + Lanes(df)), scratch lanes [k, k + Lanes(df)) of vector v
template <class DF>
HWY_INLINE void FinishLanes(DF df, const GpuBatchType& t, const GpuBatchIo& io, std::size_t i,
                            const Scratch& S, std::size_t k, std::size_t v) {
  using V = hn::Vec<DF>;
  const hn::RebindToUnsigned<DF> du;
  using VU = hn::Vec<decltype(du)>;
  using TU = hn::TFromD<decltype(du)>;
  auto reason = [&](hn::Mask<DF> m, std::uint64_t b) {
    return hn::IfThenElseZero(hn::RebindMask(du, m), hn::Set(du, TU(b)));
  };
  const V zero = hn::Zero(df), one = K(df, 1.0), xi = K(df, t.x_idle);
  const VU flags = hn::Load(du, S.flags + k), latch = LoadBits(df, io.latch + i);
  // the temperatures against the thresholds, in double: above the max operating temperature,
  // at shutdown, at HW slowdown (die or HBM), both below their release band
  constexpr std::uint64_t kHot = 1, kShut = 2, kHw = 4, kRelease = 8;
  const VU tb = NarrowBits(df, [&](auto d64, std::size_t o) {
    const hn::Rebind<double, decltype(d64)> dd;
    const auto Tj = hn::LoadU(dd, io.T_j + i + o), Th = hn::LoadU(dd, io.T_hbm + i + o);
    const auto Tslow = hn::Set(dd, t.T_slowdown), Thmax = hn::Set(dd, t.T_hbm_max),
               band = hn::Set(dd, kGpuHwReleaseBand);
    auto bit = [&](auto m, std::uint64_t b) {
      return hn::IfThenElseZero(hn::RebindMask(d64, m), hn::Set(d64, b));
    };
    const auto release =
        hn::And(hn::Lt(Tj, hn::Sub(Tslow, band)), hn::Lt(Th, hn::Sub(Thmax, band)));
    return hn::Or(
        hn::Or(bit(hn::Gt(Tj, hn::Set(dd, t.T_maxop)), kHot),
               bit(hn::Ge(Tj, hn::Set(dd, t.T_shutdown)), kShut)),
        hn::Or(bit(hn::Or(hn::Ge(Tj, Tslow), hn::Ge(Th, Thmax)), kHw), bit(release, kRelease)));
  });
  auto has = [&](std::uint64_t b) { return Bit(df, tb, b); };
  const auto powered = Bit(df, flags, kBatchPowered), held = Bit(df, flags, kBatchHeld);
  // shutdown: latched, the board is off (only a powered board's latch moves)
  const auto shut = hn::Or(Bit(df, latch, kLatchShutDown), hn::And(powered, has(kShut)));
  const auto idle = Bit(df, flags, kIdle);
  V x = hn::Load(df, S.x + k);
  VU why = reason(hn::AndNot(held, idle), kThrottleIdle);
  auto solved = hn::FirstN(df, 0);  // the power-cap clock is Newton's
  if (S.any[v]) {
    const auto capped = hn::MaskFromVec(hn::BitCast(df, hn::Load(du, S.capped + k)));
    const auto low = hn::MaskFromVec(hn::BitCast(df, hn::Load(du, S.low + k)));
    x = hn::IfThenElse(capped, hn::IfThenElse(low, xi, hn::Load(df, S.z + k)), x);
    why = hn::Or(why, reason(capped, kThrottleSwPowerCap));
    solved = hn::AndNot(low, capped);
  }
  const V A = hn::Load(df, S.A + k), B = hn::Load(df, S.B + k);
  // SW thermal slowdown: the clock falls linearly from T_maxop to the idle clock at T_slowdown
  const auto sw_on = hn::And(hn::Or(hn::Not(idle), held), has(kHot));
  if (!hn::AllFalse(df, sw_on)) {
    const V over = LoadNarrow(
        df, io.T_j + i, [&](auto dd, auto Tj) { return hn::Sub(Tj, hn::Set(dd, t.T_maxop)); });
    const V frac = hn::Min(hn::Max(hn::Div(over, K(df, t.T_slowdown - t.T_maxop)), zero), one);
    const V x_sw = hn::NegMulAdd(frac, hn::Sub(one, xi), one);
    const auto sw = hn::And(sw_on, hn::Lt(x_sw, x));
    x = hn::IfThenElse(sw, x_sw, x);
    why = hn::Or(why, reason(sw, kThrottleSwThermal));
  }
  // HW thermal slowdown, latched with the release band
  auto hw = hn::Or(Bit(df, latch, kLatchHwSlowdown), has(kHw));
  hw = hn::AndNot(has(kRelease), hw);
  const V half = K(df, 0.5);
  x = hn::IfThenElse(hw, hn::Max(hn::Mul(half, x), xi), x);
  why = hn::Or(why, reason(hw, kThrottleHwThermal | kThrottleHwSlowdown));
  const auto brake = Bit(df, flags, kBatchBrake);
  x = hn::IfThenElse(brake, hn::Max(hn::Mul(half, x), xi), x);
  why = hn::Or(why, reason(brake, kThrottlePowerBrake | kThrottleHwSlowdown));
  // a board without power or shut down: nothing (its HW latch stays as it was)
  const auto active = hn::AndNot(shut, powered);
  V P = hn::MulAdd(A, ClockVoltage(df, t, x, static_cast<V*>(nullptr)), B);
  // Newton ends at or just above the root: a capped board's power is held to its cap (as rounded
  // to float: exact for a cap in whole watts), not a rounding above it; a throttle that lowered
  // the clock further left it below
  if (S.any[v]) P = hn::IfThenElse(solved, hn::Min(P, hn::Load(df, S.cap + k)), P);
  const V P_hbm = hn::Load(df, S.P_hbm + k);
  StoreWide(df, hn::IfThenElseZero(active, x), io.x + i);
  StoreWide(df, hn::IfThenElseZero(active, P), io.P + i);
  StoreWide(df, hn::IfThenElseZero(active, P_hbm), io.P_hbm + i);
  const auto active_u = hn::RebindMask(du, active);
  StoreWideBits(du, hn::IfThenElseZero(active_u, why), io.reasons + i);
  if (io.cause) StoreClockCause(du, hn::IfThenElseZero(active_u, why), io.cause + i);
  const VU hw_bit = hn::IfThenElse(active_u, reason(hw, kLatchHwSlowdown),
                                   hn::And(latch, hn::Set(du, TU(kLatchHwSlowdown))));
  const VU new_latch = hn::Or(hw_bit, reason(shut, kLatchShutDown));
  StoreWideBits(du, new_latch, io.latch + i);
}

// pass 1 over entries [i, i + nv Lanes(df))
template <class DF>
HWY_INLINE void OperatingPointBlock(DF df, const GpuBatchType& t, const GpuBatchParams& p,
                                    const GpuBatchIo& io, std::size_t i, std::size_t nv,
                                    Scratch& S) {
  const std::size_t N = hn::Lanes(df);
  for (std::size_t v = 0; v < nv; ++v) PrepareLanes(df, t, p, io, i + v * N, S, v * N, v);
  NewtonBlock(df, t, S, nv);
  for (std::size_t v = 0; v < nv; ++v) FinishLanes(df, t, io, i + v * N, S, v * N, v);
}

// the step's scalars of pass 2, once per pass (the divisions would otherwise repeat per vector:
// the loop's stores may alias the type)
struct ThermalScalars {
  double dt, inv_dt, cj, ch;  // (s), (1/s), C_die / dt, C_hbm / dt (W/K)
};

// lanes [i, i + Lanes(d)) of pass 2; adds to the sums' lanes
template <class D, class V = hn::Vec<D>>
HWY_INLINE void ThermalLanes(D d, const GpuBatchParams& p, const GpuBatchIo& io, std::size_t i,
                             const ThermalScalars& k, V* sum) {
  const hn::RebindToUnsigned<D> du;
  const V one = hn::Set(d, 1.0);
  const V gj = hn::LoadU(d, p.g_jc + i), gh = hn::LoadU(d, p.g_hbm + i);
  // (divisions are the pass's bottleneck where its arrays are in the cache)
  const V gc = io.G_cp ? hn::LoadU(d, io.G_cp + i) : hn::Div(one, hn::LoadU(d, io.R_cp + i));
  const double dt = k.dt;
  const V inv_dt = hn::Set(d, k.inv_dt);
  const V cj = hn::Set(d, k.cj), ch = hn::Set(d, k.ch);
  const V cp = hn::Mul(hn::LoadU(d, p.C_plate + i), inv_dt);
  const V P = hn::LoadU(d, io.P + i), P_hbm = hn::LoadU(d, io.P_hbm + i);
  const V Tj0 = hn::LoadU(d, io.T_j + i), Th0 = hn::LoadU(d, io.T_hbm + i),
          Tp0 = hn::LoadU(d, io.T_p + i), Tin = hn::LoadU(d, io.T_in + i);
  // T_j = aj + bj T_p, T_hbm = ah + bh T_p
  const V rj = hn::Div(one, hn::Add(cj, gj)), rh = hn::Div(one, hn::Add(ch, gh));
  const V aj = hn::Mul(hn::MulAdd(cj, Tj0, hn::Sub(P, P_hbm)), rj), bj = hn::Mul(gj, rj);
  const V ah = hn::Mul(hn::MulAdd(ch, Th0, P_hbm), rh), bh = hn::Mul(gh, rh);
  const V num = hn::MulAdd(gc, Tin, hn::MulAdd(gh, ah, hn::MulAdd(gj, aj, hn::Mul(cp, Tp0))));
  const V den = hn::Add(hn::MulAdd(gh, hn::Sub(one, bh), hn::MulAdd(gj, hn::Sub(one, bj), cp)), gc);
  const V Tp = hn::Div(num, den);
  const V Tj = hn::MulAdd(bj, Tp, aj), Th = hn::MulAdd(bh, Tp, ah);
  const V Q = hn::Mul(gc, hn::Sub(Tp, Tin));
  hn::StoreU(Tp, d, io.T_p + i);
  hn::StoreU(Tj, d, io.T_j + i);
  hn::StoreU(Th, d, io.T_hbm + i);
  if (io.Q) hn::StoreU(Q, d, io.Q + i);
  // the interval's sums and extremes, and the weighted sums over the batch
  const V vdt = hn::Set(d, dt);
  if (io.E_sum) hn::StoreU(hn::MulAdd(P, vdt, hn::LoadU(d, io.E_sum + i)), d, io.E_sum + i);
  if (io.Tj_max) hn::StoreU(hn::Max(Tj, hn::LoadU(d, io.Tj_max + i)), d, io.Tj_max + i);
  if (io.Thbm_max) hn::StoreU(hn::Max(Th, hn::LoadU(d, io.Thbm_max + i)), d, io.Thbm_max + i);
  const auto why = hn::LoadU(du, io.reasons + i);
  auto any = [&](std::uint64_t b) {
    return hn::RebindMask(d, hn::Ne(hn::And(why, hn::Set(du, b)), hn::Zero(du)));
  };
  const auto throttled = any(kThrottleSwThermal | kThrottleHwThermal | kThrottlePowerBrake);
  if (io.t_throttled)
    hn::StoreU(hn::Add(hn::LoadU(d, io.t_throttled + i), hn::IfThenElseZero(throttled, vdt)), d,
               io.t_throttled + i);
  const V w = p.w ? hn::LoadU(d, p.w + i) : one, wdt = hn::Mul(w, vdt);
  sum[0] = hn::MulAdd(w, P, sum[0]);
  sum[1] = hn::MulAdd(w, Q, sum[1]);
  sum[2] = hn::Add(sum[2], hn::IfThenElseZero(throttled, wdt));
  sum[3] = hn::Add(sum[3], hn::IfThenElseZero(any(kThrottleSwPowerCap), wdt));
  sum[4] = hn::Add(sum[4], hn::IfThenElseZero(any(kThrottleHwSlowdown), wdt));
  sum[5] = hn::Add(sum[5], hn::IfThenElseZero(any(kThrottleSwThermal | kThrottleHwThermal), wdt));
  sum[6] = hn::Add(sum[6], hn::IfThenElseZero(any(kThrottlePowerBrake), wdt));
  if (io.a_net) {  // the activities (ActivityImpl's operations)
    sum[7] = hn::MulAdd(w, hn::LoadU(d, io.a_sm + i), sum[7]);
    sum[8] = hn::MulAdd(w, hn::LoadU(d, io.a_nvl + i), sum[8]);
    sum[9] = hn::MulAdd(w, hn::LoadU(d, io.a_net + i), sum[9]);
  }
}

// io without the activity sums (the tail's single lanes sum them in ActivityImpl's scalar form)
inline GpuBatchIo withoutActivity(const GpuBatchIo& io) {
  GpuBatchIo o = io;
  o.a_net = nullptr;
  return o;
}

// whole vectors, then the rest in narrower ones and single lanes. The type, the parameters' and
// the io's pointers are copied to locals first: the clock causes' byte stores may alias anything
// the arguments point to, so that the loop reloaded each pointer and constant from them after every
// vector; locals whose address never escapes stay in registers (9 % fewer instructions in the
// pass, cachegrind on the default pod)
void OperatingPointImpl(const GpuBatchType& t_arg, const GpuBatchParams& p_arg,
                        const GpuBatchIo& io_arg, int n) {
  const GpuBatchType t = t_arg;
  const GpuBatchParams p = p_arg;
  const GpuBatchIo io = io_arg;
  const hn::ScalableTag<float> df;
  const std::size_t N = hn::Lanes(df), nn = std::size_t(n);
  Scratch S;
  std::size_t i = 0;
  while (i + N <= nn) {
    const std::size_t nv = std::min(kNewtonBlock, (nn - i) / N);
    OperatingPointBlock(df, t, p, io, i, nv, S);
    i += nv * N;
  }
  // the rest in vectors of half, a quarter of the lanes, then one lane at a time (a rack of 72
  // on AVX-512: 4 vectors of 16 and one of 8 instead of 8 single lanes); each lane's arithmetic
  // is the same at any width
  const hn::CappedTag<float, 8> d8;
  for (; hn::Lanes(d8) < N && i + hn::Lanes(d8) <= nn; i += hn::Lanes(d8))
    OperatingPointBlock(d8, t, p, io, i, 1, S);
  const hn::CappedTag<float, 4> d4;
  for (; hn::Lanes(d4) < N && i + hn::Lanes(d4) <= nn; i += hn::Lanes(d4))
    OperatingPointBlock(d4, t, p, io, i, 1, S);
  const hn::CappedTag<float, 1> d1;
  for (; i < nn; ++i) OperatingPointBlock(d1, t, p, io, i, 1, S);
}

void ThermalImpl(const GpuBatchType& t, const GpuBatchParams& p, const GpuBatchIo& io, int n,
                 double dt, GpuBatchSums& s) {
  const hn::ScalableTag<double> d;
  const std::size_t N = hn::Lanes(d), nn = std::size_t(n);
  using V = hn::Vec<decltype(d)>;
  V sum[10];
  for (V& v : sum) v = hn::Zero(d);
  std::size_t i = 0;
  const ThermalScalars sc{dt, 1.0 / dt, t.C_die / dt, t.C_hbm / dt};
  for (; i + N <= nn; i += N) ThermalLanes(d, p, io, i, sc, sum);
  double out[10];
  for (int k = 0; k < 10; ++k) out[k] = hn::GetLane(hn::SumOfLanes(d, sum[k]));
  const hn::CappedTag<double, 1> d1;
  using V1 = hn::Vec<decltype(d1)>;
  const GpuBatchIo io1 = withoutActivity(io);
  for (; i < nn; ++i) {
    V1 one[7];
    for (V1& v : one) v = hn::Zero(d1);
    ThermalLanes(d1, p, io1, i, sc, one);
    for (int k = 0; k < 7; ++k) out[k] += hn::GetLane(one[k]);
    if (io.a_net) {  // (ActivityImpl's tail, in its form)
      const double wi = p.w ? p.w[i] : 1.0;
      out[7] += wi * io.a_sm[i];
      out[8] += wi * io.a_nvl[i];
      out[9] += wi * io.a_net[i];
    }
  }
  for (int k = 0; k < 3; ++k) s.act[k] += out[7 + k];
  s.P += out[0];
  s.Q += out[1];
  s.throttled += out[2];
  s.capped += out[3];
  s.slowdown += out[4];
  s.thermal += out[5];
  s.brake += out[6];
}

template <class D>
HWY_INLINE void JobSpeedsLanes(D d, const double* x, const std::uint64_t* latch, const int* type,
                               const std::uint16_t* phase, const double* xref_inv, int stride,
                               bool powered, std::size_t i, double* speed_c, double* speed_m,
                               char* alive) {
  using V = hn::Vec<D>;
  const hn::RebindToSigned<D> di;
  const hn::RebindToUnsigned<D> du;
  const hn::Rebind<std::int32_t, D> d32;
  const hn::Rebind<std::uint16_t, D> d16;
  const auto idx32 = hn::Add(hn::Mul(hn::LoadU(d32, type + i), hn::Set(d32, stride)),
                             hn::BitCast(d32, hn::PromoteTo(hn::RebindToUnsigned<decltype(d32)>(),
                                                            hn::LoadU(d16, phase + i))));
  const V xr_inv = hn::GatherIndex(d, xref_inv, hn::PromoteTo(di, idx32));
  const V clk = hn::LoadU(d, x + i), one = hn::Set(d, 1.0);
  hn::StoreU(hn::IfThenElse(hn::Gt(clk, hn::Zero(d)), hn::Mul(clk, xr_inv), one), d, speed_c + i);
  const auto lv = hn::LoadU(du, latch + i);
  const auto slow = hn::RebindMask(d, hn::TestBit(lv, hn::Set(du, kLatchHwSlowdown)));
  hn::StoreU(hn::IfThenElse(slow, hn::Set(d, 0.5), one), d, speed_m + i);
  const hn::Rebind<std::uint8_t, D> d8;
  const auto on = powered ? hn::IfThenZeroElse(hn::TestBit(lv, hn::Set(du, kLatchShutDown)),
                                               hn::Set(du, std::uint64_t(1)))
                          : hn::Zero(du);
  hn::StoreU(hn::TruncateTo(d8, on), d8, reinterpret_cast<std::uint8_t*>(alive + i));
}

void JobSpeedsImpl(const double* x, const std::uint64_t* latch, const int* type,
                   const std::uint16_t* phase, const double* xref_inv, int stride, bool powered,
                   int n, double* speed_c, double* speed_m, char* alive) {
  const hn::ScalableTag<double> d;
  const std::size_t N = hn::Lanes(d), nn = std::size_t(n);
  std::size_t i = 0;
  for (; i + N <= nn; i += N)
    JobSpeedsLanes(d, x, latch, type, phase, xref_inv, stride, powered, i, speed_c, speed_m, alive);
  const hn::CappedTag<double, 1> d1;
  for (; i < nn; ++i)
    JobSpeedsLanes(d1, x, latch, type, phase, xref_inv, stride, powered, i, speed_c, speed_m,
                   alive);
}

void ActivityImpl(const double* a_sm, const double* a_nvl, const double* a_net, const double* w,
                  int n, double* sums) {
  const hn::ScalableTag<double> d;
  const std::size_t N = hn::Lanes(d), nn = std::size_t(n);
  auto s0 = hn::Zero(d), s1 = hn::Zero(d), s2 = hn::Zero(d);
  std::size_t i = 0;
  for (; i + N <= nn; i += N) {
    const auto wi = w ? hn::LoadU(d, w + i) : hn::Set(d, 1.0);
    s0 = hn::MulAdd(wi, hn::LoadU(d, a_sm + i), s0);
    s1 = hn::MulAdd(wi, hn::LoadU(d, a_nvl + i), s1);
    s2 = hn::MulAdd(wi, hn::LoadU(d, a_net + i), s2);
  }
  double t0 = hn::GetLane(hn::SumOfLanes(d, s0)), t1 = hn::GetLane(hn::SumOfLanes(d, s1)),
         t2 = hn::GetLane(hn::SumOfLanes(d, s2));
  for (; i < nn; ++i) {
    const double wi = w ? w[i] : 1.0;
    t0 += wi * a_sm[i];
    t1 += wi * a_nvl[i];
    t2 += wi * a_net[i];
  }
  sums[0] += t0;
  sums[1] += t1;
  sums[2] += t2;
}

template <class D>
HWY_INLINE void ClockCauseLanes(D du, const std::uint64_t* reasons, std::size_t i,
                                unsigned char* cause) {
  StoreClockCause(du, hn::LoadU(du, reasons + i), cause + i);
}

void ClockCauseImpl(const std::uint64_t* reasons, int n, unsigned char* cause) {
  const hn::ScalableTag<std::uint64_t> du;
  const std::size_t N = hn::Lanes(du), nn = std::size_t(n);
  std::size_t i = 0;
  for (; i + N <= nn; i += N) ClockCauseLanes(du, reasons, i, cause);
  const hn::CappedTag<std::uint64_t, 1> d1;
  for (; i < nn; ++i) ClockCauseLanes(d1, reasons, i, cause);
}

const char* TargetImpl() {
  return hwy::TargetName(HWY_TARGET);
}

}  // namespace HWY_NAMESPACE
}  // namespace dctwin
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace dctwin {

HWY_EXPORT(OperatingPointImpl);
HWY_EXPORT(ThermalImpl);
HWY_EXPORT(TargetImpl);
HWY_EXPORT(JobSpeedsImpl);
HWY_EXPORT(ClockCauseImpl);
HWY_EXPORT(ActivityImpl);

void gpuBatchActivity(const double* a_sm, const double* a_nvl, const double* a_net, const double* w,
                      int n, double* sums) {
  HWY_DYNAMIC_DISPATCH(ActivityImpl)(a_sm, a_nvl, a_net, w, n, sums);
}

void gpuBatchClockCause(const std::uint64_t* reasons, int n, unsigned char* cause) {
  HWY_DYNAMIC_DISPATCH(ClockCauseImpl)(reasons, n, cause);
}

void gpuBatchJobSpeeds(const double* x, const std::uint64_t* latch, const int* type,
                       const std::uint16_t* phase, const double* xref_inv, int stride, bool powered,
                       int n, double* speed_c, double* speed_m, char* alive) {
  HWY_DYNAMIC_DISPATCH(JobSpeedsImpl)
  (x, latch, type, phase, xref_inv, stride, powered, n, speed_c, speed_m, alive);
}

void gpuBatchOperatingPoint(const GpuBatchType& t, const GpuBatchParams& p, const GpuBatchIo& io,
                            int n) {
  HWY_DYNAMIC_DISPATCH(OperatingPointImpl)(t, p, io, n);
}

void gpuBatchThermal(const GpuBatchType& t, const GpuBatchParams& p, const GpuBatchIo& io, int n,
                     double dt, GpuBatchSums& s) {
  HWY_DYNAMIC_DISPATCH(ThermalImpl)(t, p, io, n, dt, s);
}

const char* gpuBatchTarget() {
  return HWY_DYNAMIC_DISPATCH(TargetImpl)();
}

bool gpuBatchPinTarget(const char* name) {
  if (!name) {
    hwy::DisableTargets(0);
    return true;
  }
  // Highway's targets are bits, the newer (preferred) instruction sets the lower ones
  for (std::int64_t bit = 1; bit != 0 && bit <= HWY_TARGETS; bit <<= 1) {
    if (!(HWY_TARGETS & bit) || strcasecmp(hwy::TargetName(bit), name) != 0) continue;
    hwy::DisableTargets(bit - 1);
    return true;
  }
  return false;
}

GpuBatchType gpuBatchType(const GpuParams& p) {
  GpuBatchType t;
  t.x_idle = p.f_idle / p.f_max;
  t.x_mem = p.f_membound / p.f_max;
  t.v0 = p.v0;
  t.v_floor = p.v_floor;
  const double v = std::max(p.v_floor, p.v0 + (1.0 - p.v0) * t.x_idle);
  t.g_idle = t.x_idle * v * v;
  t.P_hbm_idle = p.P_hbm_idle;
  t.P_hbm_max = p.P_hbm_max;
  t.P_nvl_max = p.P_nvl_max;
  t.beta = p.beta;
  t.T_leak_ref = p.T_leak_ref;
  t.T_maxop = p.T_maxop;
  t.T_slowdown = p.T_slowdown;
  t.T_shutdown = p.T_shutdown;
  t.T_hbm_max = p.T_hbm_max;
  t.C_die = p.C_die;
  t.C_hbm = p.C_hbm;
  return t;
}

GpuParams gpuWithFactors(const GpuParams& p, double f_leak, double f_idle, double f_dyn,
                         double f_Rjc, double f_Rhbm) {
  GpuParams q = p;
  q.P_leak_ref = p.P_leak_ref * f_leak;
  q.P_idle = (p.P_idle - p.P_leak_ref) * f_idle + q.P_leak_ref;
  q.P_sm_max = p.P_sm_max * f_dyn;
  q.P_clk = p.P_clk * f_dyn;
  q.R_jc = p.R_jc * f_Rjc;
  q.R_hbm = p.R_hbm * f_Rhbm;
  return q;
}

GpuBatchEntry gpuBatchEntry(const GpuParams& p, double f_leak, double f_idle, double f_dyn,
                            double f_Rjc, double f_Rhbm) {
  const GpuParams q = gpuWithFactors(p, f_leak, f_idle, f_dyn, f_Rjc, f_Rhbm);
  const GpuBatchType t = gpuBatchType(q);
  GpuBatchEntry e;
  e.P_base = float((q.P_idle - q.P_leak_ref) - q.P_clk * t.g_idle);
  e.P_leak = float(q.P_leak_ref);
  e.P_sm = float(q.P_sm_max);
  e.P_clk = float(q.P_clk);
  e.g_jc = 1.0 / q.R_jc;
  e.g_hbm = 1.0 / q.R_hbm;
  return e;
}

}  // namespace dctwin
#endif  // HWY_ONCE
