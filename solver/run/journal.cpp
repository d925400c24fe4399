// journal.cpp: the sweep's metrics table and its journal of finished cases (see sweep.h). No
// solver here: the journal's readers are fuzzed on their own (tests/fuzz/fuzz_journal.cpp).
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>

#include "solver/common/bounded_file.h"
#include "solver/output/observables.h"
#include "solver/run/sweep.h"

namespace dctwin {

namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
// the longest journal line read (a case's metrics and its jobs'; about 1 kB per job)
constexpr std::size_t kMaxJournalLine = std::size_t{16} << 20;
LoadFailure failure(const SourceLoc& loc, const std::string& value, const std::string& msg) {
  return LoadFailure({LoadError{loc, value, msg}});
}
}  // namespace

//---------------------------------------------------------------------------------------------
// The sweep's metrics, one row each: name, SI unit, basis (empty: by the name's pattern, below)
// and description; every reader (the /cases writer, the journal, the ensemble, Python, the docs'
// table) takes them from here. The first training job's bottleneck map follows the fixed rows,
// one share per part of the output table's /job/time and /job/wait (docs/models/job.md).
namespace {
struct MetricRow {
  std::string name, unit, basis, description;
};

const std::vector<MetricRow>& metricTable() {
  static const std::vector<MetricRow> table = [] {
    std::vector<MetricRow> t{
        {"T_junction_max", "K", "",
         "hottest GPU junction over the metrics window (interval maxima)"},
        {"T_junction_p99", "K", "window max, p99 over GPUs",
         "99th percentile over the GPUs of each GPU's hottest junction in the window"},
        {"T_hbm_max", "K", "", "hottest HBM over the metrics window"},
        {"T_case_max", "K", "",
         "hottest cold-plate case of a heat-load rack over the metrics window"},
        {"T_supply_max", "K", "",
         "highest CDU secondary supply temperature over the metrics window"},
        {"gpu_seconds_throttled", "s", "window total",
         "GPU-seconds with thermal or power-brake throttling in the window"},
        {"gpus_shut_down", "1", "end of run",
         "GPUs shut down by their thermal protection at the end of the run"},
        {"throughput_ratio", "1", "window ratio",
         "first training job: reference iteration time / mean time of its iterations completed in "
         "the window"},
        {"progress_ratio", "1", "window ratio",
         "first training job: iterations completed in the window x reference iteration time / the "
         "window's length (stalls count)"},
        {"step_time_model", "s", "",
         "first training job, described (docs/models/job.md): the step model's nominal step time "
         "(/job/model/step_time); NaN for a job that is not described"},
        {"step_time", "s", "",
         "first training job, described: mean iteration time achieved in the window (iterations' "
         "time / their number)"},
        {"tokens_per_second", "1/s", "",
         "first training job, described: tokens per second achieved in the window (the step "
         "model's tokens per iteration / step_time)"},
        {"mfu", "1", "",
         "first training job, described: model FLOPs utilisation achieved in the window (the step "
         "model's FLOPs per iteration, 6 N T + attention, / (step_time x GPUs x dense BF16 peak))"},
        {"memory_per_gpu", "B", "",
         "first training job, described: the step model's memory per GPU on its most loaded stage "
         "(/job/model/memory_per_gpu)"},
        {"E_utility", "J", "", "utility energy over the window (power section)"},
        {"E_it", "J", "",
         "IT energy over the window: DC to the racks (power section), else heat into the coolant - "
         "pump energy"},
        {"E_cooling", "J", "",
         "CDU pump and air-handler (fans + chilled-water chiller) electrical energy over the "
         "window"},
        {"E_air_handlers", "J", "",
         "air handlers' fan and chilled-water chiller energy over the window (NaN without air "
         "handlers; docs/models/air_handler.md)"},
        {"E_power_losses", "J", "", "shelf + busway + UPS + transformer losses over the window"},
        {"PUE", "1", "window ratio",
         "energy PUE over the window (The Green Grid): with a plant /energy/facility / "
         "/energy/it_pue; without, (utility + energy drawn from the stores + CDU pump and "
         "air-handler energy) / IT energy at the racks' AC input"},
        {"pPUE_cooling", "1", "window ratio",
         "partial PUE of the cooling over the window: (/energy/it_pue + CDU pumps + air handlers + "
         "plant) / /energy/it_pue"},
        {"E_facility", "J", "", "facility energy E_DC over the window (/energy/facility)"},
        {"E_plant", "J", "",
         "plant energy over the window: primary pumps + fans + chillers + condenser fans"},
        {"E_plant_pumps", "J", "", "primary (facility-water) pump energy over the window"},
        {"E_chillers", "J", "", "chiller compressor energy over the window"},
        {"E_condenser_fans", "J", "", "chiller condenser fan energy over the window"},
        {"E_dry_coolers", "J", "",
         "dry-cooler fan energy over the window (NaN with cooling towers)"},
        {"E_towers", "J", "", "cooling-tower fan energy over the window (NaN with dry coolers)"},
        {"water_site", "kg", "window total",
         "site water (evaporation + drift + blowdown) over the window (/water/site)"},
        {"WUE", "L/kWh", "window ratio",
         "site WUE over the window: site water (L) / /energy/it_pue (kWh)"},
        {"cost", "1", "window total",
         "electricity cost of E_DC over the window, in the tariff's currency (/plant/cost)"},
        {"CO2", "kg", "window total", "CO2 of E_DC over the window (/plant/CO2)"},
        {"time_free", "s", "", "time in free cooling over the window (/plant/time_free)"},
        {"time_partial", "s", "", "time in partial mechanical cooling over the window"},
        {"time_mechanical", "s", "", "time in full mechanical cooling over the window"},
        {"throughput_lost", "1", "window ratio", "first training job: 1 - throughput_ratio"},
        {"P_pump_mean", "W", "", "mean CDU pump electrical power over the window"},
        {"flow_margin_min", "1", "window min",
         "lowest rack flow / design flow over the window (t > 0)"},
        {"busway_load_max", "1", "",
         "highest busway current / rating at an output time in the window"},
        {"time_to_detection", "s", "whole run",
         "from the first leak's start to its detection (whole run)"},
        {"time_to_isolation", "s", "whole run",
         "from the first leak's start to the rack's isolation (whole run)"},
        {"coolant_lost", "m3", "end of run", "coolant lost through leaks at the end of the run"},
        {"energy_balance_error", "1", "whole run",
         "coolant energy balance residual / heat in, whole run"},
        {"metrics_from", "s", "window",
         "start of the metrics window, the same for every case of the sweep: the sweep's "
         "metrics_from, else the settle time min(20 min, half the run)"},
        {"metrics_window", "s", "window",
         "length of the metrics window: the run's end - metrics_from"},
        {"settled_at", "s", "whole run",
         "the first training job's first steady iteration (a diagnostic: the window should start "
         "after it; NaN without a training job or when it never settles)"},
        {"P_utility_mean", "W", "",
         "mean utility power over the window: E_utility / metrics_window"},
        {"P_it_mean", "W", "", "mean IT power over the window: E_it / metrics_window"},
        {"P_power_losses_mean", "W", "",
         "mean power-chain losses over the window: E_power_losses / window"},
        {"P_facility_mean", "W", "",
         "mean facility power over the window: E_facility / metrics_window"},
        {"P_plant_mean", "W", "", "mean plant power over the window: E_plant / metrics_window"},
        {"iterations", "1", "window total",
         "first training job: iterations completed in the window"},
        {"E_utility_per_iteration", "J", "",
         "E_utility / the first training job's iterations in the window"},
        {"E_it_per_iteration", "J", "", "E_it / the first training job's iterations in the window"},
        {"E_facility_per_iteration", "J", "",
         "E_facility / the first training job's iterations in the window"},
        {"E_utility_per_token", "J", "",
         "E_utility / the tokens the first training job processed in the window (described jobs: "
         "iterations x tokens per iteration)"},
        {"E_it_per_token", "J", "",
         "E_it / the tokens the first training job processed in the window"},
        {"E_facility_per_token", "J", "",
         "E_facility / the tokens the first training job processed in the window"},
        {"racks_powered_off", "1", "end of run",
         "racks without power at the end of the run (protection, EPO or a lost feed)"},
        {"critical_events", "1", "whole run",
         "events of severity critical over the whole run (/events)"},
        {"epo_events", "1", "whole run",
         "emergency power-offs of a CDU's racks over the whole run"},
        {"job_failures", "1", "whole run",
         "training-job failures (restarts from a checkpoint) over the whole run"},
        // the site at the meter, with the sweep's power_interval (NaN without): the case's /grid
        // over the grid section's span (docs/models/grid.md)
        {"grid_peak_to_peak", "W", "grid span",
         "the meter's swing, max - min (/grid/peak_to_peak; needs the sweep's power_interval)"},
        {"grid_swing_fraction", "1", "grid span", "the meter's swing / its peak"},
        {"grid_max_rise_window", "W/s", "grid span",
         "the largest rise of the meter over grid.ramp_window, per second"},
        {"grid_max_fall_window", "W/s", "grid span",
         "the largest fall of the meter over grid.ramp_window, per second"},
        {"grid_ramp_met", "1", "grid span",
         "1: both windowed ramps within grid.ramp_limit, 0: exceeded, NaN: no limit"},
        {"grid_peak_frequency", "Hz", "grid span",
         "frequency of the meter spectrum's highest bin above 0 Hz"},
        {"grid_peak_amplitude", "W", "grid span", "amplitude of a sine at grid_peak_frequency"},
        {"grid_band_worst", "1", "grid span",
         "the largest band RMS over its limit among the grid section's bands with a limit (NaN: "
         "none)"},
        {"grid_bands_met", "1", "grid span",
         "1: every band with a limit within it, 0: one exceeded, NaN: no band limit"},
    };
    for (const SweepMapMetric& m : sweepMapMetrics()) {
      const std::string what = m.path.substr(10), desc = findObservable(m.path)->description;
      t.push_back({m.name, "1", "window ratio",
                   m.wait ? "first training job: share of its GPUs' time in the window spent "
                            "waiting at barriers for a straggler held back by '" +
                                what + "' (" + desc + "); the causes add up to map_barrier_wait"
                          : "first training job: share of its GPUs' time in the window in the "
                            "bottleneck map's part '" +
                                what + "' (" + desc + ")"});
    }
    return t;
  }();
  return table;
}
}  // namespace

