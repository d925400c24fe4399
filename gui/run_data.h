// run_data.h: one run held in memory for the views: the facility's static layout (racks, CDUs,
// GPUs, jobs, busways), the time axis, the recorded series by their results-file path
// (docs/results.md: "/rack/T_return", "/gpu/T_junction", ...), and the event log.
//
// A RunData is filled either from a finished or running simulation (RunWorker streams row blocks
// into it) or from a results file (dctwin::readResults). The metrics the floor plan colours by are
// computed here, in the units people read (degC, kW, L/min, %), so every view agrees.
#pragma once

#include <QColor>
#include <QString>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "solver/output/observables.h"
#include "solver/output/results_reader.h"

namespace dctwin::gui {

// rows appended to a RunData as a run goes: a block of consecutive output rows
struct RowBlock {
  std::vector<double> time;                           // (s)
  std::map<std::string, std::vector<double>> values;  // path -> rows x width, row-major
  std::vector<EventRecord> events;                    // new events since the last block
};

struct RunData {
  // what this run is
  QString label;        // "run 2 (pod_rack_leak)", a file name, ...
  QString source_path;  // the results file, if any
  std::string facility_name, facility_text, scenario_text;
  std::string currency;  // the plant tariff's (from a run's layout; results files do not say)
  bool complete = true;  // false while a run is streaming
  // calendar time (a plant's weather sets it; the results file's calendar_* attributes): t = 0
  // is year_start seconds after 1 January 00:00 of the weather's non-leap year, in its local
  // standard time, utc_offset seconds from UTC (NaN: unknown)
  bool has_calendar = false;
  double year_start = 0, utc_offset = std::nan("");

  // static layout
  std::vector<std::string> rack_name, rack_row, rack_type, cdu_name, job_name, busway_name;
  std::vector<std::string> rack_hall;  // the campus level (racks[].hall); "" = the one hall
  std::vector<int> rack_index, rack_cdu, rack_busway;  // rack_busway: -1 none
  std::vector<int> gpu_rack, gpu_tray, gpu_slot;
  std::vector<int> rack_gpuadr, rack_gpunum, rack_trays;  // derived from gpu_rack/gpu_tray
  // air-cooled racks (docs/models/air_rack.md): names, hall rows, positions in them
  std::vector<std::string> air_name, air_row;
  std::vector<int> air_index;
  // the step model of each described job (DCTWIN_JOB_MODEL, solver/output/observables.h):
  // jobs x kJobModelCount, NaN for a job that is not described
  std::vector<double> job_model;
  double jobModel(int job, JobCol c) const {
    const std::size_t k = std::size_t(job) * kJobModelCount + std::size_t(c);
    return job >= 0 && k < job_model.size() ? job_model[k] : std::nan("");
  }

  // series
  std::vector<double> time;  // (s)
  struct Series {
    std::string units;
    int width = 0;  // columns; 1-D series have width 1
    std::vector<double> data;
  };
  std::map<std::string, Series> series;
  std::vector<EventRecord> events;

  int nrack() const { return int(rack_name.size()); }
  int ncdu() const { return int(cdu_name.size()); }
  int ngpu() const { return int(gpu_rack.size()); }
  int nair() const { return int(air_name.size()); }
  int rows() const { return int(time.size()); }
  bool empty() const { return rack_name.empty(); }
  double duration() const { return time.empty() ? 0.0 : time.back(); }
  // the date and local time of run time t ("07-15 14:30"); empty without a calendar
  QString dateAt(double t) const;
  // the time zone the dates are in ("UTC-07:00", "unknown"); empty without a calendar
  QString timeZone() const;

  // the value of series `path` at row, column; NaN when absent
  double value(const std::string& path, int row, int col = 0) const;
  const Series* find(const std::string& path) const;
  // the last row whose time is <= t (0 when before the first)
  int rowAt(double t) const;
  int rackByName(const std::string& name) const;
  int cduByName(const std::string& name) const;
  // "rack A03" -> {0, 2}; "cdu1" -> {1, 0}; otherwise {-1, -1}
  std::pair<int, int> component(const std::string& text) const;

