// switch_rack.cpp: scale-out switch racks (models/switch_rack.h, docs/models/switch_rack.md)
#include "models/switch_rack.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace dctwin {

SwitchRackPower switchRackPower(const SwitchRackParams& p, int up) {
  SwitchRackPower r;
  const double n = std::clamp(up, 0, std::max(p.switches, 0));
  r.P_optics = n * p.cages_used * p.P_port;
  const double P_asic = n * p.P_asic;
  r.P = n * (p.P_asic + p.P_base) + r.P_optics;
  if (p.cooling == SwitchCooling::Liquid) {
    // co-packaged optics sit on the ASIC's cold plate; pluggables in the fans' air stream
    const double on_plate = P_asic + (p.optics == OpticsKind::Cpo ? r.P_optics : 0.0);
    r.Q_liquid = p.liquid_fraction * on_plate;
  }
  r.Q_air = r.P - r.Q_liquid;
  return r;
}

double defaultPortPower(OpticsKind k) {
  switch (k) {
    case OpticsKind::Pluggable:
      return 30;  // 1.6T pluggable transceiver ~30 W [WL64]
    case OpticsKind::Cpo:
      return 9;  // co-packaged optics ~9 W per 1.6T port [WL64]
    case OpticsKind::Copper:
      return 0;  // passive DAC ~0 W [WL61]
  }
  return 0;
}

int switchesNeeded(SwitchRole role, long gpus, int nics, double nic_bw, double s, double capacity) {
  if (gpus < 0 || nics < 1 || !(nic_bw > 0) || !(s > 0) || !(capacity > 0))
    throw std::invalid_argument("switchesNeeded: GPUs >= 0, NICs >= 1, positive bandwidths");
  const double down = double(gpus) * nics * nic_bw;  // the NICs' bandwidth (B/s)
  const double need = role == SwitchRole::Leaf ? down * (1 + s) / capacity : down * s / capacity;
  // a whole switch more only when the need exceeds a whole number by more than round-off
  return std::max(1, int(std::ceil(need - 1e-9)));
}

int leafOfLink(int k, int slot, int nic, int racks, int gpus_per_rack, int nics, int leaves,
               bool rail_optimized) {
  if (leaves <= 1) return 0;
  if (rail_optimized) {
    // a rail: the same (slot, NIC) position in every served rack; rails split evenly on leaves
    const long ports = long(gpus_per_rack) * nics, pos = long(slot) * nics + nic;
    return int(pos * leaves / ports);
  }
  // whole racks per leaf
  return int(long(k) * leaves / std::max(racks, 1));
}

double spineBandwidthFraction(int spines, int down, double s) {
  if (spines <= 0) return 1.0;
  const int up = std::clamp(spines - down, 0, spines);
  return std::min(1.0, s * up / spines) / std::min(1.0, s);
}

const char* switchRoleName(SwitchRole r) {
  return r == SwitchRole::Leaf ? "leaf" : "spine";
}

const char* opticsKindName(OpticsKind k) {
  return k == OpticsKind::Pluggable ? "pluggable" : k == OpticsKind::Cpo ? "cpo" : "copper";
}

}  // namespace dctwin
