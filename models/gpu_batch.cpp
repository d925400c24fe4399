// gpu_batch.cpp: the SIMD form of the GPU model (see gpu_batch.h); compiled once per instruction
// set by Highway's foreach_target, the best one the CPU has is picked at the first call
#include "models/gpu_batch.h"

#include "models/workload.h"

#include <algorithm>
#include <cstddef>

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

// x v(x)^2 and its derivative (clockVoltage in gpu.cpp)
template <class D, class V>
HWY_INLINE V ClockVoltage(D d, const GpuBatchType& t, V x, V* dg) {
  const V v0 = hn::Set(d, t.v0), vf = hn::Set(d, t.v_floor);
  const V lin = hn::MulAdd(hn::Sub(hn::Set(d, 1.0), v0), x, v0);
  const V v = hn::Max(vf, lin);
  const V vv = hn::Mul(v, v);
  if (dg) {
    const V slope = hn::Mul(hn::Mul(hn::Add(x, x), v), hn::Sub(hn::Set(d, 1.0), v0));
    *dg = hn::IfThenElse(hn::Ge(lin, vf), hn::Add(vv, slope), vv);
  }
  return hn::Mul(x, vv);
}

// pass 1 runs in three steps over a block of up to kNewtonBlock vectors, so that the power-cap
// Newton iterations of the block's vectors, each a chain of dependent divisions, overlap instead
// of waiting on one another: PrepareLanes (the target clock, the power terms and whether the cap
// binds), NewtonBlock (the capped lanes' clocks), FinishLanes (the thermal limits, the stores).
// The scratch holds what the steps hand on, per lane of the block.
constexpr std::size_t kNewtonBlock = 16, kMaxLanes = HWY_MAX_BYTES / sizeof(double);
struct Scratch {
  alignas(64) double A[kNewtonBlock * kMaxLanes], B[kNewtonBlock * kMaxLanes],
      cap[kNewtonBlock * kMaxLanes], x[kNewtonBlock * kMaxLanes], z[kNewtonBlock * kMaxLanes];
  alignas(64) std::uint64_t capped[kNewtonBlock * kMaxLanes], low[kNewtonBlock * kMaxLanes];
  bool any[kNewtonBlock];  // the vector has a capped lane
};

// what both steps read of lanes [i, i + Lanes(d)): temperatures, flags, latches, the idle mask
template <class D>
struct Inputs {
  hn::Vec<D> Tj, Th;
  hn::Vec<hn::RebindToUnsigned<D>> flags, latch;
  hn::Mask<D> idle;
};

template <class D>
HWY_INLINE Inputs<D> LoadInputs(D d, const GpuBatchIo& io, std::size_t i) {
  const hn::RebindToUnsigned<D> du;
  const hn::Vec<D> zero = hn::Zero(d);
  Inputs<D> in;
  in.Tj = hn::LoadU(d, io.T_j + i);
  in.Th = hn::LoadU(d, io.T_hbm + i);
  // the flags: per entry, or from the memory-bound share and the block's bits
  if (io.flags) {
    in.flags = hn::LoadU(du, io.flags + i);
  } else {
    const auto mb = hn::Gt(hn::LoadU(d, io.mem_bound + i), hn::Set(d, 0.5));
    in.flags = hn::Or(hn::Set(du, io.flags_all),
                      hn::IfThenElseZero(hn::RebindMask(du, mb), hn::Set(du, kBatchMemoryBound)));
  }
  in.latch = hn::LoadU(du, io.latch + i);
  in.idle = hn::And(
      hn::And(hn::Le(hn::LoadU(d, io.a_sm + i), zero), hn::Le(hn::LoadU(d, io.a_hbm + i), zero)),
      hn::Le(hn::LoadU(d, io.a_nvl + i), zero));
  return in;
}

template <class D>
HWY_INLINE hn::Mask<D> Bit(D d, hn::Vec<hn::RebindToUnsigned<D>> v, std::uint64_t b) {
  const hn::RebindToUnsigned<D> du;
  return hn::RebindMask(d, hn::TestBit(v, hn::Set(du, b)));
}

// the target clock: idle (or held at full clock by a process), memory-bound, or full
template <class D>
HWY_INLINE hn::Vec<D> TargetClock(D d, const GpuBatchType& t, const Inputs<D>& in) {
  return hn::IfThenElse(
      in.idle, hn::IfThenElse(Bit(d, in.flags, kBatchHeld), hn::Set(d, 1.0), hn::Set(d, t.x_idle)),
      hn::IfThenElse(Bit(d, in.flags, kBatchMemoryBound), hn::Set(d, t.x_mem), hn::Set(d, 1.0)));
}

