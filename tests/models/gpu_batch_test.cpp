// the SIMD GPU kernel (models/gpu_batch.h) against the scalar reference (models/gpu.h), on every
// instruction set this CPU offers, over random GPUs that cover idle, held, memory-bound, power
// cap, SW and HW thermal slowdown with its release band, power brake, shutdown and unpowered
// boards, with variation factors on every GPU
#include <hwy/targets.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "models/gpu_batch.h"
#include "models/workload.h"
#include "tests/models/hwy_targets.h"

using namespace dctwin;

namespace {

// B200 (as tests/models/gpu_test.cpp) and a GB300-like part with a voltage floor and clock power
GpuParams b200() {
  GpuParams p;
  p.name = "b200";
  p.P_tdp = 1000;
  p.P_idle = 195;
  p.P_hbm_idle = 27;
  p.f_max = 1965e6;
  p.f_idle = 120e6;
  p.f_membound = 1597e6;
  p.P_sm_max = 1590;
  p.P_hbm_max = 250;
  p.P_nvl_max = 60;
  p.v0 = 0.65;
  p.P_leak_ref = 60;
  p.beta = 0.02;
  p.T_maxop = 273.15 + 87;
  p.T_slowdown = 273.15 + 90;
  p.T_shutdown = 273.15 + 92;
  p.T_hbm_max = 273.15 + 95;
  p.R_jc = 0.012;
  p.C_die = 40;
  p.R_hbm = 0.15;
  p.C_hbm = 12;
  return p;
}
GpuParams floored() {
  GpuParams p = b200();
  p.v_floor = 0.8;
  p.P_clk = 120;
  p.P_sm_max = 1816;
  return p;
}

struct Case {
  std::vector<double> f_leak, f_idle, f_dyn, f_Rjc, f_Rhbm, C_plate, w;
  std::vector<float> P_base, P_leak, P_sm, P_clk;
  std::vector<double> g_jc, g_hbm;
  std::vector<double> a_sm, a_hbm, a_nvl, cap, T_in, R_cp;
  std::vector<std::uint64_t> flags;
};

// the reference state of every GPU (GpuState), copied into the kernel's arrays before each step
struct Soa {
  std::vector<double> T_j, T_hbm, T_p, x, P, P_hbm, Q, E, Tjm, Thm, tt;
  std::vector<std::uint64_t> latch, reasons;
  explicit Soa(int n)
      : T_j(n),
        T_hbm(n),
        T_p(n),
        x(n),
        P(n),
        P_hbm(n),
        Q(n),
        E(n),
        Tjm(n),
        Thm(n),
        tt(n),
        latch(n),
        reasons(n) {}
};

// the kernel's arguments for case c and state v, with the caller's flags and caps
GpuBatchIo batchIo(const Case& c, const std::uint64_t* flags, const double* cap, Soa& v) {
  return GpuBatchIo{
      c.a_sm.data(),  c.a_hbm.data(), c.a_nvl.data(), flags,          cap,
      c.T_in.data(),  c.R_cp.data(),  v.T_j.data(),   v.T_hbm.data(), v.T_p.data(),
      v.latch.data(), v.x.data(),     v.P.data(),     v.P_hbm.data(), v.reasons.data(),
      v.Q.data(),     v.E.data(),     v.Tjm.data(),   v.Thm.data(),   v.tt.data()};
}

// the kernel's per-GPU parameters of case c, weighted by its group sizes or (w null) not
GpuBatchParams batchParams(const Case& c, const double* w) {
  return GpuBatchParams{c.P_base.data(), c.P_leak.data(), c.P_sm.data(),    c.P_clk.data(),
                        c.g_jc.data(),   c.g_hbm.data(),  c.C_plate.data(), w};
}

// warm GPUs of graded temperatures, the start of the bit-for-bit comparisons
void warmStates(std::initializer_list<Soa*> states) {
  for (Soa* v : states)
    for (std::size_t i = 0; i < v->T_j.size(); ++i) {
      v->T_j[i] = 320 + 40 * double(i % 17) / 17;
      v->T_hbm[i] = 315 + 50 * double(i % 13) / 13;
      v->T_p[i] = 305;
    }
}

Case randomCase(const GpuParams& p, int n, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> U(0, 1);
  Case c;
  for (int i = 0; i < n; ++i) {
    c.f_leak.push_back(0.7 + 0.6 * U(rng));
    c.f_idle.push_back(0.9 + 0.2 * U(rng));
    c.f_dyn.push_back(0.9 + 0.2 * U(rng));
    c.f_Rjc.push_back(0.8 + 0.6 * U(rng));
    c.f_Rhbm.push_back(0.8 + 0.6 * U(rng));
    c.C_plate.push_back(200 + 200 * U(rng));
    c.w.push_back(1 + std::floor(3 * U(rng)));
    const GpuBatchEntry e =
        gpuBatchEntry(p, c.f_leak[i], c.f_idle[i], c.f_dyn[i], c.f_Rjc[i], c.f_Rhbm[i]);
    c.P_base.push_back(e.P_base);
    c.P_leak.push_back(e.P_leak);
    c.P_sm.push_back(e.P_sm);
    c.P_clk.push_back(e.P_clk);
    c.g_jc.push_back(e.g_jc);
    c.g_hbm.push_back(e.g_hbm);
    // a fifth idle, the rest busy
    const bool idle = U(rng) < 0.2;
    c.a_sm.push_back(idle ? 0.0 : U(rng));
    c.a_hbm.push_back(idle ? 0.0 : U(rng));
    c.a_nvl.push_back(idle ? 0.0 : U(rng));
    std::uint64_t f = 0;
    if (U(rng) < 0.3) f |= kBatchMemoryBound;
    if (U(rng) < 0.1) f |= kBatchBrake;
    if (U(rng) < 0.5) f |= kBatchHeld;
    if (U(rng) < 0.95) f |= kBatchPowered;
    c.flags.push_back(f);
    // from below the idle power (lowest clock) to above the uncapped power
    c.cap.push_back(150 + 1500 * U(rng));
    c.T_in.push_back(293 + 30 * U(rng));
    c.R_cp.push_back(0.005 + 0.03 * U(rng));
  }
  return c;
}

// one step of the scalar reference for GPU i; returns Q
double referenceStep(const GpuParams& p, const Case& c, int i, double dt, GpuState& s,
                     GpuOperatingPoint& op) {
  const GpuParams q =
      gpuWithFactors(p, c.f_leak[i], c.f_idle[i], c.f_dyn[i], c.f_Rjc[i], c.f_Rhbm[i]);
  const std::uint64_t f = c.flags[i];
  const GpuLoad load{c.a_sm[i],
                     c.a_hbm[i],
                     c.a_nvl[i],
                     (f & kBatchMemoryBound) != 0,
                     (f & kBatchBrake) != 0,
                     (f & kBatchHeld) != 0};
  op = (f & kBatchPowered) ? gpuOperatingPoint(q, c.cap[i], load, s) : GpuOperatingPoint{};
  return gpuThermalStep(q, GpuPlate{c.R_cp[i], c.C_plate[i]}, c.T_in[i], op, dt, s);
}

void compareOnce(const GpuParams& p, int n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> U(0, 1);
  Case c = randomCase(p, n, rng);
  std::vector<GpuState> ref(n);
  for (GpuState& s : ref) {
    // from cool to past shutdown, HBM past its limit, some latched
    s.T_j = 300 + 68 * U(rng);
    s.T_hbm = 300 + 72 * U(rng);
    s.T_plate = 295 + 40 * U(rng);
    s.hw_slowdown = U(rng) < 0.2;
    s.shut_down = U(rng) < 0.02;
  }
  const GpuBatchType t = gpuBatchType(p);
  const GpuBatchParams bp = batchParams(c, c.w.data());
  Soa v(n);
  const double dt = 0.05;
  int capped = 0, sw = 0, hw = 0, shut = 0, idle = 0, brake = 0;
  struct {
    double x = 0, P = 0, P_hbm = 0, T = 0, Q = 0;
  } dev;
  int ties = 0;
  std::vector<double> Tj0(n);
  for (int step = 0; step < 40; ++step) {
    for (int i = 0; i < n; ++i) {
      Tj0[i] = ref[i].T_j;
      v.T_j[i] = ref[i].T_j;
      v.T_hbm[i] = ref[i].T_hbm;
      v.T_p[i] = ref[i].T_plate;
      v.latch[i] =
          (ref[i].hw_slowdown ? kLatchHwSlowdown : 0) | (ref[i].shut_down ? kLatchShutDown : 0);
      v.E[i] = v.tt[i] = 0;
      v.Tjm[i] = v.Thm[i] = 0;
    }
    GpuBatchIo io = batchIo(c, c.flags.data(), c.cap.data(), v);
    gpuBatchOperatingPoint(t, bp, io, n);
    GpuBatchSums sums;
    gpuBatchThermal(t, bp, io, n, dt, sums);
    GpuBatchSums want;
    for (int i = 0; i < n; ++i) {
      GpuOperatingPoint op;
      const double Q = referenceStep(p, c, i, dt, ref[i], op);
      INFO("GPU " << i << " step " << step << " reasons " << op.reasons);
      // the reasons are the reference's, but where the SW thermal clock ties with the clock the
      // cap (or the idle floor) left: which of two equal limits counts as acting is then a matter
      // of rounding, in double as in float (the clock is the same either way)
      if (const std::uint64_t diff = v.reasons[i] ^ op.reasons; diff != 0) {
        // (the variation factors leave the thresholds and clocks as they are)
        const double xi = p.f_idle / p.f_max;
        const double frac = std::clamp((Tj0[i] - p.T_maxop) / (p.T_slowdown - p.T_maxop), 0.0, 1.0);
        const double x_sw = 1 - frac * (1 - xi);
        REQUIRE(diff == kThrottleSwThermal);
        REQUIRE(std::abs(x_sw - op.clock_ratio) <= 1e-6);
        ++ties;
      }
      REQUIRE(v.latch[i] == ((ref[i].hw_slowdown ? kLatchHwSlowdown : 0) |
                             (ref[i].shut_down ? kLatchShutDown : 0)));
      // the operating point in single precision (docs/models/gpu_batch.md "Precision"): each
      // step from the reference's state, so the deviations are one step's
      dev.x = std::max(dev.x, std::abs(v.x[i] - op.clock_ratio));
      dev.P = std::max(dev.P, std::abs(v.P[i] - op.P) / std::max(op.P, 1.0));
      dev.P_hbm = std::max(dev.P_hbm, std::abs(v.P_hbm[i] - op.P_hbm));
      dev.T = std::max({dev.T, std::abs(v.T_j[i] - ref[i].T_j), std::abs(v.T_hbm[i] - ref[i].T_hbm),
                        std::abs(v.T_p[i] - ref[i].T_plate)});
      dev.Q = std::max(dev.Q, std::abs(v.Q[i] - Q));
      // the energy is the power the step used, whatever its rounding
      REQUIRE(std::abs(v.E[i] - v.P[i] * dt) <= 1e-12 * v.P[i]);
      REQUIRE(v.Tjm[i] == v.T_j[i]);
      // (the throttled time follows the kernel's own reasons, a tie's included)
      const bool thr =
          v.reasons[i] & (kThrottleSwThermal | kThrottleHwThermal | kThrottlePowerBrake);
      REQUIRE(v.tt[i] == (thr ? dt : 0.0));
      want.P += c.w[i] * op.P;
      want.Q += c.w[i] * Q;
      if (op.reasons & kThrottleSwPowerCap) want.capped += c.w[i] * dt, ++capped;
      if (op.reasons & kThrottleSwThermal) ++sw;
      if (op.reasons & kThrottleHwThermal) ++hw;
      if (op.reasons & kThrottleIdle) ++idle;
      if (op.reasons & kThrottlePowerBrake) ++brake;
      if (ref[i].shut_down) ++shut;
    }
    REQUIRE(sums.P == Approx(want.P).epsilon(1e-6));
    REQUIRE(sums.Q == Approx(want.Q).epsilon(1e-6));
    REQUIRE(sums.capped == Approx(want.capped).epsilon(1e-12));
  }
  // stated tolerances of one step (docs/models/gpu_batch.md "Precision"; measured on AVX2, SSE4
  // and SSSE3: clock 1.6e-6 where little power scales with the clock, power 3.0e-7 relative, HBM
  // power 2.5e-5 W, temperatures 4.9e-7 K, heat 1.6e-6 W)
  INFO("max deviation: clock " << dev.x << ", power " << dev.P << " (relative), HBM power "
                               << dev.P_hbm << " W, temperatures " << dev.T << " K, heat " << dev.Q
                               << " W; SW thermal ties " << ties);
  CHECK(dev.x <= 5e-6);
  CHECK(dev.P <= 1e-6);
  CHECK(dev.P_hbm <= 1e-4);
  CHECK(dev.T <= 2e-6);
  CHECK(dev.Q <= 5e-6);
  CHECK(ties <= n * 40 / 1000);  // rare
  // the cases were all there
  CHECK(capped > 1000);
  CHECK(sw > 30);
  CHECK(hw > 100);
  CHECK(shut > 100);
  CHECK(idle > 100);
  CHECK(brake > 100);
}

using test::onEveryTarget;

}  // namespace

