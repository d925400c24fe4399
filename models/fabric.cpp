#include "models/fabric.h"

#include <cmath>
#include <stdexcept>

namespace dctwin {

namespace {
[[noreturn]] void fail(const std::string& what) {
  throw std::invalid_argument(what);
}
}  // namespace

double busBandwidthFactor(Collective c, int n) {
  const double nn = n;
  switch (c) {
    case Collective::AllReduce:
      return 2.0 * (nn - 1.0) / nn;
    case Collective::ReduceScatter:
    case Collective::AllGather:
    case Collective::AllToAll:
      return (nn - 1.0) / nn;
    case Collective::SendRecv:
      return 1.0;
  }
  return 1.0;
}

CollectiveTime collectiveTime(Collective c, CollectiveAlgorithm a, int n, double bytes,
                              const FabricLevel& L) {
  if (n < 1) fail("collective: needs at least one rank, got " + std::to_string(n));
  if (!(bytes >= 0) || !std::isfinite(bytes)) fail("collective: bytes must be finite and >= 0");
  if (!(L.bandwidth > 0) || !(L.efficiency > 0) || !(L.latency >= 0))
    fail("collective: bandwidth and efficiency must be > 0, latency >= 0");
  CollectiveTime t;
  if (n == 1 && c != Collective::SendRecv) return t;
  const double B = L.bandwidth * L.efficiency, nn = n;
  switch (c) {
    case Collective::AllReduce:
      if (a == CollectiveAlgorithm::InSwitch) {
        t.alpha = 2.0 * L.latency;
        t.beta = bytes / B;
      } else if (a == CollectiveAlgorithm::Tree) {
        t.alpha = 2.0 * std::ceil(std::log2(nn)) * L.latency;
        t.beta = 2.0 * (nn - 1.0) / nn * bytes / B;
      } else {
        t.alpha = 2.0 * (nn - 1.0) * L.latency;
        t.beta = 2.0 * (nn - 1.0) / nn * bytes / B;
      }
      break;
    case Collective::ReduceScatter:
    case Collective::AllGather:
    case Collective::AllToAll:
      t.alpha = (nn - 1.0) * L.latency;
      t.beta = (nn - 1.0) / nn * bytes / B;
      break;
    case Collective::SendRecv:
      t.alpha = L.latency;
      t.beta = bytes / B;
      break;
  }
  return t;
}

void validateFabric(const FabricSpec& f) {
  if (f.nvlink_links_per_gpu < 1) fail("fabric: nvlink links_per_gpu must be >= 1");
  if (!(f.nvlink_link_bandwidth > 0)) fail("fabric: nvlink link_bandwidth must be > 0");
  if (f.nvlink_switch_trays < 1) fail("fabric: nvlink switch_trays must be >= 1");
  if (!(f.nvlink_efficiency > 0 && f.nvlink_efficiency <= 1))
    fail("fabric: nvlink efficiency must be in (0, 1]");
  if (f.nics_per_gpu < 1) fail("fabric: nics_per_gpu must be >= 1");
  if (!(f.nic_bandwidth > 0)) fail("fabric: nic_bandwidth must be > 0");
  if (!(f.network_efficiency > 0 && f.network_efficiency <= 1))
    fail("fabric: network efficiency must be in (0, 1]");
  if (!(f.spine_oversubscription > 0)) fail("fabric: spine_oversubscription must be > 0");
  if (!(f.nvlink_latency >= 0) || !(f.network_latency >= 0)) fail("fabric: latencies must be >= 0");
}

const char* collectiveName(Collective c) {
  switch (c) {
    case Collective::AllReduce:
      return "all-reduce";
    case Collective::ReduceScatter:
      return "reduce-scatter";
    case Collective::AllGather:
      return "all-gather";
    case Collective::AllToAll:
      return "all-to-all";
    case Collective::SendRecv:
      return "send/recv";
  }
  return "?";
}

const char* algorithmName(CollectiveAlgorithm a) {
  switch (a) {
    case CollectiveAlgorithm::Ring:
      return "ring";
    case CollectiveAlgorithm::Tree:
      return "tree";
    case CollectiveAlgorithm::InSwitch:
      return "in-switch";
  }
  return "?";
}

}  // namespace dctwin
