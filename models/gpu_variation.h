// gpu_variation.h: GPU-to-GPU manufacturing and assembly variation (docs/models/gpu_variation.md)
//
// Same-SKU GPUs differ: their leakage, the voltage each needs for a clock (the V-f curve, which
// sets the clock a GPU reaches at its power cap), the die-to-plate interface (TIM, plate seating)
// and the HBM-to-plate path. Each GPU gets five factors on its catalog type's parameters:
//   leak  x P_leak_ref                  lognormal, sigma_ln = leakage (per GPU) and leakage_tray
//                                       (a lot term shared by the GPUs of one compute tray)
//   idle  x (P_idle - P_leak_ref)       lognormal, sigma_ln = idle
//   dyn   x P_sm_max, x P_clk           lognormal, sigma_ln = vf (a GPU needing more voltage for
//                                       a clock burns more dynamic power: lower clock at the cap)
//   Rjc   x R_jc                        lognormal, sigma_ln = tim; a fraction bad_mount_fraction
//                                       of the GPUs (a poorly seated plate) x bad_mount_factor;
//                                       TIM ageing x (1 + tim_ageing age)
//   Rhbm  x R_hbm                       lognormal, sigma_ln = hbm
// Every normal deviate is truncated at +-3 sigma (redrawn beyond), so no factor leaves
// exp(+-3 sigma); all medians are 1 (the catalog's values are typical parts).
// A GPU's draw depends only on the seed and its identity (rack name, tray, slot in the tray),
// through a counter-based hash (splitmix64 [F50]): adding a rack reshuffles no other GPU, and no
// draw depends on the order, thread or rank that computes it.
#pragma once

#include <cstdint>
#include <string_view>

namespace dctwin {

struct GpuParams;

// spreads of one GPU type (sigma of the log of each factor, and the bad-mount class)
struct GpuSpread {
  double leakage = 0.10;       // per GPU                                                    (1)
  double leakage_tray = 0.05;  // lot term shared by a tray                                  (1)
  double idle = 0.02;          // non-leakage static power                                   (1)
  double vf = 0.025;           // dynamic power at a clock (V-f curve quality)              (1)
  double tim = 0.10;           // die-to-plate resistance R_jc                               (1)
  double hbm = 0.10;           // HBM-to-plate resistance R_hbm                              (1)
  // the bad-mount class is a what-if with no public population data: off unless a file turns it
  // on (docs/models/gpu_variation.md, "What-ifs")
  double bad_mount_fraction = 0;  // share of GPUs with a poorly seated plate              (1)
  double bad_mount_factor = 2.5;  // their R_jc multiplier, when the fraction is > 0       (1)
};

// the factors of one GPU (all 1: the catalog's typical part)
struct GpuFactors {
  double leak = 1, idle = 1, dyn = 1, Rjc = 1, Rhbm = 1;
  bool bad_mount = false;
};

// splitmix64 finalizer [F50]: a bijective 64-bit mix, the counter-based generator's core
constexpr std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// the key of a GPU (tray < 0: the tray's own key, for the lot term)
std::uint64_t gpuIdentityKey(std::uint64_t seed, std::string_view rack, int tray, int slot);

// the factors of the GPU in slot `slot` of tray `tray` of rack `rack`; ageing_factor multiplies
// R_jc (1 + tim_ageing * age)
GpuFactors drawGpuFactors(const GpuSpread& s, std::uint64_t seed, std::string_view rack, int tray,
                          int slot, double ageing_factor = 1.0);

// the type's parameters with a GPU's factors applied
GpuParams variedGpu(const GpuParams& type, const GpuFactors& f);

}  // namespace dctwin
