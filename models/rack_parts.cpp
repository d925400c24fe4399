#include "models/rack_parts.h"

#include <algorithm>

namespace dctwin {

namespace {
double clamp01(double u) {
  return std::clamp(u, 0.0, 1.0);
}
bool hasPorts(PartKind k) {
  return k == PartKind::Nic || k == PartKind::SwitchOptics;
}
}  // namespace

double partActivity(PartKind kind, const PartActivity& a) {
  switch (kind) {
    case PartKind::Cpu:
    case PartKind::Other:
      return clamp01(a.cpu);
    case PartKind::NvSwitchTray:
      return clamp01(a.nvlink);
    case PartKind::Nic:
    case PartKind::SwitchOptics:
      return a.links_up ? clamp01(a.network) : 0.0;
    case PartKind::Fan:
      return 1.0;
  }
  return 0.0;
}

double partPortPower(const PartParams& p, const PartActivity& a) {
  if (!hasPorts(p.kind) || p.ports <= 0) return 0.0;
  const double per_port =
      !a.links_up ? p.P_port_lpm : (a.network > 0.0 ? p.P_port_active : p.P_port_idle);
  return p.ports * per_port;
}

PartPower partPower(const PartParams& p, int count, const PartActivity& a) {
  PartPower out;
  if (count <= 0) return out;
  const double u = partActivity(p.kind, a);
  const double unit = p.P_idle + (p.P_max - p.P_idle) * u + partPortPower(p, a);
  out.P = count * unit;
  out.Q_liquid = p.liquid_fraction * out.P;
  out.Q_air = out.P - out.Q_liquid;
  return out;
}

double partTemperature(const PartParams& p, const PartActivity& a, double T_coolant,
                       double R_factor) {
  return T_coolant + R_factor * p.R_plate * partPower(p, 1, a).Q_liquid;
}

bool partTemperatureChecked(const PartParams& p) {
  return p.T_max > 0 && p.R_plate > 0 && p.liquid_fraction > 0;
}

PartPower rackPartsPower(const RackParts& r, const PartActivity& a, PartPower* per_part) {
  PartPower sum;
  for (std::size_t i = 0; i < r.parts.size(); ++i) {
    const PartPower q = partPower(r.parts[i].first, r.parts[i].second, a);
    if (per_part) per_part[i] = q;
    sum.P += q.P;
    sum.Q_liquid += q.Q_liquid;
  }
  // the air share closes the balance of the sums, so Q_liquid + Q_air = P for the rack too
  sum.Q_air = sum.P - sum.Q_liquid;
  return sum;
}

const char* partKindName(PartKind kind) {
  switch (kind) {
    case PartKind::Cpu:
      return "cpu";
    case PartKind::NvSwitchTray:
      return "nvswitch_tray";
    case PartKind::Nic:
      return "nic";
    case PartKind::SwitchOptics:
      return "switch_optics";
    case PartKind::Fan:
      return "fan";
    case PartKind::Other:
      return "other";
  }
  return "other";
}

bool partKindFromName(std::string_view name, PartKind* kind) {
  static constexpr PartKind kAll[] = {PartKind::Cpu, PartKind::NvSwitchTray,
                                      PartKind::Nic, PartKind::SwitchOptics,
                                      PartKind::Fan, PartKind::Other};
  for (PartKind k : kAll)
    if (name == partKindName(k)) {
      if (kind) *kind = k;
      return true;
    }
  return false;
}

}  // namespace dctwin
