// scenario.cpp: scenario files (duration, outputs, detection policies, events) and how their
// events reach a facility: profile steps are applied to the spec; faults become
// FacilitySpec::faults (docs/scenario-format.md)
//
// a scenario is read like a facility file: through the key tables (solver/input/scenario_keys.cpp)
// and the one YAML reader (solver/input/yaml_reader.h), every error of the file together
#include "solver/input/scenario.h"

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "solver/common/units.h"
#include "solver/input/keys.h"
#include "solver/input/loader.h"
#include "solver/input/protection_reader.h"
#include "solver/input/yaml_reader.h"

namespace dctwin {

//---------------------------------------------------------------------------------------------
// scenario files
namespace {
using namespace reader;

// the table of a scenario-file section by its key path from the top ({"events", "leak"})
const keys::Section& section(std::initializer_list<const char*> path) {
  const keys::Section* s = &keys::scenarioFile();
  for (const char* k : path) s = s->find(k)->section;
  return *s;
}

class ScenarioReader {
 public:
  ScenarioReader(File& f, Scenario& sc) : f_(f), sc_(sc) {}

  // 1. top-level keys, duration and output interval; 2. solver; 3. initial temperature;
  // 4. detection policies; 5. events
  void read(const YAML::Node& root) {
    MapIn top(f_, root, "", keys::scenarioFile());
    if (!top.valid()) return;
    readTimes(top);
    if (auto s = top.map("solver")) s->read("rtol", sc_.rtol);
    if (top.read("initial_temperature", sc_.T_init)) sc_.has_T_init = true;
    if (auto d = top.map("detection")) readDetection(*d);
    if (auto d = top.map("protection")) readProtection(*d);
    readAnnual(top);
    if (auto fl = top.map("failures")) readFailures(*fl);
    if (auto sg = top.map("stragglers")) readStragglers(*sg);
    top.list("events", [&](const YAML::Node& e, const std::string& path, std::size_t) {
      readEvent(e, path);
    });
  }

 private:
  void readTimes(MapIn& top) {
    int version = 1;
    top.read("dctwin_scenario", version);
    std::string text;
    top.read("name", text);
    top.read("description", text);
    top.read("duration", sc_.duration);
    top.read("hot_spares", sc_.hot_spares);  // what-if: spares for every training job
    if (top.read("output_interval", sc_.output_interval) &&
        sc_.output_interval > sc_.duration + 1e-9)
      f_.s.add(top.locOf("output_interval"), fmt(sc_.output_interval) + " s",
               "expected 0 < output_interval <= duration");
  }

  // the multi-rate annual mode (docs/models/annual.md)
  void readAnnual(MapIn& top) {
    std::string mode;
    if (top.read("mode", mode)) sc_.annual.enabled = mode == "annual";
    if (auto a = top.map("annual")) {
      AnnualParams& p = sc_.annual;
      a->read("window", p.window);
      a->read("settle", p.settle);
      a->read("period", p.period);
      a->read("slow_step", p.slow_step);
      a->read("supply_change", p.dT_supply);
      a->read("wet_bulb_change", p.dT_wet_bulb);
      if (p.period < p.window)
        f_.s.add(top.locOf("annual"), fmt(p.period) + " s",
                 "expected annual.period >= annual.window (" + fmt(p.window) + " s)");
    }
  }

  // failures as a seeded process (docs/models/failures.md)
  void readFailures(MapIn& fl) {
    FailureProcessParams& p = sc_.failures;
    p.enabled = true;
    fl.read("repair_time", p.repair_time);
    long long seed = 1;
    if (fl.read("seed", seed)) p.seed = static_cast<unsigned long long>(seed);
    fl.read("scale", p.scale);
    fl.read("gpus_per_host", p.gpus_per_host);
    if (auto mt = fl.map("mtbf"))
      for (int c = 0; c < kFailClasses; ++c) mt->read(failureClassInfo(c).key, p.mtbf[c]);
  }

