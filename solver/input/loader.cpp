// loader.cpp: facility YAML -> FacilitySpec, with catalog resolution and full validation
//
// layout
//   limits, ranges and key lists          what is accepted (docs/facility-format.md is the prose)
//   Session, File                         error collection, visit budget, one input file
//   document checks                       size, UTF-8, YAML parse, all exceptions caught
//   MapIn and value readers               typed reading of map keys, each problem one LoadError
//   time series                           constant, steps, series, csv
//   entity readers                        fluid, cold plate, rack type, CDU bodies (shared by the
//                                         catalog files and the facility file)
//   Catalog                               data/catalog/<kind>/<name>.yaml lookup and cache
//   FacilityReader                        the facility file, reference resolution, cross checks
//   public API
//
// robustness: every YAML exception is caught and reported with its mark; files over 16 MiB and
// non-UTF-8 text are refused before parsing; lists are limited to 1e6 entries and the walk to 4e6
// visited values, so that aliases (which yaml-cpp shares, never copies) cannot make the walk
// exponential; the walk itself follows the schema, so its depth is bounded whatever the nesting.
#include "solver/input/loader.h"

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <string_view>
#include <utility>

#include "solver/common/paths.h"
#include "solver/common/units.h"

namespace dctwin {

namespace {
namespace fs = std::filesystem;

//---------------------------------------------------------------------------------------------
// limits

constexpr std::size_t kMaxFileBytes = 16u * 1024u * 1024u;  // facility, catalog and CSV files
constexpr std::size_t kMaxListLength = 1000000;             // entries of any one list
constexpr std::size_t kMaxYamlValues = 1000000;             // scalars, lists, maps in a file
constexpr std::size_t kMaxCommas = 500000;                  // bounds flow collections (below)
constexpr std::size_t kMaxVisits = 4000000;                 // values visited in one load
constexpr std::size_t kMaxErrors = 100;                     // errors kept; the rest are counted
constexpr std::size_t kMaxNameLength = 64;
constexpr long long kMaxCount = 10000;

// a closed or open interval of SI values, with the words used in messages
struct Range {
  double lo, hi;
  bool lo_open, hi_open;
  const char* text;
  bool contains(double x) const {
    return (lo_open ? x > lo : x >= lo) && (hi_open ? x < hi : x <= hi);
  }
};

const Range kTemperature{223.15, 473.15, false, false, "between -50 degC and 200 degC"};
const Range kTempDiff{0, 100, true, false, "> 0 K and <= 100 K"};
const Range kPower{0, 1e9, true, true, "> 0 W and < 1 GW"};
const Range kRackPower{0, 1e7, true, false, "> 0 W and <= 10 MW"};
const Range kHeatLoad{0, 1e7, false, false, ">= 0 W and <= 10 MW"};
const Range kVolumeFlow{0, 100, true, true, "> 0 and < 100 m3/s"};
const Range kMassFlow{0, 1e5, true, true, "> 0 and < 100000 kg/s"};
const Range kPressure{0, 1e7, true, true, "> 0 and < 100 bar"};
const Range kPressureGauge{0, 1e7, false, true, ">= 0 and < 100 bar"};
const Range kLength{0, 1e5, true, true, "> 0 m and < 100 km"};
const Range kDiameter{0, 10, true, true, "> 0 m and < 10 m"};
const Range kRoughness{0, 0.01, false, false, ">= 0 and <= 10 mm"};
const Range kVolume{0, 1e4, true, true, "> 0 and < 10000 m3"};
const Range kRoomVolume{0, 1e7, true, true, "> 0 and < 10^7 m3"};
const Range kAirflow{0, 1e5, true, true, "> 0 and < 100000 m3/s"};
const Range kVolumeOrZero{0, 1e4, false, true, ">= 0 and < 10000 m3"};
const Range kLossPerLength{0, 1e4, false, true, ">= 0 and < 10000 W/(m K)"};
const Range kDegradeFactor{0, 1000, true, false, "> 0 and <= 1000 (1 = as the rack type's law)"};
const Range kRampRate{0, 1e9, false, false, ">= 0 W/s (0: unlimited)"};
const Range kGpuStep{0, 1, true, false, "> 0 s and <= 1 s"};
const Range kCouplingStep{0, 600, true, false, "> 0 s and <= 10 min"};
const Range kJobTime{0, 366 * 86400.0, false, false, ">= 0 s and <= 366 d"};
const Range kPhaseDuration{0, 3600, false, false, ">= 0 s and <= 1 h"};
const Range kDuration{0, 86400, true, false, "> 0 s and <= 1 d"};
const Range kDurationOrZero{0, 86400, false, false, ">= 0 s and <= 1 d"};
const Range kSeriesTime{0, 1e9, false, false, ">= 0 s and <= 1e9 s"};
const Range kResistance{0, 10, false, false, ">= 0 K/W and <= 10 K/W"};
const Range kFraction{0, 1, false, false, "between 0 and 1"};
const Range kEfficiency{0, 1, true, false, "> 0 and <= 1"};
const Range kMinSpeed{0, 1, false, true, ">= 0 and < 1"};
const Range kLeakage{0, 0.1, false, false, "between 0 and 0.1"};
const Range kRangeability{1, 1000, true, false, "> 1 and <= 1000"};
const Range kLawExponent{1, 3, false, false, "between 1 and 3"};
const Range kHexExponent{0, 2, true, false, "> 0 and <= 2"};
const Range kKv{0, 1e4, true, true, "> 0 and < 10000"};
const Range kGain{0, 100, true, false, "> 0 and <= 100"};
const Range kFitA{0, 100, false, false, "between 0 and 100"};
const Range kFitB{0, 5, true, false, "> 0 and <= 5"};
const Range kCurveRatio{0, 10, false, false, "between 0 and 10"};
const Range kPlateFlow{0, 1e4, true, false, "> 0 and <= 10000 (L/min)"};
const Range kPlateR{0, 10, true, false, "> 0 and <= 10 (K/W)"};

using Keys = std::vector<const char*>;
const Keys kTopKeys{"dctwin",     "name", "description", "site", "facility_water", "rack_types",
                    "coldplates", "cdus", "racks",       "jobs", "gpu_layer",      "power"};
const Keys kGpuLayerKeys{"step", "coupling", "group_identical"};
const Keys kPowerKeys{
    "line_voltage_V", "power_factor",  "transformer", "transformer_count", "ups", "ups_count",
    "shelf",          "shelf_breaker", "busways"};
const Keys kBuswayKeys{"name", "model", "length", "breaker", "racks"};
const Keys kJobKeys{"name",
                    "kind",
                    "racks",
                    "start",
                    "stop",
                    "phases",
                    "checkpoint_interval",
                    "checkpoint_duration",
                    "gpu_power_cap",
                    "reference_junction_temperature",
                    "load",
                    "trace",
                    "power_smoothing"};
const Keys kSmoothingKeys{"floor", "ramp_up", "ramp_down", "hysteresis"};
const Keys kTraceKeys{"csv", "offset", "loop"};
const Keys kPhaseKeys{"name", "duration", "bound", "sm", "hbm", "nvlink", "network", "barrier"};
const Keys kDegradeKeys{"gpu", "factor"};
const Keys kGpuKeys{"name",          "description",        "sources",
                    "tdp",           "power_limit_min",    "power_limit_max",
                    "idle_power",    "hbm_idle_power",     "hbm_capacity",
                    "hbm_bandwidth", "nvlink_bandwidth",   "clock_max",
                    "clock_idle",    "clock_memory_bound", "power_model",
                    "thermal"};
const Keys kGpuPowerKeys{"sm_max",        "hbm_max",     "nvlink_max",  "voltage_v0",
                         "voltage_floor", "clock_power", "leakage_ref", "leakage_beta"};
const Keys kGpuThermalKeys{"maxop", "slowdown",    "shutdown", "hbm_max", "R_junction_plate",
                           "C_die", "R_hbm_plate", "C_hbm"};
const Keys kSiteKeys{"ambient_temperature", "room_air"};
const Keys kRoomKeys{"volume", "supply_temperature", "airflow"};
const Keys kWaterKeys{"fluid", "supply_temperature", "differential_pressure", "flow"};
const Keys kSeriesKeys{"steps", "series", "csv", "unit"};
const Keys kCduBodyKeys{"heat_exchanger",  "pumps",   "primary_valve", "expansion_tank",
                        "internal_volume", "control", "limits",        "vacuum_tank"};
const Keys kVacuumKeys{"pressure"};
const Keys kCduFacilityKeys{"name", "model", "description", "fluid", "piping"};
const Keys kCatalogKeys{"name", "description", "sources"};
const Keys kHexKeys{
    "rated_capacity",       "rated_approach",     "rated_primary_supply_temperature",
    "rated_flow_secondary", "rated_flow_primary", "dp_primary",
    "dp_secondary",         "holdup_primary",     "holdup_secondary",
    "flow_exponent"};
const Keys kPumpKeys{"count",
                     "running",
                     "rated_flow",
                     "rated_head",
                     "curve",
                     "efficiency_hydraulic",
                     "efficiency_motor",
                     "rise_time",
                     "min_speed"};
const Keys kCurveKeys{"flow_ratio", "head_ratio"};
const Keys kValveKeys{"rangeability", "leakage", "dp_nominal", "stroke_time"};
const Keys kTankKeys{"volume", "precharge", "fill_pressure"};
const Keys kControlKeys{"supply_temperature", "pump_mode",      "flow_setpoint",
                        "dp_setpoint",        "temperature_pi", "pump_pi"};
const Keys kPiKeys{"k", "Ti"};
const Keys kLimitKeys{"supply_temperature_min", "supply_temperature_max", "secondary_pressure_max",
                      "primary_pressure_max"};
const Keys kPipingKeys{"supply", "return"};
const Keys kPipeKeys{"length", "diameter", "roughness", "segments", "heat_loss_coefficient"};
const Keys kRackBodyKeys{"nominal_power",
                         "liquid_fraction",
                         "gpu_heat_fraction",
                         "trays",
                         "gpus_per_tray",
                         "coldplate",
                         "coldplate_paths",
                         "design_flow",
                         "manifold",
                         "coolant_volume",
                         "balancing_valve_kv",
                         "max_working_pressure",
                         "supply_temperature_max",
                         "gpu",
                         "other_idle_power",
                         "other_max_power",
                         "parts",
                         "energy_storage"};
const Keys kStorageKeys{"capacity", "max_power", "time_constant", "recovery_time"};
const Keys kRackPartKeys{"part", "count"};
const Keys kPartKeys{"name",
                     "description",
                     "sources",
                     "kind",
                     "idle_power",
                     "max_power",
                     "liquid_fraction",
                     "ports",
                     "port_active_power",
                     "port_idle_power",
                     "port_lpm_power"};
const Keys kRackTypeFacilityKeys{"name", "base", "description"};
const Keys kLawDpKeys{"dp_nominal", "flow_nominal", "exponent"};
const Keys kColdPlateKeys{"name",          "description",   "sources",
                          "time_constant", "pressure_drop", "resistance"};
const Keys kLawKeys{"table", "fit"};
const Keys kPlateTableKeys{"flow_L_min", "R_K_W"};
const Keys kFitKeys{"R_inf", "a", "b"};
const Keys kFluidKeys{"name", "description", "sources", "T_min", "T_max", "freeze_point", "table"};
const Keys kFluidTableKeys{"columns", "rows"};
const Keys kRackKeys{"name",      "cdu",           "type",
                     "row",       "index",         "balancing_valve",
                     "heat_load", "gpu_power_cap", "coldplate_degradation",
                     "power_cap"};
const Keys kBalancingKeys{"opening", "kv"};

Keys join(const Keys& a, const Keys& b) {
  Keys r = a;
  r.insert(r.end(), b.begin(), b.end());
  return r;
}

//---------------------------------------------------------------------------------------------
// small helpers

std::string sub(const std::string& path, std::string_view key) {
  return path.empty() ? std::string(key) : path + "." + std::string(key);
}
std::string item(const std::string& path, std::size_t i) {
  return path + "[" + std::to_string(i) + "]";
}

// a value as shown in a message: control characters replaced, cut at 60 bytes on a UTF-8 boundary
std::string clip(std::string_view s) {
  constexpr std::size_t kMax = 60;
  std::size_t n = s.size();
  bool cut = false;
  if (n > kMax) {
    n = kMax;
    while (n > 0 && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80) --n;
    cut = true;
  }
  std::string out;
  out.reserve(n + 3);
  for (std::size_t i = 0; i < n; ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    out += (c < 0x20 || c == 0x7F) ? '?' : static_cast<char>(c);
  }
  if (cut) out += "...";
  return out;
}

std::string trimmed(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return std::string(s);
}

std::string lower(std::string_view s) {
  std::string r(s);
  for (char& c : r)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return r;
}

const char* noun(Dim dim) {
  switch (dim) {
    case Dim::None:
      return "a number";
    case Dim::Temperature:
      return "a temperature";
    case Dim::TemperatureDiff:
      return "a temperature difference";
    case Dim::Power:
      return "a power";
    case Dim::VolumeFlow:
      return "a volume flow";
    case Dim::MassFlow:
      return "a mass flow";
    case Dim::Flow:
      return "a flow";
    case Dim::Pressure:
      return "a pressure";
    case Dim::Length:
      return "a length";
    case Dim::Volume:
      return "a volume";
    case Dim::Area:
      return "an area";
    case Dim::Time:
      return "a time";
    case Dim::ThermalResistance:
      return "a thermal resistance";
    case Dim::HeatCapacity:
      return "a heat capacity";
    case Dim::Conductance:
      return "a thermal conductance";
    case Dim::LinearConductance:
      return "a heat-loss coefficient per metre";
    case Dim::Frequency:
      return "a frequency";
    case Dim::DataSize:
      return "a data size";
    case Dim::Bandwidth:
      return "a bandwidth";
    case Dim::PowerRate:
      return "a power ramp rate";
    case Dim::Energy:
      return "an energy";
  }
  return "a value";
}

const char* kindOf(const YAML::Node& n) {
  switch (n.Type()) {
    case YAML::NodeType::Map:
      return "a map";
    case YAML::NodeType::Sequence:
      return "a list";
    case YAML::NodeType::Scalar:
      return "a single value";
    case YAML::NodeType::Null:
    case YAML::NodeType::Undefined:
      return "nothing";
  }
  return "something else";
}

// names of facility objects and catalog entries; catalog names become file names, so no
// separators or leading dots
bool validName(std::string_view s) {
  if (s.empty() || s.size() > kMaxNameLength) return false;
  auto ok = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '-' || c == '.';
  };
  if (s.front() == '.' || s.front() == '-') return false;
  return std::all_of(s.begin(), s.end(), ok);
}
const char* kNameRule =
    "expected a name of letters, digits, '_', '-' and '.' (at most 64 characters, not starting "
    "with '.' or '-')";

// " (known: a, b, c)" for a short list of names
std::string knownList(const std::vector<std::string>& names) {
  if (names.empty()) return " (none are defined)";
  std::string r = " (known: ";
  for (std::size_t i = 0; i < names.size() && i < 12; ++i) r += (i ? ", " : "") + names[i];
  if (names.size() > 12) r += ", ...";
  return r + ")";
}

// "; did you mean 'x'?" by edit distance <= 2 or by prefix, or ""
std::string didYouMean(const std::string& word, const std::vector<std::string>& candidates) {
  if (word.empty() || word.size() > 200) return "";
  std::string best;
  int best_d = 3;
  for (const auto& c : candidates) {
    if (c == word) continue;
    const std::size_t la = word.size(), lb = c.size();
    if ((la > lb ? la - lb : lb - la) > 2) continue;
    const int d = editDistance(lower(word), lower(c));
    if (d < best_d && d < static_cast<int>(std::max(la, lb))) best_d = d, best = c;
  }
  if (best.empty()) {
    for (const auto& c : candidates) {
      if (word.size() >= 2 && c.size() > word.size() && c.compare(0, word.size(), word) == 0) {
        best = c;
        break;
      }
      if (c.size() >= 3 && word.size() > c.size() && word.compare(0, c.size(), c) == 0) {
        best = c;
        break;
      }
    }
  }
  return best.empty() ? "" : "; did you mean '" + best + "'?";
}

//---------------------------------------------------------------------------------------------
// Session: what one load shares

struct Abort {};  // thrown to stop the walk (visit budget spent); the errors are kept

class Session {
 public:
  explicit Session(const LoadOptions& o)
      : dirs(o.data_dirs.empty() ? defaultDataDirs() : o.data_dirs) {}