  // static parts from a run's layout (no rows yet): solver/run/run.h describeFacility or a
  // RunSink's begin
  static RunData fromLayout(const RunLayout& L);
  // everything from a results file; GPU limits when its facility text compiles
  static RunData fromResults(const ResultsData& d);
  void append(const RowBlock& b);

 private:
  void finishLayout();
};

// per-rack GPU aggregates, one column per rack, from the library's output table
// (solver/output/observables.h): the views read these, so a large facility need not keep every
// GPU's series
inline const std::string kRackTjMax = observable(Obs::RackGpuTJunctionMax).path;
inline const std::string kRackThbmMax = observable(Obs::RackGpuTHbmMax).path;
inline const std::string kRackClockMean = observable(Obs::RackGpuClockMean).path;
inline const std::string kRackThrottled = observable(Obs::RackGpuThrottledShare).path;

// what the floor plan and the 3D view colour by
enum class Metric {
  JunctionMax,    // hottest GPU junction in the rack (degC)
  HbmMax,         // hottest HBM (degC)
  SupplyT,        // rack inlet (degC); CDUs: secondary supply
  ReturnT,        // rack outlet (degC); CDUs: secondary return
  Flow,           // rack or CDU secondary flow (L/min)
  Power,          // rack electrical power (kW); CDUs: pump power
  ClockMean,      // mean SM clock ratio (%)
  ThrottleShare,  // share of the rack's GPUs throttled (thermal or power brake) (%)
  LeakState,      // 0 normal, 1 leaking, 2 isolating, 3 isolated/off (category)
  Count
};

struct MetricInfo {
  QString name;  // "Max GPU junction temperature"
  QString unit;  // "°C"
  double lo = 0, hi = 1;
  bool categorical = false;
};
MetricInfo metricInfo(Metric m);

// a rack's value of the metric at a row, in display units; NaN when unknown
double rackMetric(const RunData& d, Metric m, int rack, int row);
// a CDU's value (its own quantity where the metric applies to CDUs), NaN otherwise
double cduMetric(const RunData& d, Metric m, int cdu, int row);
// an air-cooled rack's value where the metric applies to it: power (IT + fans, kW), its air inlet
// (SupplyT) and outlet (ReturnT) temperatures (degC), LeakState 0 running / 3 off (its feed
// lost); NaN otherwise (it has no coolant and no resolved GPUs)
double airRackMetric(const RunData& d, Metric m, int k, int row);

// colour scales: sequential (blue -> red) for values in [lo, hi], diverging for differences,
// categorical for LeakState; grey for NaN
QColor sequentialColor(double v, double lo, double hi);
QColor divergingColor(double v, double span);
QColor leakStateColor(double state);
QString leakStateName(double state);
// CDUs under the leak/isolation metric: 0 normal, 1 coolant lost (their own legend entry, not
// the racks' "leaking")
QColor cduStateColor(double state);
QString cduStateName(double state);

// round-number ticks covering [lo, hi]: about `count` of them at 1, 2, 2.5 or 5 x 10^k steps;
// the first and last tick enclose the range (a legend or axis then spans ticks.front() ..
// ticks.back()); an empty or inverted range gets ticks around lo
std::vector<double> niceTicks(double lo, double hi, int count = 5);
// decimals that tell ticks `step` apart (0 for 5, 1 for 0.5, ...)
int tickDecimals(double step);
// a number as people read it: `decimals` places, never "-0.0" (rounds to zero -> "0.0"), "–" NaN
QString formatNumber(double v, int decimals);

// "00:10:05" for 605 s
QString formatTime(double seconds);
// time-axis ticks of a span of run time [t0, t1] as dates, for a run with a calendar over more
// than two days: month starts ("Jul") over more than 60 days, else days ("07-15") at a whole
// number of days apart; at most `count` ticks, each {run time (s), label}. Empty otherwise (the
// caller labels hours or minutes)
std::vector<std::pair<double, QString>> dateTicks(const RunData& d, double t0, double t1,
                                                  int count = 6);
// "00:10:05 (07-15 00:10)" when the run has a calendar, else formatTime: what every view shows
// for a moment of the run (events, the current time)
QString formatMoment(const RunData* d, double seconds);

}  // namespace dctwin::gui
