// loader.cpp: facility YAML -> FacilitySpec, with catalog resolution and full validation
//
// layout
//   entity readers                        solver/input/entity_readers.cpp (fluid, cold plate, rack
//                                         type, GPU, part, CDU bodies: catalog and facility files)
//   Catalog                               data/catalog/<kind>/<name>.yaml lookup and cache
//   FacilityReader                        the facility file, reference resolution, cross checks
//   public API
//
// what is accepted is declared once, in the key tables (solver/input/facility_keys.cpp): the
// readers take each key's type, unit, range and whether it is required from there, through
// MapIn (solver/input/yaml_reader.h), which also does the document checks, the visit budget and
// the error collection.
#include "solver/input/loader.h"
#include "solver/input/workload_reader.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string_view>
#include <utility>

#include "solver/common/paths.h"
#include "solver/common/units.h"
#include "solver/input/air_rack_reader.h"
#include "solver/input/datasheet_reader.h"
#include "solver/input/entity_readers.h"
#include "solver/input/fluid_reader.h"
#include "solver/input/keys.h"
#include "solver/input/plant_reader.h"
#include "solver/input/protection_reader.h"
#include "solver/input/switch_reader.h"
#include "solver/input/yaml_reader.h"

namespace dctwin {

namespace {
namespace fs = std::filesystem;
using namespace reader;

constexpr long long kMaxCount = 10000;  // GPU ranks in a trace

using namespace entities;  // the entity readers (solver/input/entity_readers.h)

//---------------------------------------------------------------------------------------------
// Catalog: data/catalog/<kind>/<name>.yaml in the data folders, parsed once per load

struct CatalogEntry {
  bool ok = false;  // parsed without errors
  std::string path;
  FluidData fluid;
  ColdPlateSpec coldplate;
  RackTypeSpec rack;
  CduSpec cdu;
  GpuParams gpu;
  PartParams part;
  YAML::Node node;  // electrical entries: read on demand by their user
  Provided prov;
};

class Catalog {
 public:
  explicit Catalog(Session& s) : s_(s) {}

  // names of the entries of a kind, over all data folders
  const std::vector<std::string>& names(const std::string& kind) {
    auto [it, fresh] = names_.try_emplace(kind);
    if (!fresh) return it->second;
    std::set<std::string> found;
    for (const auto& d : s_.dirs) {
      std::error_code ec;
      fs::directory_iterator di(fs::path(d) / "catalog" / kind, ec), end;
      for (; !ec && di != end; di.increment(ec)) {
        const fs::path p = di->path();
        if (p.extension() == ".yaml" && validName(p.stem().string()))
          found.insert(p.stem().string());
        if (found.size() > 10000) break;
      }
    }
    it->second.assign(found.begin(), found.end());
    return it->second;
  }

  // the entry, or nullptr when no file has that name; a broken file gives an entry with !ok
  const CatalogEntry* get(const std::string& kind, const std::string& name) {
    if (!validName(name)) return nullptr;
    const std::string key = kind + "/" + name;
    if (auto it = cache_.find(key); it != cache_.end()) return it->second.get();
    std::string path;
    for (const auto& d : s_.dirs) {
      const fs::path p = fs::path(d) / "catalog" / kind / (name + ".yaml");
      std::error_code ec;
      if (fs::is_regular_file(p, ec)) {
        path = p.string();
        break;
      }
    }
    if (path.empty()) {
      cache_[key] = nullptr;
      return nullptr;
    }
    auto e = std::make_unique<CatalogEntry>();
    e->path = path;
    const std::size_t before = s_.count();
    load(kind, name, *e);
    e->ok = s_.count() == before;
    return (cache_[key] = std::move(e)).get();
  }

 private:
  void load(const std::string& kind, const std::string& name, CatalogEntry& e) {
    std::string why;
    s_.files.push_back(e.path);
    const auto text = readTextFile(e.path, &why);
    if (!text) {
      s_.add(SourceLoc{e.path, 0, 0, ""}, "", "cannot read the catalog file: " + why);
      return;
    }
    YAML::Node root;
    if (!parseDocument(s_, e.path, *text, root)) return;
    File f{s_, e.path, fs::path(e.path).parent_path().string()};
    // electrical entries also carry documentation keys of their standards: any key is accepted
    MapIn m(f, root, "", keys::catalogSection(kind), &e.prov, "");
    if (!m.valid()) return;
    std::string declared;
    if (m.read("name", declared) && declared != name)
      f.s.add(m.locOf("name"), declared, "the name differs from the file name '" + name + ".yaml'");
    m.read("description", declared);
    // sources: citations for people, not read
    if (kind == "fluids") {
      readFluid(m, e.fluid);
      e.fluid.name = name;
    } else if (kind == "coldplates") {
      readColdPlate(m, e.coldplate);
      e.coldplate.name = name;
      e.coldplate.loc = m.loc();
    } else if (kind == "gpus") {
      readGpu(m, e.gpu);
      e.gpu.name = name;
    } else if (kind == "parts") {
      readPart(m, e.part);
      e.part.name = name;
    } else if (kind == "electrical") {
      e.node = root;
    } else if (kind == "racks") {
      readRackType(m, e.rack);
      e.rack.name = name;
      e.rack.loc = m.loc();
    } else {
      readCduBody(m, e.cdu);
      e.cdu.model = name;
      e.cdu.loc = m.loc();
    }
  }

  Session& s_;
  std::map<std::string, std::unique_ptr<CatalogEntry>> cache_;
  std::map<std::string, std::vector<std::string>> names_;
};

//---------------------------------------------------------------------------------------------
// FacilityReader

class FacilityReader {
 public:
  FacilityReader(File& f, Catalog& cat, FacilitySpec& spec) : f_(f), cat_(cat), spec_(spec) {}

  void read(const YAML::Node& root) {
    MapIn top(f_, root, "", keys::facilityFile());
    if (!top.valid()) return;
    if (const YAML::Node* v = top.get("dctwin")) {
      f_.visit(*v, "dctwin");
      if (!v->IsScalar() || trimmed(v->Scalar()) != "1")
        f_.error(*v, "dctwin", v->IsScalar() ? v->Scalar() : "",
                 "unsupported format version; this dctwin reads version 1 (dctwin: 1)");
    } else {
      top.missing("dctwin", " (the format version: dctwin: 1)");
    }
    top.read("name", spec_.name);
    top.read("description", spec_.description);
    if (auto site = top.map("site")) {
      site->read("ambient_temperature", spec_.T_ambient);
      if (auto room = site->map("room_air")) {
        spec_.has_room_air = true;
        room->read("volume", spec_.room_volume);
        readRoomAir(*room);
      }
    }
    readWater(top);
    using Item = const YAML::Node&;
    using Path = const std::string&;
    top.list("coldplates", [&](Item x, Path p, std::size_t) { readPlate(x, p); });
    top.list("rack_types", [&](Item x, Path p, std::size_t) { readType(x, p); });
    top.list("cdus", [&](Item x, Path p, std::size_t) { readCdu(x, p); });
    top.list("racks", [&](Item x, Path p, std::size_t) { readRack(x, p); });
    top.list("air_racks", [&](Item x, Path p, std::size_t) { airracks::read(f_, x, p, spec_); });
    top.list("switch_racks",
             [&](Item x, Path p, std::size_t) { switchracks::read(f_, x, p, spec_); });
    top.list("fluids", [&](Item x, Path p, std::size_t) { filefluids::read(f_, x, p, spec_); });
    top.list("jobs", [&](Item x, Path p, std::size_t) { readJob(x, p); });
    if (auto pw = top.map("power")) readPower(*pw);
    if (auto gr = top.map("grid")) readGrid(*gr);           // docs/models/grid.md
    if (auto pl = top.map("plant")) readPlant(*pl, spec_);  // plant_reader.cpp
    // the site's protection settings (protection_reader.cpp); a scenario overrides them
    if (auto pr = top.map("protection")) readProtectionSection(*pr, spec_.detection.protection);
    if (auto fb = top.map("fabric")) readFabric(*fb, spec_.fabric);
    if (auto hm = top.map("host_memory")) {  // workload_reader.cpp
      spec_.host_memory_loc = hm->loc();
      readHostMemory(*hm, spec_.host_memory);
    }
    if (auto gl = top.map("gpu_layer")) {
      gl->read("step", spec_.gpu_step);
      gl->read("coupling", spec_.coupling_step);
      if (spec_.coupling_step < spec_.gpu_step)
        f_.s.add(gl->loc(), "", "gpu_layer.coupling must not be shorter than gpu_layer.step");
      gl->read("group_identical", spec_.gpu_group_identical);
    }
    readVariation(top);
    resolve();
  }

