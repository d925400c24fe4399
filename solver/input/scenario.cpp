// scenario.cpp: scenario files (duration, outputs, detection policies, events) and how their
// events reach a facility: profile steps are applied to the spec; faults become
// FacilitySpec::faults (docs/scenario-format.md)
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <sstream>

#include "solver/common/units.h"
#include "solver/input/loader.h"
#include "solver/run/run.h"

namespace dctwin {

//---------------------------------------------------------------------------------------------
// scenario
namespace {

struct ScenarioParser {
  std::string file;
  std::vector<LoadError> errors;

  SourceLoc loc(const YAML::Node& n, const std::string& path) {
    YAML::Mark mk = n.Mark();
    return SourceLoc{file, mk.line + 1, mk.column + 1, path};
  }
  void error(const YAML::Node& n, const std::string& path, const std::string& value,
             const std::string& msg) {
    errors.push_back(LoadError{loc(n, path), value, msg});
  }
  bool quantity(const YAML::Node& map, const char* key, const std::string& path, Dim dim,
                double& out) {
    YAML::Node n = map[key];
    if (!n) return false;
    if (!n.IsScalar()) {
      error(n, path + key, "", "expected " + describe(dim));
      return false;
    }
    std::string why;
    auto q = parseQuantity(n.Scalar(), dim, &why);
    if (!q) {
      error(n, path + key, n.Scalar(), why);
      return false;
    }
    out = q->value;
    return true;
  }
  void checkKeys(const YAML::Node& map, const std::string& path,
                 std::initializer_list<const char*> allowed) {
    for (auto it = map.begin(); it != map.end(); ++it) {
      std::string k = it->first.IsScalar() ? it->first.Scalar() : "?";
      bool known = false;
      std::string best;
      int bestd = 3;
      for (const char* a : allowed) {
        if (k == a) known = true;
        int d = editDistance(k, a);
        if (d < bestd) bestd = d, best = a;
      }
      if (!known)
        error(it->first, path + k, k,
              "unknown key" + (best.empty() ? std::string() : "; did you mean '" + best + "'?"));
    }
  }
};

}  // namespace

Scenario loadScenarioFromString(const std::string& text, const std::string& name) {
  Scenario sc;
  sc.file = name;
  sc.text = text;
  ScenarioParser p{name, {}};
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    p.errors.push_back(LoadError{SourceLoc{name, e.mark.line + 1, e.mark.column + 1, ""}, "",
                                 "malformed YAML: " + e.msg});
    throw LoadFailure(std::move(p.errors));
  }
  if (!root.IsMap()) {
    p.errors.push_back(LoadError{SourceLoc{name, 1, 1, ""}, "", "expected a mapping at the top"});
    throw LoadFailure(std::move(p.errors));
  }
  p.checkKeys(root, "",
              {"dctwin_scenario", "name", "description", "duration", "output_interval", "solver",
               "initial_temperature", "events", "detection"});
  p.quantity(root, "duration", "", Dim::Time, sc.duration);
  p.quantity(root, "output_interval", "", Dim::Time, sc.output_interval);
  if (!(sc.duration > 0 && sc.duration <= 366 * 86400.0))
    p.error(root, "duration", std::to_string(sc.duration), "expected 0 < duration <= 366 d");
  if (!(sc.output_interval > 0 && sc.output_interval <= sc.duration))
    p.error(root, "output_interval", std::to_string(sc.output_interval),
            "expected 0 < output_interval <= duration");
  if (YAML::Node s = root["solver"]) {
    if (!s.IsMap()) {
      p.error(s, "solver", "", "expected a mapping");
    } else {
      p.checkKeys(s, "solver.", {"rtol"});
      if (p.quantity(s, "rtol", "solver.", Dim::None, sc.rtol) &&
          !(sc.rtol >= 1e-10 && sc.rtol <= 1e-2))
        p.error(s["rtol"], "solver.rtol", s["rtol"].Scalar(), "expected 1e-10 <= rtol <= 1e-2");
    }
  }
  if (p.quantity(root, "initial_temperature", "", Dim::Temperature, sc.T_init))
    sc.has_T_init = true;
  if (YAML::Node d = root["detection"]) {
    if (!d.IsMap()) {
      p.error(d, "detection", "", "expected a mapping");
    } else {
      DetectionSpec& ds = sc.detection;
      p.checkKeys(d, "detection.",
                  {"poll_interval", "pump_switchover", "low_flow_fraction", "low_flow_delay",
                   "continuous_load_ratio", "continuous_load_time", "leak_sensor_volume",
                   "rack_liquid_isolation", "rack_electrical_isolation", "isolation_valve_stroke",
                   "low_level_fraction", "low_level_pump_stop", "pressure_drop",
                   "imbalance_fraction", "imbalance_delay"});
      struct Item {
        const char* key;
        Dim dim;
        double* out;
        double lo, hi;
        const char* expect;
      };
      const Item items[] = {
          {"poll_interval", Dim::Time, &ds.poll_interval, 0.05, 60, "0.05 s ... 60 s"},
          {"pump_switchover", Dim::Time, &ds.pump_switchover, 0, 3600, "0 ... 1 h"},
          {"low_flow_fraction", Dim::None, &ds.low_flow_fraction, 0, 1, "0 ... 1"},
          {"low_flow_delay", Dim::Time, &ds.low_flow_delay, 0, 3600, "0 ... 1 h"},
          {"continuous_load_ratio", Dim::None, &ds.continuous_load_ratio, 0.1, 2, "0.1 ... 2"},
          {"continuous_load_time", Dim::Time, &ds.continuous_load_time, 0, 30 * 86400.0,
           "0 ... 30 d"},
          {"leak_sensor_volume", Dim::Volume, &ds.leak_sensor_volume, 0, 0.1, "0 ... 100 L"},
          {"isolation_valve_stroke", Dim::Time, &ds.isolation_valve_stroke, 0.1, 600,
           "0.1 s ... 10 min"},
          {"low_level_fraction", Dim::None, &ds.low_level_fraction, 0, 1, "0 ... 1"},
          {"pressure_drop", Dim::Pressure, &ds.pressure_drop, 0, 1e6, "0 ... 10 bar"},
          {"imbalance_fraction", Dim::None, &ds.imbalance_fraction, 0, 1, "0 ... 1"},
          {"imbalance_delay", Dim::Time, &ds.imbalance_delay, 0, 3600, "0 ... 1 h"}};
      struct Flag {
        const char* key;
        bool* out;
      };
      const Flag flags[] = {{"rack_liquid_isolation", &ds.rack_liquid_isolation},
                            {"rack_electrical_isolation", &ds.rack_electrical_isolation},
                            {"low_level_pump_stop", &ds.low_level_pump_stop}};
      for (const Flag& fl : flags)
        if (YAML::Node n = d[fl.key]) {
          if (n.IsScalar() && (n.Scalar() == "true" || n.Scalar() == "false"))
            *fl.out = n.Scalar() == "true";
          else
            p.error(n, std::string("detection.") + fl.key, n.IsScalar() ? n.Scalar() : "",
                    "expected true or false");
        }
      for (const Item& it : items)
        if (p.quantity(d, it.key, "detection.", it.dim, *it.out) &&
            !(*it.out >= it.lo && *it.out <= it.hi))
          p.error(d[it.key], std::string("detection.") + it.key, d[it.key].Scalar(),
                  std::string("expected ") + it.expect);
    }
  }
  if (YAML::Node ev = root["events"]) {
    if (!ev.IsSequence())
      p.error(ev, "events", "", "expected a list of events");
    else
      for (std::size_t i = 0; i < ev.size(); ++i) {
        YAML::Node e = ev[i];
        std::string path = "events[" + std::to_string(i) + "].";
        if (!e.IsMap()) {
          p.error(e, path, "", "expected a mapping");
          continue;
        }
        p.checkKeys(
            e, path,
            {"time", "rack", "cdu", "heat_load", "facility_water_temperature", "pump_failure",
             "cdu_failure", "valve_stuck", "facility_water_flow", "utility", "psu_failure", "leak",
             "filter_clogging", "sensor_fault", "job", "power_cap", "job_start", "job_stop"});
        ScenarioEvent se;
        se.loc = p.loc(e, path);
        if (!p.quantity(e, "time", path, Dim::Time, se.time))
          if (!e["time"]) p.error(e, path + "time", "", "missing key 'time'");
        if (se.time < 0)
          p.error(e["time"], path + "time", e["time"].Scalar(), "expected time >= 0");
        se.target = e["rack"] && e["rack"].IsScalar() ? e["rack"].Scalar() : "*";
        int kinds = 0;
        if (p.quantity(e, "heat_load", path, Dim::Power, se.value)) se.kind = "heat_load", ++kinds;
        if (p.quantity(e, "facility_water_temperature", path, Dim::Temperature, se.value))
          se.kind = "facility_water_temperature", ++kinds;
        // faults (docs/scenario-format.md "Faults")
        auto count = [&](const char* key, int lo, int hi) {
          YAML::Node n = e[key];
          if (!n) return false;
          int v = -1;
          if (n.IsScalar()) try {
              std::size_t used = 0;
              v = std::stoi(n.Scalar(), &used);
              if (used != n.Scalar().size()) v = -1;
            } catch (...) {
              v = -1;
            }
          if (v < lo || v > hi) {
            p.error(n, path + key, n.IsScalar() ? n.Scalar() : "",
                    "expected a whole number " + std::to_string(lo) + " ... " + std::to_string(hi));
            return false;
          }
          se.value = v;
          return true;
        };
        auto fraction = [&](const char* key) {
          double v = 0;
          if (!p.quantity(e, key, path, Dim::None, v)) return false;
          if (!(v >= 0 && v <= 1)) {
            p.error(e[key], path + key, e[key].Scalar(), "expected a fraction 0 ... 1");
            return false;
          }
          se.value = v;
          return true;
        };
        const bool has_cdu = e["cdu"] && e["cdu"].IsScalar();
        const bool has_rack = e["rack"] && e["rack"].IsScalar();
        auto needs = [&](const char* key, bool ok, const char* who) {
          if (!ok) p.error(e, path + who, "", std::string("'") + key + "' needs '" + who + "'");
          return ok;
        };
        if (e["pump_failure"] && count("pump_failure", 1, 64) &&
            needs("pump_failure", has_cdu, "cdu"))
          se.kind = "pump_failure", se.target = e["cdu"].Scalar(), ++kinds;
        if (e["cdu_failure"]) {
          YAML::Node n = e["cdu_failure"];
          if (!n.IsScalar() || n.Scalar() != "true")
            p.error(n, path + "cdu_failure", n.IsScalar() ? n.Scalar() : "", "expected true");
          else if (needs("cdu_failure", has_cdu, "cdu"))
            se.kind = "cdu_failure", se.target = e["cdu"].Scalar(), ++kinds;
        }
        if (e["valve_stuck"] && e["valve_stuck"].IsScalar() &&
            e["valve_stuck"].Scalar() == "current") {
          se.value = -1;  // where the valve is when it sticks
          if (needs("valve_stuck", has_cdu, "cdu"))
            se.kind = "valve_stuck", se.target = e["cdu"].Scalar(), ++kinds;
        } else if (e["valve_stuck"] && fraction("valve_stuck") &&
                   needs("valve_stuck", has_cdu, "cdu")) {
          se.kind = "valve_stuck", se.target = e["cdu"].Scalar(), ++kinds;
        }
        if (e["facility_water_flow"] && fraction("facility_water_flow"))
          se.kind = "facility_water_flow", ++kinds;
        if (YAML::Node n = e["utility"]) {
          if (!n.IsScalar() || (n.Scalar() != "lost" && n.Scalar() != "restored"))
            p.error(n, path + "utility", n.IsScalar() ? n.Scalar() : "",
                    "expected 'lost' or 'restored'");
          else
            se.kind = "utility", se.value = n.Scalar() == "restored" ? 1 : 0, ++kinds;
        }
        if (e["psu_failure"] && count("psu_failure", 1, 256) &&
            needs("psu_failure", has_rack, "rack"))
          se.kind = "psu_failure", ++kinds;
        // filter clogging, sensor faults, power caps, job start/stop
        if (YAML::Node fc = e["filter_clogging"]) {
          const std::string fp = path + "filter_clogging.";
          if (!fc.IsMap()) {
            p.error(fc, path + "filter_clogging", "", "expected a mapping {dp, growth_time}");
          } else {
            p.checkKeys(fc, fp, {"dp", "growth_time"});
            bool ok = p.quantity(fc, "dp", fp, Dim::Pressure, se.value);
            if (!fc["dp"]) p.error(fc, fp + "dp", "", "missing key 'dp' (at the design flow)");
            if (ok && !(se.value > 0 && se.value <= 1e6))
              p.error(fc["dp"], fp + "dp", fc["dp"].Scalar(), "expected 0 < dp <= 10 bar"),
                  ok = false;
            if (p.quantity(fc, "growth_time", fp, Dim::Time, se.growth_time) &&
                !(se.growth_time >= 0))
              p.error(fc["growth_time"], fp + "growth_time", fc["growth_time"].Scalar(),
                      "expected growth_time >= 0"),
                  ok = false;
            if (ok && needs("filter_clogging", has_cdu, "cdu"))
              se.kind = "filter_clogging", se.target = e["cdu"].Scalar(), ++kinds;
          }
        }
        if (YAML::Node sf = e["sensor_fault"]) {
          const std::string sp = path + "sensor_fault.";
          if (!sf.IsMap()) {
            p.error(sf, path + "sensor_fault", "", "expected a mapping {sensor, offset or stuck}");
          } else {
            p.checkKeys(sf, sp, {"sensor", "offset", "stuck"});
            bool ok = true;
            const std::string which =
                sf["sensor"] && sf["sensor"].IsScalar() ? sf["sensor"].Scalar() : "";
            if (which == "supply_temperature")
              se.sensor = FaultSpec::Sensor::SupplyTemperature;
            else if (which == "flow")
              se.sensor = FaultSpec::Sensor::Flow;
            else
              p.error(sf["sensor"] ? sf["sensor"] : sf, sp + "sensor", which,
                      "expected supply_temperature or flow"),
                  ok = false;
            const bool has_offset = bool(sf["offset"]);
            if (YAML::Node st = sf["stuck"]) {
              if (st.IsScalar() && st.Scalar() == "true")
                se.stuck = true;
              else if (!(st.IsScalar() && st.Scalar() == "false"))
                p.error(st, sp + "stuck", st.IsScalar() ? st.Scalar() : "",
                        "expected true or false"),
                    ok = false;
            }
            if (has_offset == se.stuck)
              p.error(sf, sp + "offset", "", "a sensor fault has either 'offset' or 'stuck: true'"),
                  ok = false;
            if (has_offset && ok) {
              if (se.sensor == FaultSpec::Sensor::SupplyTemperature)
                ok = p.quantity(sf, "offset", sp, Dim::TemperatureDiff, se.value);
              else if ((ok = p.quantity(sf, "offset", sp, Dim::None, se.value)) &&
                       !(se.value > -1 && se.value < 10))
                p.error(sf["offset"], sp + "offset", sf["offset"].Scalar(),
                        "expected a flow offset as a fraction, -1 < offset < 10"),
                    ok = false;
            }
            if (ok && needs("sensor_fault", has_cdu, "cdu"))
              se.kind = "sensor_fault", se.target = e["cdu"].Scalar(), ++kinds;
          }
        }
        const bool has_job = e["job"] && e["job"].IsScalar();
        if (e["power_cap"] && p.quantity(e, "power_cap", path, Dim::Power, se.value) &&
            needs("power_cap", has_job, "job")) {
          if (!(se.value > 0 && se.value <= 1e4))
            p.error(e["power_cap"], path + "power_cap", e["power_cap"].Scalar(),
                    "expected 0 < power_cap <= 10 kW");
          else
            se.kind = "power_cap", se.target = e["job"].Scalar(), ++kinds;
        }
        for (const char* key : {"job_start", "job_stop"})
          if (YAML::Node n = e[key]) {
            if (!n.IsScalar() || n.Scalar() != "true")
              p.error(n, path + key, n.IsScalar() ? n.Scalar() : "", "expected true");
            else if (needs(key, has_job, "job"))
              se.kind = key, se.target = e["job"].Scalar(), ++kinds;
          }
        if (YAML::Node lk = e["leak"]) {
          const std::string lp = path + "leak.";
          if (!lk.IsMap()) {
            p.error(lk, path + "leak", "", "expected a mapping {diameter or area, location, ...}");
          } else {
            p.checkKeys(lk, lp,
                        {"location", "diameter", "area", "diameter_final", "area_final",
                         "growth_time", "discharge_coefficient"});
            std::string where = has_rack ? "rack" : "cdu";
            if (lk["location"] && lk["location"].IsScalar()) where = lk["location"].Scalar();
            using W = FaultSpec::Where;
            const std::map<std::string, W> places{{"rack", W::Rack},
                                                  {"manifold", W::Rack},
                                                  {"tray", W::Rack},
                                                  {"cdu", W::Cdu},
                                                  {"supply_header", W::SupplyHeader},
                                                  {"return_header", W::ReturnHeader}};
            auto pl = places.find(where);
            bool ok = true;
            if (pl == places.end()) {
              p.error(lk["location"], lp + "location", where,
                      "expected rack (or manifold, tray), cdu, supply_header or return_header");
              ok = false;
            } else {
              se.where = pl->second;
              if (se.where == W::Rack)
                ok = needs("leak at a rack", has_rack, "rack");
              else if ((ok = needs("leak at a CDU or header", has_cdu, "cdu")))
                se.target = e["cdu"].Scalar();
            }
            auto size = [&](const char* dkey, const char* akey, double& out) {
              double v = 0;
              if (p.quantity(lk, dkey, lp, Dim::Length, v)) {
                if (v > 0 && v <= 0.2)
                  out = M_PI * v * v / 4;
                else
                  p.error(lk[dkey], lp + dkey, lk[dkey].Scalar(),
                          "expected 0 < diameter <= 200 mm");
              }
              if (p.quantity(lk, akey, lp, Dim::Area, v)) {
                if (v > 0 && v <= 0.03)
                  out = v;
                else
                  p.error(lk[akey], lp + akey, lk[akey].Scalar(), "expected 0 < area <= 0.03 m2");
              }
            };
            size("diameter", "area", se.area);
            size("diameter_final", "area_final", se.area_final);
            if (!(se.area > 0)) {
              p.error(lk, lp + "diameter", "", "a leak needs 'diameter' or 'area'");
              ok = false;
            }
            if (p.quantity(lk, "growth_time", lp, Dim::Time, se.growth_time) &&
                !(se.growth_time >= 0))
              p.error(lk["growth_time"], lp + "growth_time", lk["growth_time"].Scalar(),
                      "expected growth_time >= 0");
            if (p.quantity(lk, "discharge_coefficient", lp, Dim::None, se.Cd) &&
                !(se.Cd > 0 && se.Cd <= 1))
              p.error(lk["discharge_coefficient"], lp + "discharge_coefficient",
                      lk["discharge_coefficient"].Scalar(), "expected 0 < C_d <= 1");
            if (ok) se.kind = "leak", ++kinds;
          }
        }
        if (kinds == 0 && !p.errors.empty() && p.errors.back().loc.path.rfind(path, 0) == 0) {
          // the event's own value was reported
        } else if (kinds == 0) {
          p.error(e, path, "",
                  "an event needs one of heat_load, facility_water_temperature, pump_failure, "
                  "cdu_failure, valve_stuck, facility_water_flow, utility, psu_failure, leak, "
                  "filter_clogging, sensor_fault, power_cap, job_start, job_stop");
        } else if (kinds > 1) {
          p.error(e, path, "", "an event has exactly one action; split it into several events");
        } else {
          sc.events.push_back(se);
        }
      }
  }
  if (!p.errors.empty()) throw LoadFailure(std::move(p.errors));
  std::stable_sort(sc.events.begin(), sc.events.end(),
                   [](const auto& a, const auto& b) { return a.time < b.time; });
  return sc;
}

