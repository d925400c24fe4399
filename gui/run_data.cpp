// run_data.cpp: in-memory run, metrics and colour scales (see run_data.h)
#include "gui/run_data.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "models/weather.h"

namespace dctwin::gui {

namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
}  // namespace

const RunData::Series* RunData::find(const std::string& path) const {
  auto it = series.find(path);
  return it == series.end() ? nullptr : &it->second;
}

double RunData::value(const std::string& path, int row, int col) const {
  const Series* s = find(path);
  if (!s || row < 0 || col < 0 || col >= s->width) return kNaN;
  const std::size_t k = std::size_t(row) * s->width + col;
  return k < s->data.size() ? s->data[k] : kNaN;
}

int RunData::rowAt(double t) const {
  if (time.empty()) return 0;
  auto it = std::upper_bound(time.begin(), time.end(), t + 1e-9);
  return it == time.begin() ? 0 : int(it - time.begin()) - 1;
}

int RunData::rackByName(const std::string& name) const {
  for (int r = 0; r < nrack(); ++r)
    if (rack_name[r] == name) return r;
  return -1;
}

int RunData::cduByName(const std::string& name) const {
  for (int c = 0; c < ncdu(); ++c)
    if (cdu_name[c] == name) return c;
  return -1;
}

std::pair<int, int> RunData::component(const std::string& text) const {
  std::string s = text;
  if (s.rfind("rack ", 0) == 0) s = s.substr(5);
  if (int r = rackByName(s); r >= 0) return {0, r};
  if (s.rfind("cdu ", 0) == 0) s = s.substr(4);
  if (int c = cduByName(s); c >= 0) return {1, c};
  return {-1, -1};
}

void RunData::finishLayout() {
  const int nr = nrack();
  rack_gpuadr.assign(nr, 0);
  rack_gpunum.assign(nr, 0);
  rack_trays.assign(nr, 0);
  for (int i = ngpu() - 1; i >= 0; --i) {
    const int r = gpu_rack[i];
    if (r < 0 || r >= nr) continue;
    rack_gpuadr[r] = i;
    ++rack_gpunum[r];
    rack_trays[r] = std::max(rack_trays[r], gpu_tray[i] + 1);
  }
  if (rack_busway.size() != rack_name.size()) rack_busway.assign(nr, -1);
  if (rack_cdu.size() != rack_name.size()) rack_cdu.assign(nr, 0);
  if (rack_index.size() != rack_name.size()) {
    rack_index.resize(nr);
    for (int r = 0; r < nr; ++r) rack_index[r] = r + 1;
  }
  if (rack_row.size() != rack_name.size()) rack_row.assign(nr, "A");
  if (rack_hall.size() != rack_name.size()) rack_hall.assign(nr, "");
  // air-cooled racks without their rows (an older results file): one row "A" after the racks
  if (air_row.size() != air_name.size()) air_row.assign(air_name.size(), "A");
  if (air_index.size() != air_name.size()) {
    air_index.resize(air_name.size());
    for (int k = 0; k < nair(); ++k) air_index[k] = k + 1;
  }
}

namespace {
// the static datasets' values (the layout table's members, solver/output/observables.h) that the
// views read, from a run's layout or a file's
void takeLayout(RunData& d, RunLayout&& L) {
  d.rack_name = std::move(L.rack_name);
  d.rack_row = std::move(L.rack_row);
  d.rack_hall = std::move(L.rack_hall);  // only on a campus
  d.rack_type = std::move(L.rack_type);
  d.cdu_name = std::move(L.cdu_name);
  d.job_name = std::move(L.job_name);
  d.busway_name = std::move(L.busway_name);
  d.rack_index = std::move(L.rack_index);
  d.rack_cdu = std::move(L.rack_cdu);
  if (L.has_power) d.rack_busway = std::move(L.rack_busway);
  d.gpu_rack = std::move(L.gpu_rack);
  d.gpu_slot = std::move(L.gpu_slot);
  d.gpu_tray = std::move(L.gpu_tray);
  d.air_name = std::move(L.air_name);
  d.air_row = std::move(L.air_row);
  d.air_index = std::move(L.air_index);
}
}  // namespace

RunData RunData::fromLayout(const RunLayout& L) {
  RunData d;
  d.facility_name = L.name;
  d.facility_text = L.facility_text;
  d.scenario_text = L.scenario_text;
  d.currency = L.currency;
  takeLayout(d, RunLayout(L));
  d.job_model = L.job_model;
  d.has_calendar = L.has_plant;
  d.year_start = L.year_start;
  d.utc_offset = L.utc_offset;
  d.finishLayout();
  return d;
}