 private:
  // the `variation` section: a map, or the word none (every GPU its type's typical part)
  void readVariation(MapIn& top) {
    VariationSpec& v = spec_.variation;
    if (const YAML::Node* n = top.get("variation"); n && n->IsScalar()) {
      if (reader::lower(reader::trimmed(n->Scalar())) == "none") {
        v.on = false;
        return;
      }
      f_.s.add(top.locOf("variation"), reader::clip(n->Scalar()),
               "variation: expected a map of spreads or the word none");
      return;
    }
    auto vm = top.map("variation");
    if (!vm) return;
    long long seed = 0;
    if (vm->read("seed", seed)) v.seed = static_cast<unsigned long long>(seed);
    vm->read("tim_ageing", v.tim_ageing);
    vm->read("age", v.age);
    readSpread(*vm, v.spread_override);
  }

  struct CduInfo {
    SourceLoc fluid_loc;
    SourceLoc setpoint_loc;
    bool broken = false;  // its catalog model has errors: skip dependent checks
  };
  struct TypeInfo {
    bool broken = false;
    SourceLoc coldplate_loc, gpu_loc;
  };
  struct RackInfo {
    SourceLoc cdu_loc, type_loc, heat_load_loc, gpu_cap_loc;
    bool heat_load_suggested = false;  // a misspelt key was reported with a did-you-mean
    bool kv_given = false;
    bool cdu_ok = false, type_ok = false;  // the names were read
  };

  // site.room_air: the node, and either its air handlers or a fixed supply
  // (docs/models/room_air.md)
  void readRoomAir(MapIn& room) {
    room.read("volume", spec_.room_volume);
    if (auto ah = room.map("air_handlers")) {
      spec_.has_air_handlers = true;
      for (const char* k : {"supply_temperature", "airflow"})
        if (const YAML::Node* n = room.keyNode(k))
          f_.error(*n, room.sub(k), "",
                   "not used with air_handlers: the air handlers' coils and fan speed set the "
                   "supply air (remove the key, or the air_handlers section)");
      AirHandlerParams& p = spec_.air_handlers;
      p.V_rated = 18600.0 / 3600.0;  // [K136]
      p.P_rated = 2700.0;            // [K136]
      ah->read("count", p.count);
      ah->read("rated_airflow", p.V_rated);
      ah->read("rated_fan_power", p.P_rated);
      ah->read("coil_effectiveness", p.eps_rated);
      ah->read("chilled_water_temperature", p.T_chw);
      ah->read("room_temperature", p.T_set);
      ah->read("min_speed", p.pi.u_min);
      ah->read("k", p.pi.k);
      ah->read("Ti", p.pi.Ti);
      ah->read("chiller_cop", p.chiller.COP_ref);
      spec_.air_chiller_capacity_given = ah->read("chiller_capacity", p.chiller.Q_ref);
      if (!(p.T_set > p.T_chw + 1.0)) {
        const char* k =
            ah->get("room_temperature") ? "room_temperature" : "chilled_water_temperature";
        const YAML::Node* n = ah->keyNode(k) ? ah->keyNode(k) : &ah->node();
        f_.error(*n, ah->sub(k), "",
                 "the room set point (" + std::to_string(toCelsius(p.T_set)) +
                     " degC) must lie more than 1 K above the chilled water (" +
                     std::to_string(toCelsius(p.T_chw)) +
                     " degC): the coils could not cool the room");
      }
    } else {
      room.read("supply_temperature", spec_.room_supply_T);
      room.read("airflow", spec_.room_airflow);
      if (!room.get("supply_temperature"))
        room.missing("supply_temperature", " (the fixed supply air, or an air_handlers section)");
      if (!room.get("airflow"))
        room.missing("airflow", " (the fixed supply airflow, or an air_handlers section)");
    }
  }

  void readWater(MapIn& top) {
    auto w = top.map("facility_water");
    if (!w) return;
    auto& fw = spec_.facility_water;
    water_fluid_loc_ = w->loc();
    if (w->read("fluid", fw.fluid)) water_fluid_loc_ = w->locOf("fluid");
    if (auto ts = w->series("supply_temperature"))
      fw.T_supply = std::move(*ts), water_T_loc_ = w->locOf("supply_temperature");
    const bool dp = w->get("differential_pressure") != nullptr, fl = w->get("flow") != nullptr;
    if (dp && fl) {
      f_.error(*w->keyNode("flow"), w->sub("flow"), "",
               "give only one of 'differential_pressure' and 'flow'");
    } else if (!dp && !fl) {
      w->missing("differential_pressure",
                 " (or 'flow'): the facility water's available differential pressure at each "
                 "CDU, or its flow at a fully open valve");
    } else if (dp) {
      fw.mode = FacilityWaterSpec::Mode::Pressure;
      w->read("differential_pressure", fw.dp);
    } else {
      fw.mode = FacilityWaterSpec::Mode::Flow;
      w->read("flow", fw.flow);
    }
  }

  void readPlate(const YAML::Node& n, const std::string& path) {
    Provided prov;
    MapIn m(f_, n, path, section({"coldplates"}), &prov, "");
    if (!m.valid()) return;
    ColdPlateSpec cp;
    if (!m.read("name", cp.name)) return;
    std::string desc;
    m.read("description", desc);
    readColdPlate(m, cp);
    cp.loc = m.loc();
    if (plates_.count(cp.name)) {
      f_.s.add(m.locOf("name"), cp.name, "duplicate cold plate name");
      return;
    }
    plates_.emplace(cp.name, std::move(cp));
  }

  void readType(const YAML::Node& n, const std::string& path) {
    Provided prov;
    MapIn m(f_, n, path, section({"rack_types"}), &prov, "");
    if (!m.valid()) return;
    RackTypeSpec r;
    TypeInfo info;
    std::string name;
    const bool named = m.read("name", name);
    std::string desc;
    m.read("description", desc);
    std::string base, extra;
    if (m.read("base", base)) {
      const CatalogEntry* e = cat_.get("racks", base);
      if (!e) {
        f_.s.add(m.locOf("base"), base,
                 "unknown catalog rack type" + didYouMean(base, cat_.names("racks")) +
                     knownList(cat_.names("racks")));
        info.broken = true;
      } else {
        r = e->rack;
        prov = e->prov;
        info.broken = !e->ok;
        extra = " (not set in catalog rack type '" + base + "' either)";
      }
    } else if (m.get("base")) {
      info.broken = true;
    }
    r.name = name;
    readRackType(m, r);
    r.loc = m.loc();
    if (!info.broken) checkRackType(f_, r, prov, m.loc(), extra);
    info.coldplate_loc = where(prov, "coldplate", m.loc());
    info.gpu_loc = where(prov, "gpu", m.loc());
    if (!named) return;
    if (types_.count(name)) {
      f_.s.add(m.locOf("name"), name, "duplicate rack type name");
      return;
    }
    types_.emplace(name, std::move(r));
    type_info_.emplace(name, info);
  }

