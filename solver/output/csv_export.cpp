// csv_export.cpp: see csv_export.h
#include "solver/output/csv_export.h"

#include <cstdio>

#include "solver/output/series_filter.h"

namespace dctwin {

namespace {

bool isPower(const std::string& p) {
  return p.rfind("/power/", 0) == 0;
}

// the time series of a file: datasets with as many rows as their time axis (not the axes, the
// event log or the static layout)
bool isTimeSeries(const ResultsData& d, const std::string& p, const ResultsSeries& s) {
  if (p == "/time" || p == "/power/time" || p.rfind("/events/", 0) == 0 ||
      p.rfind("/job/model/", 0) == 0)  // one value per job, not a series
    return false;
  const ResultsSeries* axis = d.find(isPower(p) ? "/power/time" : "/time");
  return axis && s.rows == axis->rows;
}

std::string quote(const std::string& x) {
  if (x.find_first_of(",\"\n") == std::string::npos) return x;
  std::string q = "\"";
  for (char c : x) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.10g", v);
  return buf;
}

}  // namespace

std::string columnLabel(const ResultsData& d, const std::string& path, std::size_t col) {
  auto names = [&](const char* ds) -> std::string {
    auto it = d.strings.find(ds);
    return it != d.strings.end() && col < it->second.size() ? it->second[col] : "";
  };
  // the series' shape (the output table) says which names label its columns (the layout table)
  const ObservableInfo* o = findObservable(path);
  const Shape shape = o ? o->shape : Shape::Facility;
  std::string label;
  if (shape == Shape::Gpu) {  // a GPU: its rack's name and its slot
    auto r = d.integers.find(layoutPath(Layout::GpuRack));
    auto s = d.integers.find(layoutPath(Layout::GpuSlot));
    auto rn = d.strings.find(layoutPath(Layout::RackNames));
    if (r != d.integers.end() && s != d.integers.end() && rn != d.strings.end() &&
        col < r->second.size() && col < s->second.size() && r->second[col] >= 0 &&
        std::size_t(r->second[col]) < rn->second.size())
      label = rn->second[r->second[col]] + ":" + std::to_string(s->second[col]);
  } else if (const LayoutInfo* n = layoutNames(shape)) {
    label = names(n->path);
  }
  return label.empty() ? std::to_string(col) : label;
}

std::vector<std::string> selectSeries(const ResultsData& d,
                                      const std::vector<std::string>& patterns) {
  std::vector<std::string> all, chosen;
  for (const auto& [p, s] : d.series)
    if (isTimeSeries(d, p, s)) all.push_back(p);
  const std::string bad = unmatchedPatternError(patterns, all, "--series");
  if (!bad.empty()) throw ResultsError(d.path + ": " + bad);
  for (const auto& p : all)
    if (patterns.empty() ? !isPower(p) : anyGlobMatch(patterns, p)) chosen.push_back(p);
  return chosen;
}

std::vector<std::string> fitWidth(const ResultsData& d, const std::vector<std::string>& paths,
                                  std::size_t max_columns, std::vector<std::string>* left_out) {
  std::vector<std::string> kept;
  std::size_t used = 1;  // the time column
  for (const auto& p : paths) {
    const std::size_t w = d.series.at(p).columns();
    if (used + w <= max_columns) {
      kept.push_back(p);
      used += w;
    } else if (left_out) {
      left_out->push_back(p);
    }
  }
  return kept;
}

namespace {
// how a series' values are written: SI as the file has them, or in its display unit (the unit
// table, observables.h) where the output table knows the series and the file's unit is its SI
struct Shown {
  std::string unit;
  double scale = 1, offset = 0;
  double operator()(double v) const { return v * scale + offset; }
};
Shown shownAs(const ResultsSeries& s, const std::string& path, bool display) {
  Shown w{s.units};
  const ObservableInfo* o = display ? findObservable(path) : nullptr;
  if (o && s.units == o->unit) {
    const UnitInfo& u = unitInfo(o->quantity);
    w = Shown{u.display, u.scale, u.offset};
  }
  return w;
}
}  // namespace

void writeCsv(const ResultsData& d, const std::vector<std::string>& paths, bool long_format,
              std::ostream& out, bool display_units) {
  if (long_format) {
    out << "time,path,column,value,unit\n";
    for (const auto& p : paths) {
      const ResultsSeries& s = d.series.at(p);
      const ResultsSeries& t = *d.find(isPower(p) ? "/power/time" : "/time");
      const Shown w = shownAs(s, p, display_units);
      std::vector<std::string> labels;
      for (std::size_t c = 0; c < s.columns(); ++c)
        labels.push_back(s.width == 0 ? "" : quote(columnLabel(d, p, c)));
      for (std::size_t r = 0; r < s.rows; ++r)
        for (std::size_t c = 0; c < s.columns(); ++c)
          out << number(t.at(r)) << ',' << p << ',' << labels[c] << ',' << number(w(s.at(r, c)))
              << ',' << quote(w.unit) << '\n';
    }
    return;
  }
  bool power = false, rows = false;
  for (const auto& p : paths) (isPower(p) ? power : rows) = true;
  if (power && rows)
    throw ResultsError(d.path +
                       ": /power series have their own time axis (/power/time); export them "
                       "apart from the others, or use --long");
  const ResultsSeries* t = d.find(power ? "/power/time" : "/time");
  if (!t) throw ResultsError(d.path + ": no time axis");
  out << (power ? "/power/time (s)" : "time (s)");
  std::vector<Shown> shown;
  for (const auto& p : paths) {
    const ResultsSeries& s = d.series.at(p);
    shown.push_back(shownAs(s, p, display_units));
    const std::string unit = shown.back().unit.empty() ? "" : " (" + shown.back().unit + ")";
    for (std::size_t c = 0; c < s.columns(); ++c)
      out << ',' << quote(s.width == 0 ? p + unit : p + "[" + columnLabel(d, p, c) + "]" + unit);
  }
  out << '\n';
  for (std::size_t r = 0; r < t->rows; ++r) {
    out << number(t->at(r));
    for (std::size_t k = 0; k < paths.size(); ++k) {
      const ResultsSeries& s = d.series.at(paths[k]);
      for (std::size_t c = 0; c < s.columns(); ++c) out << ',' << number(shown[k](s.at(r, c)));
    }
    out << '\n';
  }
}

}  // namespace dctwin
