#include "solver/input/plant_reader.h"

#include <cmath>
#include <filesystem>

#include "models/psychro.h"
#include "solver/input/weather_reader.h"

namespace dctwin {

using namespace reader;

namespace {

void readWeather(MapIn& w, PlantSpec& ps) {
  const bool epw = w.get("epw") != nullptr, con = w.get("constant") != nullptr,
             dd = w.get("design_day") != nullptr;
  if (int(epw) + int(con) + int(dd) != 1) {
    w.f().error(w.node(), w.path(), "", "give exactly one of 'epw', 'constant' and 'design_day'");
    return;
  }
  if (epw) {
    std::string file;
    if (!w.read("epw", file)) return;
    std::filesystem::path path(file);
    if (path.is_relative() && !w.f().dir.empty()) path = std::filesystem::path(w.f().dir) / path;
    w.f().s.files.push_back(path.lexically_normal().string());
    try {
      ps.weather = readEpw(path.string());
    } catch (const LoadFailure& e) {
      // the weather file's own errors (file:line, column), each also naming the key that read it
      for (const LoadError& le : e.errors())
        w.f().s.add(le.loc, le.value, le.message + " (weather file of " + w.sub("epw") + ")");
    }
  } else if (con) {
    auto c = w.map("constant");
    if (!c) return;
    double Tdb = 0, Twb = 0, p = psychro::kPatm;
    if (!c->read("dry_bulb", Tdb) || !c->read("wet_bulb", Twb)) return;
    c->read("pressure", p);
    if (Twb > Tdb) {
      w.f().error(*c->get("wet_bulb"), c->sub("wet_bulb"), "", "the wet bulb exceeds the dry bulb");
      return;
    }
    ps.weather = constantWeather(Tdb, Twb, p);
  } else {
    auto d = w.map("design_day");
    if (!d) return;
    double Tmax = 0, range = 0, Twb = 0, p = psychro::kPatm;
    if (!d->read("dry_bulb_max", Tmax) || !d->read("daily_range", range) ||
        !d->read("wet_bulb", Twb))
      return;
    d->read("pressure", p);
    if (Twb > Tmax) {
      w.f().error(*d->get("wet_bulb"), d->sub("wet_bulb"), "",
                  "the wet bulb exceeds the peak dry bulb");
      return;
    }
    ps.weather = designDayWeather(Tmax, range, Twb, p);
  }
  if (const YAML::Node* tz = w.get("time_zone")) {
    double offset = 0;
    if (w.read("time_zone", offset)) {
      if (epw && !std::isnan(ps.weather.utc_offset) &&
          std::abs(offset - ps.weather.utc_offset) > 1e-6)
        w.f().error(*tz, w.sub("time_zone"), tz->IsScalar() ? tz->Scalar() : "",
                    "the weather file says UTC" +
                        std::string(ps.weather.utc_offset < 0 ? "" : "+") +
                        std::to_string(ps.weather.utc_offset / 3600.0).substr(0, 5) +
                        " h (its LOCATION); leave time_zone out or give the same");
      else
        ps.weather.utc_offset = offset;
    }
  }
  int month = 1, day = 1, hour = 0;
  w.read("start_month", month);
  w.read("start_day", day);
  w.read("start_hour", hour);
  static const int kDays[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (day > kDays[month - 1]) {
    w.f().error(*w.get("start_day"), w.sub("start_day"), std::to_string(day),
                "no such day in month " + std::to_string(month) + " (365-day calendar)");
    day = 1;
  }
  ps.start = secondsOfYear(month, day, hour);
}

void readPumps(MapIn& m, PlantPumpParams& p) {
  m.read("count", p.count);
  m.read("running", p.running);
  m.read("rated_flow", p.rated_flow);
  m.read("rated_head", p.rated_head);
  m.read("shutoff_ratio", p.shutoff_ratio);
  m.read("efficiency", p.efficiency);
  m.read("min_speed", p.min_speed);
  m.read("header_dp", p.header_dp);
  m.read("design_flow", p.design_flow);
  m.read("dp_setpoint", p.dp_set);
  if (p.running > p.count)
    m.f().error(*m.get("running"), m.sub("running"), std::to_string(p.running),
                "more pumps running than count");
}

void readDry(MapIn& m, PlantParams& pp) {
  DryCoolerParams& d = pp.dry;
  m.read("count", d.count);
  m.read("rated_capacity", d.Q_nom);
  m.read("rated_air_temperature", d.T_air_nom);
  m.read("rated_inlet", d.T_in_nom);
  m.read("rated_outlet", d.T_out_nom);
  m.read("rated_fan_power", d.P_fan_nom);
  m.read("min_speed", d.min_speed);
  m.read("adiabatic", d.adiabatic);
  m.read("pad_effectiveness", d.pad_effectiveness);
  m.read("cycles", d.cycles);
  m.read("wet_above", pp.wet_above);
  if (!(d.T_in_nom > d.T_out_nom && d.T_out_nom > d.T_air_nom))
    m.f().error(m.node(), m.path(), "",
                "the rating needs rated_inlet > rated_outlet > rated_air_temperature");
}

void readTowers(MapIn& m, PlantParams& pp) {
  TowerParams& t = pp.tower;
  m.read("count", t.count);
  m.read("nominal_flow", t.m_nom);
  m.read("nominal_wet_bulb", t.T_wb_nom);
  m.read("nominal_inlet", t.T_in_nom);
  m.read("nominal_outlet", t.T_out_nom);
  m.read("water_air_ratio", t.water_air_ratio);
  m.read("fan_power_per_flow", t.fan_power_per_flow);
  m.read("min_speed", t.min_speed);
  m.read("drift", t.drift);
  m.read("cycles", t.cycles);
  pp.hx_approach = 2.0;
  m.read("hx_approach", pp.hx_approach);
  if (!(t.T_in_nom > t.T_out_nom && t.T_out_nom > t.T_wb_nom))
    m.f().error(m.node(), m.path(), "",
                "the nominal point needs nominal_inlet > nominal_outlet > nominal_wet_bulb");
}

void readChillers(MapIn& m, PlantParams& pp) {
  ChillerParams& c = pp.chiller;
  pp.has_chiller = true;
  m.read("count", c.count);
  m.read("rated_capacity", c.Q_ref);
  m.read("rated_cop", c.COP_ref);
  m.read("condenser_approach", c.cond_approach);
  m.read("condenser_fan_ratio", c.cond_fan_ratio);
  if (c.count == 0) pp.has_chiller = false;
}

}  // namespace

void readPlant(MapIn& pl, FacilitySpec& spec) {
  PlantSpec& ps = spec.plant;
  PlantParams& p = ps.params;
  spec.has_plant = true;
  pl.read("supply_setpoint", p.T_set);
  if (auto r = pl.map("reset")) {
    p.reset = true;
    r->read("offset", p.reset_offset);
    r->read("min", p.T_set_min);
    r->read("max", p.T_set_max);
  }
  pl.read("deadband", p.deadband);
  pl.read("min_run_time", p.min_run);
  pl.read("step", p.step);
  if (auto w = pl.map("weather")) readWeather(*w, ps);
  if (auto m = pl.map("pumps")) readPumps(*m, p.pump);
  const bool dry = pl.get("dry_coolers") != nullptr, tow = pl.get("cooling_towers") != nullptr;
  if (dry == tow) {
    pl.f().error(pl.node(), pl.path(), "",
                 "give exactly one of 'dry_coolers' and 'cooling_towers' (the heat rejection)");
  } else if (dry) {
    p.rejection = PlantParams::Rejection::DryCooler;
    if (auto m = pl.map("dry_coolers")) readDry(*m, p);
  } else {
    p.rejection = PlantParams::Rejection::Tower;
    if (auto m = pl.map("cooling_towers")) readTowers(*m, p);
  }
  if (auto m = pl.map("chillers")) readChillers(*m, p);
  ps.tariff = {0.0};
  if (auto t = pl.map("tariff")) {
    t->read("price", ps.tariff[0]);
    std::vector<double> tou;
    if (t->read("time_of_use", tou)) {
      if (tou.size() != 24)
        t->f().error(*t->get("time_of_use"), t->sub("time_of_use"),
                     std::to_string(tou.size()) + " values", "expected 24 prices (hours 0 ... 23)");
      else
        ps.tariff = tou;
    }
    t->read("currency", ps.currency);
  }
  pl.read("grid_co2", ps.grid_co2);
}

}  // namespace dctwin