TEST_CASE("gpu batch kernel agrees with the scalar reference on every instruction set",
          "[gpu][simd]") {
  const int ran = onEveryTarget([&] {
    INFO("target " << gpuBatchTarget());
    WARN("gpu batch kernel checked on " << gpuBatchTarget());
    // 1007 GPUs: whole vectors, a tail in narrower vectors (AVX2: one of 4; AVX-512: 8 and 4)
    // and single lanes
    compareOnce(b200(), 1007, 14);
    compareOnce(floored(), 1007, 15);
  });
  CHECK(ran >= 1);
}

TEST_CASE("gpu batch kernel: no variation reproduces the catalog parameters", "[gpu][simd]") {
  const GpuParams p = floored();
  const GpuParams q = gpuWithFactors(p, 1, 1, 1, 1, 1);
  CHECK(q.P_idle == p.P_idle);
  CHECK(q.P_leak_ref == p.P_leak_ref);
  CHECK(q.P_sm_max == p.P_sm_max);
  CHECK(q.R_jc == p.R_jc);
  // the leakage factor scales only the leakage share of the idle power
  const GpuParams r = gpuWithFactors(p, 2, 1, 1, 1, 1);
  CHECK(gpuStaticPower(r, p.T_leak_ref) == Approx(p.P_idle + p.P_leak_ref));
}