//---------------------------------------------------------------------------------------------
// The per-job metrics (/case_jobs), one row each as the case metrics; every job of the case's
// facility gets a row of them per case, so that a hall or campus with several jobs can compare
// each job across the cases (the /cases columns keep the first training job's).
namespace {
const std::vector<MetricRow>& jobMetricTable() {
  static const std::vector<MetricRow> table = [] {
    std::vector<MetricRow> t{
        {"kind", "1", "whole run",
         "the job's kind: 0 training, 1 inference, 2 trace replay (/case_jobs/kind has the word)"},
        {"gpus", "1", "whole run", "GPUs the job runs on"},
        {"throughput_ratio", "1", "window ratio",
         "training job: reference iteration time / mean time of its iterations completed in the "
         "window"},
        {"progress_ratio", "1", "window ratio",
         "training job: iterations completed in the window x reference iteration time / the "
         "window's length (stalls count)"},
        {"throughput_lost", "1", "window ratio", "training job: 1 - throughput_ratio"},
        {"iterations", "1", "window total", "training job: iterations completed in the window"},
        {"step_time_model", "s", "",
         "described training job: the step model's nominal step time (/job/model/step_time)"},
        {"step_time", "s", "window mean",
         "described training job: mean iteration time achieved in the window"},
        {"tokens_per_second", "1/s", "window mean",
         "described training job: tokens per second achieved in the window (the step model's "
         "tokens per iteration / step_time)"},
        {"mfu", "1", "window mean",
         "described training job: model FLOPs utilisation achieved in the window (the step "
         "model's FLOPs per iteration / (step_time x GPUs x dense BF16 peak))"},
        {"memory_per_gpu", "B", "",
         "described training job: the step model's memory per GPU on its most loaded stage"},
    };
    for (const SweepMapMetric& m : sweepMapMetrics()) {
      const std::string what = m.path.substr(10);
      t.push_back({m.name, "1", "window ratio",
                   m.wait ? "training job: share of its GPUs' time in the window spent waiting at "
                            "barriers for a straggler held back by '" +
                                what + "'"
                          : "training job: share of its GPUs' time in the window in the "
                            "bottleneck map's part '" +
                                what + "'"});
    }
    return t;
  }();
  return table;
}
}  // namespace

