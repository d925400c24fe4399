// datasheet_reader.cpp: CDU datasheet keys (solver/input/datasheet_reader.h); the keys and their
// ranges are in the table (solver/input/facility_keys.cpp)
#include "solver/input/datasheet_reader.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <tuple>

#include "solver/common/units.h"

namespace dctwin::datasheet {

using reader::fmt;
using reader::MapIn;

namespace {
bool rateLimited(MapIn& m, bool current) {
  std::string kind;
  if (!m.read("actuator", kind)) return current;
  return kind == "rate";
}
SourceLoc at(const reader::Provided& prov, const char* key, const SourceLoc& site) {
  auto it = prov.find(key);
  return it == prov.end() ? site : it->second.loc;
}

// the HX sizing's own keys and its table; the filter's clogged dp above its clean one
void checkHexAndFilter(reader::File& f, const CduSpec& c, const reader::Provided& prov,
                       const SourceLoc& site) {
  using S = CduSpec::HexSizing;
  const SourceLoc hx = at(prov, "heat_exchanger.sizing", at(prov, "heat_exchanger", site));
  if (c.hex_sizing == S::Ua && !prov.count("heat_exchanger.ua"))
    f.s.add(hx, "ua", "sizing ua needs heat_exchanger.ua (W/K)");
  if (c.hex_sizing == S::Approach && !prov.count("heat_exchanger.approach_point"))
    f.s.add(hx, "approach", "sizing approach needs the section heat_exchanger.approach_point");
  if (c.hex_sizing == S::Table && !prov.count("heat_exchanger.table"))
    f.s.add(hx, "table", "sizing table needs the section heat_exchanger.table");
  const auto& x = c.hex_table_flow;
  const auto& u = c.hex_table_ua;
  auto fine = [&](const char* key) {
    auto it = prov.find(key);
    return it != prov.end() && it->second.ok;
  };
  if (fine("heat_exchanger.table.flow_L_min") && fine("heat_exchanger.table.ua_W_K")) {
    const SourceLoc lx = at(prov, "heat_exchanger.table.flow_L_min", site);
    const SourceLoc lu = at(prov, "heat_exchanger.table.ua_W_K", site);
    if (x.size() != u.size())
      f.s.add(lu, std::to_string(u.size()) + " values",
              "expected as many UA values as flows (" + std::to_string(x.size()) + ")");
    for (std::size_t i = 1; i < x.size(); ++i)
      if (!(x[i] > x[i - 1])) {
        f.s.add(lx, fmt(toLitersPerMinute(x[i])), "expected strictly increasing flows (L/min)");
        break;
      }
    for (std::size_t i = 1; i < std::min(x.size(), u.size()); ++i)
      if (u[i] < u[i - 1]) {
        f.s.add(lu, fmt(u[i]),
                "expected UA not falling with flow (film coefficients grow with "
                "flow)");
        break;
      }
  }
  if (prov.count("filter")) {
    const SourceLoc lc = at(prov, "filter.dp_clogged", at(prov, "filter", site));
    if (c.filter_dp_clogged > 0 && !(c.filter_dp_clogged > c.filter_dp_clean))
      f.s.add(lc, fmt(c.filter_dp_clogged),
              "expected filter.dp_clogged above dp_clean (" + fmt(c.filter_dp_clean) + " Pa)");
    // the dp switch: a set point at or below the clean dp would alarm on a clean strainer
    if (c.filter_alarm_dp > 0 && !(c.filter_alarm_dp > c.filter_dp_clean))
      f.s.add(at(prov, "filter.alarm_dp", site), fmt(c.filter_alarm_dp),
              "expected filter.alarm_dp above dp_clean (" + fmt(c.filter_dp_clean) + " Pa)");
    if (c.filter_clogging > 0 && !(c.filter_dp_clogged > 0))
      f.s.add(at(prov, "filter.initial_clogging", site), fmt(c.filter_clogging),
              "filter.initial_clogging > 0 needs filter.dp_clogged");
  }
}
}  // namespace

void readValve(MapIn& v, CduSpec& c) {
  v.read("kv", c.valve_kv);
  c.valve_rate_limited = rateLimited(v, c.valve_rate_limited);
  v.read("filter_time", c.valve_filter_time);
  v.read("initial_position", c.valve_initial);
}

void readPumps(MapIn& p, CduSpec& c) {
  c.pump_rate_limited = rateLimited(p, c.pump_rate_limited);
  p.read("filter_time", c.pump_filter_time);
  p.read("initial_speed", c.pump_initial);
  if (std::string pos; p.read("position", pos)) c.pump_downstream = pos == "downstream";
  p.read("heat_to_coolant", c.pump_heat_to_coolant);
}

void readHex(MapIn& hx, CduSpec& c) {
  if (std::string k; hx.read("sizing", k))
    c.hex_sizing = k == "ua"         ? CduSpec::HexSizing::Ua
                   : k == "approach" ? CduSpec::HexSizing::Approach
                   : k == "table"    ? CduSpec::HexSizing::Table
                                     : CduSpec::HexSizing::Rated;
  hx.read("ua", c.hex_ua);
  if (auto ap = hx.map("approach_point")) {
    ap->read("approach", c.hex_ap_approach);
    ap->read("load", c.hex_ap_load);
    ap->read("flow_secondary", c.hex_ap_flow_secondary);
    ap->read("flow_primary", c.hex_ap_flow_primary);
    ap->read("primary_supply_temperature", c.hex_ap_T_primary);
  }
  if (auto tb = hx.map("table")) {
    if (tb->read("flow_L_min", c.hex_table_flow))
      for (double& v : c.hex_table_flow) v /= 60000.0;  // L/min -> m3/s
    tb->read("ua_W_K", c.hex_table_ua);
  }
}

void readPrescribed(MapIn& pr, CduSpec& c) {
  pr.read("secondary_flow", c.prescribed_secondary_flow);
  pr.read("primary_flow", c.prescribed_primary_flow);
  pr.read("supply_temperature", c.prescribed_supply_T);
}

void readFilter(MapIn& fl, CduSpec& c) {
  fl.read("dp_clean", c.filter_dp_clean);
  fl.read("dp_clogged", c.filter_dp_clogged);
  fl.read("rated_flow", c.filter_rated_flow);
  fl.read("initial_clogging", c.filter_clogging);
  fl.read("alarm_dp", c.filter_alarm_dp);  // the dp switch
}

void readPi(MapIn& pi, CduSpec::PiExtra& x) {
  pi.read("tracking_time", x.Tt);
  pi.read("output_min", x.u_min);
  pi.read("output_max", x.u_max);
  if (std::string a; pi.read("action", a)) x.reverse = a == "reverse";
  pi.read("initial_output", x.u0);
  pi.read("initial_integral", x.u_int0);
  pi.read("sensor_time_constant", x.sensor_tau);
}

void check(reader::File& f, const CduSpec& c, const reader::Provided& prov, const SourceLoc& site,
           const std::string& extra) {
  // the primary valve: a datasheet Kv or the dp at the rated flow fully open
  if (prov.count("primary_valve") && !prov.count("primary_valve.kv") &&
      !prov.count("primary_valve.dp_nominal"))
    f.s.add(at(prov, "primary_valve", site), "",
            "missing required key 'dp_nominal' (or 'kv')" + extra);
  checkHexAndFilter(f, c, prov, site);
  // output limits in order, the initial output within them
  const double pump_lo = c.pump_min_speed;
  for (const auto& [name, x, lo0] : {std::tuple{"temperature_pi", &c.temp_pi, 0.0},
                                     std::tuple{"pump_pi", &c.pump_pi, pump_lo}}) {
    const double lo = std::isnan(x->u_min) ? lo0 : x->u_min;
    const double hi = std::isnan(x->u_max) ? 1.0 : x->u_max;
    const std::string base = std::string("control.") + name + ".";
    if (!(lo < hi))
      f.s.add(
          at(prov, (base + "output_max").c_str(), at(prov, (base + "output_min").c_str(), site)),
          fmt(hi),
          "control." + std::string(name) + ".output_max must be above output_min (" + fmt(lo) +
              ")");
    else if (!std::isnan(x->u0) && (x->u0 < lo || x->u0 > hi))
      f.s.add(at(prov, (base + "initial_output").c_str(), site), fmt(x->u0),
              "expected an initial output within the output limits (" + fmt(lo) + " to " + fmt(hi) +
                  ")");
    if (!std::isnan(x->u0) && !std::isnan(x->u_int0))
      f.s.add(at(prov, (base + "initial_integral").c_str(), site), fmt(x->u_int0),
              "give initial_output or initial_integral, not both (each sets the integrator)");
  }
}

}  // namespace dctwin::datasheet