  // straggler detection and its policy (docs/models/failures.md "Stragglers")
  void readStragglers(MapIn& sg) {
    StragglerParams& p = sc_.stragglers;
    p.enabled = true;
    std::string policy;
    if (sg.read("policy", policy))
      p.policy = policy == "drain"       ? StragglerPolicy::Drain
                 : policy == "exclude"   ? StragglerPolicy::Exclude
                 : policy == "rebalance" ? StragglerPolicy::Rebalance
                                         : StragglerPolicy::Detect;
    std::string act_at;
    if (sg.read("act_at", act_at))
      p.act_at = act_at == "detection"    ? StragglerActAt::Detection
                 : act_at == "checkpoint" ? StragglerActAt::Checkpoint
                                          : StragglerActAt::CheckpointNow;
    sg.read("threshold", p.threshold);
    sg.read("window", p.window);
    sg.read("repair_time", p.repair_time);
  }

  void readDetection(MapIn& d) {
    DetectionSpec& ds = sc_.detection;
    d.read("poll_interval", ds.poll_interval);
    d.read("pump_switchover", ds.pump_switchover);
    d.read("pump_coast_down", ds.pump_coast_down);
    d.read("low_flow_fraction", ds.low_flow_fraction);
    d.read("low_flow_delay", ds.low_flow_delay);
    d.read("continuous_load_ratio", ds.continuous_load_ratio);
    d.read("continuous_load_time", ds.continuous_load_time);
    d.read("leak_sensor_volume", ds.leak_sensor_volume);
    d.read("leak_sensor_transit", ds.leak_sensor_transit);
    d.read("leak_sensor_fraction", ds.leak_sensor_fraction);
    d.read("rack_liquid_isolation", ds.rack_liquid_isolation);
    d.read("rack_electrical_isolation", ds.rack_electrical_isolation);
    d.read("isolation_valve_stroke", ds.isolation_valve_stroke);
    d.read("low_level_fraction", ds.low_level_fraction);
    d.read("low_level_pump_stop", ds.low_level_pump_stop);
    std::string release;
    if (d.read("low_level_release", release)) ds.low_level_auto_release = release == "auto";
    d.read("pressure_drop", ds.pressure_drop);
    d.read("imbalance_fraction", ds.imbalance_fraction);
    d.read("imbalance_delay", ds.imbalance_delay);
  }

  void readProtection(MapIn& d) {
    sc_.protection_keys = readProtectionSection(d, sc_.detection.protection);
  }

  // one event: its time and targets, then exactly one action
  struct Event {
    MapIn& m;
    ScenarioEvent se;
    std::string rack, cdu, job;
    int actions = 0;
    void act(const char* kind, const std::string& target) {
      se.kind = kind;
      se.target = target;
      ++actions;
    }
  };

  void readEvent(const YAML::Node& n, const std::string& path) {
    const std::size_t errors_before = f_.s.count();
    MapIn m(f_, n, path, section({"events"}));
    if (!m.valid()) return;
    Event e{m, {}, {}, {}, {}, 0};
    e.se.loc = m.loc();
    m.read("time", e.se.time);
    m.read("rack", e.rack);
    m.read("cdu", e.cdu);
    m.read("job", e.job);
    readProfileSteps(e);
    readTableFaults(e);
    readValveStuck(e);
    readUtility(e);
    readFilterClogging(e);
    readSensorFault(e);
    readJobEvents(e);
    readLeak(e);
    readFabricEvent(e);
    readPlateDegradation(e);
    readDisturbance(e, "voltage_sag", "residual");
    readDisturbance(e, "frequency_excursion", "deviation");
    readSetpoints(e);
    if (e.actions == 0 && f_.s.count() > errors_before) {
      // the event's own value was reported
    } else if (e.actions == 0) {
      f_.error(n, path, "", "an event needs one of " + actionKeys());
    } else if (e.actions > 1) {
      f_.error(n, path, "", "an event has exactly one action; split it into several events");
    } else {
      sc_.events.push_back(e.se);
    }
  }

  // the event section's keys that are actions: all but its time and targets
  static std::string actionKeys() {
    std::string out;
    for (const keys::Key& k : section({"events"}).keys) {
      const std::string_view n = k.name;
      if (n == "time" || n == "rack" || n == "cdu" || n == "job") continue;
      if (!out.empty()) out += ", ";
      out += n;
    }
    return out;
  }

  // the action needs a target key (cdu, rack, job)
  bool needs(Event& e, const char* key, const std::string& target, const char* who) {
    if (target.empty())
      f_.error(e.m.node(), e.m.sub(who), "", std::string("'") + key + "' needs '" + who + "'");
    return !target.empty();
  }
  // a key that may only be true
  bool onlyTrue(Event& e, const char* key) {
    bool v = false;
    if (!e.m.read(key, v)) return false;
    if (!v) f_.error(*e.m.get(key), e.m.sub(key), "false", "expected true (or leave the key out)");
    return v;
  }

