// entity_readers.cpp: the entities a catalog file and a facility file share (see
// entity_readers.h); moved out of loader.cpp, which reads the files and resolves references
#include "solver/input/entity_readers.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "solver/common/units.h"
#include "solver/input/datasheet_reader.h"
#include "solver/input/fluid_reader.h"
#include "solver/input/workload_reader.h"

namespace dctwin::entities {

using namespace reader;

// the table of a facility-file section by its key path from the top ({"jobs", "phases"})
const keys::Section& section(std::initializer_list<const char*> path) {
  const keys::Section* s = &keys::facilityFile();
  for (const char* k : path) s = s->find(k)->section;
  return *s;
}

//---------------------------------------------------------------------------------------------
// entity readers; each fills its spec from one map, leaving absent keys as they are, so that a
// facility entry read over a catalog entry overrides it key by key

// report required keys that neither the facility nor the catalog set; `prefix` is relative
// ("heat_exchanger."), reported once per missing section
void requireKeys(File& f, const SourceLoc& site, const Provided& prov,
                 const std::vector<std::string>& keys, const std::string& extra) {
  // missing keys grouped by the innermost section present: one error per section
  std::map<std::string, std::vector<std::string>> missing;
  std::vector<std::string> order;
  for (const auto& k : keys) {
    if (prov.count(k)) continue;
    std::string section = k;
    std::string key;
    do {
      const std::size_t d = section.rfind('.');
      key = d == std::string::npos ? section : section.substr(d + 1);
      section.resize(d == std::string::npos ? 0 : d);
    } while (!section.empty() && !prov.count(section));
    auto& list = missing[section];
    if (list.empty()) order.push_back(section);
    if (std::find(list.begin(), list.end(), key) == list.end()) list.push_back(key);
  }
  for (const auto& section : order) {
    SourceLoc at = site;
    if (!section.empty()) {
      const Set& s = prov.at(section);
      if (!s.ok) continue;  // the section itself was reported
      at = s.loc;
    }
    const auto& list = missing[section];
    std::string names;
    for (std::size_t i = 0; i < list.size(); ++i) names += (i ? ", '" : "'") + list[i] + "'";
    f.s.add(
        at, "",
        (list.size() == 1 ? "missing required key " : "missing required keys ") + names + extra);
  }
}

// a check across keys: the error goes to where `key` was set (or the entity)
bool good(const Provided& prov, const std::string& key) {
  auto it = prov.find(key);
  return it == prov.end() || it->second.ok;
}
SourceLoc where(const Provided& prov, const std::string& key, const SourceLoc& site) {
  auto it = prov.find(key);
  return it == prov.end() ? site : it->second.loc;
}

// where to report a check across several keys: the first of them set in the file being read
// (a facility's override rather than the catalog entry below it), else the first set at all
SourceLoc where(const Provided& prov, std::initializer_list<const char*> keys,
                const SourceLoc& site) {
  for (const char* k : keys)
    if (auto it = prov.find(k); it != prov.end() && it->second.loc.file == site.file)
      return it->second.loc;
  for (const char* k : keys)
    if (auto it = prov.find(k); it != prov.end()) return it->second.loc;
  return site;
}

//--- fluids
void readFluid(MapIn& m, FluidData& d) {
  File& f = m.file();
  m.read("T_min", d.T_min);
  m.read("T_max", d.T_max);
  double freeze = 0;
  const bool has_freeze = m.read("freeze_point", freeze);
  if (d.T_min > 0 && d.T_max > 0 && !(d.T_min < d.T_max))
    f.s.add(m.locOf("T_max"), "", "T_max must be above T_min");
  if (has_freeze && d.T_min > 0 && freeze > d.T_min + 1e-9)
    f.s.add(m.locOf("freeze_point"), "", "freeze_point must not be above T_min");
  auto table = m.map("table");
  if (!table) return;
  static const std::vector<std::string> kCols{"T_degC", "rho_kg_m3", "cp_J_kgK", "mu_Pa_s",
                                              "k_W_mK"};
  static const Range kColRange[5] = {{-50, 200, false, false, "between -50 and 200 (degC)"},
                                     {0, 1e4, true, false, "> 0 and <= 10000 (kg/m3)"},
                                     {0, 1e5, true, false, "> 0 and <= 100000 (J/(kg K))"},
                                     {0, 10, true, false, "> 0 and <= 10 (Pa s)"},
                                     {0, 100, true, false, "> 0 and <= 100 (W/(m K))"}};
  std::vector<int> col_of;  // table column -> property index
  bool cols_ok = false;
  if (const YAML::Node* cols = table->require("columns")) {
    const std::string cpath = table->sub("columns");
    if (checkList(f, *cols, cpath, 1, "column names")) {
      cols_ok = true;
      std::size_t i = 0;
      for (auto it = cols->begin(); it != cols->end(); ++it, ++i) {
        const auto name = readText(f, *it, item(cpath, i), "a column name");
        if (!name) {
          cols_ok = false;
          continue;
        }
        const auto pos = std::find(kCols.begin(), kCols.end(), *name);
        if (pos == kCols.end()) {
          f.error(*it, item(cpath, i), *name,
                  "unknown column" + didYouMean(*name, kCols) +
                      "; expected T_degC, rho_kg_m3, "
                      "cp_J_kgK, mu_Pa_s, k_W_mK");
          cols_ok = false;
          continue;
        }
        const int idx = static_cast<int>(pos - kCols.begin());
        if (std::find(col_of.begin(), col_of.end(), idx) != col_of.end()) {
          f.error(*it, item(cpath, i), *name, "duplicate column");
          cols_ok = false;
          continue;
        }
        col_of.push_back(idx);
      }
      if (cols_ok) {
        for (int k = 0; k < 5; ++k)
          if (std::find(col_of.begin(), col_of.end(), k) == col_of.end()) {
            f.error(*cols, cpath, "", "the table lacks the column '" + kCols[k] + "'");
            cols_ok = false;
          }
      }
    }
  }
  const YAML::Node* rows = table->require("rows");
  if (!rows) return;
  const std::string rpath = table->sub("rows");
  if (!checkList(f, *rows, rpath, 2, "rows")) return;
  if (!cols_ok) return;
  std::vector<double> cols[5];
  bool ok = true;
  std::size_t i = 0;
  for (auto it = rows->begin(); it != rows->end(); ++it, ++i) {
    const std::string ip = item(rpath, i);
    f.visit(*it, ip);
    if (!it->IsSequence() || it->size() != col_of.size()) {
      f.error(*it, ip, "",
              "expected a row of " + std::to_string(col_of.size()) + " numbers, got " +
                  (it->IsSequence() ? std::to_string(it->size()) + " values" : kindOf(*it)));
      ok = false;
      continue;
    }
    double row[5] = {0, 0, 0, 0, 0};
    bool row_ok = true;
    for (std::size_t c = 0; c < col_of.size(); ++c) {
      const auto v = readQuantity(f, (*it)[c], item(ip, c), Dim::None, kColRange[col_of[c]]);
      if (v)
        row[col_of[c]] = *v;
      else
        row_ok = false;
    }
    if (!row_ok) {
      ok = false;
      continue;
    }
    if (!cols[0].empty() && !(fromCelsius(row[0]) > cols[0].back())) {
      f.error(*it, ip, "", "the temperatures must increase strictly from row to row");
      ok = false;
      continue;
    }
    cols[0].push_back(fromCelsius(row[0]));
    for (int c = 1; c < 5; ++c) cols[c].push_back(row[c]);
  }
  if (!ok) return;
  d.T = std::move(cols[0]);
  d.rho = std::move(cols[1]);
  d.cp = std::move(cols[2]);
  d.mu = std::move(cols[3]);
  d.k = std::move(cols[4]);
}

//--- cold plates
void readColdPlate(MapIn& m, ColdPlateSpec& cp) {
  File& f = m.file();
  m.read("time_constant", cp.time_constant);
  m.read("mass", cp.mass);
  m.read("holdup_volume", cp.holdup_volume);
  if (auto dp = m.map("pressure_drop")) {
    dp->read("dp_nominal", cp.dp_nominal);
    dp->read("flow_nominal", cp.flow_nominal);
    dp->read("exponent", cp.dp_exponent);
  }
  auto res = m.map("resistance", openSection(), true);
  if (!res) return;
  if (res->keys().empty())
    f.error(res->node(), res->path(), "", "expected at least one fluid with its resistance law");
  for (const std::string& fluid : res->keys()) {
    const std::string lpath = res->sub(fluid);
    if (!validName(fluid)) {
      f.error(*res->keyNode(fluid), lpath, fluid, std::string("fluid name: ") + kNameRule);
      continue;
    }
    MapIn law(f, *res->get(fluid), lpath, *m.def("resistance").section);
    if (!law.valid()) continue;
    ColdPlateSpec::Law L;
    if (auto fit = law.map("fit")) {
      fit->read("R_inf", L.R_inf);
      fit->read("a", L.a);
      fit->read("b", L.b);
    }
    if (auto table = law.map("table")) {
      std::vector<double> flow, R;
      const bool okf = table->read("flow_L_min", flow);
      const bool okr = table->read("R_K_W", R);
      if (okf && okr) {
        if (flow.size() != R.size()) {
          f.error(*table->get("R_K_W"), table->sub("R_K_W"), "",
                  "expected as many resistances as flows (" + std::to_string(flow.size()) +
                      "), got " + std::to_string(R.size()));
        } else {
          bool inc = true;
          for (std::size_t i = 1; i < flow.size(); ++i) inc = inc && flow[i] > flow[i - 1];
          bool dec = true;  // a plate conducts no worse with more flow
          for (std::size_t i = 1; i < R.size(); ++i) dec = dec && R[i] <= R[i - 1];
          if (!inc) {
            f.error(*table->get("flow_L_min"), table->sub("flow_L_min"), "",
                    "the flows must increase strictly");
          } else if (!dec) {
            f.error(*table->get("R_K_W"), table->sub("R_K_W"), "",
                    "the resistances must not rise with flow");
          } else {
            for (double& v : flow) v /= 60000.0;  // L/min -> m3/s
            L.table_flow = std::move(flow);
            L.table_R = std::move(R);
          }
        }
      }
    }
    // which one R(V) follows: `use`, else the fit (the table where there is no fit)
    const bool has_fit = law.get("fit") != nullptr, has_table = law.get("table") != nullptr;
    L.use_table = !has_fit;
    if (std::string use; law.read("use", use)) L.use_table = use == "table";
    if (!has_fit && !has_table)
      f.error(law.node(), lpath, "", "expected a fit or a table (or both)");
    else if (L.use_table && !has_table)
      f.error(*law.get("use"), law.sub("use"), "table", "use: table needs a table");
    else if (!L.use_table && !has_fit)
      f.error(*law.get("use"), law.sub("use"), "fit", "use: fit needs a fit");
    cp.laws[fluid] = std::move(L);
  }
}

//--- rack types
void readRackType(MapIn& m, RackTypeSpec& r) {
  m.read("nominal_power", r.nominal_power);
  m.read("liquid_fraction", r.liquid_fraction);
  m.read("gpu_heat_fraction", r.gpu_heat_fraction);
  m.read("trays", r.trays);
  m.read("gpus_per_tray", r.gpus_per_tray);
  m.read("coldplate", r.coldplate);
  m.read("coldplate_paths", r.coldplate_paths);
  m.read("design_flow", r.design_flow);
  if (auto mf = m.map("manifold")) {
    mf->read("dp_nominal", r.manifold_dp_nominal);
    mf->read("flow_nominal", r.manifold_flow_nominal);
    mf->read("exponent", r.manifold_exponent);
    if (std::string a; mf->read("arrangement", a)) r.manifold_z = a == "Z";
    mf->read("header_length", r.manifold_header_length);
    mf->read("header_diameter", r.manifold_header_diameter);
    mf->read("header_roughness", r.manifold_header_roughness);
    r.manifold_loc = mf->loc();
  }
  m.read("coldplate_series", r.coldplate_series);
  m.read("coolant_volume", r.coolant_volume);
  m.read("balancing_valve_kv", r.balancing_valve_kv);
  m.read("max_working_pressure", r.max_working_pressure);
  m.read("supply_temperature_max", r.supply_temperature_max);
  m.read("gpu", r.gpu);
  readGpuMemory(m, r.gpu_hbm_capacity, r.gpu_hbm_bandwidth);
  m.read("other_idle_power", r.other_idle_power);
  m.read("other_max_power", r.other_max_power);
  if (auto es = m.map("energy_storage")) {
    r.has_storage = true;
    es->read("capacity", r.storage.capacity_J);
    es->read("max_power", r.storage.P_max_W);
    es->read("time_constant", r.storage.tau);
    es->read("recovery_time", r.storage.soc_tau);
  }
  if (const YAML::Node* pl = m.get("parts"); pl && !pl->IsNull()) r.parts.clear();
  m.list("parts", [&](const YAML::Node& x, const std::string& p, std::size_t) {
    MapIn pm(m.f(), x, p, *m.def("parts").section);
    if (!pm.valid()) return;
    std::string name;
    int count = 0;
    bool ok = pm.read("part", name);
    ok = pm.read("count", count) && ok;
    if (ok) r.parts.emplace_back(name, count);
  });
}

//--- rack parts (CPUs, switch trays, NICs, fans)
void readPart(MapIn& m, PartParams& p) {
  std::string kind;
  if (m.read("kind", kind)) partKindFromName(kind, &p.kind);  // the table lists the kinds
  m.read("idle_power", p.P_idle);
  m.read("max_power", p.P_max);
  m.read("liquid_fraction", p.liquid_fraction);
  m.read("ports", p.ports);
  m.read("port_active_power", p.P_port_active);
  m.read("port_idle_power", p.P_port_idle);
  m.read("port_lpm_power", p.P_port_lpm);
  m.read("temperature_max", p.T_max);
  m.read("plate_resistance", p.R_plate);
  if (p.P_idle > p.P_max) m.f().s.add(m.loc(), "", "expected idle_power <= max_power");
  if (p.T_max > 0 && (p.R_plate <= 0 || p.liquid_fraction <= 0))
    m.f().s.add(m.locOf("temperature_max"), fmt(toCelsius(p.T_max)) + " degC",
                "expected plate_resistance and liquid_fraction > 0 with temperature_max (only a "
                "cold-plated part's temperature is modelled)");
}

//--- GPUs

// GPU-to-GPU spreads (docs/models/gpu_variation.md): a catalog type's, or a facility's overrides
void readSpread(MapIn& m, GpuSpread& s) {
  m.read("leakage", s.leakage);
  m.read("leakage_tray", s.leakage_tray);
  m.read("idle", s.idle);
  m.read("vf", s.vf);
  m.read("tim", s.tim);
  m.read("hbm", s.hbm);
  m.read("bad_mount_fraction", s.bad_mount_fraction);
  m.read("bad_mount_factor", s.bad_mount_factor);
}

void readGpu(MapIn& m, GpuParams& g) {
  m.read("tdp", g.P_tdp);
  m.read("power_limit_min", g.P_limit_min);
  m.read("power_limit_max", g.P_limit_max);
  m.read("idle_power", g.P_idle);
  m.read("hbm_idle_power", g.P_hbm_idle);
  m.read("hbm_capacity", g.hbm_capacity);
  m.read("hbm_bandwidth", g.hbm_bandwidth);
  m.read("nvlink_bandwidth", g.nvlink_bandwidth);
  m.read("dense_bf16_flops", g.peak_flops);
  m.read("dense_fp8_flops", g.peak_fp8);
  m.read("dense_fp4_flops", g.peak_fp4);
  m.read("sm_count", g.sm_count);
  m.read("nvlink_domain", g.nvlink_domain);
  if (auto e = m.map("kernel_efficiency")) {
    e->read("gemm_bf16", g.eff_gemm_bf16);
    e->read("gemm_fp8", g.eff_gemm_fp8);
    e->read("gemm_fp4", g.eff_gemm_fp4);
    e->read("attention_forward", g.eff_attention_fwd);
    e->read("attention_backward", g.eff_attention_bwd);
    e->read("hbm", g.eff_hbm);
    e->read("gemm_stall_share", g.eff_gemm_stall);
  }
  m.read("clock_max", g.f_max);
  m.read("clock_idle", g.f_idle);
  m.read("clock_memory_bound", g.f_membound);
  if (auto pm = m.map("power_model")) {
    pm->read("sm_max", g.P_sm_max);
    pm->read("hbm_max", g.P_hbm_max);
    pm->read("nvlink_max", g.P_nvl_max);
    pm->read("voltage_v0", g.v0);
    pm->read("voltage_floor", g.v_floor);
    pm->read("clock_power", g.P_clk);
    pm->read("leakage_ref", g.P_leak_ref);
    pm->read("leakage_beta", g.beta);
  }
  if (auto th = m.map("thermal")) {
    th->read("maxop", g.T_maxop);
    th->read("slowdown", g.T_slowdown);
    th->read("shutdown", g.T_shutdown);
    th->read("hbm_max", g.T_hbm_max);
    th->read("R_junction_plate", g.R_jc);
    th->read("C_die", g.C_die);
    th->read("R_hbm_plate", g.R_hbm);
    th->read("C_hbm", g.C_hbm);
  }
  if (auto v = m.map("variation")) readSpread(*v, g.variation);
  // orderings the model relies on
  if (g.P_limit_min > g.P_limit_max || g.P_tdp > g.P_limit_max * (1 + 1e-12))
    m.f().s.add(m.loc(), "", "expected power_limit_min <= tdp <= power_limit_max");
  if (!(g.f_idle < g.f_max) || g.f_membound > g.f_max || g.f_membound < g.f_idle)
    m.f().s.add(m.loc(), "", "expected clock_idle < clock_memory_bound <= clock_max");
  if (!(g.T_maxop < g.T_slowdown && g.T_slowdown <= g.T_shutdown))
    m.f().s.add(m.loc(), "", "expected thermal.maxop < thermal.slowdown <= thermal.shutdown");
  if (g.P_leak_ref > g.P_idle || g.P_hbm_idle > g.P_idle)
    m.f().s.add(m.loc(), "", "expected leakage_ref and hbm_idle_power to be parts of idle_power");
}

// the keys a rack type needs after the catalog merge (the table's required keys)
const std::vector<std::string>& rackTypeRequired() {
  static const std::vector<std::string> r = keys::requiredPaths(keys::catalogSection("racks"));
  return r;
}

void checkRackType(File& f, const RackTypeSpec& r, const Provided& prov, const SourceLoc& site,
                   const std::string& extra) {
  requireKeys(f, site, prov, rackTypeRequired(), extra);
  if (good(prov, "gpu_heat_fraction") && good(prov, "liquid_fraction") &&
      r.gpu_heat_fraction > r.liquid_fraction + 1e-12)
    f.s.add(where(prov, {"gpu_heat_fraction", "liquid_fraction"}, site), fmt(r.gpu_heat_fraction),
            "gpu_heat_fraction must not exceed liquid_fraction (" + fmt(r.liquid_fraction) +
                "): the GPU heat is part of the heat taken by the liquid");
}

//--- CDUs
void readPipe(MapIn& m, const char* key, PipeSpec& p) {
  auto pm = m.map(key);
  if (!pm) return;
  pm->read("length", p.length);
  pm->read("diameter", p.diameter);
  pm->read("roughness", p.roughness);
  pm->read("segments", p.segments);
  pm->read("heat_loss_coefficient", p.ua_per_length);
}

void readCduBody(MapIn& m, CduSpec& c) {
  if (auto hx = m.map("heat_exchanger")) {
    hx->read("rated_capacity", c.hex_capacity);
    hx->read("rated_approach", c.hex_approach);
    hx->read("rated_primary_supply_temperature", c.hex_T_primary_rated);
    hx->read("rated_flow_secondary", c.hex_flow_secondary);
    hx->read("rated_flow_primary", c.hex_flow_primary);
    hx->read("dp_primary", c.hex_dp_primary);
    hx->read("dp_secondary", c.hex_dp_secondary);
    hx->read("holdup_primary", c.hex_holdup_primary);
    hx->read("holdup_secondary", c.hex_holdup_secondary);
    hx->read("flow_exponent", c.hex_flow_exponent);
    datasheet::readHex(*hx, c);
  }
  if (auto p = m.map("pumps")) {
    p->read("count", c.pump_count);
    p->read("running", c.pump_running);
    p->read("rated_flow", c.pump_rated_flow);
    p->read("rated_head", c.pump_rated_head);
    if (auto cv = p->map("curve")) {
      cv->read("flow_ratio", c.pump_curve_flow);
      cv->read("head_ratio", c.pump_curve_head);
    }
    p->read("efficiency_hydraulic", c.pump_eta_hyd);
    p->read("efficiency_motor", c.pump_eta_mot);
    p->read("rise_time", c.pump_rise_time);
    p->read("min_speed", c.pump_min_speed);
    datasheet::readPumps(*p, c);
  }
  if (auto v = m.map("primary_valve")) {
    v->read("rangeability", c.valve_rangeability);
    v->read("leakage", c.valve_leakage);
    v->read("dp_nominal", c.valve_dp_nominal);
    v->read("stroke_time", c.valve_stroke_time);
    datasheet::readValve(*v, c);
  }
  if (auto t = m.map("expansion_tank")) {
    t->read("volume", c.tank_volume);
    t->read("precharge", c.tank_precharge);
    t->read("fill_pressure", c.tank_fill);
  }
  // negative-pressure loop [K92]: a vacuum pump holds the tank below atmosphere
  if (auto v = m.map("vacuum_tank")) v->read("pressure", c.vacuum);
  if (auto fl = m.map("filter")) datasheet::readFilter(*fl, c);
  m.read("internal_volume", c.internal_volume);
  if (auto ct = m.map("control")) {
    ct->read("supply_temperature", c.T_supply_set);
    if (std::string mode; ct->read("pump_mode", mode))
      c.pump_mode = mode == "flow" ? CduSpec::PumpMode::Flow : CduSpec::PumpMode::Dp;
    ct->read("flow_setpoint", c.flow_set);
    ct->read("dp_setpoint", c.dp_set);
    if (auto pi = ct->map("temperature_pi")) {
      pi->read("k", c.temp_k);
      pi->read("Ti", c.temp_Ti);
      datasheet::readPi(*pi, c.temp_pi);
    }
    if (auto pi = ct->map("pump_pi")) {
      pi->read("k", c.pump_k);
      pi->read("Ti", c.pump_Ti);
      datasheet::readPi(*pi, c.pump_pi);
    }
  }
  if (auto l = m.map("limits")) {
    l->read("supply_temperature_min", c.T_supply_min);
    l->read("supply_temperature_max", c.T_supply_max);
    l->read("secondary_pressure_max", c.p_secondary_max);
    l->read("primary_pressure_max", c.p_primary_max);
  }
}

// the keys a CDU needs after the catalog merge (the table's required keys)
const std::vector<std::string>& cduRequired() {
  static const std::vector<std::string> r = keys::requiredPaths(keys::catalogSection("cdus"));
  return r;
}

void checkCdu(File& f, const CduSpec& c, const Provided& prov, const SourceLoc& site,
              const std::string& extra) {
  requireKeys(f, site, prov, cduRequired(), extra);
  datasheet::check(f, c, prov, site, extra);
  if (good(prov, "pumps.running") && good(prov, "pumps.count") && c.pump_running > c.pump_count)
    f.s.add(where(prov, {"pumps.running", "pumps.count"}, site), std::to_string(c.pump_running),
            "expected at most pumps.count (" + std::to_string(c.pump_count) + ") running pumps");
  // pump curve: head ratio vs flow ratio from shut-off (0) to at least the rated point (1)
  if (prov.count("pumps.curve.flow_ratio") && prov.count("pumps.curve.head_ratio") &&
      good(prov, "pumps.curve.flow_ratio") && good(prov, "pumps.curve.head_ratio")) {
    const auto& x = c.pump_curve_flow;
    const auto& y = c.pump_curve_head;
    const SourceLoc lx = where(prov, "pumps.curve.flow_ratio", site);
    const SourceLoc ly = where(prov, "pumps.curve.head_ratio", site);
    const SourceLoc lxy = where(prov, {"pumps.curve.flow_ratio", "pumps.curve.head_ratio"}, site);
    if (x.size() < 2) {
      f.s.add(lx, "", "the pump curve needs at least 2 points, got " + std::to_string(x.size()));
    } else if (x.size() != y.size()) {
      f.s.add(lxy, "",
              "expected as many head ratios as flow ratios (" + std::to_string(x.size()) +
                  "), got " + std::to_string(y.size()));
    } else {
      bool inc = x[0] == 0.0, dec = true;
      for (std::size_t i = 1; i < x.size(); ++i) {
        inc = inc && x[i] > x[i - 1];
        dec = dec && y[i] < y[i - 1];
      }
      if (!inc)
        f.s.add(lx, "", "the flow ratios must start at 0 and increase strictly");
      else if (x.back() < 1.0)
        f.s.add(lx, "", "the flow ratios must reach the rated point 1");
      if (!dec) f.s.add(ly, "", "the head ratios must decrease strictly");
    }
  }
  const bool tmin =
      prov.count("limits.supply_temperature_min") && good(prov, "limits.supply_temperature_min");
  const bool tmax =
      prov.count("limits.supply_temperature_max") && good(prov, "limits.supply_temperature_max");
  if (tmin && tmax && !(c.T_supply_min < c.T_supply_max))
    f.s.add(where(prov, {"limits.supply_temperature_max", "limits.supply_temperature_min"}, site),
            "", "limits.supply_temperature_max must be above limits.supply_temperature_min");
  else if (tmin && tmax && prov.count("control.supply_temperature") &&
           good(prov, "control.supply_temperature") &&
           (c.T_supply_set < c.T_supply_min - 1e-9 || c.T_supply_set > c.T_supply_max + 1e-9))
    f.s.add(where(prov,
                  {"control.supply_temperature", "limits.supply_temperature_min",
                   "limits.supply_temperature_max"},
                  site),
            fmt(toCelsius(c.T_supply_set)) + " degC",
            "the supply temperature set point must lie within the CDU's limits (" +
                fmt(toCelsius(c.T_supply_min)) + " to " + fmt(toCelsius(c.T_supply_max)) +
                " degC)");
  if (prov.count("control") && good(prov, "control") && good(prov, "control.pump_mode")) {
    if (c.pump_mode == CduSpec::PumpMode::Flow && !prov.count("control.flow_setpoint"))
      f.s.add(where(prov, "control", site), "",
              "missing required key 'flow_setpoint' (pump_mode is flow)" + extra);
    if (c.pump_mode == CduSpec::PumpMode::Dp && !prov.count("control.dp_setpoint"))
      f.s.add(where(prov, "control", site), "",
              "missing required key 'dp_setpoint' (pump_mode is dp)" + extra);
  }
}

}  // namespace dctwin::entities