  void readCdu(const YAML::Node& n, const std::string& path) {
    Provided prov;
    MapIn m(f_, n, path, section({"cdus"}), &prov, "");
    if (!m.valid()) return;
    CduSpec c;
    CduInfo info;
    const bool named = m.read("name", c.name);
    std::string model, extra, desc;
    m.read("description", desc);
    if (m.read("model", model)) {
      const CatalogEntry* e = cat_.get("cdus", model);
      if (!e) {
        f_.s.add(m.locOf("model"), model,
                 "unknown CDU model" + didYouMean(model, cat_.names("cdus")) +
                     knownList(cat_.names("cdus")));
        info.broken = true;
      } else {
        const std::string name = c.name;
        c = e->cdu;
        c.name = name;
        prov = e->prov;
        info.broken = !e->ok;
        extra = " (not set in catalog CDU '" + model + "' either)";
      }
    } else if (m.get("model")) {
      info.broken = true;
    }
    c.model = model;
    c.fluid = "pg25";
    info.fluid_loc = m.loc();
    if (m.read("fluid", c.fluid)) info.fluid_loc = m.locOf("fluid");
    readCduBody(m, c);
    if (auto piping = m.map("piping")) {
      readPipe(*piping, "supply", c.supply_pipe);
      readPipe(*piping, "return", c.return_pipe);
      piping->read("rack_spacing", c.rack_spacing);
      if (std::string a; piping->read("return_arrangement", a)) c.reverse_return = a == "reverse";
      c.piping_loc = piping->loc();
    }
    if (auto pr = m.map("prescribed")) datasheet::readPrescribed(*pr, c);
    c.loc = m.loc();
    info.setpoint_loc = where(prov, "control.supply_temperature", m.loc());
    if (!info.broken) checkCdu(f_, c, prov, m.loc(), extra);
    if (!named) return;
    if (cdu_index_.count(c.name)) {
      f_.s.add(m.locOf("name"), c.name, "duplicate CDU name");
      return;
    }
    cdu_index_[c.name] = spec_.cdus.size();
    spec_.cdus.push_back(std::move(c));
    cdu_info_.push_back(info);
  }

  // an electrical catalog entry of the given kind (busway, breaker, psu, shelf, ups, transformer),
  // read with that kind's keys (other keys document their standards and are accepted); nullopt
  // (with an error at `at`) when unknown or of another kind
  std::optional<MapIn> electrical(const std::string& name, const std::string& kind,
                                  const SourceLoc& at) {
    const CatalogEntry* e = cat_.get("electrical", name);
    if (!e) {
      const auto& known = cat_.names("electrical");
      f_.s.add(at, name,
               "unknown electrical component" + didYouMean(name, known) + knownList(known));
      return std::nullopt;
    }
    if (!e->ok || !e->node) return std::nullopt;
    elec_files_.push_back(
        std::make_unique<File>(f_.s, e->path, fs::path(e->path).parent_path().string()));
    File& file = *elec_files_.back();
    std::string k;
    {
      MapIn any(file, e->node, "", keys::catalogSection("electrical"));
      if (!any.name("kind", k, true) || k != kind) {
        f_.s.add(
            at, name,
            "expected a " + kind + " (data/catalog/electrical/" + name + ".yaml is a '" + k + "')");
        return std::nullopt;
      }
    }
    std::optional<MapIn> m(std::in_place, file, e->node, "",
                           keys::catalogSection("electrical." + kind));
    std::string declared;
    if (m->read("name", declared) && declared != name)
      f_.s.add(m->locOf("name"), declared,
               "the name differs from the file name '" + name + ".yaml'");
    m->read("kind", k);  // (checked above)
    return m;
  }
  bool curve(MapIn& m, std::vector<double>& load, std::vector<double>& eta) {
    auto c = m.map("efficiency");
    if (!c) return false;
    return c->read("load", load) && c->read("eta", eta);
  }
  void breaker(const std::string& name, const SourceLoc& at, BreakerParams& b) {
    auto m = electrical(name, "breaker", at);
    if (!m) return;
    m->read("rated_current_A", b.I_n);
    m->read("k_trip", b.k_trip);
    m->read("magnetic_multiple", b.magnetic_multiple);
    m->read("thermal_time_constant", b.tau);
  }
  void readPower(MapIn& pw) {
    PowerSpec& P = spec_.power;
    P.present = true;
    pw.read("line_voltage_V", P.V_LL);
    pw.read("power_factor", P.pf);
    std::string name;
    if (pw.read("transformer", name)) {
      if (auto m = electrical(name, "transformer", pw.locOf("transformer"))) {
        P.has_transformer = true;
        double kva = 0;
        if (m->read("rated_power_kVA", kva)) P.transformer.S_rated = kva * 1e3;
        m->read("no_load_loss", P.transformer.P_no_load);
        m->read("load_loss", P.transformer.P_load_rated);
      }
    }
    if (pw.read("ups", name)) {
      if (auto m = electrical(name, "ups", pw.locOf("ups"))) {
        P.has_ups = true;
        m->read("rated_power", P.ups.P_rated);
        curve(*m, P.ups.load, P.ups.eta);
        m->read("standby_power", P.ups.P_standby);
        double kwh = 0;
        if (m->read("battery_energy_kWh", kwh)) P.ups.battery_J = kwh * 3.6e6;
        m->read("recharge_power", P.ups.P_charge_max);
        m->read("charge_efficiency", P.ups.eta_charge);
      }
    }
    pw.read("generator_start_delay", P.generator_start_delay);
    pw.read("cdu_pumps_on_ups", P.cdu_pumps_on_ups);
    pw.read("plant_on_ups", P.plant_on_ups);
    if (auto rt = pw.map("ride_through")) {
      RideThroughParams& R = P.ride;
      rt->read("psu_holdup", R.psu_holdup);
      rt->read("psu_min_voltage", R.psu_V_min);
      rt->read("ups_min_voltage", R.ups_V_min);
      rt->read("ups_frequency_tolerance", R.ups_f_tol);
      rt->read("ups_retransfer_delay", R.ups_retransfer_delay);
      rt->read("drive_trip_voltage", R.drive_V_trip);
      rt->read("drive_ride_through", R.drive_ride_through);
      rt->read("drive_restart_delay", R.drive_restart_delay);
      rt->read("rack_restart_time", R.rack_restart_time);
    }
    if (auto sb = pw.map("site_battery")) {
      P.battery.present = true;
      sb->read("capacity", P.battery.capacity_J);
      sb->read("max_power", P.battery.P_max_W);
      sb->read("time_constant", P.battery.tau);
      sb->read("recovery_time", P.battery.soc_tau);
      sb->read("efficiency", P.battery.eta_rt);
    }
    pw.read("transformer_count", P.transformer_count);
    pw.read("ups_count", P.ups_count);
    if (pw.read("shelf", name)) {
      if (auto m = electrical(name, "shelf", pw.locOf("shelf"))) {
        m->read("psu_count", P.shelf.psu_count);
        m->read("psu_redundant", P.shelf.psu_redundant);
        m->read("shelves_per_rack", P.shelves_per_rack);
        std::string psu;
        if (m->read("psu", psu)) {
          if (auto pm = electrical(psu, "psu", m->locOf("psu"))) {
            pm->read("rated_power", P.shelf.psu.P_rated);
            curve(*pm, P.shelf.psu.load, P.shelf.psu.eta);
            pm->read("standby_power", P.shelf.psu.P_standby);
          }
        }
      }
    }
    if (pw.read("shelf_breaker", name)) {
      P.has_shelf_breaker = true;
      breaker(name, pw.locOf("shelf_breaker"), P.shelf_breaker);
    }
    pw.list("busways",
            [&](const YAML::Node& x, const std::string& p, std::size_t) { readBusway(x, p); });
    P.shelf.psu.P_standby = std::max(P.shelf.psu.P_standby, 0.0);
    for (auto& b : P.busways) b.params.V_LL = P.V_LL, b.params.pf = P.pf;
  }