RunData RunData::fromResults(const ResultsData& r) {
  RunData d;
  auto text = [&](const char* k) {
    auto it = r.text_attributes.find(k);
    return it == r.text_attributes.end() ? std::string() : it->second;
  };
  d.source_path = QString::fromStdString(r.path);
  d.facility_name = text("facility_name");
  d.facility_text = text("facility_text");
  d.scenario_text = text("scenario_text");
  // a file with rows past its durable end (readResults dropped them) is not a complete run,
  // whatever its status says
  d.complete = text("status") != "running" && r.rows_beyond_durable_end == 0;
  takeLayout(d, layoutOfResults(r));
  d.job_model = jobModelTable(r);
  // the calendar (solver/output/hdf5_sink.cpp writes it for a run with a plant)
  if (auto ys = r.number_attributes.find("calendar_year_start"); ys != r.number_attributes.end()) {
    d.has_calendar = std::isfinite(ys->second);
    d.year_start = ys->second;
    auto uo = r.number_attributes.find("calendar_utc_offset");
    d.utc_offset = uo != r.number_attributes.end() ? uo->second : std::nan("");
  }
  if (d.gpu_tray.size() != d.gpu_rack.size()) d.gpu_tray.assign(d.gpu_rack.size(), 0);
  if (d.gpu_slot.size() != d.gpu_rack.size()) d.gpu_slot.assign(d.gpu_rack.size(), 0);
  const std::size_t T = r.rows();
  const ResultsSeries* t = r.find("/time");
  d.time.assign(t->data.begin(), t->data.begin() + T);
  for (const auto& [path, s] : r.series) {
    if (s.rows != T || path == "/time" || path.rfind("/job/model/", 0) == 0) continue;
    Series x;
    x.units = s.units;
    x.width = int(s.columns());
    x.data = s.data;
    d.series.emplace(path, std::move(x));
  }
  d.events = r.events;
  d.finishLayout();
  return d;
}

void RunData::append(const RowBlock& b) {
  const std::size_t n = b.time.size();
  const std::size_t before = time.size();
  time.insert(time.end(), b.time.begin(), b.time.end());
  for (const auto& [path, v] : b.values) {
    Series& s = series[path];
    if (s.width == 0) s.width = n > 0 ? int(v.size() / n) : 1;
    if (s.width == 0) s.width = 1;
    // a series that starts late is padded so its rows line up with /time
    s.data.resize(before * s.width, kNaN);
    s.data.insert(s.data.end(), v.begin(), v.end());
  }
  events.insert(events.end(), b.events.begin(), b.events.end());
}

MetricInfo metricInfo(Metric m) {
  switch (m) {
    case Metric::JunctionMax:
      return {"Max GPU junction temperature", "°C", 30, 90, false};
    case Metric::HbmMax:
      return {"Max HBM temperature", "°C", 30, 95, false};
    case Metric::SupplyT:
      return {"Supply (inlet) temperature", "°C", 25, 50, false};
    case Metric::ReturnT:
      return {"Return (outlet) temperature", "°C", 25, 60, false};
    case Metric::Flow:
      return {"Coolant flow", "L/min", 0, 150, false};
    case Metric::Power:
      return {"Power", "kW", 0, 140, false};
    case Metric::ClockMean:
      return {"Mean SM clock", "%", 0, 100, false};
    case Metric::ThrottleShare:
      return {"GPUs throttled", "%", 0, 100, false};
    case Metric::LeakState:
      return {"Leak / isolation state", "", 0, 3, true};
    case Metric::Count:
      break;
  }
  return {};
}

double rackMetric(const RunData& d, Metric m, int r, int row) {
  if (r < 0 || r >= d.nrack() || d.rows() == 0) return kNaN;
  // a layout without GPUs (or not finished) has no GPU counts
  const int gpun = r < int(d.rack_gpunum.size()) ? d.rack_gpunum[r] : 0;
  switch (m) {
    case Metric::JunctionMax: {
      const double v = gpun == 0 ? kNaN : d.value(kRackTjMax, row, r);
      return std::isnan(v) ? toDisplay(Unit::K, d.value(obsPath(Obs::RackTCase), row, r))
                           : toDisplay(Unit::K, v);
    }
    case Metric::HbmMax:
      return toDisplay(Unit::K, d.value(kRackThbmMax, row, r));
    case Metric::SupplyT:
      return toDisplay(Unit::K, d.value(obsPath(Obs::RackTSupply), row, r));
    case Metric::ReturnT:
      return toDisplay(Unit::K, d.value(obsPath(Obs::RackTReturn), row, r));
    case Metric::Flow:
      return shown(Obs::RackVFlow, d.value(obsPath(Obs::RackVFlow), row, r));
    case Metric::Power:
      return d.value(obsPath(Obs::RackP), row, r) / 1e3;
    case Metric::ClockMean:
      return 100.0 * d.value(kRackClockMean, row, r);
    case Metric::ThrottleShare:
      return 100.0 * d.value(kRackThrottled, row, r);
    case Metric::LeakState: {
      const double iso = d.value(obsPath(Obs::RackIsolation), row, r);
      const double q = d.value(obsPath(Obs::RackLeakFlow), row, r);
      if (!std::isnan(iso) && iso >= 0.999) return 3;
      if (!std::isnan(iso) && iso > 1e-6) return 2;
      if (!std::isnan(q) && q > 1e-9) return 1;
      return (std::isnan(iso) && std::isnan(q)) ? kNaN : 0;
    }
    case Metric::Count:
      break;
  }
  return kNaN;
}

