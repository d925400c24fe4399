// protection_reader.cpp: see protection_reader.h
#include "solver/input/protection_reader.h"

#include <algorithm>
#include <utility>

#include "solver/input/yaml_reader.h"

namespace dctwin {

namespace {

// every number of the section and the field it sets (the names are the key table's)
const std::pair<const char*, double ProtectionParams::*> kNumbers[] = {
    {"startup_inhibit", &ProtectionParams::startup_inhibit},
    {"supply_high_offset", &ProtectionParams::supply_high_offset},
    {"supply_low_offset", &ProtectionParams::supply_low_offset},
    {"supply_alarm_delay", &ProtectionParams::supply_alarm_delay},
    {"return_high_offset", &ProtectionParams::return_high_offset},
    {"return_alarm_delay", &ProtectionParams::return_alarm_delay},
    {"epo_flow_fraction", &ProtectionParams::epo_flow_fraction},
    {"epo_delay", &ProtectionParams::epo_delay},
    {"inlet_cap_delay", &ProtectionParams::inlet_cap_delay},
    {"inlet_cap_fraction", &ProtectionParams::inlet_cap_fraction},
    {"inlet_cap_hold", &ProtectionParams::inlet_cap_hold},
    {"inlet_shutdown_margin", &ProtectionParams::inlet_shutdown_margin},
    {"inlet_shutdown_delay", &ProtectionParams::inlet_shutdown_delay},
    {"coolant_limit_margin", &ProtectionParams::coolant_limit_margin},
    {"fill_tank_volume", &ProtectionParams::fill_tank_volume},
    {"fill_pump_flow", &ProtectionParams::fill_pump_flow},
    {"fill_start_drop", &ProtectionParams::fill_start_drop},
    {"fill_start_delay", &ProtectionParams::fill_start_delay},
    {"fill_stop_drop", &ProtectionParams::fill_stop_drop},
    {"fill_timeout", &ProtectionParams::fill_timeout},
    {"relief_capacity", &ProtectionParams::relief_capacity},
};

}  // namespace

std::vector<std::string> readProtectionSection(reader::MapIn& d, ProtectionParams& p) {
  std::vector<std::string> set;
  if (d.read("enabled", p.enabled)) set.emplace_back("enabled");
  for (const auto& [name, field] : kNumbers)
    if (d.read(name, p.*field)) set.emplace_back(name);
  return set;
}

void overlayProtection(const ProtectionParams& from, const std::vector<std::string>& keys,
                       ProtectionParams& to) {
  const auto has = [&](const char* k) {
    return std::find(keys.begin(), keys.end(), k) != keys.end();
  };
  if (has("enabled")) to.enabled = from.enabled;
  for (const auto& [name, field] : kNumbers)
    if (has(name)) to.*field = from.*field;
}

}  // namespace dctwin