  // the utility's limits at the meter (docs/models/grid.md): bands with their edges in order, a
  // limit only with a band; the section needs the power chain it meters
  void readGrid(MapIn& gr) {
    GridParams& G = spec_.grid;
    G.present = true;
    G.loc = gr.loc();
    gr.read("ramp_limit", G.ramp_limit);
    gr.read("ramp_window", G.ramp_window);
    gr.read("psd_segment", G.psd_segment);
    gr.read("start", G.start);
    gr.list("bands", [&](const YAML::Node& x, const std::string& p, std::size_t) {
      MapIn bm(f_, x, p, section({"grid", "bands"}));
      if (!bm.valid()) return;
      GridBand b;
      b.loc = bm.loc();
      const bool lo = bm.read("f_low", b.f_low), hi = bm.read("f_high", b.f_high);
      bm.read("limit", b.limit);
      if (lo && hi && !(b.f_low < b.f_high)) {
        char msg[160];
        std::snprintf(msg, sizeof msg, "must be above the band's f_low (%g Hz)", b.f_low);
        f_.s.add(bm.locOf("f_high"), reader::clip(x["f_high"].Scalar()), msg);
      }
      G.bands.push_back(std::move(b));
    });
    if (!spec_.power.present)
      f_.s.add(gr.loc(), "", "grid: needs a power section (the meter reads its utility feed)");
  }

  void readBusway(const YAML::Node& x, const std::string& p) {
    MapIn bm(f_, x, p, section({"power", "busways"}));
    if (!bm.valid()) return;
    PowerSpec::Busway b;
    b.loc = bm.loc();
    bm.read("name", b.name);
    bm.read("length", b.params.length);
    std::string model;
    if (bm.read("model", model)) {
      if (auto m = electrical(model, "busway", bm.locOf("model"))) {
        double I = 0, R = 0, X = 0;
        m->read("rated_current_A", I);
        m->read("R_mohm_per_100ft", R);
        m->read("X_mohm_per_100ft", X);
        b.params.I_rated = I;
        b.params.R20_per_m = R * 1e-3 / 30.48;
        b.params.X_per_m = X * 1e-3 / 30.48;
        m->read("temperature_coefficient_per_K", b.params.alpha);
        m->read("rated_ambient", b.params.T_amb_rated);
        m->read("rated_rise", b.params.dT_rated);
        m->read("thermal_time_constant", b.params.tau_thermal);
      }
    }
    if (bm.read("breaker", model)) {
      b.has_breaker = true;
      breaker(model, bm.locOf("breaker"), b.breaker);
    }
    readRackNames(bm, b.racks, true);
    spec_.power.busways.push_back(std::move(b));
  }

  // a required list of rack names, or 'all' (`star`: kept as {"*"}, else left empty)
  void readRackNames(MapIn& m, std::vector<std::string>& out, bool star) {
    const YAML::Node* r = m.get("racks");
    if (!r) {
      m.missing("racks", star ? "" : " (a list of rack names, or 'all')");
      return;
    }
    if (r->IsScalar() && r->Scalar() == "all") {
      if (star) out = {"*"};
      return;
    }
    forEachItem(f_, *r, m.sub("racks"), 1, "racks",
                [&](const YAML::Node& y, const std::string& q, std::size_t) {
                  if (auto nm = readName(f_, y, q)) out.push_back(*nm);
                });
  }

  // a job: 1. name and kind, 2. the kind's own keys (inference load, trace), 3. power smoothing,
  // 4. racks, 5. times and caps, 6. phases, 7. the workload model's own checks
  void readJob(const YAML::Node& n, const std::string& path) {
    MapIn m(f_, n, path, section({"jobs"}));
    if (!m.valid()) return;
    JobSpec j;
    j.loc = m.loc();
    m.read("name", j.name);
    std::string kind = "training";
    if (m.read("kind", kind))
      j.kind = kind == "inference" ? JobSpec::Kind::Inference
               : kind == "trace"   ? JobSpec::Kind::Trace
                                   : JobSpec::Kind::Training;
    readJobLoad(m, j);
    readJobTrace(m, j);
    if (auto ps = m.map("power_smoothing")) {
      j.smoothing.enabled = true;
      ps->read("floor", j.smoothing.floor);
      ps->read("ramp_up", j.smoothing.ramp_up);
      ps->read("ramp_down", j.smoothing.ramp_down);
      ps->read("hysteresis", j.smoothing.hysteresis);
    }
    readRackNames(m, j.racks, false);  // empty: every rack with resolved GPUs
    j.training = defaultTrainingJob();
    m.read("start", j.training.start);
    double stop = 0;
    if (m.read("stop", stop)) j.training.stop = stop;
    m.read("checkpoint_interval", j.training.checkpoint_interval);
    m.read("checkpoint_duration", j.training.checkpoint_duration);
    m.read("gpu_power_cap", j.gpu_power_cap);
    job_cap_loc_.push_back(m.locOf("gpu_power_cap"));
    m.read("reference_junction_temperature", j.T_ref);
    readPhases(m, j.training);
    readJobWorkload(m, j);  // workload_reader.cpp: a described job, restarts
    try {
      validateTrainingJob(j.training);
      if (j.kind == JobSpec::Kind::Inference) validateInference(j.inference);
      if (j.kind == JobSpec::Kind::Trace && !j.trace.gpus.empty()) validateTrace(j.trace);
    } catch (const std::exception& e) {
      f_.s.add(j.loc, j.name, e.what());
    }
    spec_.jobs.push_back(std::move(j));
  }

  // inference jobs: the offered load, linear in time
  void readJobLoad(MapIn& m, JobSpec& j) {
    if (j.kind != JobSpec::Kind::Inference) {
      if (m.get("load"))
        f_.s.add(m.locOf("load"), "", "'load' belongs to inference jobs (kind: inference)");
      return;
    }
    j.inference = defaultInference(1.0);
    if (auto ts = m.series("load")) {
      j.inference.t = ts->t;
      j.inference.load = ts->v;
      if (ts->kind == TimeSeries::Kind::Steps && ts->t.size() > 1)
        f_.s.add(m.locOf("load"), "",
                 "an inference load is interpolated linearly: use 'series' or 'csv', not 'steps'");
    }
  }