// step 1 for lanes [i, i + Lanes(d)), scratch lanes [k, k + Lanes(d)) of vector v: the power at
// clock z is B + A z v(z)^2; the cap binds where the target clock's power exceeds it
template <class D>
HWY_INLINE void PrepareLanes(D d, const GpuBatchType& t, const GpuBatchParams& p,
                             const GpuBatchIo& io, std::size_t i, Scratch& S, std::size_t k,
                             std::size_t v) {
  using V = hn::Vec<D>;
  const hn::RebindToUnsigned<D> du;
  const V zero = hn::Zero(d), xi = hn::Set(d, t.x_idle);
  const Inputs<D> in = LoadInputs(d, io, i);
  const V x = TargetClock(d, t, in);
  const V a_sm = hn::LoadU(d, io.a_sm + i), a_hbm = hn::LoadU(d, io.a_hbm + i),
          a_nvl = hn::LoadU(d, io.a_nvl + i);
  // the cap: per entry, or min(cap, cap_max, cap_scale cap)
  V cap = io.cap ? hn::LoadU(d, io.cap + i) : hn::Set(d, io.cap_all);
  if (!io.flags) {
    const V cap_gpu = cap;
    cap = hn::Min(cap_gpu, hn::Set(d, io.cap_max));
    if (io.cap_scale < 1.0) cap = hn::Min(cap, hn::Mul(hn::Set(d, io.cap_scale), cap_gpu));
  }
  const V A = hn::MulAdd(hn::LoadU(d, p.P_sm + i), a_sm, hn::LoadU(d, p.P_clk + i));
  const V leak =
      hn::Mul(hn::LoadU(d, p.P_leak + i),
              hn::Exp(d, hn::Mul(hn::Set(d, t.beta), hn::Sub(in.Tj, hn::Set(d, t.T_leak_ref)))));
  const V B = hn::MulAdd(
      hn::Set(d, t.P_nvl_max), a_nvl,
      hn::MulAdd(hn::Set(d, t.P_hbm_max), a_hbm, hn::Add(hn::LoadU(d, p.P_base + i), leak)));
  const V fx = hn::MulAdd(A, ClockVoltage(d, t, x, static_cast<V*>(nullptr)), B);
  const auto capped = hn::And(hn::Gt(fx, cap), hn::Gt(x, xi));
  hn::Store(A, d, S.A + k);
  hn::Store(B, d, S.B + k);
  hn::Store(x, d, S.x + k);
  S.any[v] = !hn::AllFalse(d, capped);
  if (!S.any[v]) return;
  // even the idle clock exceeds the cap (or nothing scales with the clock): the idle clock
  const V f_idle = hn::MulAdd(A, hn::Set(d, t.g_idle), B);
  const auto low = hn::Or(hn::Ge(f_idle, cap), hn::Le(A, zero));
  // warm start: the clock of the last step where it lies between the idle and the target clock
  // (the cap binds from step to step and moves little), else the target clock. P is convex, so
  // Newton from below the root lands above it and then falls monotonically
  const V prev = hn::LoadU(d, io.x + i);
  hn::Store(cap, d, S.cap + k);
  hn::Store(hn::IfThenElse(hn::And(hn::Gt(prev, xi), hn::Lt(prev, x)), prev, x), d, S.z + k);
  hn::Store(hn::BitCast(du, hn::VecFromMask(d, capped)), du, S.capped + k);
  hn::Store(hn::BitCast(du, hn::VecFromMask(d, low)), du, S.low + k);
}

// step 2: the capped lanes' clocks, vectors [0, nv) of the scratch, each until none of its solved
// lanes moves by more than kGpuBatchNewtonTol (at most kGpuBatchNewton steps): a vector's result
// does not depend on the others of the block
template <class D>
HWY_INLINE void NewtonBlock(D d, const GpuBatchType& t, Scratch& S, std::size_t nv) {
  using V = hn::Vec<D>;
  const hn::RebindToUnsigned<D> du;
  const std::size_t N = hn::Lanes(d);
  const V xi = hn::Set(d, t.x_idle), tol = hn::Set(d, kGpuBatchNewtonTol);
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
      const V A = hn::Load(d, S.A + k), B = hn::Load(d, S.B + k), cap = hn::Load(d, S.cap + k);
      const V z = hn::Load(d, S.z + k);
      const auto solve = hn::AndNot(hn::MaskFromVec(hn::BitCast(d, hn::Load(du, S.low + k))),
                                    hn::MaskFromVec(hn::BitCast(d, hn::Load(du, S.capped + k))));
      V dg;
      const V g = ClockVoltage(d, t, z, &dg);
      const V step = hn::Div(hn::Sub(hn::MulAdd(A, g, B), cap), hn::Mul(A, dg));
      const V z1 = hn::Max(hn::Sub(z, step), xi);
      hn::Store(z1, d, S.z + k);
      moving[v] = !hn::AllFalse(d, hn::And(solve, hn::Gt(hn::Abs(hn::Sub(z1, z)), tol)));
      any = any || moving[v];
    }
  }
}