// the kernel's own gather (GpuBatchIo::flags null: the block's bits, the memory-bound share, the
// block's limits; cap null: one limit for all) against the caller's per-entry flags and caps
TEST_CASE("gpu batch kernel: its own gather of flags and caps equals the caller's, bit for bit",
          "[gpu][simd]") {
  const GpuParams p = b200();
  const int n = 203;
  std::mt19937_64 rng(21);
  std::uniform_real_distribution<double> U(0, 1);
  Case c = randomCase(p, n, rng);
  const GpuBatchType t = gpuBatchType(p);
  const GpuBatchParams bp = batchParams(c, c.w.data());
  std::vector<double> mem(n), cap_gpu(n);
  for (int i = 0; i < n; ++i) {
    mem[i] = U(rng) < 0.3 ? 1.0 : 0.0;
    cap_gpu[i] = 300 + 1000 * U(rng);
  }
  const std::uint64_t flags_all = kBatchPowered | kBatchHeld;
  const double cap_max = 900, cap_scale = 0.8;
  for (const bool uniform : {false, true}) {
    INFO((uniform ? "one cap for all" : "a cap per entry"));
    if (uniform) std::fill(cap_gpu.begin(), cap_gpu.end(), 1100.0);
    std::vector<std::uint64_t> flags(n);
    std::vector<double> cap(n);
    for (int i = 0; i < n; ++i) {
      flags[i] = flags_all | (mem[i] > 0.5 ? kBatchMemoryBound : 0);
      cap[i] = std::min(std::min(cap_gpu[i], cap_max), cap_scale * cap_gpu[i]);
    }
    Soa a(n), b(n);
    warmStates({&a, &b});
    GpuBatchIo ia = batchIo(c, flags.data(), cap.data(), a),
               ib = batchIo(c, flags.data(), cap.data(), b);
    ib.flags = nullptr;
    ib.cap = uniform ? nullptr : cap_gpu.data();
    ib.mem_bound = mem.data();
    ib.flags_all = flags_all;
    ib.cap_max = cap_max;
    ib.cap_scale = cap_scale;
    ib.cap_all = 1100.0;
    int capped = 0;
    for (int step = 0; step < 20; ++step) {
      GpuBatchSums sa, sb;
      gpuBatchOperatingPoint(t, bp, ia, n);
      gpuBatchThermal(t, bp, ia, n, 0.05, sa);
      gpuBatchOperatingPoint(t, bp, ib, n);
      gpuBatchThermal(t, bp, ib, n, 0.05, sb);
      REQUIRE(a.x == b.x);
      REQUIRE(a.P == b.P);
      REQUIRE(a.reasons == b.reasons);
      REQUIRE(a.latch == b.latch);
      REQUIRE(a.T_j == b.T_j);
      REQUIRE(sa.P == sb.P);
      for (std::uint64_t r : a.reasons) capped += (r & kThrottleSwPowerCap) != 0;
    }
    CHECK(capped > 100);  // the caps bind
  }
}