  // trace jobs: the trace to replay
  void readJobTrace(MapIn& m, JobSpec& j) {
    if (j.kind != JobSpec::Kind::Trace) {
      if (m.get("trace"))
        f_.s.add(m.locOf("trace"), "", "'trace' belongs to trace-replay jobs (kind: trace)");
      return;
    }
    const bool given = m.get("trace") != nullptr;
    if (!given) m.missing("trace");
    if (auto tm = m.map("trace")) {
      std::string csv;
      if (tm->read("csv", csv)) readTraceCsv(*tm->get("csv"), tm->sub("csv"), csv, j.trace);
      tm->read("offset", j.trace.t_offset);
      tm->read("loop", j.trace.loop);
    }
  }

  // the phases of one iteration, or 'default' (defaultTrainingJob())
  void readPhases(MapIn& m, TrainingJobSpec& t) {
    const YAML::Node* ph = m.get("phases");
    if (!ph || (ph->IsScalar() && ph->Scalar() == "default")) return;
    t.phases.clear();
    m.list("phases", [&](const YAML::Node& x, const std::string& p, std::size_t) {
      MapIn pm(f_, x, p, section({"jobs", "phases"}));
      if (!pm.valid()) return;
      PhaseSpec s;
      pm.read("name", s.name);
      pm.read("duration", s.duration);
      std::string bound;
      if (pm.read("bound", bound))
        s.bound = bound == "compute"  ? PhaseSpec::Bound::Compute
                  : bound == "memory" ? PhaseSpec::Bound::Memory
                  : bound == "idle"   ? PhaseSpec::Bound::Idle
                                      : PhaseSpec::Bound::Communication;
      pm.read("sm", s.a_sm);
      pm.read("hbm", s.a_hbm);
      pm.read("nvlink", s.a_nvlink);
      pm.read("network", s.a_network);
      pm.read("barrier", s.barrier);
      t.phases.push_back(s);
    });
  }

  // a per-GPU power cap must lie in the GPU's settable power-limit range (nvidia-smi -pl refuses
  // others); scenario caps are clamped to it at run time instead
  void checkCap(double cap, const std::string& gpu_name, const SourceLoc& at) {
    auto g = spec_.gpus.find(gpu_name);
    if (cap <= 0 || g == spec_.gpus.end()) return;
    const GpuParams& gp = g->second;
    if (cap < gp.P_limit_min - 1e-9 || cap > gp.P_limit_max + 1e-9)
      f_.s.add(at, fmt(cap) + " W",
               "expected a power cap within the settable power-limit range of GPU '" + gpu_name +
                   "' (" + fmt(gp.P_limit_min) + " W ... " + fmt(gp.P_limit_max) + " W)");
  }

  // trace CSV: header 'time_s,gpu,<columns>' with columns among power_W, sm, hbm, nvlink, network;
  // one row per sample and GPU (GPU = rank in the job, 0-based); rows of a GPU in time order
  void readTraceCsv(const YAML::Node& at, const std::string& path, const std::string& csv,
                    TraceSpec& tr) {
    std::string why;
    fs::path p(csv);
    if (p.is_relative()) p = fs::path(f_.dir.empty() ? "." : f_.dir) / p;
    const std::string file = p.lexically_normal().string();
    f_.s.files.push_back(file);
    const auto text = readTextFile(file, &why);
    if (!text) {
      f_.error(at, path, csv, "cannot read the trace file '" + file + "': " + why);
      return;
    }
    auto split = [](std::string_view row) {
      std::vector<std::string> cells;
      std::size_t start = 0;
      while (true) {
        std::size_t c = row.find(',', start);
        cells.push_back(
            trimmed(row.substr(start, c == std::string_view::npos ? row.npos : c - start)));
        if (c == std::string_view::npos) break;
        start = c + 1;
      }
      return cells;
    };
    std::vector<std::string> cols;
    int line = 0;
    std::size_t pos = 0, rows = 0;
    while (pos < text->size()) {
      std::size_t end = text->find('\n', pos);
      if (end == std::string::npos) end = text->size();
      const std::string row = trimmed(std::string_view(text->data() + pos, end - pos));
      pos = end + 1;
      ++line;
      if (row.empty()) continue;
      auto cells = split(row);
      if (cols.empty()) {
        cols = cells;
        const std::vector<std::string> known{"power_W", "sm", "hbm", "nvlink", "network"};
        if (cols.size() < 3 || cols[0] != "time_s" || cols[1] != "gpu") {
          f_.s.add(SourceLoc{file, line, 1, path}, row,
                   "the header must be 'time_s,gpu,' followed by any of power_W, sm, hbm, nvlink, "
                   "network");
          return;
        }
        for (std::size_t k = 2; k < cols.size(); ++k)
          if (std::find(known.begin(), known.end(), cols[k]) == known.end()) {
            f_.s.add(SourceLoc{file, line, 1, path}, cols[k],
                     "unknown trace column" + didYouMean(cols[k], known));
            return;
          }
        continue;
      }
      if (++rows > kMaxListLength) {
        f_.s.add(SourceLoc{file, line, 1, path}, "",
                 "the trace has too many rows (at most 1000000)");
        return;
      }
      f_.s.visit([&] { return SourceLoc{file, line, 1, path}; });
      if (cells.size() != cols.size()) {
        f_.s.add(SourceLoc{file, line, 1, path}, row,
                 "expected " + std::to_string(cols.size()) + " comma-separated values");
        return;
      }
      std::vector<double> v(cells.size());
      for (std::size_t k = 0; k < cells.size(); ++k) {
        const auto [ptr, ec] =
            std::from_chars(cells[k].data(), cells[k].data() + cells[k].size(), v[k]);
        if (ec != std::errc() || ptr != cells[k].data() + cells[k].size() || !std::isfinite(v[k])) {
          f_.s.add(SourceLoc{file, line, int(k) + 1, path}, cells[k], "expected a number");
          return;
        }
      }
      if (v[1] < 0 || v[1] > kMaxCount || v[1] != std::floor(v[1])) {
        f_.s.add(SourceLoc{file, line, 2, path}, cells[1], "expected a GPU rank 0 ... 10000");
        return;
      }
      const std::size_t g = std::size_t(v[1]);
      if (tr.gpus.size() <= g) tr.gpus.resize(g + 1);
      TraceSeries& ser = tr.gpus[g];
      if (!ser.t.empty() && !(v[0] > ser.t.back())) {
        f_.s.add(SourceLoc{file, line, 1, path}, cells[0], "times of a GPU must increase strictly");
        return;
      }
      ser.t.push_back(v[0]);
      for (std::size_t k = 2; k < cols.size(); ++k) {
        auto& dst = cols[k] == "power_W"  ? ser.P
                    : cols[k] == "sm"     ? ser.a_sm
                    : cols[k] == "hbm"    ? ser.a_hbm
                    : cols[k] == "nvlink" ? ser.a_nvlink
                                          : ser.a_network;
        dst.push_back(v[k]);
      }
    }
    if (tr.gpus.empty()) f_.error(at, path, csv, "the trace file '" + file + "' has no data rows");
  }