double cduMetric(const RunData& d, Metric m, int c, int row) {
  if (c < 0 || c >= d.ncdu() || d.rows() == 0) return kNaN;
  switch (m) {
    case Metric::SupplyT:
      return toDisplay(Unit::K, d.value(obsPath(Obs::CduTSecSupply), row, c));
    case Metric::ReturnT:
      return toDisplay(Unit::K, d.value(obsPath(Obs::CduTSecReturn), row, c));
    case Metric::Flow:
      return shown(Obs::CduVFlowSec, d.value(obsPath(Obs::CduVFlowSec), row, c));
    case Metric::Power:
      return d.value(obsPath(Obs::CduPPump), row, c) / 1e3;
    case Metric::LeakState: {
      const double lost = d.value(obsPath(Obs::CduCoolantLost), row, c);
      return std::isnan(lost) ? kNaN : (lost > 1e-6 ? 1.0 : 0.0);
    }
    default:
      return kNaN;
  }
}

double airRackMetric(const RunData& d, Metric m, int k, int row) {
  if (k < 0 || k >= d.nair() || d.rows() == 0) return kNaN;
  switch (m) {
    case Metric::SupplyT:
      return toDisplay(Unit::K, d.value(obsPath(Obs::AirRackTIn), row, k));
    case Metric::ReturnT:
      return toDisplay(Unit::K, d.value(obsPath(Obs::AirRackTOut), row, k));
    case Metric::Power:
      return (d.value(obsPath(Obs::AirRackP), row, k) +
              d.value(obsPath(Obs::AirRackPFan), row, k)) /
             1e3;
    case Metric::LeakState: {  // no coolant to leak: running, or off (its feed lost)
      const double on = d.value(obsPath(Obs::AirRackPowered), row, k);
      return std::isnan(on) ? kNaN : (on > 0.5 ? 0.0 : 3.0);
    }
    default:
      return kNaN;
  }
}

QColor sequentialColor(double v, double lo, double hi) {
  // the 3D view's ramp (HallView3D::rampColor): hue from blue (lo) to red (hi), so the floor
  // plan, the 3D boxes and both legends agree
  if (std::isnan(v)) return QColor(128, 128, 128);
  const double x = hi > lo ? std::clamp((v - lo) / (hi - lo), 0.0, 1.0) : 0.5;
  return QColor::fromHsvF(static_cast<float>(0.667 * (1.0 - x)), 1.0f, 1.0f);
}

QColor divergingColor(double v, double span) {
  if (std::isnan(v)) return QColor(150, 150, 150);
  const double x = span > 0 ? std::clamp(v / span, -1.0, 1.0) : 0.0;
  const QColor mid(245, 245, 245), neg(33, 102, 172), pos(178, 24, 43);
  const QColor& end = x < 0 ? neg : pos;
  const double f = std::abs(x);
  return QColor(int(mid.red() + f * (end.red() - mid.red())),
                int(mid.green() + f * (end.green() - mid.green())),
                int(mid.blue() + f * (end.blue() - mid.blue())));
}

QColor leakStateColor(double s) {
  if (std::isnan(s)) return QColor(150, 150, 150);
  switch (int(std::lround(s))) {
    case 0:
      return QColor(76, 175, 80);  // normal: green
    case 1:
      return QColor(229, 57, 53);  // leaking: red
    case 2:
      return QColor(251, 140, 0);  // isolating: orange
    default:
      return QColor(94, 53, 177);  // isolated: purple
  }
}

QString leakStateName(double s) {
  if (std::isnan(s)) return "unknown";
  switch (int(std::lround(s))) {
    case 0:
      return "normal";
    case 1:
      return "leaking";
    case 2:
      return "isolating";
    default:
      return "isolated";
  }
}

