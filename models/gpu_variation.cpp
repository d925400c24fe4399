// gpu_variation.cpp: per-GPU factors from a counter-based hash (docs/models/gpu_variation.md)
#include "models/gpu_variation.h"

#include <cmath>

#include "models/gpu.h"

namespace dctwin {

namespace {

constexpr double kTruncate = 3.0;  // normal deviates beyond +-3 sigma are redrawn (a)

// FNV-1a [F51] over the rack's name: identity, not order, decides the draw
std::uint64_t nameHash(std::string_view s) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (unsigned char c : s) h = (h ^ c) * 0x100000001b3ULL;
  return h;
}

// a uniform in (0, 1) from the key and a counter (53 bits)
double uniform(std::uint64_t key, std::uint64_t counter) {
  const std::uint64_t x = splitmix64(key ^ splitmix64(counter));
  return (double(x >> 11) + 0.5) * 0x1.0p-53;
}

// a standard normal deviate of stream `q`, truncated at +-kTruncate (Box-Muller on counter
// pairs; redrawn with the next pair beyond the limit, so it still depends only on key and q)
double truncatedNormal(std::uint64_t key, std::uint64_t q) {
  for (std::uint64_t k = 0; k < 64; ++k) {
    const std::uint64_t c = (q << 8) + 2 * k;
    const double u1 = uniform(key, c), u2 = uniform(key, c + 1);
    const double z = std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
    if (std::fabs(z) <= kTruncate) return z;
  }
  return 0.0;  // unreachable in practice (P(|z| > 3)^64)
}

// the streams of one GPU (fixed numbers: a new quantity gets a new stream, the old ones stay)
enum Stream : std::uint64_t { kLeak = 1, kIdle, kDyn, kRjc, kRhbm, kMount, kLot };

}  // namespace

std::uint64_t gpuIdentityKey(std::uint64_t seed, std::string_view rack, int tray, int slot) {
  std::uint64_t k = splitmix64(seed ^ 0x6a09e667f3bcc909ULL);
  k = splitmix64(k ^ nameHash(rack));
  k = splitmix64(k ^ std::uint64_t(std::int64_t(tray) + 0x10000));
  return splitmix64(k ^ std::uint64_t(std::int64_t(slot) + 0x20000));
}

GpuFactors drawGpuFactors(const GpuSpread& s, std::uint64_t seed, std::string_view rack, int tray,
                          int slot, double ageing_factor) {
  const std::uint64_t key = gpuIdentityKey(seed, rack, tray, slot);
  const std::uint64_t tray_key = gpuIdentityKey(seed, rack, tray, -1);
  GpuFactors f;
  f.leak = std::exp(s.leakage * truncatedNormal(key, kLeak) +
                    s.leakage_tray * truncatedNormal(tray_key, kLot));
  f.idle = std::exp(s.idle * truncatedNormal(key, kIdle));
  f.dyn = std::exp(s.vf * truncatedNormal(key, kDyn));
  f.Rjc = std::exp(s.tim * truncatedNormal(key, kRjc));
  f.bad_mount = s.bad_mount_fraction > 0 && uniform(key, kMount << 8) < s.bad_mount_fraction;
  if (f.bad_mount) f.Rjc *= s.bad_mount_factor;
  f.Rjc *= ageing_factor;
  f.Rhbm = std::exp(s.hbm * truncatedNormal(key, kRhbm));
  return f;
}

GpuParams variedGpu(const GpuParams& type, const GpuFactors& f) {
  GpuParams p = type;
  const double other_static = type.P_idle - type.P_leak_ref;
  p.P_leak_ref = type.P_leak_ref * f.leak;
  p.P_idle = other_static * f.idle + p.P_leak_ref;
  p.P_sm_max = type.P_sm_max * f.dyn;
  p.P_clk = type.P_clk * f.dyn;
  p.R_jc = type.R_jc * f.Rjc;
  p.R_hbm = type.R_hbm * f.Rhbm;
  return p;
}

}  // namespace dctwin
