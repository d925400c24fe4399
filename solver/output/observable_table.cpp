// observable_table.cpp: the output table's rows (observables.h), their names and the table as
// Markdown and CSV; no state or model type, so the readers that only look rows up (the sweep
// journal, the fuzz targets) link this file without the engine
#include "solver/output/observables.h"

#include <cmath>
#include <iterator>
#include <sstream>

namespace dctwin {

namespace {

constexpr ObservableInfo kTable[] = {
#define DCTWIN_OBS_ROW(id, path, unit, basis, shape, needs, rate, desc, how) \
  {Obs::id,      path,         unitInfo(Unit::unit).si,                      \
   Unit::unit,   Basis::basis, Shape::shape,                                 \
   Needs::needs, Rate::rate,   desc,                                         \
   how},
    DCTWIN_OBSERVABLES(DCTWIN_OBS_ROW)
#undef DCTWIN_OBS_ROW
};
static_assert(sizeof(kTable) / sizeof(kTable[0]) == std::size_t(kObservableCount));
}  // namespace

std::span<const ObservableInfo> observableTable() {
  return std::span<const ObservableInfo>(kTable, std::size(kTable));
}

const ObservableInfo& observable(Obs id) {
  return kTable[int(id)];
}

const ObservableInfo* findObservable(const std::string& path) {
  for (const ObservableInfo& o : kTable)
    if (path == o.path) return &o;
  return nullptr;
}

const char* basisName(Basis b) {
  switch (b) {
    case Basis::Instant:
      return "instant";
    case Basis::WindowMean:
      return "window mean";
    case Basis::IntervalMean:
      return "interval mean";
    case Basis::IntervalMax:
      return "interval max";
    case Basis::RunMean:
      return "run mean";
    case Basis::Cumulative:
      return "cumulative";
  }
  return "";
}

const char* shapeName(Shape s) {
  switch (s) {
    case Shape::Facility:
      return "facility";
    case Shape::Cdu:
      return "CDU";
    case Shape::Rack:
      return "rack";
    case Shape::Gpu:
      return "GPU";
    case Shape::Job:
      return "job";
    case Shape::Busway:
      return "busway";
    case Shape::AirRack:
      return "air rack";
    case Shape::SwitchRack:
      return "switch rack";
  }
  return "";
}

const char* needsName(Needs n) {
  switch (n) {
    case Needs::Always:
      return "";
    case Needs::Gpus:
      return "resolved GPUs";
    case Needs::Jobs:
      return "jobs";
    case Needs::Power:
      return "power section";
    case Needs::Room:
      return "room air";
    case Needs::AirHandlers:
      return "air handlers";
    case Needs::AirRacks:
      return "air_racks";
    case Needs::SwitchRacks:
      return "switch_racks";
    case Needs::Plant:
      return "plant section";
    case Needs::GpusPower:
      return "resolved GPUs and a power section";
    case Needs::Halls:
      return "halls (racks[].hall, a campus)";
  }
  return "";
}

const char* unitsMetadata(Unit u) {
  switch (u) {
    case Unit::K:
      return "temperature: on_scale";
    case Unit::dK:
      return "temperature: difference";
    default:
      return nullptr;
  }
}

std::string unitsMarkdown() {
  std::ostringstream os;
  os << "| SI unit (files, Python) | Measures | Shown as | Conversion |\n"
     << "|-------------------------|----------|----------|------------|\n";
  for (const UnitInfo& u : kUnitTable) {
    std::ostringstream conv;
    if (u.scale == 1.0 && u.offset == 0.0) {
      conv << "as is";
    } else {
      if (u.scale < 1.0)
        conv << "÷ " << 1.0 / u.scale;
      else
        conv << "× " << u.scale;
      if (u.offset != 0.0) conv << (u.offset < 0 ? " − " : " + ") << std::abs(u.offset);
    }
    os << "| " << u.si << " | " << u.what << " | " << u.display << " | " << conv.str() << " |\n";
  }
  return os.str();
}

std::string observablesMarkdown() {
  static const char* dims[] = {"[T]",     "[T × C]", "[T × R]", "[T × G]",
                               "[T × J]", "[T × B]", "[T × A]", "[T × S]"};
  std::ostringstream os;
  os << "| Path | Shape | Units | Basis | Exists with | Content | Computed from |\n"
     << "|------|-------|-------|-------|-------------|---------|---------------|\n";
  for (const ObservableInfo& o : kTable) {
    std::string shape = dims[int(o.shape)];
    if (o.rate == Rate::Fast) shape = o.shape == Shape::Facility ? "[P]" : "[P × R]";
    std::string needs = needsName(o.needs);
    if (o.rate == Rate::Fast) needs += ", `--power-interval`";
    os << "| `" << o.path << "` | `" << shape << "` | " << o.unit << " | " << basisName(o.basis)
       << " | " << (needs.empty() ? "always" : needs) << " | " << o.description << " | "
       << o.computed << " |\n";
  }
  return os.str();
}

std::string observablesCsv() {
  auto q = [](const std::string& x) {
    std::string r = "\"";
    for (char ch : x) r += ch == '"' ? std::string("\"\"") : std::string(1, ch);
    return r + "\"";
  };
  std::ostringstream os;
  os << "path,unit,basis,shape,exists_with,rate,description,computed\n";
  for (const ObservableInfo& o : kTable)
    os << o.path << ',' << o.unit << ',' << basisName(o.basis) << ',' << shapeName(o.shape) << ','
       << q(needsName(o.needs)) << ',' << (o.rate == Rate::Fast ? "fast" : "output") << ','
       << q(o.description) << ',' << q(o.computed) << '\n';
  return os.str();
}

}  // namespace dctwin
