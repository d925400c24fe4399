// gpu.h: accelerator power, clocks, throttling and die/HBM/cold-plate thermal nodes
//
// power at SM clock ratio x = f/f_max, junction temperature T_j and utilizations a ([K4, K16, K23,
// K24], [WL41–WL44]; coefficients calibrated per GPU in data/catalog/gpus):
//   P = P_static(T_j) + P_sm_max a_sm x v(x)^2 + P_clk (x v(x)^2 - x_idle v(x_idle)^2)
//       + P_hbm_max a_hbm + P_nvl_max a_nvl
//   v(x) = max(v_floor, v0 + (1 - v0) x)       (voltage rises with clock above a V_min floor)
//   P_clk: clock tree and uncore at zero activity, paid whenever the clock is up (measured on H200
//   as the held-idle excess: data/telemetry/h200_sxm_2026-11-29)
//   P_static(T) = (P_idle - P_leak_ref) + P_leak_ref exp(beta (T - T_leak_ref)) (leakage [K23,
//   K24])
// clocks follow the most restrictive limit (NVML clocks_event_reasons [K4]):
//   target      x = 1 (boost); memory-bound phases park at f_membound; idle at f_idle, unless a
//               process holds the GPU (a running job): then the clock stays at boost
//   power cap   largest x with P(x) <= P_cap                                    -> 0x4 SW power cap
//   SW thermal  above T_maxop the clock walks down linearly to the idle clock at T_slowdown -> 0x20
//   HW thermal  at T_slowdown (or HBM at T_hbm_max) the clock halves, released 2 K below  ->
//   0x40|0x8 power brake external PWR_BRAKE# halves the clock                                   ->
//   0x80|0x8 shutdown    at T_shutdown the GPU powers off and stays off (latched)
// thermal nodes per GPU (backward Euler over the fast step, exact energy bookkeeping):
//   C_die dT_j/dt   = P - P_hbm - (T_j - T_p)/R_jc
//   C_hbm dT_hbm/dt = P_hbm - (T_hbm - T_p)/R_hbm
//   C_p   dT_p/dt   = (T_j - T_p)/R_jc + (T_hbm - T_p)/R_hbm - (T_p - T_in)/R_cp
// T_p is the cold-plate base (the OCP "case"), R_cp the plate resistance referenced to the coolant
// inlet [K39], so that at steady state T_p = T_in + P R_cp and T_j = T_p + (P - P_hbm) R_jc.
#pragma once

#include <string>

#include "models/gpu_variation.h"

