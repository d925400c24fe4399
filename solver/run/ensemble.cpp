// ensemble.cpp: an ensemble sweep's intervals (docs/sweep-format.md "Ensembles"): every design
// point runs `replicates` times, each with its own GPU-to-GPU variation seed and draw of the
// uncertain inputs; per point and metric, the mean, standard deviation, 5th and 95th percentile
// over the completed replicates, so that a design choice can be told from the seed's noise.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "solver/run/sweep.h"

namespace dctwin {

namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
}

const std::vector<std::string>& ensembleStatistics() {
  static const std::vector<std::string> k{"mean", "std", "p5", "p95"};
  return k;
}

std::string ensembleBasis(const std::string& statistic, const std::string& metric) {
  const std::string what = statistic == "mean"  ? "ensemble mean"
                           : statistic == "std" ? "ensemble standard deviation"
                           : statistic == "p5"  ? "ensemble 5th percentile"
                                                : "ensemble 95th percentile";
  return what + " of " + sweepMetricBasis(metric);
}

std::string ensembleDescription(const std::string& statistic, const std::string& metric) {
  const std::string what =
      statistic == "mean"  ? "mean"
      : statistic == "std" ? "sample standard deviation (n - 1)"
                           : std::string(statistic == "p5" ? "5th" : "95th") +
                                 " percentile (linear between order statistics, numpy's default)";
  return what + " over the design point's completed replicates (seeds and uncertain inputs) of: " +
         sweepMetricDescription(metric) + " NaN with fewer than 2 completed replicates.";
}

double sortedQuantile(const std::vector<double>& v, double q) {
  if (v.empty()) return kNaN;
  const double h = q * double(v.size() - 1);
  const std::size_t lo = std::size_t(std::floor(h));
  const std::size_t hi = std::min(lo + 1, v.size() - 1);
  return v[lo] + (h - double(lo)) * (v[hi] - v[lo]);
}

EnsembleTable ensembleTable(const SweepSpec& s, const std::vector<SweepCase>& cases,
                            const std::vector<CaseResult>& results) {
  EnsembleTable T;
  const int R = sweepReplicates(s);
  if (results.size() != cases.size())
    throw std::invalid_argument("ensembleTable: " + std::to_string(results.size()) +
                                " results for " + std::to_string(cases.size()) + " cases");
  for (std::size_t k = 0; k < results.size(); ++k)
    if (results[k].index != int(k) || cases[k].index != int(k))
      throw std::invalid_argument("ensembleTable: the results are not the cases in order");
  std::vector<std::size_t> design;
  for (std::size_t j = 0; j < s.params.size(); ++j)
    if (!s.params[j].uncertain && !s.params[j].replicate_seed) {
      design.push_back(j);
      T.param_names.push_back(s.params[j].name);
    }
  T.values.resize(design.size());
  const std::size_t P = cases.size() / std::size_t(R);
  for (const auto& st : ensembleStatistics())
    for (const auto& [m, unit] : sweepMetrics()) T.stats[st][m].assign(P, kNaN);
  for (std::size_t p = 0; p < P; ++p) {
    const std::size_t first = p * std::size_t(R);
    T.point.push_back(static_cast<long long>(p));
    for (std::size_t d = 0; d < design.size(); ++d)
      T.values[d].push_back(cases[first].values[design[d]]);
    // the completed replicates (in case order); the others counted by status
    std::vector<const CaseResult*> done;
    std::map<std::string, int> other;
    for (int r = 0; r < R; ++r) {
      const CaseResult& c = results[first + std::size_t(r)];
      if (caseComparable(c))
        done.push_back(&c);
      else
        ++other[!c.status.empty() ? c.status : c.ok ? "completed" : "solver_failed"];
    }
    T.replicates.push_back(R);
    T.completed.push_back(static_cast<long long>(done.size()));
    std::string out = std::to_string(done.size()) + " of " + std::to_string(R) + " completed";
    for (const std::string& st : caseStatuses())
      if (auto it = other.find(st); it != other.end())
        out += ", " + std::to_string(it->second) + " " + st;
    T.outcome.push_back(out);
    for (const auto& [m, unit] : sweepMetrics()) {
      std::vector<double> v;
      for (const CaseResult* c : done) {
        const auto it = c->metrics.find(m);
        if (it != c->metrics.end() && std::isfinite(it->second)) v.push_back(it->second);
      }
      if (v.size() < 2) continue;
      double sum = 0;  // in case order: the same for any thread or rank count
      for (double x : v) sum += x;
      const double mean = sum / double(v.size());
      double ss = 0;
      for (double x : v) ss += (x - mean) * (x - mean);
      std::sort(v.begin(), v.end());
      T.stats["mean"][m][p] = mean;
      T.stats["std"][m][p] = std::sqrt(ss / double(v.size() - 1));
      T.stats["p5"][m][p] = sortedQuantile(v, 0.05);
      T.stats["p95"][m][p] = sortedQuantile(v, 0.95);
    }
  }
  return T;
}

