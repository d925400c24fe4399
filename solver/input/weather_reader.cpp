#include "solver/input/weather_reader.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "models/psychro.h"
#include "solver/common/bounded_file.h"
#include "solver/common/units.h"

namespace dctwin {

namespace {

constexpr int kDaysInMonth[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};

// the EPW columns dctwin reads (1-based, EnergyPlus Auxiliary Programs, EPW data dictionary),
// their names in messages, valid ranges and missing codes
struct Column {
  int index;
  const char* name;
  double lo, hi, missing;
};
constexpr Column kDryBulb{7, "dry bulb temperature (degC)", -70, 70, 99.9};
constexpr Column kDewPoint{8, "dew point temperature (degC)", -70, 70, 99.9};
constexpr Column kRH{9, "relative humidity (%)", 0, 110, 999};
constexpr Column kPressure{10, "atmospheric station pressure (Pa)", 31000, 120000, 999999};

std::vector<std::string> splitCsv(const std::string& line) {
  std::vector<std::string> out;
  std::string cur;
  bool quoted = false;
  for (char ch : line) {
    if (ch == '"')
      quoted = !quoted;
    else if (ch == ',' && !quoted)
      out.push_back(cur), cur.clear();
    else if (ch != '\r')
      cur += ch;
  }
  out.push_back(cur);
  return out;
}

struct Reader {
  std::string name;
  std::vector<LoadError> errors;

  void error(int line, int col, const std::string& path, const std::string& value,
             const std::string& msg) {
    if (errors.size() >= 20) return;
    LoadError e;
    e.loc.file = name;
    e.loc.line = line;
    e.loc.column = col;
    e.loc.path = path;
    e.value = value;
    e.message = msg;
    errors.push_back(std::move(e));
  }

  bool number(const std::string& s, double& v) {
    if (s.empty()) return false;
    char* end = nullptr;
    v = std::strtod(s.c_str(), &end);
    while (end && *end == ' ') ++end;
    return end && *end == '\0' && std::isfinite(v);
  }

  // one column of a data row: present, a number, not the missing code, within its range
  bool field(const std::vector<std::string>& f, int line, const Column& c, double& v) {
    const std::string& s = f[c.index - 1];
    const std::string path = "column " + std::to_string(c.index) + " (" + c.name + ")";
    if (!number(s, v)) {
      error(line, c.index, path, s, "expected a number");
      return false;
    }
    if (v == c.missing) {
      error(line, c.index, path, s, "missing value (EPW missing code); dctwin needs every hour");
      return false;
    }
    if (v < c.lo || v > c.hi) {
      std::ostringstream os;
      os << "out of range: expected " << c.lo << " ... " << c.hi;
      error(line, c.index, path, s, os.str());
      return false;
    }
    return true;
  }
};

int weekdayIndex(const std::string& w) {
  static const char* days[] = {"sunday",   "monday", "tuesday", "wednesday",
                               "thursday", "friday", "saturday"};
  std::string l;
  for (char ch : w) l += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  for (int i = 0; i < 7; ++i)
    if (l == days[i]) return i;
  return -1;
}

void derive(WeatherSeries& w) {
  const std::size_t n = w.T_db.size();
  w.T_wb.resize(n);
  w.W.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const double pw = psychro::saturationPressure(std::min(w.T_dp[i], w.T_db[i]));
    w.W[i] = psychro::humidityRatio(pw, w.p[i]);
    w.T_wb[i] = psychro::wetBulb(w.T_db[i], w.W[i], w.p[i]);
  }
}

}  // namespace

