// monthly.cpp: totals per calendar month from the output table's cumulative rows (monthly.h)
#include "solver/output/monthly.h"

#include <cmath>
#include <limits>

namespace dctwin {

namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
}  // namespace

double MonthTotals::throughputRatio() const {
  return iterations > 0 && iteration_time > 0 ? reference_time * iterations / iteration_time : kNaN;
}

double MonthTotals::pue() const {
  return E_it > 0 ? E_facility / E_it : kNaN;
}

void MonthlyTotals::begin(const RunLayout& L) {
  active_ = L.has_plant;
  for (int j = 0; j < L.njob && job_ < 0; ++j)
    if (L.job_kind[j] == 0) job_ = j;
}

MonthlyTotals::Cum MonthlyTotals::read(const OutputFrame& f) const {
  Cum c;
  c.t = f.t;
  if (f.has(Obs::FacilityGpuSecondsThrottled))
    c.throttled = f.scalar(Obs::FacilityGpuSecondsThrottled);
  if (job_ >= 0) {
    c.n = f.get(Obs::JobIterations)[job_];
    c.T = c.n > 0 ? c.n * f.get(Obs::JobIterationTime)[job_] : 0.0;  // the mean is a run mean
  }
  c.E_fac = f.scalar(Obs::EnergyFacility);
  c.E_it = f.scalar(Obs::EnergyItPue);
  c.water = f.scalar(Obs::WaterSite);
  c.cost = f.scalar(Obs::PlantCost);
  return c;
}

void MonthlyTotals::row(const OutputFrame& f) {
  if (!active_) return;
  const Cum c = read(f);
  const int month = static_cast<int>(std::lround(f.scalar(Obs::CalendarMonth)));
  if (first_) {  // t = 0 opens the first month; nothing accumulated yet
    first_ = false;
    months_.push_back(MonthTotals{});
    months_.back().month = month;
    months_.back().t_start = months_.back().t_end = c.t;
    prev_ = c;
    return;
  }
  if (months_.back().month != month && months_.back().t_end == months_.back().t_start) {
    // a run that starts on a month's first instant: t = 0 reads as the month before (a row
    // belongs to the interval that ends at it); that month has no interval, so it is this one
    months_.back().month = month;
  } else if (months_.back().month != month) {
    months_.push_back(MonthTotals{});
    months_.back().month = month;
    months_.back().t_start = prev_.t;
  }
  MonthTotals& m = months_.back();
  m.t_end = c.t;
  m.gpu_seconds_throttled += c.throttled - prev_.throttled;
  m.iterations += c.n - prev_.n;
  m.iteration_time += c.T - prev_.T;
  if (job_ >= 0) m.reference_time = f.get(Obs::JobReferenceIterationTime)[job_];
  m.E_facility += c.E_fac - prev_.E_fac;
  m.E_it += c.E_it - prev_.E_it;
  m.water += c.water - prev_.water;
  m.cost += c.cost - prev_.cost;
  prev_ = c;
}

const std::vector<MonthlyColumn>& monthlyColumns() {
  static const std::vector<MonthlyColumn> c{
      {"month", "1", "calendar month, 1 January ... 12 December (/calendar/month)"},
      {"t_start", "s", "run time at the month's start (its first interval's start)"},
      {"t_end", "s", "run time at the month's end (its last row)"},
      {"gpu_hours_throttled", "h",
       "GPU-hours with thermal or power-brake throttling (/facility/gpu_seconds_throttled)"},
      {"throughput_ratio", "1",
       "first training job: reference iteration time x iterations completed in the month / their "
       "time (/job/iterations, /job/iteration_time)"},
      {"throughput_lost", "1", "first training job: 1 - throughput_ratio"},
      {"E_facility", "J", "facility energy E_DC (/energy/facility)"},
      {"E_it", "J", "IT energy as PUE counts it (/energy/it_pue)"},
      {"PUE", "1", "E_facility / E_it of the month (The Green Grid, energy)"},
      {"water_site", "kg", "site water (/water/site)"},
      {"cost", "1", "electricity cost in the tariff's currency (/plant/cost)"}};
  return c;
}

std::vector<double> monthlyColumn(const std::vector<MonthTotals>& m, const std::string& name) {
  std::vector<double> v;
  for (const MonthTotals& x : m) {
    const double val = name == "month"                 ? double(x.month)
                       : name == "t_start"             ? x.t_start
                       : name == "t_end"               ? x.t_end
                       : name == "gpu_hours_throttled" ? x.gpu_seconds_throttled / 3600.0
                       : name == "throughput_ratio"    ? x.throughputRatio()
                       : name == "throughput_lost"     ? x.throughputLost()
                       : name == "E_facility"          ? x.E_facility
                       : name == "E_it"                ? x.E_it
                       : name == "PUE"                 ? x.pue()
                       : name == "water_site"          ? x.water
                       : name == "cost"                ? x.cost
                                                       : kNaN;
    v.push_back(val);
  }
  return v;
}

}  // namespace dctwin