// step 3 for lanes [i, i + Lanes(d)), scratch lanes [k, k + Lanes(d)) of vector v
// the clock cause of GpuThrottle bits `why` (gpuBatchClockCause), one byte per lane to `cause`
template <class D>
HWY_INLINE void StoreClockCause(D du, hn::Vec<D> why, unsigned char* cause) {
  const hn::Rebind<std::uint8_t, D> d8;
  const auto zero = hn::Zero(du);
  auto has = [&](std::uint64_t b) { return hn::Ne(hn::And(why, hn::Set(du, b)), zero); };
  auto c = hn::Set(du, std::uint64_t(kTimeClockOther));
  c = hn::IfThenElse(has(kThrottleSwPowerCap), hn::Set(du, std::uint64_t(kTimePowerCap)), c);
  c = hn::IfThenElse(has(kThrottlePowerBrake), hn::Set(du, std::uint64_t(kTimePowerBrake)), c);
  c = hn::IfThenElse(has(kThrottleSwThermal | kThrottleHwThermal | kThrottleHwSlowdown),
                     hn::Set(du, std::uint64_t(kTimeThermal)), c);
  hn::StoreU(hn::TruncateTo(d8, c), d8, cause);
}

template <class D>
HWY_INLINE void FinishLanes(D d, const GpuBatchType& t, const GpuBatchIo& io, std::size_t i,
                            const Scratch& S, std::size_t k, std::size_t v) {
  using V = hn::Vec<D>;
  const hn::RebindToUnsigned<D> du;
  using VU = hn::Vec<decltype(du)>;
  auto reason = [&](hn::Mask<D> m, std::uint64_t b) {
    return hn::IfThenElseZero(hn::RebindMask(du, m), hn::Set(du, b));
  };
  const V zero = hn::Zero(d), one = hn::Set(d, 1.0), xi = hn::Set(d, t.x_idle);
  const Inputs<D> in = LoadInputs(d, io, i);
  const V Tj = in.Tj, Th = in.Th;
  const auto powered = Bit(d, in.flags, kBatchPowered), held = Bit(d, in.flags, kBatchHeld);
  // shutdown: latched, the board is off (only a powered board's latch moves)
  const auto shut = hn::Or(Bit(d, in.latch, kLatchShutDown),
                           hn::And(powered, hn::Ge(Tj, hn::Set(d, t.T_shutdown))));
  const auto idle = in.idle;
  V x = hn::Load(d, S.x + k);
  VU why = reason(hn::AndNot(held, idle), kThrottleIdle);
  if (S.any[v]) {
    const auto capped = hn::MaskFromVec(hn::BitCast(d, hn::Load(du, S.capped + k)));
    const auto low = hn::MaskFromVec(hn::BitCast(d, hn::Load(du, S.low + k)));
    x = hn::IfThenElse(capped, hn::IfThenElse(low, xi, hn::Load(d, S.z + k)), x);
    why = hn::Or(why, reason(capped, kThrottleSwPowerCap));
  }
  const V A = hn::Load(d, S.A + k), B = hn::Load(d, S.B + k);
  // SW thermal slowdown
  const V Tmax = hn::Set(d, t.T_maxop), Tslow = hn::Set(d, t.T_slowdown);
  const auto sw_on = hn::And(hn::Or(hn::Not(idle), held), hn::Gt(Tj, Tmax));
  if (!hn::AllFalse(d, sw_on)) {
    const V frac = hn::Min(hn::Max(hn::Div(hn::Sub(Tj, Tmax), hn::Sub(Tslow, Tmax)), zero), one);
    const V x_sw = hn::NegMulAdd(frac, hn::Sub(one, xi), one);
    const auto sw = hn::And(sw_on, hn::Lt(x_sw, x));
    x = hn::IfThenElse(sw, x_sw, x);
    why = hn::Or(why, reason(sw, kThrottleSwThermal));
  }
  // HW thermal slowdown, latched with the release band
  const V Thmax = hn::Set(d, t.T_hbm_max), band = hn::Set(d, 2.0);
  auto hw =
      hn::Or(Bit(d, in.latch, kLatchHwSlowdown), hn::Or(hn::Ge(Tj, Tslow), hn::Ge(Th, Thmax)));
  const auto release = hn::And(hn::Lt(Tj, hn::Sub(Tslow, band)), hn::Lt(Th, hn::Sub(Thmax, band)));
  hw = hn::AndNot(release, hw);
  const V half = hn::Set(d, 0.5);
  x = hn::IfThenElse(hw, hn::Max(hn::Mul(half, x), xi), x);
  why = hn::Or(why, reason(hw, kThrottleHwThermal | kThrottleHwSlowdown));
  const auto brake = Bit(d, in.flags, kBatchBrake);
  x = hn::IfThenElse(brake, hn::Max(hn::Mul(half, x), xi), x);
  why = hn::Or(why, reason(brake, kThrottlePowerBrake | kThrottleHwSlowdown));
  // a board without power or shut down: nothing (its HW latch stays as it was)
  const auto active = hn::AndNot(shut, powered);
  const V P = hn::MulAdd(A, ClockVoltage(d, t, x, static_cast<V*>(nullptr)), B);
  const V P_hbm =
      hn::MulAdd(hn::Set(d, t.P_hbm_max), hn::LoadU(d, io.a_hbm + i), hn::Set(d, t.P_hbm_idle));
  hn::StoreU(hn::IfThenElseZero(active, x), d, io.x + i);
  hn::StoreU(hn::IfThenElseZero(active, P), d, io.P + i);
  hn::StoreU(hn::IfThenElseZero(active, P_hbm), d, io.P_hbm + i);
  const auto active_u = hn::RebindMask(du, active);
  hn::StoreU(hn::IfThenElseZero(active_u, why), du, io.reasons + i);
  if (io.cause) StoreClockCause(du, hn::IfThenElseZero(active_u, why), io.cause + i);
  const VU hw_bit = hn::IfThenElse(active_u, reason(hw, kLatchHwSlowdown),
                                   hn::And(in.latch, hn::Set(du, kLatchHwSlowdown)));
  const VU new_latch = hn::Or(hw_bit, reason(shut, kLatchShutDown));
  hn::StoreU(new_latch, du, io.latch + i);
}