WeatherSeries parseEpw(const std::string& text, const std::string& name) {
  Reader rd{name, {}};
  WeatherSeries w;
  w.source = name;
  std::istringstream in(text);
  std::string line;
  int ln = 0;
  static const char* kHeaders[8] = {"LOCATION",
                                    "DESIGN CONDITIONS",
                                    "TYPICAL/EXTREME PERIODS",
                                    "GROUND TEMPERATURES",
                                    "HOLIDAYS/DAYLIGHT SAVINGS",
                                    "COMMENTS 1",
                                    "COMMENTS 2",
                                    "DATA PERIODS"};
  for (int h = 0; h < 8; ++h) {
    if (!std::getline(in, line)) {
      rd.error(ln + 1, 1, "header", "",
               std::string("truncated: expected the header line '") + kHeaders[h] + "'");
      throw LoadFailure(rd.errors);
    }
    ++ln;
    auto f = splitCsv(line);
    if (f[0] != kHeaders[h]) {
      rd.error(ln, 1, "header", f[0],
               std::string("expected the EPW header line '") + kHeaders[h] + "'");
      continue;
    }
    if (h == 0) {
      if (f.size() < 10) {
        rd.error(ln, 1, "LOCATION", line, "expected 10 fields (city ... elevation)");
        continue;
      }
      w.location = f[1] + ", " + f[2] + ", " + f[3];
      double v;
      if (rd.number(f[6], v)) w.latitude = v;
      if (rd.number(f[7], v)) w.longitude = v;
      if (rd.number(f[9], v)) w.elevation = v;
      if (rd.number(f[8], v)) {  // TimeZone: hours from UTC of the data's local standard time
        if (v < -12 || v > 14)
          rd.error(ln, 9, "LOCATION", f[8],
                   "expected the time zone in hours from UTC, -12 ... +14 (Phoenix: -7)");
        else
          w.utc_offset = v * 3600.0;
      }
    }
    if (h == 5 || h == 6)
      if (line.find("SYNTHETIC") != std::string::npos) w.synthetic = true;
    if (h == 7) {
      double rph = 0;
      if (f.size() < 7 || !rd.number(f[2], rph) || rph != 1) {
        rd.error(ln, 3, "DATA PERIODS", f.size() > 2 ? f[2] : "",
                 "expected one record per hour (DATA PERIODS,1,1,...)");
      } else {
        w.start_weekday = weekdayIndex(f[4]);
        if (w.start_weekday < 0) {
          rd.error(ln, 5, "DATA PERIODS", f[4], "expected a weekday (Sunday ... Saturday)");
          w.start_weekday = 0;
        }
      }
    }
  }
  // data rows: year, month, day, hour 1-24, minute, flags, dry bulb, dew point, RH, pressure ...
  int expect_month = 1, expect_day = 1, expect_hour = 1;
  bool leap = false;
  while (std::getline(in, line)) {
    ++ln;
    if (line.empty() || line == "\r") continue;
    auto f = splitCsv(line);
    if (f.size() != 35) {
      rd.error(ln, 1, "row", std::to_string(f.size()) + " fields",
               "expected 35 comma-separated fields in an EPW data row");
      if (rd.errors.size() >= 20) break;
      continue;
    }
    double mo, dy, hr;
    if (!rd.number(f[1], mo) || !rd.number(f[2], dy) || !rd.number(f[3], hr)) {
      rd.error(ln, 2, "columns 2-4 (month, day, hour)", f[1] + "," + f[2] + "," + f[3],
               "expected integers");
      continue;
    }
    if (static_cast<int>(mo) == 2 && static_cast<int>(dy) == 29) leap = true;
    const bool feb29 = leap && static_cast<int>(mo) == 2 && static_cast<int>(dy) == 29;
    if (!feb29 && (static_cast<int>(mo) != expect_month || static_cast<int>(dy) != expect_day ||
                   static_cast<int>(hr) != expect_hour)) {
      std::ostringstream os;
      os << "missing hours: expected month " << expect_month << ", day " << expect_day << ", hour "
         << expect_hour;
      rd.error(ln, 2, "columns 2-4 (month, day, hour)", f[1] + "," + f[2] + "," + f[3], os.str());
      throw LoadFailure(rd.errors);
    }
    double tdb, tdp, rh, p;
    bool ok = rd.field(f, ln, kDryBulb, tdb);
    ok = rd.field(f, ln, kDewPoint, tdp) && ok;
    ok = rd.field(f, ln, kRH, rh) && ok;
    ok = rd.field(f, ln, kPressure, p) && ok;
    if (!feb29) {  // a leap day is read and dropped: the calendar has 365 days
      if (ok) {
        w.T_db.push_back(fromCelsius(tdb));
        w.T_dp.push_back(fromCelsius(tdp));
        w.RH.push_back(rh / 100.0);
        w.p.push_back(p);
      }
      if (++expect_hour > 24) {
        expect_hour = 1;
        if (++expect_day > kDaysInMonth[expect_month - 1]) expect_day = 1, ++expect_month;
      }
    }
    if (rd.errors.size() >= 20) break;
  }
  if (rd.errors.empty() && expect_month <= 12) {
    std::ostringstream os;
    os << "truncated: " << (ln - 8) << " data rows; an EPW year has 8760 (8784 with 29 "
       << "February); next expected month " << expect_month << ", day " << expect_day << ", hour "
       << expect_hour;
    rd.error(ln, 1, "rows", "", os.str());
  }
  if (!rd.errors.empty()) throw LoadFailure(rd.errors);
  derive(w);
  return w;
}

WeatherSeries readEpw(const std::string& path) {
  // the bounded opener (a year of hourly rows is ~1.6 MB; regular files only)
  FileRefusal why;
  const auto text = readBoundedFile(path, kMaxInputFileBytes, &why);
  if (!text) {
    LoadError e;
    e.loc.file = path;
    e.message = "cannot read the weather file: " + why.reason;
    throw LoadFailure({e});
  }
  return parseEpw(*text, path);
}

}  // namespace dctwin
