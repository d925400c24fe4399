// switch_rack.h: scale-out switch racks (leaf / spine) as facility equipment: their switch count
// from the fabric topology, their power (switch ASIC + the rest of the switch + optics per port),
// and where that heat goes (docs/models/switch_rack.md)
//
// A switch has `cages` front-panel ports (cages) of bandwidth B_cage each, so a capacity
// C = cages B_cage. Serving G GPUs with n NICs of bandwidth B_nic each and a spine
// oversubscription s (leaf uplink / downlink capacity, models/fabric.h):
//   leaves  N_leaf  = ceil(G n B_nic (1 + s) / C)   (down ports for the NICs, s of that up)
//   spines  N_spine = ceil(G n B_nic s / C)          (every spine port faces a leaf)
// Power of a switch rack with N switches of which N_up are running (a failed switch draws
// nothing):
//   P_optics = N_up cages_used P_port                (P_port: pluggable or co-packaged, per cage)
//   P        = N_up (P_asic + P_base) + P_optics
// Load proportionality of switches and optics is negligible [WL71]: P does not follow traffic.
// Heat = P, split by the cooling:
//   air     Q_air = P                                 (switch fans to the room air)
//   liquid  Q_liquid = f_liq (N_up P_asic + [CPO] P_optics), Q_air = P - Q_liquid
//           (ASIC cold plate; co-packaged optics sit on the ASIC's cold plate, pluggables are
//           cooled by the switch fans)
#pragma once

#include <string>

namespace dctwin {

enum class SwitchRole { Leaf, Spine };
enum class OpticsKind { Pluggable, Cpo, Copper };
enum class SwitchCooling { Air, Liquid };

struct SwitchRackParams {
  SwitchRole role = SwitchRole::Leaf;
  int switches = 1;     // switches in the rack                                       (1)
  int cages = 72;       // front-panel cages per switch (Quantum-X800: 72 x 1.6T) [F21] (1)
  int cages_used = 72;  // cages with a module (or CPO port) in use, per switch       (1)
  double cage_bandwidth = 200e9;  // per cage and direction: 1.6 Tb/s                      (B/s)
  double P_asic = 900;            // switch ASIC incl. SerDes (a: Tomahawk 5 scaled, [F44])      (W)
  double P_base = 250;            // fans, CPU, board, PSU losses per switch (a)                 (W)
  OpticsKind optics = OpticsKind::Pluggable;
  double P_port = 30;  // optics per cage: pluggable 1.6T 30 W, CPO 9 W [WL64]        (W)
  SwitchCooling cooling = SwitchCooling::Air;
  double liquid_fraction = 0.9;  // liquid: share of the ASIC (+ CPO) heat on the plate  (1)
};

struct SwitchRackPower {
  double P = 0;         // electrical power = heat                                          (W)
  double P_optics = 0;  // of which the optics                                              (W)
  double Q_liquid = 0;  // heat into the coolant                                            (W)
  double Q_air = 0;     // heat into the room air                                           (W)
};

// power and heat of the rack with `up` switches running (0 <= up <= switches)
SwitchRackPower switchRackPower(const SwitchRackParams& p, int up);

// the optics power per cage a kind has by default (W): pluggable 30, cpo 9, copper 0 [WL64]
double defaultPortPower(OpticsKind k);

// switches a role needs for G GPUs with `nics` NICs of `nic_bw` each, spine oversubscription s,
// switch capacity `capacity` (B/s); at least 1. throws std::invalid_argument on bad input
int switchesNeeded(SwitchRole role, long gpus, int nics, double nic_bw, double s, double capacity);

// the leaf (0 ... leaves-1) that NIC `nic` of GPU `slot` in the k-th served rack (of `racks`, each
// with `gpus_per_rack` GPUs) is cabled to. rail-optimized: leaf j holds the same GPU slots of
// every served rack (a rail); otherwise leaf j holds whole racks
int leafOfLink(int k, int slot, int nic, int racks, int gpus_per_rack, int nics, int leaves,
               bool rail_optimized);

// what a failed spine leaves of the served GPUs' scale-out bandwidth: spines - down of them carry
// the leaves' uplinks, s the oversubscription: min(1, s (spines - down) / spines) / min(1, s)
double spineBandwidthFraction(int spines, int down, double s);

const char* switchRoleName(SwitchRole r);
const char* opticsKindName(OpticsKind k);

}  // namespace dctwin