  void readRack(const YAML::Node& n, const std::string& path) {
    MapIn m(f_, n, path, section({"racks"}));
    if (!m.valid()) return;
    RackSpec r;
    RackInfo info;
    const bool named = m.read("name", r.name);
    const bool has_cdu = m.read("cdu", r.cdu);
    const bool has_type = m.read("type", r.type);
    info.cdu_ok = has_cdu;
    info.type_ok = has_type;
    info.cdu_loc = m.locOf("cdu");
    info.type_loc = m.locOf("type");
    const bool has_row = m.read("row", r.row);
    m.read("hall", r.hall);  // optional: the campus level (display only)
    const bool has_index = m.read("index", r.index);
    if (auto bv = m.map("balancing_valve")) {
      bv->read("opening", r.valve_opening);
      info.kv_given = bv->read("kv", r.valve_kv);
    }
    r.has_heat_load = m.get("heat_load") != nullptr;
    if (auto ts = m.series("heat_load")) r.heat_load = std::move(*ts);
    info.heat_load_loc = m.loc();
    info.heat_load_suggested = m.suggested("heat_load");
    m.read("gpu_power_cap", r.gpu_power_cap);
    info.gpu_cap_loc = m.locOf("gpu_power_cap");
    m.read("power_cap", r.power_cap);
    m.read("multiplier", r.multiplier);  //
    m.list("coldplate_degradation", [&](const YAML::Node& x, const std::string& p, std::size_t) {
      MapIn dm(f_, x, p, section({"racks", "coldplate_degradation"}));
      if (!dm.valid()) return;
      int gpu = 0;
      double factor = 1;
      bool ok = dm.read("gpu", gpu);
      ok = dm.read("factor", factor) && ok;
      if (ok) r.coldplate_degradation.emplace_back(gpu, factor);
    });
    r.loc = m.loc();
    if (!named) return;
    if (rack_index_.count(r.name)) {
      // reported, and kept so that its references are checked (the load fails anyway)
      f_.s.add(m.locOf("name"), r.name,
               "duplicate rack name (first at line " +
                   std::to_string(spec_.racks[rack_index_[r.name]].loc.line) + ")");
    } else {
      rack_index_[r.name] = spec_.racks.size();
    }
    if (has_row && has_index) {
      // a position is unique within its hall: two halls may both have a row A
      const std::string where = r.hall.empty() ? r.row : r.hall + "\x1f" + r.row;
      auto [pos, fresh] = positions_.try_emplace(std::make_pair(where, r.index), r.name);
      if (!fresh)
        f_.s.add(m.locOf("index"), std::to_string(r.index),
                 "rack position (" + (r.hall.empty() ? "" : "hall '" + clip(r.hall) + "', ") +
                     "row '" + clip(r.row) + "', index " + std::to_string(r.index) +
                     ") is already taken by rack '" + pos->second + "'");
    }
    spec_.racks.push_back(std::move(r));
    rack_info_.push_back(info);
  }

  // resolve a rack type: the facility's first, then the catalog; nullptr when unknown or broken
  const RackTypeSpec* rackType(const std::string& name, const SourceLoc& at, bool* broken) {
    *broken = false;
    if (auto it = types_.find(name); it != types_.end()) {
      *broken = type_info_[name].broken;
      return &it->second;
    }
    if (auto it = catalog_types_.find(name); it != catalog_types_.end()) {
      *broken = it->second.broken;
      return it->second.spec ? &*it->second.spec : nullptr;
    }
    const CatalogEntry* e = cat_.get("racks", name);
    auto& slot = catalog_types_[name];
    if (!e) {
      std::vector<std::string> known;
      if (!f_.s.full())
        for (const auto& [k, v] : types_) known.push_back(k);
      for (const auto& k : cat_.names("racks"))
        if (!types_.count(k)) known.push_back(k);
      f_.s.add(at, name, "unknown rack type" + didYouMean(name, known) + knownList(known));
      slot.broken = true;
      *broken = true;
      return nullptr;
    }
    slot.spec = e->rack;
    slot.broken = !e->ok;
    slot.coldplate_loc = where(e->prov, "coldplate", e->rack.loc);
    slot.gpu_loc = where(e->prov, "gpu", e->rack.loc);
    *broken = slot.broken;
    return &*slot.spec;
  }

  // resolve a cold plate: the facility's first, then the catalog
  const ColdPlateSpec* coldPlate(const std::string& name, const SourceLoc& at,
                                 const std::string& type, bool* broken) {
    *broken = false;
    if (auto it = plates_.find(name); it != plates_.end()) return &it->second;
    if (auto it = catalog_plates_.find(name); it != catalog_plates_.end()) {
      *broken = it->second.broken;
      return it->second.spec ? &*it->second.spec : nullptr;
    }
    const CatalogEntry* e = cat_.get("coldplates", name);
    auto& slot = catalog_plates_[name];
    if (!e) {
      std::vector<std::string> known;
      if (!f_.s.full())
        for (const auto& [k, v] : plates_) known.push_back(k);
      for (const auto& k : cat_.names("coldplates"))
        if (!plates_.count(k)) known.push_back(k);
      f_.s.add(at, name,
               "unknown cold plate in rack type '" + type + "'" + didYouMean(name, known) +
                   knownList(known));
      slot.broken = true;
      *broken = true;
      return nullptr;
    }
    slot.spec = e->coldplate;
    slot.broken = !e->ok;
    *broken = slot.broken;
    return &*slot.spec;
  }

  void gpu(const std::string& name, const SourceLoc& at) {
    if (spec_.gpus.count(name) || bad_gpus_.count(name)) return;
    const CatalogEntry* e = cat_.get("gpus", name);
    if (!e) {
      const auto& known = cat_.names("gpus");
      f_.s.add(at, name, "unknown GPU" + didYouMean(name, known) + knownList(known));
      bad_gpus_.insert(name);
      return;
    }
    if (!e->ok) {
      bad_gpus_.insert(name);
      return;
    }
    spec_.gpus.emplace(name, e->gpu);
  }

  void part(const std::string& name, const SourceLoc& at) {
    if (spec_.parts.count(name) || bad_parts_.count(name)) return;
    const CatalogEntry* e = cat_.get("parts", name);
    if (!e) {
      const auto& known = cat_.names("parts");
      f_.s.add(at, name, "unknown rack part" + didYouMean(name, known) + knownList(known));
      bad_parts_.insert(name);
      return;
    }
    if (!e->ok) {
      bad_parts_.insert(name);
      return;
    }
    spec_.parts.emplace(name, e->part);
  }

  void fluid(const std::string& name, const SourceLoc& at) {
    if (spec_.fluids.count(name) || bad_fluids_.count(name)) return;
    const CatalogEntry* e = cat_.get("fluids", name);
    if (!e) {
      const auto& known = cat_.names("fluids");
      f_.s.add(at, name, "unknown fluid" + didYouMean(name, known) + knownList(known));
      bad_fluids_.insert(name);
      return;
    }
    if (!e->ok) {
      bad_fluids_.insert(name);
      return;
    }
    try {
      Fluid probe(e->fluid);  // the model's own table checks
      (void)probe;
    } catch (const std::exception& ex) {
      f_.s.add(SourceLoc{e->path, 0, 0, "table"}, "", ex.what());
      bad_fluids_.insert(name);
      return;
    }
    spec_.fluids.emplace(name, e->fluid);
  }

  // after the whole file is read: 1. fluids and their ranges; 2. rack types and cold plates of
  // the file; 3. each rack's references; 4. jobs; 5. the power chain; 6. CDUs without racks
  void resolve() {
    resolveFluids();
    resolveTypesAndPlates();
    std::vector<int> racks_per_cdu(spec_.cdus.size(), 0);
    std::set<std::pair<std::string, std::string>> law_reported;  // (CDU, rack type)
    for (std::size_t i = 0; i < spec_.racks.size(); ++i)
      resolveRack(spec_.racks[i], rack_info_[i], racks_per_cdu, law_reported);
    resolveJobs();
    resolvePower();
    airracks::checkBusways(f_, spec_);  // air racks' busways
    switchracks::resolve(f_, spec_);    // switch racks' references
    for (std::size_t c = 0; c < spec_.cdus.size(); ++c)
      if (racks_per_cdu[c] == 0)
        f_.s.add(spec_.cdus[c].loc, "",
                 "CDU '" + spec_.cdus[c].name +
                     "' feeds no racks; remove it or give racks 'cdu: " + spec_.cdus[c].name + "'");
  }