const std::vector<std::pair<std::string, std::string>>& sweepJobMetrics() {
  static const std::vector<std::pair<std::string, std::string>> m = [] {
    std::vector<std::pair<std::string, std::string>> v;
    for (const MetricRow& r : jobMetricTable()) v.emplace_back(r.name, r.unit);
    return v;
  }();
  return m;
}

const std::string& sweepJobMetricDescription(const std::string& name) {
  static const std::string none = "per-job metric of each case (docs/sweep-format.md)";
  for (const MetricRow& r : jobMetricTable())
    if (r.name == name) return r.description;
  return none;
}

const std::string& sweepJobMetricBasis(const std::string& name) {
  static const std::string other = "window";
  for (const MetricRow& r : jobMetricTable())
    if (r.name == name) return r.basis.empty() ? other : r.basis;
  return other;
}

const char* jobKindName(double kind) {
  return kind == 0 ? "training" : kind == 1 ? "inference" : kind == 2 ? "trace" : "";
}

const std::vector<SweepMapMetric>& sweepMapMetrics() {
  static const std::vector<SweepMapMetric> v = [] {
    std::vector<SweepMapMetric> out;
    for (const ObservableInfo& o : observableTable()) {
      const std::string path = o.path;
      if (path.rfind("/job/time/", 0) == 0)
        out.push_back({path, "map_" + path.substr(10), false});
      else if (path.rfind("/job/wait/", 0) == 0)
        out.push_back({path, "map_wait_" + path.substr(10), true});
    }
    return out;
  }();
  return v;
}

