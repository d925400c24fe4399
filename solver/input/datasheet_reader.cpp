// datasheet_reader.cpp: CDU datasheet keys (solver/input/datasheet_reader.h); the keys and their
// ranges are in the table (solver/input/facility_keys.cpp)
#include "solver/input/datasheet_reader.h"

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
}

void readPi(MapIn& pi, CduSpec::PiExtra& x) {
  pi.read("tracking_time", x.Tt);
  pi.read("output_min", x.u_min);
  pi.read("output_max", x.u_max);
  if (std::string a; pi.read("action", a)) x.reverse = a == "reverse";
  pi.read("initial_output", x.u0);
  pi.read("sensor_time_constant", x.sensor_tau);
}

void check(reader::File& f, const CduSpec& c, const reader::Provided& prov, const SourceLoc& site,
           const std::string& extra) {
  // the primary valve: a datasheet Kv or the dp at the rated flow fully open
  if (prov.count("primary_valve") && !prov.count("primary_valve.kv") &&
      !prov.count("primary_valve.dp_nominal"))
    f.s.add(at(prov, "primary_valve", site), "",
            "missing required key 'dp_nominal' (or 'kv')" + extra);
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
  }
}

}  // namespace dctwin::datasheet