Scenario loadScenario(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw LoadFailure({LoadError{SourceLoc{path, 0, 0, ""}, "", "cannot open the scenario file"}});
  std::stringstream ss;
  ss << in.rdbuf();
  return loadScenarioFromString(ss.str(), path);
}

namespace {
// series after a step to `value` at `time`: the old course up to `time`, then constant
void stepSeries(TimeSeries& ts, double time, double value) {
  TimeSeries out;
  out.kind = TimeSeries::Kind::Steps;
  if (ts.kind == TimeSeries::Kind::Linear) {
    // keep the linear course before the step by sampling its knots (Linear stays Linear)
    out.kind = TimeSeries::Kind::Linear;
    for (std::size_t i = 0; i < ts.t.size() && ts.t[i] < time; ++i)
      out.t.push_back(ts.t[i]), out.v.push_back(ts.v[i]);
    double before = ts.eval(time);
    out.t.push_back(time), out.v.push_back(before);
    out.t.push_back(std::nextafter(time, 1e300)), out.v.push_back(value);
  } else {
    for (std::size_t i = 0; i < ts.t.size() && ts.t[i] < time; ++i)
      out.t.push_back(ts.t[i]), out.v.push_back(ts.v[i]);
    if (out.t.empty()) out.t.push_back(0.0), out.v.push_back(ts.eval(0.0));
    if (time > out.t.back())
      out.t.push_back(time), out.v.push_back(value);
    else
      out.v.back() = value;
  }
  ts = std::move(out);
}
}  // namespace