// the plate's conductance from the caller (GpuBatchIo::G_cp, its division saved) gives the thermal
// pass's own bits, on every instruction set; a conductance off by one ulp shows (the check can
// fail)
TEST_CASE("gpu batch thermal pass: the caller's conductance gives its own division's bits",
          "[gpu][simd]") {
  const int ran = onEveryTarget([&] {
    INFO("target " << gpuBatchTarget());
    const GpuParams p = floored();
    const int n = 203;
    std::mt19937_64 rng(33);
    Case c = randomCase(p, n, rng);
    const GpuBatchType t = gpuBatchType(p);
    const GpuBatchParams bp = batchParams(c, c.w.data());
    std::vector<double> G_cp(n), G_off(n);
    for (int i = 0; i < n; ++i) {
      G_cp[i] = 1.0 / c.R_cp[i];
      G_off[i] = std::nextafter(G_cp[i], 2 * G_cp[i]);
    }
    Soa a(n), b(n), o(n);
    warmStates({&a, &b, &o});
    GpuBatchIo ia = batchIo(c, c.flags.data(), c.cap.data(), a),
               ib = batchIo(c, c.flags.data(), c.cap.data(), b),
               io = batchIo(c, c.flags.data(), c.cap.data(), o);
    ib.G_cp = G_cp.data();
    io.G_cp = G_off.data();
    for (int step = 0; step < 20; ++step) {
      GpuBatchSums sa, sb, so;
      for (auto [v, s] : {std::pair{&ia, &sa}, std::pair{&ib, &sb}, std::pair{&io, &so}}) {
        gpuBatchOperatingPoint(t, bp, *v, n);
        gpuBatchThermal(t, bp, *v, n, 0.05, *s);
      }
      REQUIRE(a.T_j == b.T_j);
      REQUIRE(a.T_hbm == b.T_hbm);
      REQUIRE(a.T_p == b.T_p);
      REQUIRE(a.Q == b.Q);
      REQUIRE(sa.Q == sb.Q);
      REQUIRE(a.T_p != o.T_p);
    }
  });
  CHECK(ran >= 1);
}