  // `always`: kept even past the cap (the reason the walk stopped)
  void add(SourceLoc loc, std::string value, std::string message, bool always = false) {
    ++count_;
    if (errors_.size() >= kMaxErrors && !always) {
      ++dropped_;
      return;
    }
    errors_.push_back(LoadError{std::move(loc), clip(value), std::move(message)});
  }
  // the number of errors so far, dropped ones included (to tell whether a step added any)
  std::size_t count() const { return count_; }
  // true once further errors are only counted: skip building costly messages
  bool full() const { return errors_.size() >= kMaxErrors; }
  // count one visited value; past the budget, report at `where()` and stop the walk
  template <class Where>
  void visit(Where&& where) {
    if (++visits_ <= kMaxVisits) return;
    add(where(), "",
        "the document is too large to walk (more than " + std::to_string(kMaxVisits) +
            " values visited); are aliases (*name) used to repeat large parts?",
        true);
    throw Abort{};
  }
  std::vector<LoadError> finish(const std::string& file) {
    // in reading order: files by first appearance, then line and column
    std::map<std::string, std::size_t> rank;
    for (const auto& e : errors_) rank.try_emplace(e.loc.file, rank.size());
    std::stable_sort(errors_.begin(), errors_.end(), [&](const LoadError& a, const LoadError& b) {
      const std::size_t ra = rank[a.loc.file], rb = rank[b.loc.file];
      if (ra != rb) return ra < rb;
      if (a.loc.line != b.loc.line) return a.loc.line < b.loc.line;
      return a.loc.column < b.loc.column;
    });
    if (dropped_ > 0)
      errors_.push_back(LoadError{SourceLoc{file, 0, 0, ""}, "",
                                  std::to_string(dropped_) + " more errors not shown"});
    return std::move(errors_);
  }

  std::vector<std::string> dirs;

 private:
  std::vector<LoadError> errors_;
  std::size_t count_ = 0, dropped_ = 0, visits_ = 0;
};

// one input file (the facility or a catalog entry)
struct File {
  File(Session& session, std::string file, std::string folder)
      : s(session), name(std::move(file)), dir(std::move(folder)) {}

  Session& s;
  std::string name;  // as shown in messages
  std::string dir;   // folder for relative CSV paths

  SourceLoc loc(const YAML::Node& n, const std::string& path) const {
    SourceLoc l{name, 0, 0, path};
    if (n.IsDefined()) {
      YAML::Mark m = n.Mark();
      // an empty value ("key:") is marked at the next token; report it at its key
      if (n.IsNull())
        for (const auto& [value, key] : nulls_)
          if (value.is(n)) m = key.Mark();
      if (!m.is_null() && m.line >= 0) l.line = m.line + 1, l.column = m.column + 1;
    }
    return l;
  }
  void error(const YAML::Node& n, const std::string& path, std::string value, std::string msg) {
    s.add(loc(n, path), std::move(value), std::move(msg));
  }
  void visit(const YAML::Node& n, const std::string& path) {
    s.visit([&] { return loc(n, path); });
  }
  // remember the key of an empty value (the first few: only used for messages)
  void nullValue(const YAML::Node& value, const YAML::Node& key) {
    if (nulls_.size() < 64) nulls_.emplace_back(value, key);
  }

 private:
  std::vector<std::pair<YAML::Node, YAML::Node>> nulls_;
};

//---------------------------------------------------------------------------------------------
// document checks

// position of byte `off` as 1-based line and column
std::pair<int, int> lineColumn(std::string_view text, std::size_t off) {
  int line = 1, col = 1;
  for (std::size_t i = 0; i < off && i < text.size(); ++i) {
    if (text[i] == '\n')
      ++line, col = 1;
    else if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80)
      ++col;
  }
  return {line, col};
}

// offset of the first byte that is not valid UTF-8 text (or is a control character other than tab,
// line feed, carriage return), or npos
std::size_t badTextByte(std::string_view s) {
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  const std::size_t n = s.size();
  std::size_t i = 0;
  while (i < n) {
    const unsigned char c = p[i];
    if (c < 0x80) {
      if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7F) return i;
      ++i;
      continue;
    }
    std::size_t len = 0;
    unsigned cp = 0;
    if (c >= 0xC2 && c <= 0xDF)
      len = 2, cp = c & 0x1F;
    else if (c >= 0xE0 && c <= 0xEF)
      len = 3, cp = c & 0x0F;
    else if (c >= 0xF0 && c <= 0xF4)
      len = 4, cp = c & 0x07;
    else
      return i;
    if (i + len > n) return i;
    for (std::size_t k = 1; k < len; ++k) {
      if ((p[i + k] & 0xC0) != 0x80) return i;
      cp = (cp << 6) | (p[i + k] & 0x3F);
    }
    // overlong forms, surrogates, beyond U+10FFFF
    if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10FFFF)) ||
        (cp >= 0xD800 && cp <= 0xDFFF))
      return i;
    i += len;
  }
  return std::string_view::npos;
}

// parse one YAML document; false (with errors added) when there is none to read
bool parseDocument(Session& s, const std::string& file, const std::string& text, YAML::Node& out) {
  if (text.size() > kMaxFileBytes) {
    s.add(SourceLoc{file, 0, 0, ""}, "",
          "the file is too large (" + std::to_string(text.size()) + " bytes; at most 16 MiB)");
    return false;
  }
  if (const std::size_t bad = badTextByte(text); bad != std::string_view::npos) {
    const auto [line, col] = lineColumn(text, bad);
    char hex[8];
    std::snprintf(hex, sizeof hex, "0x%02X", static_cast<unsigned char>(text[bad]));
    s.add(SourceLoc{file, line, col, ""}, "",
          std::string("the file is not UTF-8 text (byte ") + hex + "); is it a binary file?");
    return false;
  }
  // a first pass over the parser's events, without building nodes: it counts the values (yaml-cpp
  // needs seconds and gigabytes for millions of nodes, so a document is refused before that) and
  // the documents (YAML::LoadAll can loop forever on some malformed input: yaml-cpp 0.7's
  // HandleNextDocument keeps returning true without progress); then the first document is built
  // yaml-cpp scans a whole flow collection ([...], {...}) before it reports its events, so the
  // count below comes too late for a huge one; its entries need commas, which are cheap to count
  const std::string too_many = "the document holds more than " + std::to_string(kMaxYamlValues) +
                               " values; give long series as CSV files";
  if (static_cast<std::size_t>(std::count(text.begin(), text.end(), ',')) > kMaxCommas) {
    s.add(SourceLoc{file, 0, 0, ""}, "",
          "the document holds more than " + std::to_string(kMaxCommas) +
              " commas; give long series as CSV files");
    return false;
  }
  struct TooMany {};
  struct Count : YAML::EventHandler {
    std::size_t values = 0;
    void bump() {
      if (++values > kMaxYamlValues) throw TooMany{};
    }
    void OnDocumentStart(const YAML::Mark&) override {}
    void OnDocumentEnd() override {}
    void OnNull(const YAML::Mark&, YAML::anchor_t) override { bump(); }
    void OnAlias(const YAML::Mark&, YAML::anchor_t) override { bump(); }
    void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t,
                  const std::string&) override {
      bump();
    }
    void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                         YAML::EmitterStyle::value) override {
      bump();
    }
    void OnSequenceEnd() override {}
    void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                    YAML::EmitterStyle::value) override {
      bump();
    }
    void OnMapEnd() override {}
  };
  std::size_t ndocs = 0;
  try {
    Count count;
    std::istringstream in(text);
    YAML::Parser parser(in);
    while (ndocs < 2 && parser.HandleNextDocument(count)) ++ndocs;
    if (ndocs < 2) out = YAML::Load(text);
  } catch (const TooMany&) {
    s.add(SourceLoc{file, 0, 0, ""}, "", too_many);
    return false;
  } catch (const YAML::Exception& e) {
    SourceLoc l{file, 0, 0, ""};
    if (!e.mark.is_null() && e.mark.line >= 0)
      l.line = e.mark.line + 1, l.column = e.mark.column + 1;
    std::string msg = e.msg.empty() ? std::string("malformed YAML") : e.msg;
    // yaml-cpp's depth guard reports "bad file" (its DeepRecursion type is not exported)
    if (e.msg == YAML::ErrorMsg::BAD_FILE)
      msg = "the document nests lists or maps too deeply (yaml-cpp stops at a few hundred levels)";
    s.add(l, "", "YAML syntax error: " + msg);
    return false;
  }
  if (ndocs > 1) {
    s.add(SourceLoc{file, 0, 0, ""}, "",
          "the file holds more than one YAML document ('---' separators); expected one");
    return false;
  }
  if (ndocs == 0 || !out.IsDefined() || out.IsNull()) {
    s.add(SourceLoc{file, 1, 1, ""}, "", "the file is empty");
    return false;
  }
  return true;
}