  // steps of the input profiles: a rack's heat load, the facility-water temperature
  void readProfileSteps(Event& e) {
    if (e.m.read("heat_load", e.se.value)) e.act("heat_load", e.rack.empty() ? "*" : e.rack);
    if (e.m.read("facility_water_temperature", e.se.value))
      e.act("facility_water_temperature", e.rack.empty() ? "*" : e.rack);
  }

  // the faults whose value is one key (a count, a quantity, true): read through their row of the
  // fault table (solver/common/fault_table.h), which names the key, its range (in the key table)
  // and the target the fault needs
  void readTableFaults(Event& e) {
    for (const FaultInfo& f : kFaultTable) {
      const FaultValue t = f.value.type;
      if (f.id == FaultKind::Setpoint) continue;  // three keys (readSetpoints)
      double v = 1;
      bool got = false;
      if (t == FaultValue::Flag) {
        got = onlyTrue(e, f.key);
      } else if (t == FaultValue::Integer) {
        int n = 0;
        got = e.m.read(f.key, n);
        v = n;
      } else if (t == FaultValue::Quantity) {
        got = e.m.read(f.key, v);
      }
      if (!got) continue;
      const std::string* target = f.target == FaultTarget::Cdu    ? &e.cdu
                                  : f.target == FaultTarget::Rack ? &e.rack
                                  : f.target == FaultTarget::Job  ? &e.job
                                                                  : nullptr;
      const char* who = f.target == FaultTarget::Cdu    ? "cdu"
                        : f.target == FaultTarget::Rack ? "rack"
                                                        : "job";
      if (target && !needs(e, f.key, *target, who)) continue;
      e.se.value = v;
      e.act(f.key, target ? *target : std::string("*"));
    }
  }

  // the CDU's facility-water valve sticks at an opening, or where it is ("current")
  void readValveStuck(Event& e) {
    const char* key = faultInfo(FaultKind::ValveStuck).key;
    const YAML::Node* v = e.m.get(key);
    if (!v) return;
    double y = -1;  // -1: where the valve is when it sticks
    const bool current = v->IsScalar() && trimmed(v->Scalar()) == "current";
    bool ok = current;
    if (!current) {
      const auto q =
          readQuantity(f_, *v, e.m.sub(key), Dim::None, keys::faultRange(FaultKind::ValveStuck));
      ok = q.has_value();
      if (q) y = *q;
    }
    if (ok && needs(e, key, e.cdu, "cdu")) e.se.value = y, e.act(key, e.cdu);
  }

  // the utility feed lost or restored
  void readUtility(Event& e) {
    std::string u;
    if (e.m.read("utility", u)) e.se.value = u == "restored" ? 1 : 0, e.act("utility", "*");
  }

  // a fabric fault of a rack: a GPU's scale-out link or NIC, an NVLink switch tray; or a
  // scale-out switch of a switch rack (docs/models/switch_rack.md)
  void readFabricEvent(Event& e) {
    auto fb = e.m.map("fabric");
    if (!fb) return;
    std::string what;
    if (!fb->read("fault", what)) return;
    using F = FabricFault;
    e.se.fabric = what == "link_down" || what == "nic_down"           ? F::LinkDown
                  : what == "link_restored" || what == "nic_restored" ? F::LinkRestored
                  : what == "nvlink_tray_lost"                        ? F::NvlinkTrayLost
                  : what == "nvlink_tray_restored"                    ? F::NvlinkTrayRestored
                  : what == "link_flapping"                           ? F::LinkFlapping
                  : what == "switch_failed"                           ? F::SwitchFailed
                  : what == "switch_restored"                         ? F::SwitchRestored
                                                                      : F::LinkDegraded;
    if (isSwitchFault(e.se.fabric)) {
      std::string sw;
      if (!fb->get("switch_rack")) {
        fb->missing("switch_rack", " (a switch fault names the switch rack)");
        return;
      }
      if (!fb->read("switch_rack", sw)) return;
      fb->read("switch", e.se.tray);
      e.se.value = e.se.fabric == F::SwitchFailed ? 0.0 : 1.0;
      e.act("fabric", sw);
      return;
    }
    const bool link = e.se.fabric == F::LinkDegraded || e.se.fabric == F::LinkDown ||
                      e.se.fabric == F::LinkRestored || e.se.fabric == F::LinkFlapping;
    bool ok = true;
    if (link) {
      if (!fb->get("gpu")) {
        fb->missing("gpu", "(a link fault names the GPU slot in the rack)");
        ok = false;
      }
      ok = fb->read("gpu", e.se.gpu) && ok;
      fb->read("nic", e.se.nic);
    } else {
      fb->read("tray", e.se.tray);
    }
    e.se.value = e.se.fabric == F::LinkDegraded ? 0.5 : e.se.fabric == F::LinkDown ? 0.0 : 1.0;
    if (e.se.fabric == F::LinkDegraded) {
      if (!fb->get("fraction")) {
        fb->missing("fraction", "(the link's bandwidth fraction)");
        ok = false;
      }
      ok = fb->read("fraction", e.se.value) && ok;
    }
    if (e.se.fabric == F::LinkFlapping) ok = readFlapping(*fb, e) && ok;
    if (ok && needs(e, "fabric", e.rack, "rack")) e.act("fabric", e.rack);
  }