// the thermal pass's activity sums (GpuBatchIo::a_net set: the GPU layer's rack sums for its
// other parts) are gpuBatchActivity's, bit for bit, weighted or not, whole vectors and a tail
TEST_CASE("gpu batch thermal pass: its activity sums are the activity pass's, bit for bit",
          "[gpu][simd]") {
  const int ran = onEveryTarget([&] {
    INFO("target " << gpuBatchTarget());
    const GpuParams p = floored();
    const int n = 203;
    std::mt19937_64 rng(34);
    Case c = randomCase(p, n, rng);
    std::vector<double> a_net(n);
    std::uniform_real_distribution<double> U(0.0, 1.0);
    for (double& x : a_net) x = U(rng);
    const GpuBatchType t = gpuBatchType(p);
    for (const bool weighted : {false, true}) {
      const GpuBatchParams bp = batchParams(c, weighted ? c.w.data() : nullptr);
      Soa a(n), b(n);
      warmStates({&a, &b});
      GpuBatchIo ia = batchIo(c, c.flags.data(), c.cap.data(), a),
                 ib = batchIo(c, c.flags.data(), c.cap.data(), b);
      ib.a_net = a_net.data();
      GpuBatchSums sa, sb;
      gpuBatchOperatingPoint(t, bp, ia, n);
      gpuBatchThermal(t, bp, ia, n, 0.05, sa);
      gpuBatchOperatingPoint(t, bp, ib, n);
      gpuBatchThermal(t, bp, ib, n, 0.05, sb);
      double want[3] = {};
      gpuBatchActivity(c.a_sm.data(), c.a_nvl.data(), a_net.data(), weighted ? c.w.data() : nullptr,
                       n, want);
      for (int k = 0; k < 3; ++k) {
        CHECK(sa.act[k] == 0.0);  // not asked for
        CHECK(sb.act[k] == want[k]);
      }
      CHECK(want[0] > 0);
      REQUIRE(a.T_j == b.T_j);  // the thermal pass itself unchanged
      REQUIRE(sa.Q == sb.Q);
    }
  });
  CHECK(ran >= 1);
}