const std::vector<std::pair<std::string, std::string>>& sweepMetrics() {
  static const std::vector<std::pair<std::string, std::string>> m = [] {
    std::vector<std::pair<std::string, std::string>> v;
    for (const MetricRow& r : metricTable()) v.emplace_back(r.name, r.unit);
    return v;
  }();
  return m;
}

const std::string& sweepMetricDescription(const std::string& name) {
  static const std::string none = "metric of each case (docs/sweep-format.md)";
  for (const MetricRow& r : metricTable())
    if (r.name == name) return r.description;
  return none;
}

const std::string& sweepMetricBasis(const std::string& name) {
  // a row's own basis, else by the name's pattern
  for (const MetricRow& r : metricTable())
    if (r.name == name && !r.basis.empty()) return r.basis;
  static const std::string per_it = "window total per iteration",
                           per_tok = "window total per token", mean = "window mean",
                           total = "window total", max = "window max", other = "window";
  auto ends = [&](const std::string& tail) {
    return name.size() >= tail.size() &&
           name.compare(name.size() - tail.size(), tail.size(), tail) == 0;
  };
  if (ends("_per_iteration")) return per_it;
  if (ends("_per_token")) return per_tok;
  if (ends("_mean")) return mean;
  if (ends("_max")) return max;
  if (name.rfind("E_", 0) == 0 || name.rfind("time_", 0) == 0) return total;
  return other;
}

const std::vector<std::string>& caseStatuses() {
  static const std::vector<std::string> s{"completed", "protection_acted", "job_failed",
                                          "solver_failed", "input_failed"};
  return s;
}

bool caseComparable(const CaseResult& r) {
  return r.ok && r.status == "completed";
}