  // a rack part's cold plates degrade (docs/models/rack_parts.md "Part temperature and shutdown")
  void readPlateDegradation(Event& e) {
    if (!e.m.get("plate_degradation")) return;
    auto pd = e.m.map("plate_degradation");
    if (!pd) return;
    bool ok = pd->read("part", e.se.part);
    ok = pd->read("factor", e.se.value) && ok;
    if (ok && needs(e, "plate_degradation", e.rack, "rack")) e.act("plate_degradation", e.rack);
  }

  // a grid disturbance (docs/models/ride_through.md): its value (residual voltage, frequency
  // deviation), duration and an optional sequence (repeat, interval)
  void readDisturbance(Event& e, const char* key, const char* value_key) {
    if (!e.m.get(key)) return;
    auto gd = e.m.map(key);
    if (!gd) return;
    bool ok = gd->read(value_key, e.se.value);
    ok = gd->read("duration", e.se.duration) && ok;
    if (gd->get("repeat")) ok = gd->read("repeat", e.se.repeat) && ok;
    if (gd->get("interval")) ok = gd->read("interval", e.se.interval) && ok;
    if (!ok) return;
    const YAML::Node* dev = gd->get(value_key);
    if (std::string_view(value_key) == "deviation" && e.se.value == 0) {
      f_.error(*dev, gd->sub(value_key), "0 Hz",
               "a frequency excursion needs a deviation other than 0");
      return;
    }
    if (e.se.repeat > 1 && !gd->get("interval")) {
      f_.error(gd->node(), gd->sub("interval"), "",
               "a sequence (repeat > 1) needs its interval (start to start)");
      return;
    }
    if (gd->get("interval") && e.se.repeat < 2) {
      f_.error(*gd->get("interval"), gd->sub("interval"), "",
               "interval applies to a sequence: set repeat > 1");
      return;
    }
    if (e.se.repeat > 1 && !(e.se.interval > e.se.duration)) {
      f_.error(*gd->get("interval"), gd->sub("interval"), "",
               "the interval (start to start) must be longer than the duration of each "
               "disturbance");
      return;
    }
    e.act(key, "*");
  }

  // a flapping link: down for down_time every period, plus a retransmit stall per flap; the
  // link carries the mean fraction 1 - (down_time + stall) / period (docs/models/switch_rack.md)
  bool readFlapping(MapIn& fb, Event& e) {
    double period = 0, down = 0, stall = 0;
    bool ok = true;
    for (const char* k : {"period", "down_time"})
      if (!fb.get(k)) {
        fb.missing(k, " (link_flapping)");
        ok = false;
      }
    ok = fb.read("period", period) && ok;
    ok = fb.read("down_time", down) && ok;
    fb.read("stall", stall);
    if (!ok) return false;
    if (!(down + stall < period)) {
      f_.error(*fb.get("down_time"), fb.sub("down_time"), fmt(down) + " s",
               "down_time + stall must be shorter than the period (" + fmt(period) +
                   " s): the link would never carry traffic (use link_down)");
      return false;
    }
    e.se.value = 1 - (down + stall) / period;
    return true;
  }