// pass 1's clock causes (GpuBatchIo::cause set) are gpuBatchClockCause's of the reasons it left
TEST_CASE("gpu batch pass 1: its clock causes are the clock-cause pass's, bit for bit",
          "[gpu][simd]") {
  const int ran = onEveryTarget([&] {
    INFO("target " << gpuBatchTarget());
    const GpuParams p = floored();
    const int n = 203;
    std::mt19937_64 rng(35);
    Case c = randomCase(p, n, rng);
    const GpuBatchType t = gpuBatchType(p);
    const GpuBatchParams bp = batchParams(c, c.w.data());
    Soa a(n);
    warmStates({&a});
    GpuBatchIo io = batchIo(c, c.flags.data(), c.cap.data(), a);
    std::vector<unsigned char> cause(n + 1, 99), want(n + 1, 99);
    io.cause = cause.data();
    std::set<int> seen;
    for (int step = 0; step < 10; ++step) {
      GpuBatchSums sums;
      gpuBatchOperatingPoint(t, bp, io, n);
      gpuBatchClockCause(a.reasons.data(), n, want.data());
      REQUIRE(cause == want);
      for (int i = 0; i < n; ++i) seen.insert(cause[i]);
      gpuBatchThermal(t, bp, io, n, 0.05, sums);
    }
    CHECK(cause[n] == 99);  // nothing written past the end
    CHECK(seen.size() >= 2);
  });
  CHECK(ran >= 1);
}