std::string caseOutcome(const CaseResult& r) {
  if (r.status == "input_failed" || r.status == "solver_failed" || !r.ok)
    return (r.status == "input_failed" ? "not run: " : "the solver failed: ") +
           r.error.substr(0, 300);
  auto count = [&](const char* name) {
    const auto it = r.metrics.find(name);
    return it == r.metrics.end() || std::isnan(it->second) ? 0LL : std::llround(it->second);
  };
  std::string why;
  auto add = [&](long long n, const std::string& what) {
    if (n > 0) why += (why.empty() ? "" : ", ") + std::to_string(n) + " " + what;
  };
  add(count("racks_powered_off"), "rack(s) powered off");
  add(count("epo_events"), "emergency power-off(s)");
  add(count("gpus_shut_down"), "GPU(s) shut down");
  add(count("job_failures"), "job failure(s)");
  if (r.status == "completed") return "completed";
  const std::string head =
      r.status == "protection_acted" ? "protection acted" : "the training job failed";
  return head + (why.empty() ? "" : ": " + why) +
         "; its load was shed, so its metrics are not comparable with completed cases";
}

//---------------------------------------------------------------------------------------------
// journal (docs/sweep-format.md "Journal"): a header naming the journal version, the sweep's
// fingerprint and its number of cases, then one line per finished case:
//   index <TAB> status <TAB> wall <TAB> v1,v2,... (metric order, %.17g) <TAB> jobs <TAB>
//   escaped error <TAB> #checksum
// jobs: name=v1,v2,... (sweepJobMetrics order) per job, joined by ';', the names %-escaped
// the checksum (FNV-1a 32 bit, hex) covers everything before its tab, so a line cut anywhere or
// changed by hand is not taken for a result
namespace {
std::uint64_t fnv64(std::uint64_t h, const std::string& text) {
  for (unsigned char ch : text) h = (h ^ ch) * 1099511628211ULL;
  return h;
}
std::string checksum(const std::string& text) {
  std::uint32_t h = 2166136261u;
  for (unsigned char ch : text) h = (h ^ ch) * 16777619u;
  char b[16];
  std::snprintf(b, sizeof b, "#%08x", h);
  return b;
}
// the contents of a file the sweep reads, through the bounded opener; an unreadable file
// (missing, not a regular file) hashes as its reason, so that it matches only itself
std::string contents(const std::string& path) {
  FileRefusal why;
  const auto text = readBoundedFile(path, kMaxInputFileBytes, &why);
  return text ? *text : "\n<unreadable: " + why.reason + ">";
}
// every file a file-valued parameter names, as the sweep resolves it (relative to the sweep file)
template <class F>
void paramFiles(const SweepSpec& s, F&& file) {
  auto files = [&](const SweepParam& p) {
    if (p.target == "facility_file" || p.file_valued)
      for (std::size_t k = 0; k < p.values.size(); ++k) {
        const std::string& v = p.values[k];
        file(p.name + "[" + std::to_string(k) + "]",
             std::filesystem::path(v).is_absolute()
                 ? v
                 : (std::filesystem::path(s.base_dir) / v).lexically_normal().string());
      }
  };
  for (const auto& p : s.params) {
    files(p);
    for (const auto& l : p.linked) files(l);
  }
}
// what the sweep computes, by content: the sweep file's text and the contents of the base
// facility and scenario and of the files a parameter names, each labelled by its role (not by its
// path, so that a sweep resumed or merged from another directory, through a link or with the
// path spelled otherwise matches its journal). Catalog entries and CSV profiles are not covered.
std::string fingerprint(const SweepSpec& s) {
  // FNV-1a, 64 bit: the same on every platform, so shards merge across machines
  std::uint64_t h = fnv64(1469598103934665603ULL, s.text);
  auto file = [&](const std::string& role, const std::string& path) {
    h = fnv64(h, "\n--" + role + "\n" + contents(path));
  };
  file("facility", s.facility_path);
  if (!s.scenario_path.empty()) file("scenario", s.scenario_path);
  paramFiles(s, file);
  return "dctwin-sweep-journal 6 " + std::to_string(h);
}
// a job name in the jobs field: the field's separators and %, as %XX
std::string escapeName(const std::string& n) {
  std::string o;
  char b[4];
  for (char ch : n)
    if (ch == '%' || ch == ';' || ch == '=' || ch == ',' || ch == '\t' || ch == '\n' ||
        ch == '\r') {
      std::snprintf(b, sizeof b, "%%%02X", static_cast<unsigned char>(ch));
      o += b;
    } else {
      o += ch;
    }
  return o;
}
bool unescapeName(const std::string& e, std::string& n) {
  n.clear();
  for (std::size_t i = 0; i < e.size(); ++i) {
    if (e[i] != '%') {
      n += e[i];
      continue;
    }
    if (i + 2 >= e.size() || !std::isxdigit(static_cast<unsigned char>(e[i + 1])) ||
        !std::isxdigit(static_cast<unsigned char>(e[i + 2])))
      return false;
    n += static_cast<char>(std::stoi(e.substr(i + 1, 2), nullptr, 16));
    i += 2;
  }
  return true;
}
// numbers as the journal writes them: %.17g, or nan
void appendNumbers(std::string& out, const std::vector<double>& v) {
  char b[64];
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (std::isnan(v[i]))
      std::snprintf(b, sizeof b, "nan");
    else
      std::snprintf(b, sizeof b, "%.17g", v[i]);
    if (i) out += ',';
    out += b;
  }
}
bool parseNumber(const std::string& v, double& x) {
  if (v == "nan") {
    x = kNaN;
    return true;
  }
  std::size_t used = 0;
  x = std::stod(v, &used);  // (throws on no number; the caller catches)
  return used == v.size();
}
std::string escape(const std::string& e) {
  std::string o;
  for (char ch : e)
    o += ch == '\n' ? std::string("\\n") : ch == '\t' ? std::string(" ") : std::string(1, ch);
  return o;
}
}  // namespace