std::vector<SweepColumn> ensembleColumns(const ResultsData& d) {
  std::vector<std::string> stats;
  for (const auto& st : ensembleStatistics())
    for (const auto& [m, unit] : sweepMetrics()) stats.push_back(st + "/" + m);
  return tableColumns(d, "/ensemble/", {"point", "replicates", "completed", "outcome"}, stats);
}

std::string ensembleText(const EnsembleTable& T) {
  struct Col {
    const char* metric;
    const char* label;
    double scale, offset;
    int decimals;
  };
  static const Col kCols[] = {{"T_junction_max", "Tj max degC", 1, unitInfo(Unit::K).offset, 1},
                              {"throughput_lost", "throughput lost %", 100, 0, 2},
                              {"P_utility_mean", "utility kW", 1e-3, 0, 1},
                              {"E_it_per_iteration", "IT per iteration kJ", 1e-3, 0, 1}};
  auto num = [](double v, int d) {
    char b[32];
    std::snprintf(b, sizeof b, "%.*f", d, v);
    return std::string(b);
  };
  std::string out = "ensemble: " + std::to_string(T.point.size()) + " design point(s) x " +
                    (T.replicates.empty() ? std::string("0") : std::to_string(T.replicates[0])) +
                    " replicates; mean [p5, p95] over the completed replicates\n";
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> head{"point"};
  for (const auto& n : T.param_names) head.push_back(n);
  head.push_back("completed");
  for (const Col& c : kCols) head.push_back(c.label);
  rows.push_back(head);
  for (std::size_t p = 0; p < T.point.size(); ++p) {
    std::vector<std::string> r{std::to_string(T.point[p])};
    for (const auto& v : T.values) r.push_back(v[p]);
    r.push_back(std::to_string(T.completed[p]) + "/" + std::to_string(T.replicates[p]));
    for (const Col& c : kCols) {
      const double m = T.stats.at("mean").at(c.metric)[p];
      if (std::isnan(m)) {
        r.push_back("-");
        continue;
      }
      auto f = [&](const char* st) {
        return num(T.stats.at(st).at(c.metric)[p] * c.scale + c.offset, c.decimals);
      };
      r.push_back(f("mean") + " [" + f("p5") + ", " + f("p95") + "]");
    }
    rows.push_back(r);
  }
  std::vector<std::size_t> w(head.size(), 0);
  for (const auto& r : rows)
    for (std::size_t j = 0; j < r.size(); ++j) w[j] = std::max(w[j], r[j].size());
  for (const auto& r : rows) {
    std::string line = " ";
    for (std::size_t j = 0; j < r.size(); ++j)
      line += " " + r[j] + std::string(w[j] - r[j].size(), ' ');
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  }
  return out;
}

std::vector<SweepColumn> ensembleColumns(const EnsembleTable& T) {
  std::vector<SweepColumn> cols;
  auto ints = [&](const char* name, const std::vector<long long>& v) {
    SweepColumn c;
    c.name = name;
    for (long long x : v) c.numbers.push_back(double(x));
    cols.push_back(std::move(c));
  };
  ints("point", T.point);
  ints("replicates", T.replicates);
  ints("completed", T.completed);
  SweepColumn out;
  out.name = "outcome";
  out.text = T.outcome;
  out.is_text = true;
  cols.push_back(out);
  for (std::size_t d = 0; d < T.param_names.size(); ++d) {
    SweepColumn c;
    c.name = "parameters/" + T.param_names[d];
    c.text = T.values[d];
    c.is_text = true;
    cols.push_back(c);
  }
  for (std::size_t d = 0; d < T.param_names.size(); ++d) {
    SweepColumn c;
    c.name = "parameters_si/" + T.param_names[d];
    c.unit = "SI";
    for (const auto& v : T.values[d]) c.numbers.push_back(sweepValueSI(v));
    cols.push_back(c);
  }
  for (const auto& st : ensembleStatistics())
    for (const auto& [m, unit] : sweepMetrics()) {
      SweepColumn c;
      c.name = st + "/" + m;
      c.unit = unit;
      c.basis = ensembleBasis(st, m);
      c.numbers = T.stats.at(st).at(m);
      cols.push_back(std::move(c));
    }
  return cols;
}

}  // namespace dctwin