// read a whole file of at most kMaxFileBytes; nullopt with *why on failure
std::optional<std::string> readTextFile(const std::string& path, std::string* why) {
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  if (ec || !fs::exists(st)) {
    *why = "no such file";
    return std::nullopt;
  }
  if (!fs::is_regular_file(st)) {
    *why = "not a regular file";
    return std::nullopt;
  }
  const auto size = fs::file_size(path, ec);
  if (!ec && size > kMaxFileBytes) {
    *why = "the file is too large (" + std::to_string(size) + " bytes; at most 16 MiB)";
    return std::nullopt;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    *why = "cannot open the file";
    return std::nullopt;
  }
  // in chunks: the size seen above may have changed, and special files may report none
  std::string text;
  if (!ec) text.reserve(static_cast<std::size_t>(size));
  char buf[1 << 16];
  while (in.read(buf, sizeof buf) || in.gcount() > 0) {
    text.append(buf, static_cast<std::size_t>(in.gcount()));
    if (text.size() > kMaxFileBytes) {
      *why = "the file is too large (at most 16 MiB)";
      return std::nullopt;
    }
  }
  return text;
}

//---------------------------------------------------------------------------------------------
// value readers on single nodes

// ".nan", ".inf" and friends: YAML's special floats, which from_chars does not know
bool yamlSpecialFloat(std::string_view s) {
  std::string t = lower(trimmed(s));
  if (!t.empty() && (t[0] == '+' || t[0] == '-')) t.erase(0, 1);
  return t.rfind(".nan", 0) == 0 || t.rfind(".inf", 0) == 0;
}

std::optional<double> readQuantity(File& f, const YAML::Node& n, const std::string& path, Dim dim,
                                   const Range& r, bool per_kelvin = false) {
  f.visit(n, path);
  if (!n.IsScalar()) {
    f.error(n, path, "", "expected " + describe(dim) + ", got " + kindOf(n));
    return std::nullopt;
  }
  const std::string& text = n.Scalar();
  if (yamlSpecialFloat(text)) {
    f.error(n, path, text,
            std::string("expected a finite number; ") + noun(dim) + " cannot be NaN or infinite");
    return std::nullopt;
  }
  std::string_view body = text;
  std::string stripped;
  if (per_kelvin) {
    // a gain per kelvin may carry its unit
    stripped = trimmed(body);
    for (const char* u : {"1/K", "/K"}) {
      const std::string_view us(u);
      if (stripped.size() > us.size() &&
          stripped.compare(stripped.size() - us.size(), us.size(), us) == 0) {
        stripped.resize(stripped.size() - us.size());
        break;
      }
    }
    body = stripped;
  }
  std::string why;
  const auto q = parseQuantity(body, dim, &why);
  if (!q) {
    f.error(n, path, text, why);
    return std::nullopt;
  }
  if (!r.contains(q->value)) {
    f.error(n, path, text, std::string("expected ") + noun(dim) + " " + r.text);
    return std::nullopt;
  }
  return q->value;
}

std::optional<FlowValue> readFlow(File& f, const YAML::Node& n, const std::string& path) {
  f.visit(n, path);
  if (!n.IsScalar()) {
    f.error(n, path, "", "expected " + describe(Dim::Flow) + ", got " + kindOf(n));
    return std::nullopt;
  }
  const std::string& text = n.Scalar();
  if (yamlSpecialFloat(text)) {
    f.error(n, path, text, "expected a finite number; a flow cannot be NaN or infinite");
    return std::nullopt;
  }
  std::string why;
  const auto q = parseQuantity(text, Dim::Flow, &why);
  if (!q) {
    f.error(n, path, text, why);
    return std::nullopt;
  }
  const bool mass = q->dim == Dim::MassFlow;
  const Range& r = mass ? kMassFlow : kVolumeFlow;
  if (!r.contains(q->value)) {
    f.error(n, path, text,
            std::string("expected ") + (mass ? "a mass flow " : "a volume flow ") + r.text);
    return std::nullopt;
  }
  return FlowValue{q->value, mass};
}

std::optional<long long> readInteger(File& f, const YAML::Node& n, const std::string& path,
                                     long long lo, long long hi) {
  f.visit(n, path);
  auto expected = [&] {
    std::string m = "expected an integer";
    if (hi >= (1LL << 40)) return m + " >= " + std::to_string(lo);
    return m + " between " + std::to_string(lo) + " and " + std::to_string(hi);
  };
  if (!n.IsScalar()) {
    f.error(n, path, "", expected() + ", got " + kindOf(n));
    return std::nullopt;
  }
  const std::string text = trimmed(n.Scalar());
  std::string_view s = text;
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  long long v = 0;
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || ptr != s.data() + s.size() || s.empty() || v < lo || v > hi) {
    f.error(n, path, n.Scalar(), expected());
    return std::nullopt;
  }
  return v;
}

std::optional<std::string> readText(File& f, const YAML::Node& n, const std::string& path,
                                    const char* what) {
  f.visit(n, path);
  if (!n.IsScalar()) {
    f.error(n, path, "", std::string("expected ") + what + ", got " + kindOf(n));
    return std::nullopt;
  }
  return n.Scalar();
}

std::optional<std::string> readName(File& f, const YAML::Node& n, const std::string& path) {
  auto t = readText(f, n, path, "a name");
  if (!t) return std::nullopt;
  if (!validName(*t)) {
    f.error(n, path, *t, kNameRule);
    return std::nullopt;
  }
  return t;
}

// a list node, checked for type and length; nullopt (with an error) otherwise
bool checkList(File& f, const YAML::Node& n, const std::string& path, std::size_t min_len,
               const char* what) {
  f.visit(n, path);
  if (!n.IsSequence()) {
    f.error(n, path, n.IsScalar() ? n.Scalar() : "",
            std::string("expected a list of ") + what + ", got " + kindOf(n));
    return false;
  }
  const std::size_t len = n.size();
  if (len > kMaxListLength) {
    f.error(n, path, "",
            "the list is too long (" + std::to_string(len) + " entries; at most 1000000)");
    return false;
  }
  if (len < min_len) {
    f.error(n, path, "",
            "expected at least " + std::to_string(min_len) + " " + what + ", got " +
                std::to_string(len));
    return false;
  }
  return true;
}

std::optional<std::vector<double>> readNumbers(File& f, const YAML::Node& n,
                                               const std::string& path, const Range& r,
                                               std::size_t min_len) {
  if (!checkList(f, n, path, min_len, "numbers")) return std::nullopt;
  std::vector<double> out;
  out.reserve(n.size());
  bool ok = true;
  std::size_t i = 0;
  for (auto it = n.begin(); it != n.end(); ++it, ++i) {
    const auto v = readQuantity(f, *it, item(path, i), Dim::None, r);
    if (v)
      out.push_back(*v);
    else
      ok = false;
  }
  if (!ok) return std::nullopt;
  return out;
}

//---------------------------------------------------------------------------------------------
// MapIn: the keys of one map, checked against the allowed ones

// where each key of an entity (CDU, rack type) was set, relative dotted key -> location; lets the
// checks after a catalog merge point at the line that set a value, in whichever file
struct Set {
  SourceLoc loc;
  bool ok = true;  // false: the value was present but invalid (already reported)
};
using Provided = std::map<std::string, Set>;

class MapIn {
 public:
  // allowed empty and `open`: any key is accepted (maps keyed by names)
  MapIn(File& f, const YAML::Node& node, std::string path, const Keys& allowed,
        Provided* prov = nullptr, std::string rel = "", bool open = false)
      : f_(f), node_(node), path_(std::move(path)), prov_(prov), rel_(std::move(rel)) {
    f_.visit(node_, path_);
    if (!node_.IsMap()) {
      f_.error(node_, path_, node_.IsScalar() ? node_.Scalar() : "",
               std::string("expected a map (key: value lines), got ") + kindOf(node_));
      return;
    }
    valid_ = true;
    std::vector<std::string> names;
    if (!open)
      for (const char* k : allowed) names.emplace_back(k);
    for (auto it = node_.begin(); it != node_.end(); ++it) {
      // copies: the iterator's pair is a temporary proxy
      const YAML::Node k = it->first;
      const YAML::Node v = it->second;
      f_.visit(k, path_);
      if (!k.IsScalar()) {
        f_.error(k, path_, "", std::string("expected a plain key name, got ") + kindOf(k));
        continue;
      }
      const std::string& key = k.Scalar();
      // extension keys hold anchors and notes for people; never read
      if (key.size() >= 2 && key[0] == 'x' && key[1] == '-') continue;
      if (v.IsNull()) f_.nullValue(v, k);
      if (!open && std::find(names.begin(), names.end(), key) == names.end()) {
        std::string hint = didYouMean(key, names);
        if (hint.empty()) {
          hint = "; expected one of: ";
          for (std::size_t i = 0; i < names.size(); ++i) hint += (i ? ", " : "") + names[i];
        } else {
          // the misspelt key is not reported missing as well
          suggested_.insert(
              hint.substr(hint.find('\'') + 1, hint.rfind('\'') - hint.find('\'') - 1));
        }
        f_.error(k, path_, "", "unknown key '" + clip(key) + "'" + hint);
        continue;
      }
      auto [pos, fresh] = entries_.emplace(key, std::make_pair(k, v));
      if (!fresh) {
        const SourceLoc first = f_.loc(pos->second.first, "");
        f_.error(k, sub(clip(key)), key,
                 "duplicate key (first given at line " + std::to_string(first.line) + ")");
      } else {
        order_.push_back(key);
      }
    }
  }

  bool valid() const { return valid_; }
  File& file() const { return f_; }
  const YAML::Node& node() const { return node_; }
  const std::string& path() const { return path_; }
  const std::string& rel() const { return rel_; }
  Provided* provided() const { return prov_; }
  SourceLoc loc() const { return f_.loc(node_, path_); }
  const std::vector<std::string>& keys() const { return order_; }
  std::string sub(std::string_view key) const { return dctwin::sub(path_, key); }