namespace {
// a journal's lines, read a block at a time: memory stays one line of at most kMaxLine bytes
// whatever the file holds (a longer line is returned cut to that, and fails its checksum)
class JournalLines {
 public:
  explicit JournalLines(const std::string& path)
      : fd_(::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC)) {}
  ~JournalLines() {
    if (fd_ >= 0) ::close(fd_);
  }
  JournalLines(const JournalLines&) = delete;
  JournalLines& operator=(const JournalLines&) = delete;
  // the next line without its newline; false at the end
  bool next(std::string& line) {
    line.clear();
    cut_ = false;
    bool any = false;
    for (;;) {
      if (pos_ == len_) {
        if (fd_ < 0) return any;
        const ssize_t n = ::read(fd_, buf_, sizeof buf_);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
          cut_ = any;  // the file ends inside a line
          return any;
        }
        pos_ = 0;
        len_ = std::size_t(n);
      }
      any = true;
      const char* nl = static_cast<const char*>(std::memchr(buf_ + pos_, '\n', len_ - pos_));
      const std::size_t end = nl ? std::size_t(nl - buf_) : len_;
      if (line.size() < kMaxLine)
        line.append(buf_ + pos_, std::min(end - pos_, kMaxLine - line.size()));
      pos_ = nl ? end + 1 : end;
      if (nl) return true;
    }
  }
  bool cut() const { return cut_; }

 private:
  static constexpr std::size_t kMaxLine = kMaxJournalLine;
  int fd_;
  char buf_[1 << 16];
  std::size_t pos_ = 0, len_ = 0;
  bool cut_ = false;
};
}  // namespace

std::string journalLine(const CaseResult& r) {
  // the status word: completed, protection_acted, job_failed (the run finished); solver_failed,
  // input_failed (it did not)
  const std::string status = !r.status.empty() ? r.status : r.ok ? "completed" : "solver_failed";
  std::string out = std::to_string(r.index) + '\t' + status + '\t';
  char b[64];
  std::snprintf(b, sizeof b, "%.6g", r.wall_seconds);
  out += b;
  out += '\t';
  std::vector<double> v;
  for (const auto& [name, unit] : sweepMetrics()) v.push_back(r.metrics.at(name));
  appendNumbers(out, v);
  out += '\t';
  for (std::size_t j = 0; j < r.job_names.size(); ++j) {
    if (j) out += ';';
    out += escapeName(r.job_names[j]) + '=';
    appendNumbers(out, r.job_metrics.at(j));
  }
  out += '\t' + escape(r.error);
  return out + '\t' + checksum(out);
}

