// monthly.h: totals per calendar month of a long run (docs/results.md, "Monthly totals"), read
// from the output table's rows: the differences of its cumulative series (GPU-seconds throttled,
// the first training job's iterations, the plant's energies, water and cost) between consecutive
// rows, each interval counted to the month /calendar/month gives it. No second computation:
// every number is a difference of a row of solver/output/observables.h. Only with a plant section
// (its weather sets the calendar).
#pragma once

#include <string>
#include <vector>

#include "solver/output/observables.h"

namespace dctwin {

struct MonthTotals {
  int month = 0;                  // 1 January ... 12 December
  double t_start = 0, t_end = 0;  // run times the month's rows cover (s)
  double gpu_seconds_throttled = 0;
  double iterations = 0, iteration_time = 0;  // first training job: completed, their time (s)
  double reference_time = 0;                  // its reference iteration time (s)
  double E_facility = 0, E_it = 0, water = 0, cost = 0;  // J, J, kg, tariff currency
  double throughputRatio() const;  // reference x iterations / their time; NaN without any
  double throughputLost() const { return 1.0 - throughputRatio(); }
  double pue() const;  // E_facility / E_it; NaN without IT energy
};

// one entry per calendar month the run passes through, in run order (a month that comes again a
// year later is an entry of its own)
class MonthlyTotals {
 public:
  void begin(const RunLayout& L);
  void row(const OutputFrame& f);
  const std::vector<MonthTotals>& months() const { return months_; }
  bool active() const { return active_; }

 private:
  struct Cum {
    double t = 0, throttled = 0, n = 0, T = 0, E_fac = 0, E_it = 0, water = 0, cost = 0;
  };
  Cum read(const OutputFrame& f) const;
  bool active_ = false, first_ = true;
  int job_ = -1;
  Cum prev_;
  std::vector<MonthTotals> months_;
};

// the rows of /monthly (name, unit, description) in the order MonthlyTotals writes them
struct MonthlyColumn {
  const char* name;
  const char* unit;
  const char* description;
};
const std::vector<MonthlyColumn>& monthlyColumns();
std::vector<double> monthlyColumn(const std::vector<MonthTotals>& m, const std::string& name);

}  // namespace dctwin