  // set-point changes of a CDU's controllers: supply temperature, dp, flow
  void readSetpoints(Event& e) {
    const std::pair<const char*, SetpointKind> kinds[] = {
        {"supply_temperature_setpoint", SetpointKind::SupplyTemperature},
        {"dp_setpoint", SetpointKind::Dp},
        {"flow_setpoint", SetpointKind::Flow}};
    for (const auto& [key, kind] : kinds) {
      double v = 0;
      if (e.m.read(key, v) && needs(e, key, e.cdu, "cdu")) {
        e.se.value = v;
        e.se.setpoint = kind;
        e.act("setpoint", e.cdu);
      }
    }
  }

  void readFilterClogging(Event& e) {
    if (!e.m.get("filter_clogging")) return;
    auto fc = e.m.map("filter_clogging");
    if (!fc) return;
    bool ok = fc->read("dp", e.se.value);
    if (fc->get("growth_time")) ok = fc->read("growth_time", e.se.growth_time) && ok;
    if (ok && needs(e, "filter_clogging", e.cdu, "cdu")) e.act("filter_clogging", e.cdu);
  }

  void readSensorFault(Event& e) {
    auto sf = e.m.map("sensor_fault");
    if (!sf) return;
    std::string which;
    bool ok = sf->read("sensor", which);
    if (ok)
      e.se.sensor =
          which == "flow" ? FaultSpec::Sensor::Flow : FaultSpec::Sensor::SupplyTemperature;
    if (sf->get("stuck")) ok = sf->read("stuck", e.se.stuck) && ok;
    const bool has_offset = sf->get("offset") != nullptr;
    if (has_offset == e.se.stuck) {
      f_.error(sf->node(), sf->sub("offset"), "",
               "a sensor fault has either 'offset' or 'stuck: true'");
      ok = false;
    }
    if (has_offset && ok) {
      if (e.se.sensor == FaultSpec::Sensor::SupplyTemperature)
        ok = sf->quantity("offset", Dim::TemperatureDiff, keys::faultRange(FaultKind::SensorFault),
                          e.se.value);
      else
        ok = sf->quantity("offset", Dim::None,
                          Range{-1, 10, true, true, "as a fraction, -1 < offset < 10"}, e.se.value);
    }
    if (ok && needs(e, "sensor_fault", e.cdu, "cdu")) e.act("sensor_fault", e.cdu);
  }

  // job start/stop (power caps: readTableFaults)
  void readJobEvents(Event& e) {
    for (const char* key : {"job_start", "job_stop"})
      if (onlyTrue(e, key) && needs(e, key, e.job, "job")) e.act(key, e.job);
  }

  void readLeak(Event& e) {
    auto lk = e.m.map("leak");
    if (!lk) return;
    using W = FaultSpec::Where;
    std::string where = !e.rack.empty() ? "rack" : "cdu";
    bool ok = !lk->get("location") || lk->read("location", where);
    if (ok) {
      e.se.where = where == "supply_header"   ? W::SupplyHeader
                   : where == "return_header" ? W::ReturnHeader
                   : where == "cdu"           ? W::Cdu
                                              : W::Rack;
      if (e.se.where == W::Rack)
        ok = needs(e, "leak at a rack", e.rack, "rack");
      else
        ok = needs(e, "leak at a CDU or header", e.cdu, "cdu");
    }
    // the orifice: a diameter or an area, optionally growing to a final one
    auto size = [&](const char* dkey, const char* akey, double& out) {
      double d = 0;
      if (lk->read(dkey, d)) out = M_PI * d * d / 4;
      lk->read(akey, out);
    };
    size("diameter", "area", e.se.area);
    size("diameter_final", "area_final", e.se.area_final);
    if (!(e.se.area > 0)) {
      f_.error(lk->node(), lk->sub("diameter"), "", "a leak needs 'diameter' or 'area'");
      ok = false;
    }
    lk->read("growth_time", e.se.growth_time);
    lk->read("discharge_coefficient", e.se.Cd);
    if (ok) e.act("leak", e.se.where == W::Rack ? e.rack : e.cdu);
  }