bool parseJournalLine(const std::string& line, CaseResult& r, std::string* why) {
  auto no = [&](const char* w) {
    if (why) *why = w;
    return false;
  };
  const std::size_t tab = line.rfind('\t');
  if (tab == std::string::npos || line.compare(tab + 1, 1, "#") != 0 ||
      checksum(line.substr(0, tab)) != line.substr(tab + 1))
    return no("cut short or changed (its checksum does not match)");
  std::vector<std::string> f;
  std::stringstream ss(line.substr(0, tab));
  std::string x;
  while (std::getline(ss, x, '\t')) f.push_back(x);
  if (f.size() == 5) f.emplace_back();  // an empty error
  if (f.size() != 6) return no("not six fields");
  try {
    r = CaseResult{};
    std::size_t used = 0;
    r.index = std::stoi(f[0], &used);
    if (used != f[0].size()) return no("the case number is not a number");
    const auto& st = caseStatuses();
    if (std::find(st.begin(), st.end(), f[1]) == st.end()) return no("an unknown case status");
    r.status = f[1];
    r.ok = f[1] != "solver_failed" && f[1] != "input_failed";
    r.wall_seconds = std::stod(f[2]);
    std::stringstream vs(f[3]);
    for (const auto& [name, unit] : sweepMetrics()) {
      std::string v;
      if (!std::getline(vs, v, ',')) return no("fewer metrics than this dctwin writes");
      if (!parseNumber(v, r.metrics[name])) return no("a metric is not a number");
    }
    std::string extra;
    if (std::getline(vs, extra, ',')) return no("more metrics than this dctwin writes");
    // the jobs: name=v,v,...;...
    const std::size_t per_job = sweepJobMetrics().size();
    std::stringstream js(f[4]);
    std::string job;
    while (!f[4].empty() && std::getline(js, job, ';')) {
      const std::size_t eq = job.find('=');
      std::string name;
      if (eq == std::string::npos || !unescapeName(job.substr(0, eq), name))
        return no("a job's metrics without its name");
      std::vector<double> m;
      std::stringstream ms(job.substr(eq + 1));
      std::string v;
      while (std::getline(ms, v, ',')) {
        if (m.size() == per_job) return no("more job metrics than this dctwin writes");
        m.push_back(0);
        if (!parseNumber(v, m.back())) return no("a job metric is not a number");
      }
      if (m.size() != per_job) return no("fewer job metrics than this dctwin writes");
      r.job_names.push_back(name);
      r.job_metrics.push_back(std::move(m));
    }
  } catch (...) {
    return no("a number does not parse");
  }
  r.error = f[5];
  return true;
}

bool parseJournalLine(const std::string& line, CaseResult& r) {
  return parseJournalLine(line, r, nullptr);
}