  // the facility water's and the CDUs' fluids, and the temperatures that must lie in their range
  void resolveFluids() {
    fluid(spec_.facility_water.fluid, water_fluid_loc_);
    for (std::size_t c = 0; c < spec_.cdus.size(); ++c)
      fluid(spec_.cdus[c].fluid, cdu_info_[c].fluid_loc);
    if (auto w = spec_.fluids.find(spec_.facility_water.fluid); w != spec_.fluids.end()) {
      const auto& v = spec_.facility_water.T_supply.v;
      for (double T : v)
        if (T < w->second.T_min - 1e-9 || T > w->second.T_max + 1e-9) {
          f_.s.add(water_T_loc_, fmt(toCelsius(T)) + " degC",
                   "the facility-water supply temperature leaves the range of fluid '" + w->first +
                       "' (" + fmt(toCelsius(w->second.T_min)) + " to " +
                       fmt(toCelsius(w->second.T_max)) + " degC)");
          break;
        }
    }
    for (std::size_t c = 0; c < spec_.cdus.size(); ++c) {
      const CduSpec& cdu = spec_.cdus[c];
      auto fl = spec_.fluids.find(cdu.fluid);
      if (fl == spec_.fluids.end() || cdu.T_supply_set <= 0) continue;
      if (cdu.T_supply_set < fl->second.T_min - 1e-9 || cdu.T_supply_set > fl->second.T_max + 1e-9)
        f_.s.add(cdu_info_[c].setpoint_loc, fmt(toCelsius(cdu.T_supply_set)) + " degC",
                 "the supply temperature set point lies outside the range of the CDU's fluid '" +
                     cdu.fluid + "' (" + fmt(toCelsius(fl->second.T_min)) + " to " +
                     fmt(toCelsius(fl->second.T_max)) + " degC)");
    }
  }

  // facility rack types and cold plates are always part of the spec
  void resolveTypesAndPlates() {
    for (const auto& [name, t] : types_) spec_.rack_types.emplace(name, t);
    for (const auto& [name, p] : plates_) spec_.coldplates.emplace(name, p);
    for (const auto& [name, t] : types_) {
      bool broken = false;
      if (t.coldplate.empty()) continue;
      const ColdPlateSpec* cp =
          coldPlate(t.coldplate, type_info_[name].coldplate_loc, name, &broken);
      if (cp) spec_.coldplates.emplace(cp->name, *cp);
    }
  }

  // a rack's references: its CDU, its type (valve default, resolved GPUs or a heat load, power
  // cap, parts, degraded plates), its cold plate and the plate's law for the CDU's fluid
  void resolveRack(RackSpec& r, const RackInfo& info, std::vector<int>& racks_per_cdu,
                   std::set<std::pair<std::string, std::string>>& law_reported) {
    const CduSpec* cdu = nullptr;
    if (info.cdu_ok) {
      if (auto it = cdu_index_.find(r.cdu); it != cdu_index_.end()) {
        cdu = &spec_.cdus[it->second];
        ++racks_per_cdu[it->second];
      } else {
        std::vector<std::string> known;
        if (!f_.s.full())
          for (const auto& c : spec_.cdus) known.push_back(c.name);
        f_.s.add(info.cdu_loc, r.cdu, "unknown CDU" + didYouMean(r.cdu, known) + knownList(known));
      }
    }
    if (!info.type_ok) return;
    bool broken = false;
    const RackTypeSpec* type = rackType(r.type, info.type_loc, &broken);
    if (!type || broken) return;
    spec_.rack_types.emplace(type->name, *type);
    if (!info.kv_given) r.valve_kv = type->balancing_valve_kv;
    // resolved GPUs, or a prescribed heat load
    if (!r.has_heat_load && type->gpu.empty() && !info.heat_load_suggested)
      f_.s.add(info.heat_load_loc, "",
               "missing key 'heat_load': rack type '" + type->name +
                   "' has no GPU model ('gpu'), so the rack needs a heat-load profile");
    if (!r.has_heat_load && !type->gpu.empty()) {
      gpu(type->gpu,
          type_info_.count(r.type) ? type_info_[r.type].gpu_loc : catalog_types_[r.type].gpu_loc);
      // HBM fitted differently in this rack type: a GPU type of its own
      if ((type->gpu_hbm_capacity > 0 || type->gpu_hbm_bandwidth > 0) &&
          type->gpu.find('@') == std::string::npos && spec_.gpus.count(type->gpu)) {
        GpuParams g = spec_.gpus.at(type->gpu);
        g.name = type->gpu + "@" + type->name;
        if (type->gpu_hbm_capacity > 0) g.hbm_capacity = type->gpu_hbm_capacity;
        if (type->gpu_hbm_bandwidth > 0) g.hbm_bandwidth = type->gpu_hbm_bandwidth;
        spec_.gpus.emplace(g.name, g);
        spec_.rack_types[type->name].gpu = g.name;
      }
      checkCap(r.gpu_power_cap, type->gpu, info.gpu_cap_loc);
      for (const auto& [pname, count] : type->parts) part(pname, type->loc);
      const int n = type->trays * type->gpus_per_tray;
      for (const auto& [slot, factor] : r.coldplate_degradation)
        if (slot >= n)
          f_.s.add(r.loc, std::to_string(slot),
                   "coldplate_degradation: GPU slot out of range; rack '" + r.name + "' has " +
                       std::to_string(n) + " GPUs (slots 0.." + std::to_string(n - 1) + ")");
    }
    if (type->coldplate.empty()) return;
    SourceLoc cp_loc = type_info_.count(r.type) ? type_info_[r.type].coldplate_loc
                                                : catalog_types_[r.type].coldplate_loc;
    const ColdPlateSpec* cp = coldPlate(type->coldplate, cp_loc, type->name, &broken);
    if (!cp || broken) return;
    spec_.coldplates.emplace(cp->name, *cp);
    if (!cdu || cp->laws.count(cdu->fluid) || bad_fluids_.count(cdu->fluid)) return;
    if (!law_reported.insert({cdu->name, type->name}).second) return;
    std::string has;
    for (const auto& [fluid, law] : cp->laws) has += (has.empty() ? "" : ", ") + fluid;
    f_.s.add(info.type_loc, r.type,
             "cold plate '" + cp->name + "' of rack type '" + type->name +
                 "' has no resistance law for fluid '" + cdu->fluid + "' of CDU '" + cdu->name +
                 "' (it has laws for: " + (has.empty() ? "none" : has) + ")");
  }

  // every rack on exactly one busway
  void resolvePower() {
    if (!spec_.power.present) return;
    std::map<std::string, std::string> on;
    for (auto& b : spec_.power.busways) {
      if (b.racks.size() == 1 && b.racks[0] == "*") {
        b.racks.clear();
        for (const auto& r : spec_.racks)
          if (!on.count(r.name)) b.racks.push_back(r.name);
      }
      for (const auto& rn : b.racks) {
        if (!rack_index_.count(rn)) {
          std::vector<std::string> known;
          for (const auto& r : spec_.racks) known.push_back(r.name);
          f_.s.add(b.loc, rn, "busway '" + b.name + "': unknown rack" + didYouMean(rn, known));
          continue;
        }
        auto [o, fresh] = on.try_emplace(rn, b.name);
        if (!fresh)
          f_.s.add(b.loc, rn, "rack '" + rn + "' is already on busway '" + o->second + "'");
      }
    }
    for (const auto& r : spec_.racks)
      if (!on.count(r.name))
        f_.s.add(r.loc, r.name, "rack '" + r.name + "' is on no busway of the power section");
  }