  const YAML::Node* get(std::string_view key) const {
    auto it = entries_.find(std::string(key));
    return it == entries_.end() ? nullptr : &it->second.second;
  }
  const YAML::Node* keyNode(std::string_view key) const {
    auto it = entries_.find(std::string(key));
    return it == entries_.end() ? nullptr : &it->second.first;
  }
  SourceLoc locOf(std::string_view key) const {
    const YAML::Node* v = get(key);
    return v ? f_.loc(*v, sub(key)) : loc();
  }
  void missing(std::string_view key, const std::string& extra = "") const {
    if (valid_ && !suggested_.count(std::string(key)))
      f_.error(node_, path_, "", "missing required key '" + std::string(key) + "'" + extra);
  }
  // a key named by a did-you-mean of an unknown key
  bool suggested(const std::string& key) const { return suggested_.count(key) > 0; }
  // the value of a required key, or nullptr (with an error)
  const YAML::Node* require(std::string_view key) const {
    const YAML::Node* v = get(key);
    if (!v) missing(key);
    return v;
  }
  void note(std::string_view key, bool ok) const {
    if (!prov_) return;
    const YAML::Node* v = get(key);
    (*prov_)[rel_ + std::string(key)] = Set{v ? f_.loc(*v, sub(key)) : loc(), ok};
  }

  // typed readers: true when the key is present and valid (then `out` is set); `out` is left as
  // it was when the key is absent (its default or the catalog's value) or invalid
  bool quantity(std::string_view key, Dim dim, const Range& r, double& out, bool req = false) {
    const YAML::Node* v = req ? require(key) : get(key);
    if (!v) return false;
    const auto q = readQuantity(f_, *v, sub(key), dim, r);
    note(key, q.has_value());
    if (q) out = *q;
    return q.has_value();
  }
  bool perKelvin(std::string_view key, const Range& r, double& out) {
    const YAML::Node* v = get(key);
    if (!v) return false;
    const auto q = readQuantity(f_, *v, sub(key), Dim::None, r, true);
    note(key, q.has_value());
    if (q) out = *q;
    return q.has_value();
  }
  bool flow(std::string_view key, FlowValue& out, bool req = false) {
    const YAML::Node* v = req ? require(key) : get(key);
    if (!v) return false;
    const auto q = readFlow(f_, *v, sub(key));
    note(key, q.has_value());
    if (q) out = *q;
    return q.has_value();
  }
  bool integer(std::string_view key, long long lo, long long hi, int& out, bool req = false) {
    const YAML::Node* v = req ? require(key) : get(key);
    if (!v) return false;
    const auto q = readInteger(f_, *v, sub(key), lo, hi);
    note(key, q.has_value());
    if (q) out = static_cast<int>(*q);
    return q.has_value();
  }
  bool name(std::string_view key, std::string& out, bool req = false) {
    const YAML::Node* v = req ? require(key) : get(key);
    if (!v) return false;
    const auto q = readName(f_, *v, sub(key));
    note(key, q.has_value());
    if (q) out = *q;
    return q.has_value();
  }
  bool text(std::string_view key, std::string& out, bool req = false, bool null_ok = false) {
    const YAML::Node* v = req ? require(key) : get(key);
    if (!v) return false;
    if (null_ok && v->IsNull()) return false;
    const auto q = readText(f_, *v, sub(key), "a text");
    note(key, q.has_value());
    if (q) out = *q;
    return q.has_value();
  }
  bool numbers(std::string_view key, const Range& r, std::size_t min_len, std::vector<double>& out,
               bool req = false) {
    const YAML::Node* v = req ? require(key) : get(key);
    if (!v) return false;
    auto q = readNumbers(f_, *v, sub(key), r, min_len);
    note(key, q.has_value());
    if (q) out = std::move(*q);
    return q.has_value();
  }
  File& f() const { return f_; }
  std::optional<MapIn> map(std::string_view key, const Keys& allowed, bool req = false,
                           bool open = false) {
    const YAML::Node* v = req ? require(key) : get(key);
    if (!v) return std::nullopt;
    std::optional<MapIn> m(std::in_place, f_, *v, sub(key), allowed, prov_,
                           rel_ + std::string(key) + ".", open);
    note(key, m->valid());
    if (!m->valid()) return std::nullopt;
    return m;
  }

 private:
  File& f_;
  YAML::Node node_;
  std::string path_;
  Provided* prov_;
  std::string rel_;
  bool valid_ = false;
  std::map<std::string, std::pair<YAML::Node, YAML::Node>> entries_;
  std::vector<std::string> order_;
  std::set<std::string> suggested_;
};

// for each entry of an optional or required list
template <class Fn>
void forEachItem(File& f, const YAML::Node& n, const std::string& path, std::size_t min_len,
                 const char* what, Fn&& fn) {
  if (!checkList(f, n, path, min_len, what)) return;
  std::size_t i = 0;
  for (auto it = n.begin(); it != n.end(); ++it, ++i) fn(*it, item(path, i), i);
}

//---------------------------------------------------------------------------------------------
// time series

std::optional<TimeSeries> readCsvSeries(File& f, const YAML::Node& at, const std::string& path,
                                        const std::string& csv, const std::string& unit, Dim dim,
                                        const Range& r) {
  // the unit: SI = x * scale + offset
  std::string why;
  const auto q0 = parseQuantity("0 " + unit, dim, &why);
  const auto q1 = parseQuantity("1 " + unit, dim, &why);
  if (!q0 || !q1 || unit.empty()) {
    f.error(at, sub(path, "unit"), unit,
            unit.empty() ? "expected the unit of the CSV's value column; " + describe(dim) : why);
    return std::nullopt;
  }
  const double offset = q0->value, scale = q1->value - q0->value;
  fs::path p(csv);
  if (p.is_relative()) p = fs::path(f.dir.empty() ? "." : f.dir) / p;
  const std::string file = p.lexically_normal().string();
  const auto text = readTextFile(file, &why);
  if (!text) {
    f.error(at, sub(path, "csv"), csv, "cannot read the CSV file '" + file + "': " + why);
    return std::nullopt;
  }
  TimeSeries ts;
  ts.kind = TimeSeries::Kind::Linear;
  bool ok = true, header = true;
  int line = 0;
  std::size_t pos = 0;
  auto bad = [&](int ln, int col, std::string value, std::string msg) {
    f.s.add(SourceLoc{file, ln, col, path}, std::move(value), std::move(msg));
    ok = false;
  };
  auto number = [](std::string_view s, double& v) {
    if (!s.empty() && s.front() == '+') s.remove_prefix(1);
    const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    return ec == std::errc() && ptr == s.data() + s.size() && !s.empty() && std::isfinite(v);
  };
  while (pos < text->size()) {
    std::size_t end = text->find('\n', pos);
    if (end == std::string::npos) end = text->size();
    const std::string_view raw(text->data() + pos, end - pos);
    pos = end + 1;
    ++line;
    const std::string row = trimmed(raw);
    if (row.empty()) continue;
    if (header) {
      header = false;
      double probe = 0;
      const std::size_t comma = row.find(',');
      if (number(trimmed(std::string_view(row).substr(0, comma)), probe))
        bad(line, 1, row,
            "the first line must be a header naming the columns (e.g. 'time_s,power_kW'), got "
            "numbers");
      continue;
    }
    if (ts.t.size() >= kMaxListLength) {
      bad(line, 1, "", "the CSV file has too many rows (at most 1000000)");
      break;
    }
    f.s.visit([&] { return SourceLoc{file, line, 1, path}; });
    const std::size_t comma = row.find(',');
    if (comma == std::string::npos) {
      bad(line, 1, row, "expected 'time,value' (two comma-separated columns)");
      continue;
    }
    const std::size_t comma2 = row.find(',', comma + 1);
    const std::string ct = trimmed(std::string_view(row).substr(0, comma));
    const std::string cv = trimmed(std::string_view(row).substr(
        comma + 1, comma2 == std::string::npos ? std::string::npos : comma2 - comma - 1));
    double t = 0, v = 0;
    if (!number(ct, t) || !kSeriesTime.contains(t)) {
      bad(line, 1, ct, std::string("expected a time in seconds ") + kSeriesTime.text);
      continue;
    }
    if (!number(cv, v) || !std::isfinite(v * scale + offset) || !r.contains(v * scale + offset)) {
      bad(line, static_cast<int>(comma) + 2, cv,
          std::string("expected ") + noun(dim) + " in " + unit + ", " + r.text);
      continue;
    }
    if (!ts.t.empty() && !(t > ts.t.back())) {
      bad(line, 1, ct, "times must increase strictly from row to row");
      continue;
    }
    ts.t.push_back(t);
    ts.v.push_back(v * scale + offset);
  }
  if (ok && ts.t.empty()) {
    f.error(at, sub(path, "csv"), csv, "the CSV file '" + file + "' has no data rows");
    return std::nullopt;
  }
  if (!ok) return std::nullopt;
  return ts;
}