// the job's view of its GPUs (the GPU layer's jobSpeeds) as a vector pass, against its scalar
// form, bit for bit, on every instruction set: two GPU types, every phase with the iteration end
// and the checkpoint, clocks at 0, latched HW slowdowns and shutdowns, racks with and without
// power, a tail of single lanes
TEST_CASE("gpu batch job speeds equal the scalar form, bit for bit", "[gpu][simd]") {
  const int n = 1003, nph = 5, stride = nph + 2;
  std::mt19937_64 rng(21);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::vector<double> xref(2 * stride, 1.0), x(n);
  for (int t = 0; t < 2; ++t)
    for (int k = 0; k < nph; ++k) xref[t * stride + k] = 0.6 + 0.4 * u(rng);
  std::vector<double> xref_inv(xref.size());  // what the compile step stores
  for (std::size_t k = 0; k < xref.size(); ++k) xref_inv[k] = 1.0 / xref[k];
  std::vector<std::uint64_t> latch(n);
  std::vector<int> type(n);
  std::vector<std::uint16_t> phase(n);
  for (int i = 0; i < n; ++i) {
    x[i] = u(rng) < 0.1 ? 0.0 : 0.06 + 0.94 * u(rng);
    latch[i] = (u(rng) < 0.2 ? kLatchHwSlowdown : 0) | (u(rng) < 0.1 ? kLatchShutDown : 0);
    type[i] = u(rng) < 0.5 ? 0 : 1;
    phase[i] = static_cast<std::uint16_t>(std::min(int(u(rng) * (nph + 2)), nph + 1));
  }
  const int ran = onEveryTarget([&] {
    INFO("target " << gpuBatchTarget());
    std::vector<double> sc(n, -1), sm(n, -1);
    std::vector<char> alive(n + 1, 7), off(n + 1, 7);
    gpuBatchJobSpeeds(x.data(), latch.data(), type.data(), phase.data(), xref_inv.data(), stride,
                      true, n, sc.data(), sm.data(), alive.data());
    gpuBatchJobSpeeds(x.data(), latch.data(), type.data(), phase.data(), xref_inv.data(), stride,
                      false, n, sc.data(), sm.data(), off.data());
    CHECK(alive[n] == 7);  // nothing written past the end
    CHECK(off[n] == 7);
    int dead = 0;
    int slow = 0, zero = 0, ends = 0;
    for (int i = 0; i < n; ++i) {
      const double xr = xref[type[i] * stride + phase[i]];
      const double xr_inv = xref_inv[type[i] * stride + phase[i]];
      REQUIRE(sc[i] == (x[i] > 0 ? x[i] * xr_inv : 1.0));
      // within an ulp of the quotient
      REQUIRE(std::abs(sc[i] - (x[i] > 0 ? x[i] / xr : 1.0)) <= 2.3e-16 * sc[i]);
      REQUIRE(sm[i] == (latch[i] & kLatchHwSlowdown ? 0.5 : 1.0));
      REQUIRE(int(alive[i]) == (latch[i] & kLatchShutDown ? 0 : 1));
      REQUIRE(int(off[i]) == 0);  // the rack has no power
      dead += alive[i] == 0;
      slow += sm[i] == 0.5;
      zero += x[i] == 0;
      ends += phase[i] >= nph;
    }
    CHECK(slow > 100);
    CHECK(zero > 50);
    CHECK(ends > 100);
    CHECK(dead > 50);
  });
  CHECK(ran >= 1);
}