  // job racks exist, have resolved GPUs, and belong to one job only
  void resolveJobs() {
    std::map<std::string, std::string> owner;
    std::set<std::string> names;
    for (std::size_t ji = 0; ji < spec_.jobs.size(); ++ji) {
      JobSpec& j = spec_.jobs[ji];
      std::set<std::string> capped;  // GPU models whose range was checked for this job
      if (!j.name.empty() && !names.insert(j.name).second)
        f_.s.add(j.loc, j.name, "duplicate job name");
      if (j.racks.empty())
        for (const auto& r : spec_.racks)
          if (!r.has_heat_load && !owner.count(r.name)) j.racks.push_back(r.name);
      for (const auto& rn : j.racks) {
        auto it = rack_index_.find(rn);
        if (it == rack_index_.end()) {
          std::vector<std::string> known;
          for (const auto& r : spec_.racks) known.push_back(r.name);
          f_.s.add(j.loc, rn, "job '" + j.name + "': unknown rack" + didYouMean(rn, known));
          continue;
        }
        const RackSpec& r = spec_.racks[it->second];
        if (!r.has_heat_load && j.gpu_power_cap > 0)
          if (auto t = spec_.rack_types.find(r.type);
              t != spec_.rack_types.end() && capped.insert(t->second.gpu).second)
            checkCap(j.gpu_power_cap, t->second.gpu, job_cap_loc_[ji]);
        if (r.has_heat_load)
          f_.s.add(j.loc, rn,
                   "job '" + j.name + "': rack '" + rn +
                       "' has a heat_load profile; a job runs only on racks whose GPUs are "
                       "resolved (no heat_load, a rack type with 'gpu')");
        auto [o, fresh] = owner.try_emplace(rn, j.name);
        if (!fresh && o->second != j.name)
          f_.s.add(j.loc, rn, "rack '" + rn + "' is already in job '" + o->second + "'");
      }
    }
  }

  struct CatalogType {
    std::optional<RackTypeSpec> spec;
    bool broken = false;
    SourceLoc coldplate_loc, gpu_loc;
  };
  struct CatalogPlate {
    std::optional<ColdPlateSpec> spec;
    bool broken = false;
  };

  std::set<std::string> bad_gpus_, bad_parts_;
  std::vector<SourceLoc> job_cap_loc_;             // where each job's gpu_power_cap was set
  std::vector<std::unique_ptr<File>> elec_files_;  // for errors in electrical catalog entries
  File& f_;
  Catalog& cat_;
  FacilitySpec& spec_;
  SourceLoc water_fluid_loc_, water_T_loc_;
  std::map<std::string, ColdPlateSpec> plates_;
  std::map<std::string, RackTypeSpec> types_;
  std::map<std::string, TypeInfo> type_info_;
  std::map<std::string, CatalogType> catalog_types_;
  std::map<std::string, CatalogPlate> catalog_plates_;
  std::map<std::string, std::size_t> cdu_index_, rack_index_;
  std::vector<CduInfo> cdu_info_;
  std::vector<RackInfo> rack_info_;
  std::map<std::pair<std::string, int>, std::string> positions_;
  std::set<std::string> bad_fluids_;
};

FacilitySpec load(const std::string& text, const std::string& name, const std::string& base_dir,
                  Session& s) {
  FacilitySpec spec;
  spec.file = name;
  try {
    YAML::Node root;
    if (parseDocument(s, name, text, root)) {
      spec.text = text;
      Catalog cat(s);
      File f{s, name, base_dir};
      FacilityReader(f, cat, spec).read(root);
    }
    spec.input_files = s.files;
  } catch (const Abort&) {
    // the budget error is recorded
  } catch (const YAML::Exception& e) {
    addYamlError(s, name, e);
  } catch (const std::exception& e) {
    s.add(SourceLoc{name, 0, 0, ""}, "", std::string("could not read the file: ") + e.what());
  }
  if (s.failed()) throw LoadFailure(s.finish(name));
  return spec;
}

}  // namespace

//---------------------------------------------------------------------------------------------
// public API

std::string LoadError::format() const {
  std::string s = loc.file.empty() ? std::string("<input>") : loc.file;
  if (loc.line > 0) {
    s += ":" + std::to_string(loc.line);
    if (loc.column > 0) s += ":" + std::to_string(loc.column);
  }
  s += ": ";
  if (!loc.path.empty()) s += loc.path + ": ";
  s += message;
  if (!value.empty()) s += " (got '" + value + "')";
  return s;
}

namespace {
std::string joinErrors(const std::vector<LoadError>& errors) {
  std::string s;
  for (const auto& e : errors) {
    if (!s.empty()) s += '\n';
    s += e.format();
  }
  return s.empty() ? std::string("load failed") : s;
}
}  // namespace

namespace {
// an error as reported: its value clipped (reader::clip), its message and key path cut at a length
// no message of the readers' own reaches, so that no input (a megabyte-long value, a file that is
// not YAML) is echoed whole
std::vector<LoadError> bounded(std::vector<LoadError> errors) {
  constexpr std::size_t kMaxMessage = 1000, kMaxPath = 200;
  auto cut = [](std::string& s, std::size_t n) {
    if (s.size() <= n) return;
    while (n > 0 && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80) --n;  // UTF-8 boundary
    s.resize(n);
    s += "...";
  };
  for (LoadError& e : errors) {
    if (e.value.size() > 63) e.value = reader::clip(e.value);
    cut(e.message, kMaxMessage);
    cut(e.loc.path, kMaxPath);
    cut(e.loc.file, kMaxMessage);
  }
  return errors;
}
}  // namespace

LoadFailure::LoadFailure(std::vector<LoadError> errors)
    : std::runtime_error(joinErrors(bounded(errors))), errors_(bounded(std::move(errors))) {}

// $DCTWIN_DATA, the installed data folder, the build tree's (solver/common/paths.h)
std::vector<std::string> defaultDataDirs() {
  return dataDirs();
}

FacilitySpec loadFacilityFromString(const std::string& text, const std::string& name,
                                    const std::string& base_dir, const LoadOptions& options) {
  Session s(options);
  return load(text, name, base_dir, s);
}

FacilitySpec loadFacility(const std::string& path, const LoadOptions& options) {
  std::string why;
  const auto text = readTextFile(path, &why);
  if (!text) throw LoadFailure({LoadError{SourceLoc{path, 0, 0, ""}, "", "cannot read: " + why}});
  std::string dir = fs::path(path).parent_path().string();
  if (dir.empty()) dir = ".";
  Session s(options);
  FacilitySpec spec = load(*text, path, dir, s);
  spec.file = path;
  return spec;
}

}  // namespace dctwin

namespace dctwin {

GpuParams loadCatalogGpu(const std::string& name, const SourceLoc& at, const LoadOptions& options) {
  Session s(options);
  Catalog cat(s);
  const CatalogEntry* e = cat.get("gpus", name);
  if (!e) {
    std::string dirs;
    for (const auto& d : s.dirs) dirs += (dirs.empty() ? "" : ", ") + d;
    s.add(at, name,
          "unknown GPU type (data/catalog/gpus in " + dirs + ")" +
              didYouMean(name, cat.names("gpus")));
  }
  if (s.failed()) throw LoadFailure(s.finish(at.file));
  return e->gpu;
}

}  // namespace dctwin