  File& f_;
  Scenario& sc_;
};

Scenario loadScenarioText(const std::string& text, const std::string& name, Session& s) {
  Scenario sc;
  sc.file = name;
  sc.text = text;
  File f{s, name, "."};
  readDocument(s, name, text, [&](const YAML::Node& root) { ScenarioReader(f, sc).read(root); });
  if (s.failed()) throw LoadFailure(s.finish(name));
  sc.input_files = s.files;
  std::stable_sort(sc.events.begin(), sc.events.end(),
                   [](const auto& a, const auto& b) { return a.time < b.time; });
  return sc;
}

}  // namespace

Scenario loadScenarioFromString(const std::string& text, const std::string& name) {
  Session s;
  return loadScenarioText(text, name, s);
}

Scenario loadScenario(const std::string& path) {
  std::string why;
  const auto text = reader::readTextFile(path, &why);
  if (!text)
    throw LoadFailure(
        {LoadError{SourceLoc{path, 0, 0, ""}, "", "cannot open the scenario file: " + why}});
  return loadScenarioFromString(*text, path);
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
  // the facility's protection settings, overridden key by key by the scenario's
  const ProtectionParams site = spec.detection.protection;
  spec.detection = sc.detection;
  spec.detection.protection = site;
  overlayProtection(sc.detection.protection, sc.protection_keys, spec.detection.protection);
  using K = FaultSpec::Kind;
  spec.failures = sc.failures;
  spec.stragglers = sc.stragglers;
  if (sc.hot_spares >= 0)  // the scenario's spare GPUs replace each training job's own
    for (auto& j : spec.jobs) j.training.hot_spares = sc.hot_spares;
  const auto& suggest = reader::didYouMean;
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
    const FaultInfo* fi = faultByKey(e.kind);
    if (!fi) continue;
    FaultSpec f;
    static_cast<FaultArgs&>(f) = e;  // what the event says beyond its kind, time and target
    f.time = e.time;
    f.kind = fi->id;
    f.target = e.target;
    f.value = e.value;
    f.loc = e.loc;
    // the target's kind from the fault table: a switch fault names a switch rack, every other
    // fabric fault a compute rack; a leak a rack, or a CDU for the CDU and its headers
    const FaultTarget tk = fi->target;
    const bool at_switch = f.kind == K::Fabric && isSwitchFault(f.fabric);
    const bool at_rack =
        !at_switch && (tk == FaultTarget::Rack || tk == FaultTarget::RackOrSwitchRack ||
                       (tk == FaultTarget::RackOrCdu && f.where == LeakSite::Rack));
    const bool at_cdu =
        tk == FaultTarget::Cdu || (tk == FaultTarget::RackOrCdu && f.where != LeakSite::Rack);
    std::vector<std::string> names;
    if (at_switch)
      for (const auto& r : spec.switch_racks) names.push_back(r.name);
    if (at_switch && names.empty()) {
      errors.push_back(LoadError{
          e.loc, f.target, "a switch fault needs the facility's switch_racks (there are none)"});
      continue;
    }
    if (at_rack)
      for (const auto& r : spec.racks) names.push_back(r.name);
    else if (at_cdu)
      for (const auto& c : spec.cdus) names.push_back(c.name);
    if (!names.empty() && std::find(names.begin(), names.end(), f.target) == names.end()) {
      errors.push_back(LoadError{e.loc, f.target,
                                 std::string(at_switch ? "unknown switch rack"
                                             : at_rack ? "unknown rack"
                                                       : "unknown CDU") +
                                     suggest(f.target, names)});
      continue;
    }
    if (fi->needs == FaultNeeds::Plant && !spec.has_plant) {
      errors.push_back(
          LoadError{e.loc, "", "'" + e.kind + "' needs a facility with a plant section"});
      continue;
    }
    if (fi->needs == FaultNeeds::Power && !spec.power.present) {
      errors.push_back(
          LoadError{e.loc, "", "'" + e.kind + "' needs a facility with a power section"});
      continue;
    }
    spec.faults.push_back(f);
  }
  for (const auto& e : sc.events) {
    if (faultByKey(e.kind) || e.kind == "job_start" || e.kind == "job_stop") continue;
    if (e.kind == "facility_water_temperature") {
      stepSeries(spec.facility_water.T_supply, e.time, e.value);
      continue;
    }
    bool found = false;
    std::vector<std::string> racks;
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
      racks.push_back(r.name);
    }
    if (!found && e.target == "*")
      errors.push_back(LoadError{e.loc, "",
                                 "no rack has a heat_load profile to step (racks with "
                                 "resolved GPUs take their load from their jobs)"});
    else if (!found)
      errors.push_back(
          LoadError{e.loc, e.target, "unknown rack" + reader::didYouMean(e.target, racks)});
  }
  if (!errors.empty()) throw LoadFailure(std::move(errors));
}

}  // namespace dctwin
