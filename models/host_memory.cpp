#include "models/host_memory.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace dctwin {

const HostMemoryTier& hostTier(const HostMemorySpec& h, HostTier t) {
  return t == HostTier::Cxl ? h.cxl : h.lpddr;
}

double hostTierBandwidth(const HostMemorySpec& h, HostTier t) {
  const HostMemoryTier& x = hostTier(h, t);
  if (!(x.capacity > 0) || !(x.bandwidth > 0)) return 0.0;
  return std::min(x.bandwidth, h.link_bandwidth) / double(std::max(1, h.gpus_per_host));
}

double hostTransferTime(const HostMemorySpec& h, HostTier t, double bytes_per_gpu) {
  if (!(bytes_per_gpu > 0)) return 0.0;
  const double b = hostTierBandwidth(h, t);
  return b > 0 ? hostTier(h, t).latency + bytes_per_gpu / b
               : std::numeric_limits<double>::infinity();
}

HostTier placeHost(const HostMemorySpec& h, HostMemoryUse& use, double bytes, HostTier want) {
  auto fits = [&](HostTier t) {
    const double used = t == HostTier::Cxl ? use.cxl_bytes : use.lpddr_bytes;
    return hostTier(h, t).capacity > 0 && used + bytes <= hostTier(h, t).capacity;
  };
  HostTier got = HostTier::Auto;
  if (want != HostTier::Auto)
    got = fits(want) ? want : HostTier::Auto;
  else if (fits(HostTier::Lpddr))
    got = HostTier::Lpddr;
  else if (fits(HostTier::Cxl))
    got = HostTier::Cxl;
  if (got == HostTier::Lpddr) use.lpddr_bytes += bytes;
  if (got == HostTier::Cxl) use.cxl_bytes += bytes;
  return got;
}

const char* hostTierName(HostTier t) {
  return t == HostTier::Lpddr ? "lpddr" : t == HostTier::Cxl ? "cxl" : "auto";
}

void validateHostMemory(const HostMemorySpec& h) {
  auto bad = [](const std::string& w) { throw std::invalid_argument("host_memory: " + w); };
  if (h.gpus_per_host < 1) bad("gpus_per_host must be >= 1");
  if (!(h.link_bandwidth > 0)) bad("link_bandwidth must be > 0");
  for (const HostMemoryTier* t : {&h.lpddr, &h.cxl})
    if (!(t->bandwidth > 0) || !(t->latency >= 0) || !(t->capacity >= 0) ||
        !std::isfinite(t->bandwidth) || !std::isfinite(t->capacity))
      bad("a tier needs bandwidth > 0, latency >= 0 and capacity >= 0");
}

}  // namespace dctwin
