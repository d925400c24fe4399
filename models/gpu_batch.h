// gpu_batch.h: the GPU model of gpu.h for many GPUs at once (structure of arrays, SIMD)
//
// the same equations as gpuOperatingPoint and gpuThermalStep (models/gpu.h stays the reference,
// and tests/models/gpu_batch_test.cpp holds the two together), laid out so that one instruction
// advances many GPUs: every per-GPU parameter is its own contiguous array, the throttle logic is
// masks instead of branches, and the power-cap clock is at most a fixed number of Newton steps
// (kGpuBatchNewton) from the last step's clock. The operating point computes in single precision
// (8 GPUs per AVX2 instruction, 16 per AVX-512 one; its throttle decisions on temperatures
// compared in double), the thermal nodes in double (4 or 8). The instruction set is chosen at run
// time (Google Highway's dynamic dispatch): one binary runs on any x86-64 and uses AVX2 or
// AVX-512 where the CPU has them. Deviation from the scalar reference: the operating point's
// rounding (~3e-7 of the power, ~5e-7 K of one step's temperatures), the order of sums and the
// Newton count (docs/models/gpu_batch.md "Precision").
#pragma once

#include <cstdint>

#include "models/gpu.h"

namespace dctwin {

// Newton steps for the power-cap clock: P(x) is convex and increasing, Newton from the target
// clock converges monotonically and quadratically; 8 steps reach the root from x = 1 to the idle
// clock on every catalog GPU. The kernel starts from the last step's clock where it is below the
// target (a binding cap moves little between fast steps: 2 steps) and stops once no lane moved by
// more than kGpuBatchNewtonTol: the error after a step s is K s^2 with K = P''/(2 P') <= 1.5 over
// the clock range of every catalog GPU, so a step of 3e-5 leaves at most 1.4e-9 of the clock
// ratio, far below the float lanes' rounding of it (6e-8), which sets the result
inline constexpr int kGpuBatchNewton = 8;
inline constexpr double kGpuBatchNewtonTol = 3e-5;
// how far the kernel's power may lie above the exact model's, relative (1): the operating point
// in single precision (measured against the scalar reference: 3.0e-7,
// tests/models/gpu_batch_test.cpp); what a bound on the kernel's power (the GPU layer's blocks)
// adds
inline constexpr double kGpuBatchPowerRounding = 1e-6;

// constants of one GPU type, shared by the GPUs of a batch
struct GpuBatchType {
  double x_idle = 0, x_mem = 0;  // idle and memory-bound clock ratios               (1)
  double v0 = 0, v_floor = 0;    // voltage line and floor                           (1)
  double g_idle = 0;             // x v(x)^2 at the idle clock                        (1)
  double P_hbm_idle = 0, P_hbm_max = 0, P_nvl_max = 0;                // (W)
  double beta = 0, T_leak_ref = 0;                                    // (1/K), (K)
  double T_maxop = 0, T_slowdown = 0, T_shutdown = 0, T_hbm_max = 0;  // (K)
  double C_die = 0, C_hbm = 0;                                        // (J/K)
};
GpuBatchType gpuBatchType(const GpuParams& p);

// per-GPU parameters of a batch (arrays of n), from the type and the GPU's factors: see
// gpuBatchFill and gpuWithFactors. The power terms are single precision, which is what the
// operating point computes in (docs/models/gpu_batch.md "Precision"): stored rounded once, the
// bits it read from doubles and rounded on every load, without the conversions
struct GpuBatchParams {
  const float* P_base;    // (P_idle - P_leak_ref) f_idle - P_clk f_dyn g_idle   (W)
  const float* P_leak;    // P_leak_ref f_leak                                  (W)
  const float* P_sm;      // P_sm_max f_dyn                                     (W)
  const float* P_clk;     // P_clk f_dyn                                        (W)
  const double* g_jc;     // 1 / (R_jc f_Rjc)                                   (W/K)
  const double* g_hbm;    // 1 / (R_hbm f_Rhbm)                                 (W/K)
  const double* C_plate;  // (J/K)
  const double* w;        // weight: the number of GPUs the entry stands for (a group); null:
                          // every entry stands for one GPU                           (1)
};

// the type's parameters with one GPU's variation factors applied (the contract: leakage,
// non-leakage static power, dynamic power, R_jc, R_hbm); the scalar reference of one batch entry
GpuParams gpuWithFactors(const GpuParams& p, double f_leak, double f_idle, double f_dyn,
                         double f_Rjc, double f_Rhbm);
// the per-GPU parameter values of GpuBatchParams for one GPU (what a compile step stores)
struct GpuBatchEntry {
  float P_base, P_leak, P_sm, P_clk;  // (rounded once: what the operating point computes with)
  double g_jc, g_hbm;
};
GpuBatchEntry gpuBatchEntry(const GpuParams& p, double f_leak, double f_idle, double f_dyn,
                            double f_Rjc, double f_Rhbm);

// flags of a batch entry's load (GpuBatchIo::flags)
inline constexpr std::uint64_t kBatchMemoryBound = 1;  // park at f_membound
inline constexpr std::uint64_t kBatchBrake = 2;        // external power brake
inline constexpr std::uint64_t kBatchHeld = 4;         // a process holds the GPU
inline constexpr std::uint64_t kBatchPowered = 8;  // the board has power (else: all 0, nodes cool)
// latch bits (GpuBatchIo::latch): latched HW slowdown, latched thermal shutdown
inline constexpr std::uint64_t kLatchHwSlowdown = 1, kLatchShutDown = 2;

struct GpuBatchIo {
  // in (n): utilizations, flags, power limit, coolant inlet and plate resistance
  const double *a_sm, *a_hbm, *a_nvl;
  // kBatch* bits per entry; or, where flags is null, the same bits for every entry
  // (flags_all) but kBatchMemoryBound, which an entry has where its mem_bound > 0.5
  const std::uint64_t* flags;
  const double* cap;   // (W); where flags is null: min(cap, cap_max, cap_scale cap) (cap_scale < 1)
  const double* T_in;  // (K)
  const double* R_cp;  // (K/W); unread where G_cp is given
  // state (n), advanced in place
  double *T_j, *T_hbm, *T_p;  // (K)
  std::uint64_t* latch;       // kLatch* bits
  // out (n): the operating point; P and P_hbm may be changed between the two passes; x holds
  // the last step's clock on entry (the power-cap Newton's warm start; any value is safe)
  double *x, *P, *P_hbm;   // (1), (W), (W)
  std::uint64_t* reasons;  // GpuThrottle bits
  double* Q;  // heat to the coolant, mean over the step (W); null: not kept (the sums have it)
  // optional (nullptr: not kept): the interval's energy (J) and peaks (K), throttled time (s)
  double *E_sum = nullptr, *Tj_max = nullptr, *Thbm_max = nullptr, *t_throttled = nullptr;
  // the gather in the kernel (flags null): see flags and cap
  const double* mem_bound = nullptr;  // (1)
  std::uint64_t flags_all = 0;
  double cap_max = 0, cap_scale = 1;  // (W), (1)
  double cap_all = 0;  // where cap is null (with flags null): every entry's cap       (W)
  // optional: 1 / R_cp, the plate's conductance, computed by the caller as 1.0 / R_cp (the
  // bits of the thermal pass's own division, which it saves)                         (W/K)
  const double* G_cp = nullptr;
  // optional: the network utilization (n); with it the thermal pass also sums the three
  // activities the rack's other parts follow (GpuBatchSums::act: gpuBatchActivity's sums, in
  // the same order, in the pass that has a_sm and a_nvl in registers)                  (1)
  const double* a_net = nullptr;
  // optional (n): the clock cause of each entry's reasons (gpuBatchClockCause's), from pass 1
  unsigned char* cause = nullptr;
};

// weighted sums of a thermal pass (weights GpuBatchParams::w)
struct GpuBatchSums {
  double P = 0, Q = 0;  // (W)
  // GPU-seconds: thermal or brake, SW power cap, HW slowdown, SW/HW thermal, brake (s)
  double throttled = 0, capped = 0, slowdown = 0, thermal = 0, brake = 0;
  // where GpuBatchIo::a_net is set: the weighted sums of a_sm, a_nvl, a_net (1)
  double act[3] = {};
};

// pass 1: the operating point of entries [0, n) (gpuOperatingPoint), latches updated
void gpuBatchOperatingPoint(const GpuBatchType& t, const GpuBatchParams& p, const GpuBatchIo& io,
                            int n);
// pass 2: the thermal nodes over dt at the pass-1 power (gpuThermalStep), the heat Q; adds the
// weighted power, heat and throttle times to s
void gpuBatchThermal(const GpuBatchType& t, const GpuBatchParams& p, const GpuBatchIo& io, int n,
                     double dt, GpuBatchSums& s);

// what a training job reads of its GPUs at the next step (the GPU layer's jobSpeeds), for
// entries [0, n): speed_c = x xref_inv[type stride + phase] (the clock over the phase's reference
// clock, times the reciprocal of that: a multiply instead of a division, which was the pass's
// cost; within an ulp of the quotient; 1 where the clock is 0), speed_m = 0.5 under a latched HW
// slowdown, else 1, alive = 0 where the GPU is shut down or its rack has no power (powered
// false), else 1
void gpuBatchJobSpeeds(const double* x, const std::uint64_t* latch, const int* type,
                       const std::uint16_t* phase, const double* xref_inv, int stride, bool powered,
                       int n, double* speed_c, double* speed_m, char* alive);

// the sums over entries [0, n) of the three utilizations the rack's other parts follow
// (CPUs the SM activity, switch trays the NVLink, NICs the network), weighted by w (null: 1
// each); added to sums[0..2]. Summed in vector lanes: the order, and so the rounding, is that
// of the instruction set
void gpuBatchActivity(const double* a_sm, const double* a_nvl, const double* a_net, const double* w,
                      int n, double* sums);

// the cause of a clock held down, for the job's bottleneck map (TimeCat, models/workload.h), from
// each entry's GpuThrottle bits: thermal (SW/HW thermal, HW slowdown), else the power brake, else
// the SW power cap, else "clock other"; entries [0, n)
void gpuBatchClockCause(const std::uint64_t* reasons, int n, unsigned char* cause);

// the instruction set the dispatch picked on this CPU ("AVX3" = AVX-512, "AVX2", "SSE4", ...)
const char* gpuBatchTarget();

// pins the dispatch to the named instruction set (as gpuBatchTarget names it, case-insensitive)
// or an older one where this CPU lacks it, for the whole process, by disabling the newer ones
// (hwy::DisableTargets): tests/bench/bench_run's --simd, to measure what the vector width
// buys on one machine. Returns false, changing nothing, where no compiled target has that name;
// nullptr frees the dispatch again (the best instruction set the CPU has).
bool gpuBatchPinTarget(const char* name);

}  // namespace dctwin
