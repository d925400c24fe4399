// rack_parts.h: power of the non-GPU parts of a rack (CPUs, NVLink switch trays, NICs and their
// optics, switch optics, fans, other tray and rack loads) and the split of their heat between the
// coolant and the room air
//
// per unit of a part, at the rack's activity a ([WL59–WL62], [K26–K30]; numbers per part in
// data/catalog/parts):
//   P_unit = P_idle + (P_max - P_idle) u + ports P_port(state)
//   u      = a.cpu      Cpu, Other        (host work follows the GPUs)
//            a.nvlink   NvSwitchTray      (mean NVLink utilization of the rack's GPUs)
//            a.network  Nic, SwitchOptics (0 while the links are down)
//            1          Fan               (constant P_max: fan speed control is not modelled)
//   P_port = P_port_lpm     links down (low-power mode [WL59])
//            P_port_active  links up and a.network > 0
//            P_port_idle    links up, no traffic (load proportionality is negligible [WL71])
// for `count` units: P = count P_unit, Q_liquid = liquid_fraction P, Q_air = P - Q_liquid, so that
// Q_liquid + Q_air = P. All of a part's electrical power becomes heat in the rack.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dctwin {

enum class PartKind { Cpu, NvSwitchTray, Nic, SwitchOptics, Fan, Other };

struct PartParams {
  std::string name;
  PartKind kind = PartKind::Other;
  double P_idle = 0;           // per unit at zero activity                                 (W)
  double P_max = 0;            // per unit at full activity (Fan: the constant power)       (W)
  double liquid_fraction = 0;  // share of the heat to the coolant; the rest to room air    (1)
  // ports (Nic, SwitchOptics): modules per unit and their power by link state
  int ports = 0;
  double P_port_active = 0;  // link up, carrying traffic                                   (W)
  double P_port_idle = 0;    // link up, no traffic                                         (W)
  double P_port_lpm = 0;     // link down, module in low-power mode                         (W)
  // tray-level protection (docs/models/rack_parts.md "Part temperature and shutdown"): a
  // cold-plated part's sensor temperature T = T_coolant + R_plate q_liquid per unit, checked
  // against T_max; 0: not checked
  double T_max = 0;    // the part's shutdown temperature                                  (K)
  double R_plate = 0;  // sensor to local coolant, per unit                                (K/W)
};

// what the rack is doing during a step; utilizations in [0, 1] (clamped)
struct PartActivity {
  double cpu = 0;        // host (Grace) activity; the GPU layer passes the mean SM activity (1)
  double nvlink = 0;     // mean NVLink utilization of the rack's GPUs                      (1)
  double network = 0;    // scale-out NIC utilization                                       (1)
  bool links_up = true;  // scale-out links up; false puts NIC and switch ports in LPM
};

struct PartPower {
  double P = 0;         // electrical power = heat                                          (W)
  double Q_liquid = 0;  // heat into the coolant                                            (W)
  double Q_air = 0;     // heat into the room air                                           (W)
};

// activity that drives a part of this kind (Fan: 1)
double partActivity(PartKind kind, const PartActivity& a);
// power of one unit's ports in the current link state
double partPortPower(const PartParams& p, const PartActivity& a);
// power of `count` units and its liquid/air split (count <= 0: nothing)
PartPower partPower(const PartParams& p, int count, const PartActivity& a);

// the lumped sensor temperature of one unit of a cold-plated part in coolant at T_coolant:
// T_coolant + R_factor R_plate liquid_fraction P_unit (R_factor: plate degradation, 1 = as new)
double partTemperature(const PartParams& p, const PartActivity& a, double T_coolant,
                       double R_factor = 1.0);
// whether the part's temperature is checked (a limit and a plate resistance, some heat to liquid)
bool partTemperatureChecked(const PartParams& p);

// the resolved parts of one rack type: (part, units per rack)
struct RackParts {
  std::vector<std::pair<PartParams, int>> parts;
};
// sum over the rack's parts; no allocation. per_part, when given, receives each part's share
// (an array of r.parts.size() entries owned by the caller)
PartPower rackPartsPower(const RackParts& r, const PartActivity& a, PartPower* per_part = nullptr);

// catalog kind names: cpu | nvswitch_tray | nic | switch_optics | fan | other
const char* partKindName(PartKind kind);
bool partKindFromName(std::string_view name, PartKind* kind);  // false if unknown

}  // namespace dctwin