// pass 1 over entries [i, i + nv Lanes(d))
template <class D>
HWY_INLINE void OperatingPointBlock(D d, const GpuBatchType& t, const GpuBatchParams& p,
                                    const GpuBatchIo& io, std::size_t i, std::size_t nv,
                                    Scratch& S) {
  const std::size_t N = hn::Lanes(d);
  for (std::size_t v = 0; v < nv; ++v) PrepareLanes(d, t, p, io, i + v * N, S, v * N, v);
  NewtonBlock(d, t, S, nv);
  for (std::size_t v = 0; v < nv; ++v) FinishLanes(d, t, io, i + v * N, S, v * N, v);
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

// whole vectors, then the rest one lane at a time. The type, the parameters' and the io's
// pointers are copied to locals first: the clock causes' byte stores may alias anything the
// arguments point to, so that the loop reloaded each pointer and constant from them after every
// vector; locals whose address never escapes stay in registers (9 % fewer instructions in the
// pass, cachegrind on the default pod)
void OperatingPointImpl(const GpuBatchType& t_arg, const GpuBatchParams& p_arg,
                        const GpuBatchIo& io_arg, int n) {
  const GpuBatchType t = t_arg;
  const GpuBatchParams p = p_arg;
  const GpuBatchIo io = io_arg;
  const hn::ScalableTag<double> d;
  const std::size_t N = hn::Lanes(d), nn = std::size_t(n);
  Scratch S;
  std::size_t i = 0;
  while (i + N <= nn) {
    const std::size_t nv = std::min(kNewtonBlock, (nn - i) / N);
    OperatingPointBlock(d, t, p, io, i, nv, S);
    i += nv * N;
  }
  const hn::CappedTag<double, 1> d1;
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
  e.P_base = (q.P_idle - q.P_leak_ref) - q.P_clk * t.g_idle;
  e.P_leak = q.P_leak_ref;
  e.P_sm = q.P_sm_max;
  e.P_clk = q.P_clk;
  e.g_jc = 1.0 / q.R_jc;
  e.g_hbm = 1.0 / q.R_hbm;
  return e;
}

}  // namespace dctwin
#endif  // HWY_ONCE