QColor cduStateColor(double s) {
  if (std::isnan(s)) return QColor(150, 150, 150);
  return s > 0.5 ? QColor(216, 27, 96)   // coolant lost: magenta, unlike a rack's "leaking" red
                 : QColor(76, 175, 80);  // normal: the racks' green
}

QString cduStateName(double s) {
  if (std::isnan(s)) return "unknown";
  return s > 0.5 ? "coolant lost (CDU)" : "normal";
}

std::vector<double> niceTicks(double lo, double hi, int count) {
  if (!std::isfinite(lo) || !std::isfinite(hi)) return {0.0, 1.0};
  if (hi < lo) std::swap(lo, hi);
  if (hi - lo < 1e-12) {  // one value: a unit window around it
    const double pad = std::max(0.5, std::abs(lo) * 0.05);
    lo -= pad;
    hi += pad;
  }
  const double raw = (hi - lo) / std::max(1, count - 1);
  const double mag = std::pow(10.0, std::floor(std::log10(raw)));
  double step = mag;
  for (double m : {1.0, 2.0, 2.5, 5.0, 10.0})
    if (m * mag >= raw * 0.999) {
      step = m * mag;
      break;
    }
  const double a = std::floor(lo / step + 1e-9) * step, b = std::ceil(hi / step - 1e-9) * step;
  std::vector<double> t;
  for (int k = 0; a + k * step <= b + step * 1e-6 && k < 100; ++k) {
    const double v = a + k * step;
    t.push_back(std::abs(v) < step * 1e-9 ? 0.0 : v);
  }
  if (t.size() < 2) t = {a, a + step};
  return t;
}

int tickDecimals(double step) {
  step = std::abs(step);
  if (!(step > 0)) return 0;
  for (int d = 0; d < 6; ++d) {
    const double x = step * std::pow(10.0, d);
    if (std::abs(x - std::round(x)) < 1e-6) return d;
  }
  return 6;
}

QString formatNumber(double v, int decimals) {
  if (std::isnan(v)) return "–";
  const double q = std::pow(10.0, decimals);
  if (std::abs(v) * q < 0.5) v = 0.0;  // "-0.0" is noise, not a sign
  return QString::number(v, 'f', decimals);
}

QString formatTime(double s) {
  if (std::isnan(s)) return "--:--:--";
  const long t = std::lround(std::max(0.0, s));
  return QString("%1:%2:%3")
      .arg(t / 3600, 2, 10, QChar('0'))
      .arg((t / 60) % 60, 2, 10, QChar('0'))
      .arg(t % 60, 2, 10, QChar('0'));
}

QString RunData::dateAt(double t) const {
  if (!has_calendar || std::isnan(t)) return {};
  return QString::fromStdString(calendarText(year_start + t));
}

QString RunData::timeZone() const {
  return has_calendar ? QString::fromStdString(utcOffsetText(utc_offset)) : QString();
}

std::vector<std::pair<double, QString>> dateTicks(const RunData& d, double t0, double t1,
                                                  int count) {
  std::vector<std::pair<double, QString>> out;
  constexpr double kDay = 86400, kYear = 365 * kDay;
  if (!d.has_calendar || !(t1 - t0 > 2 * kDay) || count < 2) return out;
  const double c0 = d.year_start + t0, c1 = d.year_start + t1;  // calendar seconds
  if (t1 - t0 > 60 * kDay) {
    static const char* const kMonth[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                         "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
    std::vector<std::pair<double, QString>> all;
    for (double base = std::floor(c0 / kYear) * kYear; base <= c1; base += kYear)
      for (int mo = 1; mo <= 12; ++mo) {
        const double c = base + secondsOfYear(mo, 1, 0);
        if (c >= c0 - 1e-6 && c <= c1 + 1e-6) all.push_back({c - d.year_start, kMonth[mo - 1]});
      }
    const std::size_t step = (all.size() + std::size_t(count) - 1) / std::size_t(count);
    for (std::size_t i = 0; i < all.size(); i += std::max<std::size_t>(step, 1))
      out.push_back(all[i]);
    return out;
  }
  const double days = (t1 - t0) / kDay;
  const double step = std::ceil(days / (count - 1)) * kDay;
  for (double c = std::ceil(c0 / kDay - 1e-9) * kDay; c <= c1 + 1e-6; c += step)
    out.push_back({c - d.year_start, QString::fromStdString(calendarText(c)).left(5)});
  return out;
}

QString formatMoment(const RunData* d, double s) {
  const QString date = d ? d->dateAt(s) : QString();
  return date.isEmpty() ? formatTime(s) : QString("%1 (%2)").arg(formatTime(s), date);
}

}  // namespace dctwin::gui