// the clock cause the jobs read (the GPU layer's, power smoothing aside), on every
// instruction set: thermal before the brake before the power cap, else "clock other"
TEST_CASE("gpu batch clock causes follow the throttle bits' priority", "[gpu][simd]") {
  const int n = 1003;
  std::mt19937_64 rng(5);
  std::vector<std::uint64_t> reasons(n);
  const std::uint64_t bits[] = {kThrottleIdle,      kThrottleSwPowerCap, kThrottleHwSlowdown,
                                kThrottleSwThermal, kThrottleHwThermal,  kThrottlePowerBrake};
  for (int i = 0; i < n; ++i)
    for (std::uint64_t b : bits)
      if (rng() % 4 == 0) reasons[i] |= b;
  const auto expected = [](std::uint64_t rs) {
    if (rs & (kThrottleSwThermal | kThrottleHwThermal | kThrottleHwSlowdown)) return kTimeThermal;
    if (rs & kThrottlePowerBrake) return kTimePowerBrake;
    if (rs & kThrottleSwPowerCap) return kTimePowerCap;
    return kTimeClockOther;
  };
  const int ran = onEveryTarget([&] {
    INFO("target " << gpuBatchTarget());
    std::vector<unsigned char> cause(n + 1, 0xff);
    gpuBatchClockCause(reasons.data(), n, cause.data());
    int seen[kTimeCats] = {};
    for (int i = 0; i < n; ++i) {
      REQUIRE(int(cause[i]) == int(expected(reasons[i])));
      ++seen[cause[i]];
    }
    CHECK(cause[n] == 0xff);  // nothing written past the end
    for (int c : {kTimeThermal, kTimePowerBrake, kTimePowerCap, kTimeClockOther})
      CHECK(seen[c] > 20);
  });
  CHECK(ran >= 1);
}

// the rack's activity sums for its other parts: the scalar sums to round-off, with and without
// weights, whole vectors and a tail, on every instruction set
TEST_CASE("gpu batch activity sums equal the scalar sums to round-off", "[gpu][simd]") {
  const int n = 77;
  std::mt19937_64 rng(8);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::vector<double> a(n), b(n), c(n), w(n);
  for (int i = 0; i < n; ++i) a[i] = u(rng), b[i] = u(rng), c[i] = u(rng), w[i] = 1 + i % 4;
  const int ran = onEveryTarget([&] {
    INFO("target " << gpuBatchTarget());
    for (const bool weighted : {false, true}) {
      double ref[3] = {0.5, 0.25, 0.125}, sums[3] = {0.5, 0.25, 0.125};  // added to
      for (int i = 0; i < n; ++i) {
        const double wi = weighted ? w[i] : 1.0;
        ref[0] += wi * a[i], ref[1] += wi * b[i], ref[2] += wi * c[i];
      }
      gpuBatchActivity(a.data(), b.data(), c.data(), weighted ? w.data() : nullptr, n, sums);
      for (int k = 0; k < 3; ++k) CHECK(sums[k] == Approx(ref[k]).epsilon(1e-14));
    }
  });
  CHECK(ran >= 1);
}

TEST_CASE("gpu batch dispatch can be pinned to an older instruction set and freed again",
          "[gpu][simd]") {
  const std::string best = gpuBatchTarget();
  CHECK_FALSE(gpuBatchPinTarget("no such instruction set"));
  CHECK(gpuBatchTarget() == best);
  const std::int64_t targets = hwy::SupportedTargets() & HWY_TARGETS;
  int pinned = 0;
  for (std::int64_t bit = 1; bit != 0 && bit <= targets; bit <<= 1) {
    if (!(targets & bit)) continue;
    const std::string name = hwy::TargetName(bit);
    INFO("target " << name);
    REQUIRE(gpuBatchPinTarget(name.c_str()));
    CHECK(gpuBatchTarget() == name);
    ++pinned;
  }
  CHECK(pinned >= 1);
  REQUIRE(gpuBatchPinTarget(nullptr));
  CHECK(gpuBatchTarget() == best);
}