std::optional<TimeSeries> readSeries(File& f, const YAML::Node& n, const std::string& path, Dim dim,
                                     const Range& r) {
  if (n.IsScalar()) {
    const auto v = readQuantity(f, n, path, dim, r);
    if (!v) return std::nullopt;
    TimeSeries ts;
    ts.kind = TimeSeries::Kind::Constant;
    ts.t = {0.0};
    ts.v = {*v};
    return ts;
  }
  if (!n.IsMap()) {
    f.visit(n, path);
    f.error(n, path, "",
            "expected " + describe(dim) +
                ", or a map with one of 'steps', 'series' or 'csv'; got " + kindOf(n));
    return std::nullopt;
  }
  MapIn m(f, n, path, kSeriesKeys);
  const int forms = (m.get("steps") ? 1 : 0) + (m.get("series") ? 1 : 0) + (m.get("csv") ? 1 : 0);
  if (forms == 0) {
    f.error(n, path, "", "expected one of the keys 'steps', 'series' or 'csv'");
    return std::nullopt;
  }
  if (forms > 1) {
    f.error(n, path, "", "give only one of 'steps', 'series' and 'csv'");
    return std::nullopt;
  }
  if (const YAML::Node* csv = m.get("csv")) {
    const YAML::Node* unit = m.require("unit");
    const auto file = readText(f, *csv, m.sub("csv"), "a CSV file name");
    if (!unit || !file) return std::nullopt;
    const auto u = readText(f, *unit, m.sub("unit"), "a unit");
    if (!u) return std::nullopt;
    if (file->empty()) {
      f.error(*csv, m.sub("csv"), "", "expected a CSV file name");
      return std::nullopt;
    }
    return readCsvSeries(f, n, path, *file, trimmed(*u), dim, r);
  }
  if (const YAML::Node* unit = m.get("unit")) {
    f.error(*m.keyNode("unit"), m.sub("unit"), "", "'unit' is only used with 'csv'");
    (void)unit;
    return std::nullopt;
  }
  const bool steps = m.get("steps") != nullptr;
  const char* key = steps ? "steps" : "series";
  const YAML::Node& list = *m.get(key);
  const std::string lpath = m.sub(key);
  if (!checkList(f, list, lpath, 1, "[time, value] pairs")) return std::nullopt;
  TimeSeries ts;
  ts.kind = steps ? TimeSeries::Kind::Steps : TimeSeries::Kind::Linear;
  ts.t.reserve(list.size());
  ts.v.reserve(list.size());
  bool ok = true;
  std::size_t i = 0;
  for (auto it = list.begin(); it != list.end(); ++it, ++i) {
    const YAML::Node& pair = *it;
    const std::string ipath = item(lpath, i);
    f.visit(pair, ipath);
    if (!pair.IsSequence() || pair.size() != 2) {
      f.error(pair, ipath, pair.IsScalar() ? pair.Scalar() : "",
              "expected a [time, value] pair, e.g. [10 min, 120 kW]");
      ok = false;
      continue;
    }
    const auto t = readQuantity(f, pair[0], ipath + "[0]", Dim::Time, kSeriesTime);
    const auto v = readQuantity(f, pair[1], ipath + "[1]", dim, r);
    if (!t || !v) {
      ok = false;
      continue;
    }
    if (!ts.t.empty() && !(*t > ts.t.back())) {
      f.error(pair[0], ipath + "[0]", pair[0].Scalar(),
              "times must increase strictly from knot to knot");
      ok = false;
      continue;
    }
    ts.t.push_back(*t);
    ts.v.push_back(*v);
  }
  if (!ok) return std::nullopt;
  return ts;
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

std::string fmt(double x) {
  char b[32];
  std::snprintf(b, sizeof b, "%g", x);
  return b;
}

//--- fluids
void readFluid(MapIn& m, FluidData& d) {
  File& f = m.file();
  m.quantity("T_min", Dim::Temperature, kTemperature, d.T_min, true);
  m.quantity("T_max", Dim::Temperature, kTemperature, d.T_max, true);
  double freeze = 0;
  const bool has_freeze = m.quantity("freeze_point", Dim::Temperature, kTemperature, freeze);
  if (d.T_min > 0 && d.T_max > 0 && !(d.T_min < d.T_max))
    f.s.add(m.locOf("T_max"), "", "T_max must be above T_min");
  if (has_freeze && d.T_min > 0 && freeze > d.T_min + 1e-9)
    f.s.add(m.locOf("freeze_point"), "", "freeze_point must not be above T_min");
  auto table = m.map("table", kFluidTableKeys, true);
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
    if (!cols[0].empty() && !(row[0] + 273.15 > cols[0].back())) {
      f.error(*it, ip, "", "the temperatures must increase strictly from row to row");
      ok = false;
      continue;
    }
    cols[0].push_back(row[0] + 273.15);
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
  m.quantity("time_constant", Dim::Time, kDuration, cp.time_constant);
  if (auto dp = m.map("pressure_drop", kLawDpKeys, true)) {
    dp->quantity("dp_nominal", Dim::Pressure, kPressure, cp.dp_nominal, true);
    dp->quantity("flow_nominal", Dim::VolumeFlow, kVolumeFlow, cp.flow_nominal, true);
    dp->quantity("exponent", Dim::None, kLawExponent, cp.dp_exponent);
  }
  auto res = m.map("resistance", {}, true, true);
  if (!res) return;
  if (res->keys().empty())
    f.error(res->node(), res->path(), "", "expected at least one fluid with its resistance law");
  for (const std::string& fluid : res->keys()) {
    const std::string lpath = res->sub(fluid);
    if (!validName(fluid)) {
      f.error(*res->keyNode(fluid), lpath, fluid, std::string("fluid name: ") + kNameRule);
      continue;
    }
    MapIn law(f, *res->get(fluid), lpath, kLawKeys);
    if (!law.valid()) continue;
    ColdPlateSpec::Law L;
    if (auto fit = law.map("fit", kFitKeys, true)) {
      fit->quantity("R_inf", Dim::ThermalResistance, kResistance, L.R_inf, true);
      fit->quantity("a", Dim::None, kFitA, L.a, true);
      fit->quantity("b", Dim::None, kFitB, L.b, true);
    }
    if (auto table = law.map("table", kPlateTableKeys)) {
      std::vector<double> flow, R;
      const bool okf = table->numbers("flow_L_min", kPlateFlow, 1, flow, true);
      const bool okr = table->numbers("R_K_W", kPlateR, 1, R, true);
      if (okf && okr) {
        if (flow.size() != R.size()) {
          f.error(*table->get("R_K_W"), table->sub("R_K_W"), "",
                  "expected as many resistances as flows (" + std::to_string(flow.size()) +
                      "), got " + std::to_string(R.size()));
        } else {
          bool inc = true;
          for (std::size_t i = 1; i < flow.size(); ++i) inc = inc && flow[i] > flow[i - 1];
          if (!inc) {
            f.error(*table->get("flow_L_min"), table->sub("flow_L_min"), "",
                    "the flows must increase strictly");
          } else {
            for (double& v : flow) v /= 60000.0;  // L/min -> m3/s
            L.table_flow = std::move(flow);
            L.table_R = std::move(R);
          }
        }
      }
    }
    cp.laws[fluid] = std::move(L);
  }
}

//--- rack types
void readRackType(MapIn& m, RackTypeSpec& r) {
  m.quantity("nominal_power", Dim::Power, kRackPower, r.nominal_power);
  m.quantity("liquid_fraction", Dim::None, kFraction, r.liquid_fraction);
  m.quantity("gpu_heat_fraction", Dim::None, kFraction, r.gpu_heat_fraction);
  m.integer("trays", 1, kMaxCount, r.trays);
  m.integer("gpus_per_tray", 1, kMaxCount, r.gpus_per_tray);
  m.name("coldplate", r.coldplate);
  m.integer("coldplate_paths", 1, kMaxCount, r.coldplate_paths);
  m.quantity("design_flow", Dim::VolumeFlow, kVolumeFlow, r.design_flow);
  if (auto mf = m.map("manifold", kLawDpKeys)) {
    mf->quantity("dp_nominal", Dim::Pressure, kPressure, r.manifold_dp_nominal);
    mf->quantity("flow_nominal", Dim::VolumeFlow, kVolumeFlow, r.manifold_flow_nominal);
    mf->quantity("exponent", Dim::None, kLawExponent, r.manifold_exponent);
  }
  m.quantity("coolant_volume", Dim::Volume, kVolume, r.coolant_volume);
  m.quantity("balancing_valve_kv", Dim::None, kKv, r.balancing_valve_kv);
  m.quantity("max_working_pressure", Dim::Pressure, kPressure, r.max_working_pressure);
  m.quantity("supply_temperature_max", Dim::Temperature, kTemperature, r.supply_temperature_max);
  m.name("gpu", r.gpu);
  m.quantity("other_idle_power", Dim::Power, kHeatLoad, r.other_idle_power);
  m.quantity("other_max_power", Dim::Power, kHeatLoad, r.other_max_power);
  if (auto es = m.map("energy_storage", kStorageKeys)) {
    r.has_storage = true;
    es->quantity("capacity", Dim::Energy, Range{0, 1e12, true, false, "> 0 J"},
                 r.storage.capacity_J, true);
    es->quantity("max_power", Dim::Power, kHeatLoad, r.storage.P_max_W, true);
    es->quantity("time_constant", Dim::Time, kPhaseDuration, r.storage.tau, true);
    es->quantity("recovery_time", Dim::Time, kPhaseDuration, r.storage.soc_tau);
  }
  if (const YAML::Node* pl = m.get("parts"); pl && !pl->IsNull()) {
    r.parts.clear();
    forEachItem(m.f(), *pl, m.sub("parts"), 0, "parts",
                [&](const YAML::Node& x, const std::string& p, std::size_t) {
                  MapIn pm(m.f(), x, p, kRackPartKeys);
                  if (!pm.valid()) return;
                  std::string name;
                  int count = 0;
                  bool ok = pm.name("part", name, true);
                  ok = pm.integer("count", 0, kMaxCount, count, true) && ok;
                  if (ok) r.parts.emplace_back(name, count);
                });
  }
}

//--- rack parts (CPUs, switch trays, NICs, fans)
void readPart(MapIn& m, PartParams& p) {
  std::string kind;
  if (m.name("kind", kind, true) && !partKindFromName(kind, &p.kind))
    m.f().s.add(
        m.locOf("kind"), kind,
        "expected cpu, nvswitch_tray, nic, switch_optics, fan or other" +
            didYouMean(kind, {"cpu", "nvswitch_tray", "nic", "switch_optics", "fan", "other"}));
  m.quantity("idle_power", Dim::Power, kHeatLoad, p.P_idle, true);
  m.quantity("max_power", Dim::Power, kHeatLoad, p.P_max, true);
  m.quantity("liquid_fraction", Dim::None, kFraction, p.liquid_fraction, true);
  m.integer("ports", 0, kMaxCount, p.ports);
  m.quantity("port_active_power", Dim::Power, kHeatLoad, p.P_port_active);
  m.quantity("port_idle_power", Dim::Power, kHeatLoad, p.P_port_idle);
  m.quantity("port_lpm_power", Dim::Power, kHeatLoad, p.P_port_lpm);
  if (p.P_idle > p.P_max) m.f().s.add(m.loc(), "", "expected idle_power <= max_power");
}

//--- GPUs
const Range kGpuPower{0, 1e5, true, true, "> 0 W and < 100 kW"};
const Range kGpuPowerOrZero{0, 1e5, false, true, ">= 0 W and < 100 kW"};
const Range kClock{0, 1e11, true, true, "> 0 and < 100 GHz"};
const Range kBytes{0, 1e16, true, true, "> 0"};
const Range kGpuR{0, 10, true, false, "> 0 and <= 10 K/W"};
const Range kGpuC{0, 1e6, true, false, "> 0 and <= 1 MJ/K"};
const Range kV0{0, 1, false, false, "between 0 and 1"};
const Range kBeta{0, 0.2, false, false, "between 0 and 0.2 per K"};

void readGpu(MapIn& m, GpuParams& g) {
  m.quantity("tdp", Dim::Power, kGpuPower, g.P_tdp, true);
  m.quantity("power_limit_min", Dim::Power, kGpuPower, g.P_limit_min, true);
  m.quantity("power_limit_max", Dim::Power, kGpuPower, g.P_limit_max, true);
  m.quantity("idle_power", Dim::Power, kGpuPower, g.P_idle, true);
  m.quantity("hbm_idle_power", Dim::Power, kGpuPowerOrZero, g.P_hbm_idle, true);
  m.quantity("hbm_capacity", Dim::DataSize, kBytes, g.hbm_capacity, true);
  m.quantity("hbm_bandwidth", Dim::Bandwidth, kBytes, g.hbm_bandwidth, true);
  m.quantity("nvlink_bandwidth", Dim::Bandwidth, kBytes, g.nvlink_bandwidth, true);
  m.quantity("clock_max", Dim::Frequency, kClock, g.f_max, true);
  m.quantity("clock_idle", Dim::Frequency, kClock, g.f_idle, true);
  m.quantity("clock_memory_bound", Dim::Frequency, kClock, g.f_membound, true);
  if (auto pm = m.map("power_model", kGpuPowerKeys, true)) {
    pm->quantity("sm_max", Dim::Power, kGpuPowerOrZero, g.P_sm_max, true);
    pm->quantity("hbm_max", Dim::Power, kGpuPowerOrZero, g.P_hbm_max, true);
    pm->quantity("nvlink_max", Dim::Power, kGpuPowerOrZero, g.P_nvl_max, true);
    pm->quantity("voltage_v0", Dim::None, kV0, g.v0, true);
    pm->quantity("voltage_floor", Dim::None, kV0, g.v_floor);
    pm->quantity("clock_power", Dim::Power, kGpuPowerOrZero, g.P_clk);
    pm->quantity("leakage_ref", Dim::Power, kGpuPowerOrZero, g.P_leak_ref, true);
    pm->quantity("leakage_beta", Dim::None, kBeta, g.beta, true);
  }
  if (auto th = m.map("thermal", kGpuThermalKeys, true)) {
    th->quantity("maxop", Dim::Temperature, kTemperature, g.T_maxop, true);
    th->quantity("slowdown", Dim::Temperature, kTemperature, g.T_slowdown, true);
    th->quantity("shutdown", Dim::Temperature, kTemperature, g.T_shutdown, true);
    th->quantity("hbm_max", Dim::Temperature, kTemperature, g.T_hbm_max, true);
    th->quantity("R_junction_plate", Dim::ThermalResistance, kGpuR, g.R_jc, true);
    th->quantity("C_die", Dim::HeatCapacity, kGpuC, g.C_die, true);
    th->quantity("R_hbm_plate", Dim::ThermalResistance, kGpuR, g.R_hbm, true);
    th->quantity("C_hbm", Dim::HeatCapacity, kGpuC, g.C_hbm, true);
  }
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

const std::vector<std::string> kRackTypeRequired{
    "nominal_power",         "coldplate",      "design_flow",        "manifold.dp_nominal",
    "manifold.flow_nominal", "coolant_volume", "balancing_valve_kv", "max_working_pressure",
    "supply_temperature_max"};

void checkRackType(File& f, const RackTypeSpec& r, const Provided& prov, const SourceLoc& site,
                   const std::string& extra) {
  requireKeys(f, site, prov, kRackTypeRequired, extra);
  if (good(prov, "gpu_heat_fraction") && good(prov, "liquid_fraction") &&
      r.gpu_heat_fraction > r.liquid_fraction + 1e-12)
    f.s.add(where(prov, {"gpu_heat_fraction", "liquid_fraction"}, site), fmt(r.gpu_heat_fraction),
            "gpu_heat_fraction must not exceed liquid_fraction (" + fmt(r.liquid_fraction) +
                "): the GPU heat is part of the heat taken by the liquid");
}

//--- CDUs
void readPipe(MapIn& m, const char* key, PipeSpec& p) {
  auto pm = m.map(key, kPipeKeys, true);
  if (!pm) return;
  pm->quantity("length", Dim::Length, kLength, p.length, true);
  pm->quantity("diameter", Dim::Length, kDiameter, p.diameter, true);
  pm->quantity("roughness", Dim::Length, kRoughness, p.roughness);
  pm->integer("segments", 1, 200, p.segments);
  pm->quantity("heat_loss_coefficient", Dim::LinearConductance, kLossPerLength, p.ua_per_length);
}

void readCduBody(MapIn& m, CduSpec& c) {
  if (auto hx = m.map("heat_exchanger", kHexKeys)) {
    hx->quantity("rated_capacity", Dim::Power, kPower, c.hex_capacity);
    hx->quantity("rated_approach", Dim::TemperatureDiff, kTempDiff, c.hex_approach);
    hx->quantity("rated_primary_supply_temperature", Dim::Temperature, kTemperature,
                 c.hex_T_primary_rated);
    hx->flow("rated_flow_secondary", c.hex_flow_secondary);
    hx->flow("rated_flow_primary", c.hex_flow_primary);
    hx->quantity("dp_primary", Dim::Pressure, kPressure, c.hex_dp_primary);
    hx->quantity("dp_secondary", Dim::Pressure, kPressure, c.hex_dp_secondary);
    hx->quantity("holdup_primary", Dim::Volume, kVolume, c.hex_holdup_primary);
    hx->quantity("holdup_secondary", Dim::Volume, kVolume, c.hex_holdup_secondary);
    hx->quantity("flow_exponent", Dim::None, kHexExponent, c.hex_flow_exponent);
  }
  if (auto p = m.map("pumps", kPumpKeys)) {
    p->integer("count", 1, kMaxCount, c.pump_count);
    p->integer("running", 1, kMaxCount, c.pump_running);
    p->quantity("rated_flow", Dim::VolumeFlow, kVolumeFlow, c.pump_rated_flow);
    p->quantity("rated_head", Dim::Pressure, kPressure, c.pump_rated_head);
    if (auto cv = p->map("curve", kCurveKeys)) {
      cv->numbers("flow_ratio", kCurveRatio, 0, c.pump_curve_flow);
      cv->numbers("head_ratio", kCurveRatio, 0, c.pump_curve_head);
    }
    p->quantity("efficiency_hydraulic", Dim::None, kEfficiency, c.pump_eta_hyd);
    p->quantity("efficiency_motor", Dim::None, kEfficiency, c.pump_eta_mot);
    p->quantity("rise_time", Dim::Time, kDurationOrZero, c.pump_rise_time);
    p->quantity("min_speed", Dim::None, kMinSpeed, c.pump_min_speed);
  }
  if (auto v = m.map("primary_valve", kValveKeys)) {
    v->quantity("rangeability", Dim::None, kRangeability, c.valve_rangeability);
    v->quantity("leakage", Dim::None, kLeakage, c.valve_leakage);
    v->quantity("dp_nominal", Dim::Pressure, kPressure, c.valve_dp_nominal);
    v->quantity("stroke_time", Dim::Time, kDuration, c.valve_stroke_time);
  }
  if (auto t = m.map("expansion_tank", kTankKeys)) {
    t->quantity("volume", Dim::Volume, kVolume, c.tank_volume);
    t->quantity("precharge", Dim::Pressure, kPressureGauge, c.tank_precharge);
    t->quantity("fill_pressure", Dim::Pressure, kPressureGauge, c.tank_fill);
  }
  // negative-pressure loop (physics.md 7 [K92]): a vacuum pump holds the tank below atmosphere
  if (auto v = m.map("vacuum_tank", kVacuumKeys)) {
    static const Range kVacuum{-0.9e5, -1e3, true, true, "-90 kPa ... -1 kPa (gauge)"};
    v->quantity("pressure", Dim::Pressure, kVacuum, c.vacuum, true);
  }
  m.quantity("internal_volume", Dim::Volume, kVolumeOrZero, c.internal_volume);
  if (auto ct = m.map("control", kControlKeys)) {
    ct->quantity("supply_temperature", Dim::Temperature, kTemperature, c.T_supply_set);
    if (const YAML::Node* mode = ct->get("pump_mode")) {
      const auto t = readText(m.file(), *mode, ct->sub("pump_mode"), "'flow' or 'dp'");
      bool ok = false;
      if (t && (*t == "flow" || *t == "dp")) {
        c.pump_mode = *t == "flow" ? CduSpec::PumpMode::Flow : CduSpec::PumpMode::Dp;
        ok = true;
      } else if (t) {
        m.file().error(*mode, ct->sub("pump_mode"), *t, "expected 'flow' or 'dp'");
      }
      ct->note("pump_mode", ok);
    }
    ct->quantity("flow_setpoint", Dim::VolumeFlow, kVolumeFlow, c.flow_set);
    ct->quantity("dp_setpoint", Dim::Pressure, kPressure, c.dp_set);
    if (auto pi = ct->map("temperature_pi", kPiKeys)) {
      pi->perKelvin("k", kGain, c.temp_k);
      pi->quantity("Ti", Dim::Time, kDuration, c.temp_Ti);
    }
    if (auto pi = ct->map("pump_pi", kPiKeys)) {
      pi->quantity("k", Dim::None, kGain, c.pump_k);
      pi->quantity("Ti", Dim::Time, kDuration, c.pump_Ti);
    }
  }
  if (auto l = m.map("limits", kLimitKeys)) {
    l->quantity("supply_temperature_min", Dim::Temperature, kTemperature, c.T_supply_min);
    l->quantity("supply_temperature_max", Dim::Temperature, kTemperature, c.T_supply_max);
    l->quantity("secondary_pressure_max", Dim::Pressure, kPressure, c.p_secondary_max);
    l->quantity("primary_pressure_max", Dim::Pressure, kPressure, c.p_primary_max);
  }
}

const std::vector<std::string> kCduRequired{"heat_exchanger.rated_capacity",
                                            "heat_exchanger.rated_approach",
                                            "heat_exchanger.rated_primary_supply_temperature",
                                            "heat_exchanger.rated_flow_secondary",
                                            "heat_exchanger.rated_flow_primary",
                                            "heat_exchanger.dp_primary",
                                            "heat_exchanger.dp_secondary",
                                            "heat_exchanger.holdup_primary",
                                            "heat_exchanger.holdup_secondary",
                                            "pumps.rated_flow",
                                            "pumps.rated_head",
                                            "pumps.curve.flow_ratio",
                                            "pumps.curve.head_ratio",
                                            "primary_valve.dp_nominal",
                                            "expansion_tank.volume",
                                            "expansion_tank.precharge",
                                            "control.supply_temperature",
                                            "limits.supply_temperature_min",
                                            "limits.supply_temperature_max",
                                            "limits.secondary_pressure_max",
                                            "limits.primary_pressure_max"};

void checkCdu(File& f, const CduSpec& c, const Provided& prov, const SourceLoc& site,
              const std::string& extra) {
  requireKeys(f, site, prov, kCduRequired, extra);
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
    const auto text = readTextFile(e.path, &why);
    if (!text) {
      s_.add(SourceLoc{e.path, 0, 0, ""}, "", "cannot read the catalog file: " + why);
      return;
    }
    YAML::Node root;
    if (!parseDocument(s_, e.path, *text, root)) return;
    File f{s_, e.path, fs::path(e.path).parent_path().string()};
    const Keys* body = kind == "cdus" ? &kCduBodyKeys : kind == "racks" ? &kRackBodyKeys : nullptr;
    const Keys keys = kind == "fluids"       ? kFluidKeys
                      : kind == "coldplates" ? kColdPlateKeys
                      : kind == "gpus"       ? kGpuKeys
                      : kind == "parts"      ? kPartKeys
                      : kind == "electrical" ? kCatalogKeys
                                             : join(kCatalogKeys, *body);
    // electrical entries carry documentation keys of their standards: any key is accepted
    MapIn m(f, root, "", keys, &e.prov, "", kind == "electrical");
    if (!m.valid()) return;
    std::string declared;
    if (m.name("name", declared, true) && declared != name)
      f.s.add(m.locOf("name"), declared, "the name differs from the file name '" + name + ".yaml'");
    m.text("description", declared, false, true);
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
    MapIn top(f_, root, "", kTopKeys);
    if (!top.valid()) return;
    if (const YAML::Node* v = top.get("dctwin")) {
      f_.visit(*v, "dctwin");
      if (!v->IsScalar() || trimmed(v->Scalar()) != "1")
        f_.error(*v, "dctwin", v->IsScalar() ? v->Scalar() : "",
                 "unsupported format version; this dctwin reads version 1 (dctwin: 1)");
    } else {
      top.missing("dctwin", " (the format version: dctwin: 1)");
    }
    top.name("name", spec_.name, true);
    top.text("description", spec_.description, false, true);
    if (auto site = top.map("site", kSiteKeys, true)) {
      site->quantity("ambient_temperature", Dim::Temperature, kTemperature, spec_.T_ambient, true);
      if (auto room = site->map("room_air", kRoomKeys)) {
        spec_.has_room_air = true;
        room->quantity("volume", Dim::Volume, kRoomVolume, spec_.room_volume, true);
        room->quantity("supply_temperature", Dim::Temperature, kTemperature, spec_.room_supply_T,
                       true);
        room->quantity("airflow", Dim::VolumeFlow, kAirflow, spec_.room_airflow, true);
      }
    }
    readWater(top);
    if (const YAML::Node* n = top.get("coldplates"); n && !n->IsNull())
      forEachItem(f_, *n, "coldplates", 0, "cold plates",
                  [&](const YAML::Node& x, const std::string& p, std::size_t) { readPlate(x, p); });
    if (const YAML::Node* n = top.get("rack_types"); n && !n->IsNull())
      forEachItem(f_, *n, "rack_types", 0, "rack types",
                  [&](const YAML::Node& x, const std::string& p, std::size_t) { readType(x, p); });
    if (const YAML::Node* n = top.require("cdus"))
      forEachItem(f_, *n, "cdus", 1, "CDUs",
                  [&](const YAML::Node& x, const std::string& p, std::size_t) { readCdu(x, p); });
    if (const YAML::Node* n = top.require("racks"))
      forEachItem(f_, *n, "racks", 1, "racks",
                  [&](const YAML::Node& x, const std::string& p, std::size_t) { readRack(x, p); });
    if (const YAML::Node* n = top.get("jobs"); n && !n->IsNull())
      forEachItem(f_, *n, "jobs", 0, "jobs",
                  [&](const YAML::Node& x, const std::string& p, std::size_t) { readJob(x, p); });
    if (auto pw = top.map("power", kPowerKeys)) readPower(*pw);
    if (auto gl = top.map("gpu_layer", kGpuLayerKeys)) {
      gl->quantity("step", Dim::Time, kGpuStep, spec_.gpu_step);
      gl->quantity("coupling", Dim::Time, kCouplingStep, spec_.coupling_step);
      if (spec_.coupling_step < spec_.gpu_step)
        f_.s.add(gl->loc(), "", "gpu_layer.coupling must not be shorter than gpu_layer.step");
      if (const YAML::Node* b = gl->get("group_identical")) {
        if (b->IsScalar() && (b->Scalar() == "true" || b->Scalar() == "false"))
          spec_.gpu_group_identical = b->Scalar() == "true";
        else
          f_.s.add(gl->locOf("group_identical"), b->IsScalar() ? b->Scalar() : "",
                   "gpu_layer.group_identical: expected true or false");
      }
    }
    resolve();
  }

 private:
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
    SourceLoc cdu_loc, type_loc, heat_load_loc;
    bool heat_load_suggested = false;  // a misspelt key was reported with a did-you-mean
    bool kv_given = false;
    bool cdu_ok = false, type_ok = false;  // the names were read
  };

  void readWater(MapIn& top) {
    auto w = top.map("facility_water", kWaterKeys, true);
    if (!w) return;
    auto& fw = spec_.facility_water;
    water_fluid_loc_ = w->loc();
    if (w->name("fluid", fw.fluid)) water_fluid_loc_ = w->locOf("fluid");
    if (const YAML::Node* n = w->require("supply_temperature")) {
      if (auto ts =
              readSeries(f_, *n, w->sub("supply_temperature"), Dim::Temperature, kTemperature))
        fw.T_supply = std::move(*ts), water_T_loc_ = w->locOf("supply_temperature");
    }
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
      w->quantity("differential_pressure", Dim::Pressure, kPressure, fw.dp);
    } else {
      fw.mode = FacilityWaterSpec::Mode::Flow;
      w->flow("flow", fw.flow);
    }
  }

  void readPlate(const YAML::Node& n, const std::string& path) {
    Provided prov;
    MapIn m(f_, n, path, kColdPlateKeys, &prov, "");
    if (!m.valid()) return;
    ColdPlateSpec cp;
    if (!m.name("name", cp.name, true)) return;
    std::string desc;
    m.text("description", desc, false, true);
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
    MapIn m(f_, n, path, join(kRackTypeFacilityKeys, kRackBodyKeys), &prov, "");
    if (!m.valid()) return;
    RackTypeSpec r;
    TypeInfo info;
    std::string name;
    const bool named = m.name("name", name, true);
    std::string desc;
    m.text("description", desc, false, true);
    std::string base, extra;
    if (m.name("base", base)) {
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
    MapIn m(f_, n, path, join(kCduFacilityKeys, kCduBodyKeys), &prov, "");
    if (!m.valid()) return;
    CduSpec c;
    CduInfo info;
    const bool named = m.name("name", c.name, true);
    std::string model, extra, desc;
    m.text("description", desc, false, true);
    if (m.name("model", model)) {
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
    if (m.name("fluid", c.fluid)) info.fluid_loc = m.locOf("fluid");
    readCduBody(m, c);
    if (auto piping = m.map("piping", kPipingKeys, true)) {
      readPipe(*piping, "supply", c.supply_pipe);
      readPipe(*piping, "return", c.return_pipe);
    }
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
  // as an open map of its file; nullptr (with an error at `at`) when unknown or of another kind
  std::optional<MapIn> electrical(const std::string& name, const std::string& kind,
                                  const SourceLoc& at, File** file) {
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
    *file = elec_files_.back().get();
    MapIn m(**file, e->node, "", {}, nullptr, "", true);
    std::string k;
    if (!m.name("kind", k, true) || k != kind) {
      f_.s.add(
          at, name,
          "expected a " + kind + " (data/catalog/electrical/" + name + ".yaml is a '" + k + "')");
      return std::nullopt;
    }
    return m;
  }
  bool plain(MapIn& m, const char* key, double lo, double hi, double& out) {
    double v = 0;
    if (!m.quantity(key, Dim::None, Range{lo, hi, false, false, "in range"}, v, true)) return false;
    out = v;
    return true;
  }
  bool curve(MapIn& m, std::vector<double>& load, std::vector<double>& eta) {
    auto c = m.map("efficiency", {"load", "eta"}, true);
    if (!c) return false;
    return c->numbers("load", kFraction, 2, load, true) &&
           c->numbers("eta", kFraction, 2, eta, true);
  }
  void breaker(const std::string& name, const SourceLoc& at, BreakerParams& b) {
    File* bf = nullptr;
    auto m = electrical(name, "breaker", at, &bf);
    if (!m) return;
    plain(*m, "rated_current_A", 0.1, 1e5, b.I_n);
    plain(*m, "k_trip", 1.0, 3.0, b.k_trip);
    plain(*m, "magnetic_multiple", 1.0, 100.0, b.magnetic_multiple);
    m->quantity("thermal_time_constant", Dim::Time, kJobTime, b.tau, true);
  }
  void readPower(MapIn& pw) {
    PowerSpec& P = spec_.power;
    P.present = true;
    pw.quantity("line_voltage_V", Dim::None, Range{100, 50000, false, false, "100 ... 50000 V"},
                P.V_LL);
    pw.quantity("power_factor", Dim::None, Range{0.5, 1, false, false, "0.5 ... 1"}, P.pf);
    std::string name;
    File* ef = nullptr;
    if (pw.name("transformer", name)) {
      if (auto m = electrical(name, "transformer", pw.locOf("transformer"), &ef)) {
        P.has_transformer = true;
        double kva = 0;
        if (plain(*m, "rated_power_kVA", 1, 1e7, kva)) P.transformer.S_rated = kva * 1e3;
        m->quantity("no_load_loss", Dim::Power, kHeatLoad, P.transformer.P_no_load, true);
        m->quantity("load_loss", Dim::Power, kHeatLoad, P.transformer.P_load_rated, true);
      }
    }
    if (pw.name("ups", name)) {
      if (auto m = electrical(name, "ups", pw.locOf("ups"), &ef)) {
        P.has_ups = true;
        m->quantity("rated_power", Dim::Power, kPower, P.ups.P_rated, true);
        curve(*m, P.ups.load, P.ups.eta);
        m->quantity("standby_power", Dim::Power, kHeatLoad, P.ups.P_standby, true);
        double kwh = 0;
        if (plain(*m, "battery_energy_kWh", 0, 1e7, kwh)) P.ups.battery_J = kwh * 3.6e6;
        m->quantity("recharge_power", Dim::Power, kHeatLoad, P.ups.P_charge_max);
        double ec = P.ups.eta_charge;
        if (m->get("charge_efficiency") && plain(*m, "charge_efficiency", 0.1, 1, ec))
          P.ups.eta_charge = ec;
      }
    }
    pw.integer("transformer_count", 1, 100000, P.transformer_count);
    pw.integer("ups_count", 1, 100000, P.ups_count);
    if (pw.name("shelf", name, true)) {
      if (auto m = electrical(name, "shelf", pw.locOf("shelf"), &ef)) {
        m->integer("psu_count", 1, 1000, P.shelf.psu_count, true);
        m->integer("psu_redundant", 0, 1000, P.shelf.psu_redundant, true);
        m->integer("shelves_per_rack", 1, 1000, P.shelves_per_rack, true);
        std::string psu;
        if (m->name("psu", psu, true)) {
          File* pf = nullptr;
          if (auto pm = electrical(psu, "psu", m->locOf("psu"), &pf)) {
            pm->quantity("rated_power", Dim::Power, kPower, P.shelf.psu.P_rated, true);
            curve(*pm, P.shelf.psu.load, P.shelf.psu.eta);
            pm->quantity("standby_power", Dim::Power, kHeatLoad, P.shelf.psu.P_standby, true);
          }
        }
      }
    }
    if (pw.name("shelf_breaker", name)) {
      P.has_shelf_breaker = true;
      breaker(name, pw.locOf("shelf_breaker"), P.shelf_breaker);
    }
    if (const YAML::Node* bl = pw.require("busways"))
      forEachItem(
          f_, *bl, pw.sub("busways"), 1, "busways",
          [&](const YAML::Node& x, const std::string& p, std::size_t) {
            MapIn bm(f_, x, p, kBuswayKeys);
            if (!bm.valid()) return;
            PowerSpec::Busway b;
            b.loc = bm.loc();
            bm.name("name", b.name, true);
            bm.quantity("length", Dim::Length, kLength, b.params.length, true);
            std::string model;
            if (bm.name("model", model, true)) {
              File* bf = nullptr;
              if (auto m = electrical(model, "busway", bm.locOf("model"), &bf)) {
                double I = 0, R = 0, X = 0;
                plain(*m, "rated_current_A", 1, 1e5, I);
                plain(*m, "R_mohm_per_100ft", 0, 1e3, R);
                plain(*m, "X_mohm_per_100ft", 0, 1e3, X);
                b.params.I_rated = I;
                b.params.R20_per_m = R * 1e-3 / 30.48;
                b.params.X_per_m = X * 1e-3 / 30.48;
                if (m->get("temperature_coefficient_per_K"))
                  plain(*m, "temperature_coefficient_per_K", 0, 0.01, b.params.alpha);
                m->quantity("rated_ambient", Dim::Temperature, kTemperature, b.params.T_amb_rated);
                m->quantity("rated_rise", Dim::TemperatureDiff, kTempDiff, b.params.dT_rated);
                m->quantity("thermal_time_constant", Dim::Time, kJobTime, b.params.tau_thermal,
                            true);
              }
            }
            if (bm.name("breaker", model)) {
              b.has_breaker = true;
              breaker(model, bm.locOf("breaker"), b.breaker);
            }
            if (const YAML::Node* r = bm.require("racks")) {
              if (r->IsScalar() && r->Scalar() == "all")
                b.racks = {"*"};
              else
                forEachItem(f_, *r, bm.sub("racks"), 1, "racks",
                            [&](const YAML::Node& y, const std::string& q, std::size_t) {
                              if (auto nm = readName(f_, y, q)) b.racks.push_back(*nm);
                            });
            }
            P.busways.push_back(std::move(b));
          });
    P.shelf.psu.P_standby = std::max(P.shelf.psu.P_standby, 0.0);
    for (auto& b : P.busways) b.params.V_LL = P.V_LL, b.params.pf = P.pf;
  }

  void readJob(const YAML::Node& n, const std::string& path) {
    MapIn m(f_, n, path, kJobKeys);
    if (!m.valid()) return;
    JobSpec j;
    j.loc = m.loc();
    m.name("name", j.name, true);
    std::string kind = "training";
    if (m.name("kind", kind)) {
      if (kind == "inference")
        j.kind = JobSpec::Kind::Inference;
      else if (kind == "trace")
        j.kind = JobSpec::Kind::Trace;
      else if (kind != "training")
        f_.s.add(m.locOf("kind"), kind,
                 "expected training, inference or trace" +
                     didYouMean(kind, {"training", "inference", "trace"}));
    }
    if (j.kind == JobSpec::Kind::Inference) {
      j.inference = defaultInference(1.0);
      if (const YAML::Node* l = m.get("load")) {
        if (auto ts = readSeries(f_, *l, m.sub("load"), Dim::None, kFraction)) {
          j.inference.t = ts->t;
          j.inference.load = ts->v;
          if (ts->kind == TimeSeries::Kind::Steps && ts->t.size() > 1)
            f_.s.add(
                m.locOf("load"), "",
                "an inference load is interpolated linearly: use 'series' or 'csv', not 'steps'");
        }
      }
    } else if (m.get("load")) {
      f_.s.add(m.locOf("load"), "", "'load' belongs to inference jobs (kind: inference)");
    }
    if (auto ps = m.map("power_smoothing", kSmoothingKeys)) {
      j.smoothing.enabled = true;
      ps->quantity("floor", Dim::Power, kGpuPowerOrZero, j.smoothing.floor);
      ps->quantity("ramp_up", Dim::PowerRate, kRampRate, j.smoothing.ramp_up);
      ps->quantity("ramp_down", Dim::PowerRate, kRampRate, j.smoothing.ramp_down);
      ps->quantity("hysteresis", Dim::Time, kPhaseDuration, j.smoothing.hysteresis);
    }
    if (j.kind == JobSpec::Kind::Trace) {
      if (auto tm = m.map("trace", kTraceKeys, true)) {
        std::string csv;
        if (tm->text("csv", csv, true)) readTraceCsv(*tm->get("csv"), tm->sub("csv"), csv, j.trace);
        tm->quantity("offset", Dim::Time, kJobTime, j.trace.t_offset);
        if (const YAML::Node* lp = tm->get("loop"))
          j.trace.loop = lp->IsScalar() && lp->Scalar() == "true";
      }
    } else if (m.get("trace")) {
      f_.s.add(m.locOf("trace"), "", "'trace' belongs to trace-replay jobs (kind: trace)");
    }
    if (const YAML::Node* r = m.get("racks")) {
      if (r->IsScalar() && r->Scalar() == "all") {
        // every rack with resolved GPUs
      } else {
        forEachItem(f_, *r, m.sub("racks"), 1, "racks",
                    [&](const YAML::Node& x, const std::string& p, std::size_t) {
                      if (auto name = readName(f_, x, p)) j.racks.push_back(*name);
                    });
      }
    } else {
      m.missing("racks", " (a list of rack names, or 'all')");
    }
    j.training = defaultTrainingJob();
    m.quantity("start", Dim::Time, kJobTime, j.training.start);
    double stop = 0;
    if (m.quantity("stop", Dim::Time, kJobTime, stop)) j.training.stop = stop;
    m.quantity("checkpoint_interval", Dim::Time, kJobTime, j.training.checkpoint_interval);
    m.quantity("checkpoint_duration", Dim::Time, kPhaseDuration, j.training.checkpoint_duration);
    m.quantity("gpu_power_cap", Dim::Power, kGpuPower, j.gpu_power_cap);
    m.quantity("reference_junction_temperature", Dim::Temperature, kTemperature, j.T_ref);
    if (const YAML::Node* ph = m.get("phases")) {
      if (ph->IsScalar() && ph->Scalar() == "default") {
        // defaultTrainingJob()
      } else {
        j.training.phases.clear();
        forEachItem(
            f_, *ph, m.sub("phases"), 1, "phases",
            [&](const YAML::Node& x, const std::string& p, std::size_t) {
              MapIn pm(f_, x, p, kPhaseKeys);
              if (!pm.valid()) return;
              PhaseSpec s;
              pm.name("name", s.name, true);
              pm.quantity("duration", Dim::Time, kPhaseDuration, s.duration, true);
              std::string bound;
              if (pm.name("bound", bound, true)) {
                if (bound == "compute")
                  s.bound = PhaseSpec::Bound::Compute;
                else if (bound == "memory")
                  s.bound = PhaseSpec::Bound::Memory;
                else if (bound == "communication")
                  s.bound = PhaseSpec::Bound::Communication;
                else if (bound == "idle")
                  s.bound = PhaseSpec::Bound::Idle;
                else
                  f_.s.add(pm.locOf("bound"), bound,
                           "expected one of compute, memory, communication, idle" +
                               didYouMean(bound, {"compute", "memory", "communication", "idle"}));
              }
              pm.quantity("sm", Dim::None, kFraction, s.a_sm);
              pm.quantity("hbm", Dim::None, kFraction, s.a_hbm);
              pm.quantity("nvlink", Dim::None, kFraction, s.a_nvlink);
              pm.quantity("network", Dim::None, kFraction, s.a_network);
              if (const YAML::Node* b = pm.get("barrier")) {
                if (b->IsScalar() && (b->Scalar() == "true" || b->Scalar() == "false"))
                  s.barrier = b->Scalar() == "true";
                else
                  f_.s.add(pm.locOf("barrier"), b->IsScalar() ? b->Scalar() : "",
                           "expected true or false");
              }
              j.training.phases.push_back(s);
            });
      }
    }
    try {
      validateTrainingJob(j.training);
      if (j.kind == JobSpec::Kind::Inference) validateInference(j.inference);
      if (j.kind == JobSpec::Kind::Trace && !j.trace.gpus.empty()) validateTrace(j.trace);
    } catch (const std::exception& e) {
      f_.s.add(j.loc, j.name, e.what());
    }
    spec_.jobs.push_back(std::move(j));
  }

  // trace CSV: header 'time_s,gpu,<columns>' with columns among power_W, sm, hbm, nvlink, network;
  // one row per sample and GPU (GPU = rank in the job, 0-based); rows of a GPU in time order
  void readTraceCsv(const YAML::Node& at, const std::string& path, const std::string& csv,
                    TraceSpec& tr) {
    std::string why;
    fs::path p(csv);
    if (p.is_relative()) p = fs::path(f_.dir.empty() ? "." : f_.dir) / p;
    const std::string file = p.lexically_normal().string();
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
    MapIn m(f_, n, path, kRackKeys);
    if (!m.valid()) return;
    RackSpec r;
    RackInfo info;
    const bool named = m.name("name", r.name, true);
    const bool has_cdu = m.name("cdu", r.cdu, true);
    const bool has_type = m.name("type", r.type, true);
    info.cdu_ok = has_cdu;
    info.type_ok = has_type;
    info.cdu_loc = m.locOf("cdu");
    info.type_loc = m.locOf("type");
    const bool has_row = m.text("row", r.row, true);
    const bool has_index = m.integer("index", 0, 1000000, r.index, true);
    if (auto bv = m.map("balancing_valve", kBalancingKeys)) {
      bv->quantity("opening", Dim::None, kFraction, r.valve_opening);
      info.kv_given = bv->quantity("kv", Dim::None, kKv, r.valve_kv);
    }
    if (const YAML::Node* h = m.get("heat_load")) {
      r.has_heat_load = true;
      if (auto ts = readSeries(f_, *h, m.sub("heat_load"), Dim::Power, kHeatLoad))
        r.heat_load = std::move(*ts);
    }
    info.heat_load_loc = m.loc();
    info.heat_load_suggested = m.suggested("heat_load");
    m.quantity("gpu_power_cap", Dim::Power, kGpuPower, r.gpu_power_cap);
    m.quantity("power_cap", Dim::Power, kRackPower, r.power_cap);
    if (const YAML::Node* d = m.get("coldplate_degradation"); d && !d->IsNull())
      forEachItem(f_, *d, m.sub("coldplate_degradation"), 0, "degraded cold plates",
                  [&](const YAML::Node& x, const std::string& p, std::size_t) {
                    MapIn dm(f_, x, p, kDegradeKeys);
                    if (!dm.valid()) return;
                    int gpu = 0;
                    double factor = 1;
                    bool ok = dm.integer("gpu", 0, kMaxCount, gpu, true);
                    ok = dm.quantity("factor", Dim::None, kDegradeFactor, factor, true) && ok;
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
      auto [pos, fresh] = positions_.try_emplace(std::make_pair(r.row, r.index), r.name);
      if (!fresh)
        f_.s.add(m.locOf("index"), std::to_string(r.index),
                 "rack position (row '" + clip(r.row) + "', index " + std::to_string(r.index) +
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

  void resolve() {
    // fluids
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

    // facility rack types and cold plates are always part of the spec
    for (const auto& [name, t] : types_) spec_.rack_types.emplace(name, t);
    for (const auto& [name, p] : plates_) spec_.coldplates.emplace(name, p);
    for (const auto& [name, t] : types_) {
      bool broken = false;
      if (t.coldplate.empty()) continue;
      const ColdPlateSpec* cp =
          coldPlate(t.coldplate, type_info_[name].coldplate_loc, name, &broken);
      if (cp) spec_.coldplates.emplace(cp->name, *cp);
    }

    // racks: references, valve defaults, cold-plate laws
    std::vector<int> racks_per_cdu(spec_.cdus.size(), 0);
    std::set<std::pair<std::string, std::string>> law_reported;
    for (std::size_t i = 0; i < spec_.racks.size(); ++i) {
      RackSpec& r = spec_.racks[i];
      const RackInfo& info = rack_info_[i];
      const CduSpec* cdu = nullptr;
      if (info.cdu_ok) {
        if (auto it = cdu_index_.find(r.cdu); it != cdu_index_.end()) {
          cdu = &spec_.cdus[it->second];
          ++racks_per_cdu[it->second];
        } else {
          std::vector<std::string> known;
          if (!f_.s.full())
            for (const auto& c : spec_.cdus) known.push_back(c.name);
          f_.s.add(info.cdu_loc, r.cdu,
                   "unknown CDU" + didYouMean(r.cdu, known) + knownList(known));
        }
      }
      if (!info.type_ok) continue;
      bool broken = false;
      const RackTypeSpec* type = rackType(r.type, info.type_loc, &broken);
      if (!type || broken) continue;
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
        for (const auto& [pname, count] : type->parts) part(pname, type->loc);
        const int n = type->trays * type->gpus_per_tray;
        for (const auto& [slot, factor] : r.coldplate_degradation)
          if (slot >= n)
            f_.s.add(r.loc, std::to_string(slot),
                     "coldplate_degradation: GPU slot out of range; rack '" + r.name + "' has " +
                         std::to_string(n) + " GPUs (slots 0.." + std::to_string(n - 1) + ")");
      }
      if (type->coldplate.empty()) continue;
      SourceLoc cp_loc = type_info_.count(r.type) ? type_info_[r.type].coldplate_loc
                                                  : catalog_types_[r.type].coldplate_loc;
      const ColdPlateSpec* cp = coldPlate(type->coldplate, cp_loc, type->name, &broken);
      if (!cp || broken) continue;
      spec_.coldplates.emplace(cp->name, *cp);
      if (!cdu || cp->laws.count(cdu->fluid) || bad_fluids_.count(cdu->fluid)) continue;
      if (!law_reported.insert({cdu->name, type->name}).second) continue;
      std::string has;
      for (const auto& [fluid, law] : cp->laws) has += (has.empty() ? "" : ", ") + fluid;
      f_.s.add(info.type_loc, r.type,
               "cold plate '" + cp->name + "' of rack type '" + type->name +
                   "' has no resistance law for fluid '" + cdu->fluid + "' of CDU '" + cdu->name +
                   "' (it has laws for: " + (has.empty() ? "none" : has) + ")");
    }
    resolveJobs();
    resolvePower();
    for (std::size_t c = 0; c < spec_.cdus.size(); ++c)
      if (racks_per_cdu[c] == 0)
        f_.s.add(spec_.cdus[c].loc, "",
                 "CDU '" + spec_.cdus[c].name +
                     "' feeds no racks; remove it or give racks 'cdu: " + spec_.cdus[c].name + "'");
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
    for (auto& j : spec_.jobs) {
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
  } catch (const Abort&) {
    // the budget error is recorded
  } catch (const YAML::Exception& e) {
    SourceLoc l{name, 0, 0, ""};
    if (!e.mark.is_null() && e.mark.line >= 0)
      l.line = e.mark.line + 1, l.column = e.mark.column + 1;
    s.add(l, "", "YAML error: " + e.msg);
  } catch (const std::exception& e) {
    s.add(SourceLoc{name, 0, 0, ""}, "", std::string("could not read the file: ") + e.what());
  }
  if (s.count() > 0) throw LoadFailure(s.finish(name));
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

LoadFailure::LoadFailure(std::vector<LoadError> errors)
    : std::runtime_error(joinErrors(errors)), errors_(std::move(errors)) {}

// $DCTWIN_DATA, the installed data folder, the build tree's (solver/common/paths.h)
std::vector<std::string> defaultDataDirs() {
  return dataDirs();
}

int editDistance(const std::string& a, const std::string& b) {
  const std::size_t n = a.size(), m = b.size();
  std::vector<int> row(m + 1);
  for (std::size_t j = 0; j <= m; ++j) row[j] = static_cast<int>(j);
  for (std::size_t i = 1; i <= n; ++i) {
    int diag = row[0];
    row[0] = static_cast<int>(i);
    for (std::size_t j = 1; j <= m; ++j) {
      const int up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[m];
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