void applyScenario(const Scenario& sc, FacilitySpec& spec) {
  std::vector<LoadError> errors;
  spec.detection = sc.detection;
  using K = FaultSpec::Kind;
  const std::map<std::string, K> fault_kinds{{"pump_failure", K::PumpFailure},
                                             {"cdu_failure", K::CduFailure},
                                             {"valve_stuck", K::ValveStuck},
                                             {"facility_water_flow", K::FacilityWaterFlow},
                                             {"utility", K::Utility},
                                             {"psu_failure", K::PsuFailure},
                                             {"leak", K::Leak},
                                             {"filter_clogging", K::FilterClogging},
                                             {"sensor_fault", K::SensorFault},
                                             {"power_cap", K::PowerCap}};
  auto suggest = [](const std::string& name, const std::vector<std::string>& names) {
    std::string best;
    int bestd = 3;
    for (const auto& n : names) {
      int d = editDistance(name, n);
      if (d < bestd) bestd = d, best = n;
    }
    return best.empty() ? std::string() : "; did you mean '" + best + "'?";
  };
  for (const auto& e : sc.events) {
    if (e.kind != "job_start" && e.kind != "job_stop" && e.kind != "power_cap") continue;
    std::vector<std::string> jobs;
    JobSpec* job = nullptr;
    for (auto& j : spec.jobs) {
      jobs.push_back(j.name);
      if (j.name == e.target) job = &j;
    }
    if (!job) {
      errors.push_back(LoadError{e.loc, e.target, "unknown job" + suggest(e.target, jobs)});
      continue;
    }
    if (e.kind == "power_cap") continue;  // a fault event (below)
    if (job->kind != JobSpec::Kind::Training) {
      errors.push_back(LoadError{e.loc, e.target,
                                 "'" + e.kind +
                                     "' applies to training jobs (inference and trace "
                                     "jobs follow their profiles)"});
      continue;
    }
    (e.kind == "job_start" ? job->training.start : job->training.stop) = e.time;
  }
  for (const auto& e : sc.events) {
    if (e.kind == "job_start" || e.kind == "job_stop") continue;
    auto fk = fault_kinds.find(e.kind);
    if (fk == fault_kinds.end()) continue;
    FaultSpec f{e.time, fk->second, e.target, e.value, e.loc};
    f.where = e.where;
    f.area = e.area;
    f.area_final = e.area_final;
    f.growth_time = e.growth_time;
    f.Cd = e.Cd;
    f.sensor = e.sensor;
    f.stuck = e.stuck;
    const bool at_rack =
        f.kind == K::PsuFailure || (f.kind == K::Leak && f.where == FaultSpec::Where::Rack);
    std::vector<std::string> names;
    if (at_rack)
      for (const auto& r : spec.racks) names.push_back(r.name);
    else if (f.kind == K::PumpFailure || f.kind == K::CduFailure || f.kind == K::ValveStuck ||
             f.kind == K::Leak || f.kind == K::FilterClogging || f.kind == K::SensorFault)
      for (const auto& c : spec.cdus) names.push_back(c.name);
    if (!names.empty() && std::find(names.begin(), names.end(), f.target) == names.end()) {
      errors.push_back(LoadError{
          e.loc, f.target,
          std::string(at_rack ? "unknown rack" : "unknown CDU") + suggest(f.target, names)});
      continue;
    }
    if ((f.kind == K::PsuFailure || f.kind == K::Utility) && !spec.power.present) {
      errors.push_back(
          LoadError{e.loc, "", "'" + e.kind + "' needs a facility with a power section"});
      continue;
    }
    spec.faults.push_back(f);
  }
  for (const auto& e : sc.events) {
    if (fault_kinds.count(e.kind) || e.kind == "job_start" || e.kind == "job_stop") continue;
    if (e.kind == "facility_water_temperature") {
      stepSeries(spec.facility_water.T_supply, e.time, e.value);
      continue;
    }
    bool found = false;
    std::string best;
    int bestd = 3;
    for (auto& r : spec.racks) {
      if (r.name == e.target && !r.has_heat_load) {
        errors.push_back(LoadError{e.loc, e.target,
                                   "rack '" + r.name +
                                       "' has resolved GPUs (no heat_load profile): "
                                       "its load comes from its job, not from a heat_load event"});
        found = true;
        continue;
      }
      if ((e.target == "*" && r.has_heat_load) || r.name == e.target) {
        stepSeries(r.heat_load, e.time, e.value);
        found = true;
      }
      int d = editDistance(e.target, r.name);
      if (d < bestd) bestd = d, best = r.name;
    }
    if (!found && e.target == "*")
      errors.push_back(LoadError{e.loc, "",
                                 "no rack has a heat_load profile to step (racks with "
                                 "resolved GPUs take their load from their jobs)"});
    else if (!found)
      errors.push_back(LoadError{
          e.loc, e.target,
          "unknown rack" + (best.empty() ? std::string() : "; did you mean '" + best + "'?")});
  }
  if (!errors.empty()) throw LoadFailure(std::move(errors));
}

}  // namespace dctwin