std::vector<CaseResult> readJournal(const std::string& path, const SweepSpec& s, std::size_t ncases,
                                    std::vector<std::string>* warnings) {
  std::vector<CaseResult> out;
  FileRefusal why;
  if (!checkRegularFile(path, kMaxJournalBytes, &why)) {
    if (why.err == ENOENT) return out;  // no journal: nothing done yet
    throw failure(SourceLoc{path, 0, 0, ""}, "",
                  "cannot read the sweep journal: " + why.reason +
                      "; it is left as it is (choose another --output to start a new sweep)");
  }
  JournalLines in(path);
  std::string line;
  if (!in.next(line) || line.empty()) return out;  // empty: nothing done yet
  const std::string tail = " cases=" + std::to_string(ncases);
  const std::string head = fingerprint(s) + tail;
  if (line != head) {
    // no advice here deletes the journal: the cases it holds are the only copy of their results
    // versions 1 to 5: another metrics table (5: the common window and the case status; 6: the
    // per-job metrics)
    bool older = false;
    for (const char* v : {"1 ", "2 ", "3 ", "4 ", "5 "})
      older = older || line.rfind(std::string("dctwin-sweep-journal ") + v, 0) == 0;
    const bool ours = line.rfind("dctwin-sweep-journal 6 ", 0) == 0;
    const bool other_count = ours && line.size() > tail.size() &&
                             line.rfind(" cases=") != std::string::npos &&
                             line.substr(0, line.rfind(" cases=")) == fingerprint(s);
    throw failure(
        SourceLoc{path, 1, 1, ""}, older || ours ? line.substr(0, 80) : "",
        older ? "a journal of an older dctwin (its metrics table differs), kept as it is; finish "
                "that sweep with the dctwin that started it, or choose another --output to run "
                "this one"
        : other_count
            ? "this journal's sweep has another number of cases than this one (" + tail.substr(1) +
                  "); it is kept as it is: choose another --output to run this sweep"
        : ours ? "this journal was written by a sweep that computes something else: the sweep "
                 "file, its facility, its scenario or a file a parameter names holds other "
                 "contents than when the journal was written. The journal and its finished "
                 "cases are kept as they are: restore those files to resume, or choose another "
                 "--output to run this sweep"
               : "not a dctwin sweep journal; it is left as it is (choose another --output)");
  }
  std::vector<char> seen(ncases, 0);
  int lineno = 1;
  bool cut = false;
  while (in.next(line)) {
    ++lineno;
    CaseResult r;
    std::string why;
    if (in.cut()) cut = true;  // no newline: the last write was cut
    if (!parseJournalLine(line, r, &why)) {
      if (warnings)
        warnings->push_back(path + ":" + std::to_string(lineno) + ": " + why +
                            "; that case runs again");
      continue;
    }
    if (r.index < 0 || std::size_t(r.index) >= ncases) {
      if (warnings)
        warnings->push_back(path + ":" + std::to_string(lineno) + ": case " +
                            std::to_string(r.index) + " is not a case of this sweep (0 .. " +
                            std::to_string(ncases ? ncases - 1 : 0) + "); ignored");
      continue;
    }
    if (seen[std::size_t(r.index)]) continue;
    seen[std::size_t(r.index)] = 1;
    out.push_back(r);
  }
  (void)cut;
  return out;
}

namespace {
// appends `text` to the file in one write (O_APPEND), every byte of it or an error: a full disk
// or a file-size limit is reported at once, not found later as a shorter journal. A write cut
// short leaves a line without its newline, which the checksum refuses on reading
void appendChecked(const std::string& path, const std::string& text) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0)
    throw JournalWriteError("cannot open the sweep journal '" + path +
                            "': " + std::strerror(errno));
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int err = n < 0 ? errno : ENOSPC;
      ::close(fd);
      throw JournalWriteError("cannot write the sweep journal '" + path +
                              "': " + std::strerror(err));
    }
    done += std::size_t(n);
  }
  if (::close(fd) != 0)
    throw JournalWriteError("cannot write the sweep journal '" + path +
                            "': " + std::strerror(errno));
}
}  // namespace

void appendJournal(const std::string& path, const CaseResult& r) {
  const std::string line = journalLine(r);
  if (line.size() >= kMaxJournalLine)  // the reader would refuse it: say so now
    throw JournalWriteError("case " + std::to_string(r.index) + "'s journal line would take " +
                            std::to_string(line.size()) + " bytes with its " +
                            std::to_string(r.job_names.size()) + " jobs' metrics, over the " +
                            std::to_string(kMaxJournalLine) + " bytes a journal line may hold");
  appendChecked(path, line + '\n');
}

void startJournal(const std::string& path, const SweepSpec& s, std::size_t ncases) {
  struct stat sb {};
  if (::stat(path.c_str(), &sb) == 0 && sb.st_size > 0) {
    // resumed: a last line cut short (a kill, a full disk) gets its newline, so that the next
    // case's line starts a line of its own
    const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    char last = '\n';
    if (fd >= 0) {
      if (S_ISREG(sb.st_mode)) (void)!::pread(fd, &last, 1, sb.st_size - 1);
      ::close(fd);
    }
    if (last != '\n') appendChecked(path, "\n");
    return;
  }
  try {
    appendChecked(path, fingerprint(s) + " cases=" + std::to_string(ncases) + '\n');
  } catch (const JournalWriteError& e) {
    throw failure(SourceLoc{path, 0, 0, ""}, "", e.what());
  }
}

}  // namespace dctwin