namespace dctwin {

enum GpuThrottle : unsigned {
  kThrottleIdle = 0x1,
  kThrottleSwPowerCap = 0x4,
  kThrottleHwSlowdown = 0x8,
  kThrottleSwThermal = 0x20,
  kThrottleHwThermal = 0x40,
  kThrottlePowerBrake = 0x80,
};

struct GpuParams {
  std::string name;
  double P_tdp = 0;        // default power limit                                  (W)
  double P_limit_min = 0;  // settable power-limit range                           (W)
  double P_limit_max = 0;
  double P_idle = 0;           // at idle clock and T_leak_ref, 0 % utilization         (W)
  double P_hbm_idle = 0;       // HBM share of P_idle                                  (W)
  double f_max = 0;            // boost SM clock                                       (Hz)
  double f_idle = 0;           // idle SM clock                                        (Hz)
  double f_membound = 0;       // clock at which memory-bound work parks               (Hz)
  double P_sm_max = 0;         // SM dynamic power at a_sm = 1, f_max, V_max           (W)
  double P_hbm_max = 0;        // HBM dynamic power at full bandwidth                  (W)
  double P_nvl_max = 0;        // NVLink dynamic power at full link utilization         (W)
  double v0 = 0.65;            // voltage ratio intercept                              (1)
  double v_floor = 0.0;        // voltage ratio floor (V_min / V_max); 0: none           (1)
  double P_clk = 0.0;          // clock-tree power at f_max, V_max and zero activity    (W)
  double P_leak_ref = 0;       // leakage share of P_idle at T_leak_ref                (W)
  double beta = 0.02;          // leakage temperature coefficient                      (1/K)
  double T_leak_ref = 308.15;  // junction at which P_idle was measured (35 degC)    (K)
  double T_maxop = 0;          // max operating temperature                            (K)
  double T_slowdown = 0;       // HW slowdown                                          (K)
  double T_shutdown = 0;       // (K)
  double T_hbm_max = 0;        // HBM max operating                                    (K)
  double R_jc = 0;             // die to cold-plate base                               (K/W)
  double C_die = 0;            // (J/K)
  double R_hbm = 0;            // HBM to cold-plate base                               (K/W)
  double C_hbm = 0;            // (J/K)
  double hbm_bandwidth = 0;    // (B/s), for reports
  double hbm_capacity = 0;     // (B)
  double peak_flops = 0;       // dense BF16 peak; 0 = not given (described jobs need it) (FLOP/s)
  double peak_fp8 = 0;         // dense FP8 peak; 0 = none                           (FLOP/s)
  double peak_fp4 = 0;         // dense FP4 peak; 0 = none                           (FLOP/s)
  int sm_count = 0;            // streaming multiprocessors (GEMM wave quantization)     (1)
  int nvlink_domain = 0;       // GPUs of one NVLink domain (8 HGX, 72 NVL72); 0 = not given
  // kernel efficiencies of the step model (docs/models/job.md): large GEMM per precision, flash
  // attention forward / backward (of the BF16 peak), achieved / nominal HBM bandwidth      (1)
  double eff_gemm_bf16 = 0, eff_gemm_fp8 = 0, eff_gemm_fp4 = 0;
  double eff_attention_fwd = 0, eff_attention_bwd = 0, eff_hbm = 0;
  // share of a large GEMM's time at the default limit that does not shrink with the clock (memory
  // stalls): a kernel of time t at clock f_0 takes t ((1 - s) f_0 / f + s) at f; 0 = all cycles (1)
  double eff_gemm_stall = 0;
  double nvlink_bandwidth = 0;  // (B/s)
  GpuSpread variation;          // GPU-to-GPU spreads of this type (models/gpu_variation.h)
};

// the HW thermal slowdown releases this far below T_slowdown (die) and T_hbm_max (HBM); an
// assumption of the model (docs/models/gpu.md), shared by the scalar reference and the batch form
inline constexpr double kGpuHwReleaseBand = 2.0;  // (K)

// what the GPU is asked to run during a step
struct GpuLoad {
  double a_sm = 0, a_hbm = 0, a_nvlink = 0;  // utilizations                        (1)
  bool memory_bound = false;                 // park at f_membound
  bool brake = false;                        // external power brake asserted
  bool held = false;  // a process holds the GPU: with no work the clock stays at boost
};

// per-GPU mutable state
struct GpuState {
  double T_j = 0, T_hbm = 0, T_plate = 0;  // (K)
  bool hw_slowdown = false;                // latched HW thermal slowdown
  bool shut_down = false;                  // latched thermal shutdown
};

struct GpuOperatingPoint {
  double clock_ratio = 0;  // f / f_max                                             (1)
  double P = 0;            // total board power                                     (W)
  double P_hbm = 0;        // dissipated in the HBM stacks                          (W)
  unsigned reasons = 0;    // GpuThrottle bits
};

double gpuVoltageRatio(const GpuParams& p, double x);
double gpuStaticPower(const GpuParams& p, double T_j);
// total power and its HBM share at clock ratio x
double gpuPower(const GpuParams& p, double x, double T_j, const GpuLoad& a,
                double* P_hbm = nullptr);

// clock and power after every limit; updates the latched HW-slowdown and shutdown flags
GpuOperatingPoint gpuOperatingPoint(const GpuParams& p, double P_cap, const GpuLoad& a,
                                    GpuState& s);

// the clock ratio a GPU of this type holds on load `a` under power limit P_cap with its junction,
// HBM and plate at T_ref and no thermal limit reached (0 where it is off): the reference clock of
// a job's phase (solver/compile/compile.cpp) and of the step model's kernels
// (models/job_model.cpp, docs/models/job.md "Power limit")
double gpuReferenceClock(const GpuParams& p, double P_cap, const GpuLoad& a, double T_ref);

// advance the thermal nodes by dt at constant power (backward Euler); returns the heat that left
// the plate into the coolant during the step, as a mean rate (W). C_plate and R_cp: the GPU's plate
struct GpuPlate {
  double R_cp = 0;     // plate resistance to the coolant inlet at the current flow (K/W)
  double C_plate = 0;  // plate capacity (J/K)
};
double gpuThermalStep(const GpuParams& p, const GpuPlate& plate, double T_in,
                      const GpuOperatingPoint& op, double dt, GpuState& s);

// energy held in the GPU's nodes relative to T_ref (J)
inline double gpuStoredEnergy(const GpuParams& p, const GpuPlate& plate, const GpuState& s,
                              double T_ref) {
  return p.C_die * (s.T_j - T_ref) + p.C_hbm * (s.T_hbm - T_ref) +
         plate.C_plate * (s.T_plate - T_ref);
}

}  // namespace dctwin
