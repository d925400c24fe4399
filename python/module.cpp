// module.cpp: the `dctwin` Python module (docs/python.md)
//
// A thin front like the CLI: facilities, scenarios and sweeps are loaded by the library's loaders,
// edited by path with the sweep's mechanism (setYamlPath) and re-validated at every edit, run
// through the one run path (runFacility) with a sink that keeps every series of the output table,
// and results files are read by readResults. The GIL is released while the library works and taken
// back only for the caller's progress callback and to look for Ctrl-C. Library errors become Python
// exceptions (LoadFailure -> dctwin.LoadError with its list of errors, ResultsError ->
// dctwin.ResultsError); nothing here reads the model or the state.
#include <fnmatch.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <yaml-cpp/exceptions.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <future>
#include <limits>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "models/weather.h"
#include "solver/common/bounded_file.h"
#include "solver/common/event_table.h"
#include "solver/common/fault_table.h"
#include "solver/common/provenance.h"
#include "solver/common/units.h"
#include "solver/input/loader.h"
#include "solver/input/scenario.h"
#include "solver/output/observables.h"
#include "solver/output/results.h"
#include "solver/output/results_reader.h"
#include "solver/output/series_filter.h"
#include "solver/output/sinks.h"
#include "solver/run/estimate.h"
#include "solver/run/run.h"
#include "solver/run/sweep.h"

namespace py = pybind11;
using namespace dctwin;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// the module's exception types (created once, never freed: they live as long as the interpreter)
PyObject* g_load_error = nullptr;     // dctwin.LoadError(ValueError)
PyObject* g_results_error = nullptr;  // dctwin.ResultsError(RuntimeError)

// text from files may be any bytes: decoded as UTF-8 with U+FFFD for what is not
py::str text(const std::string& s) {
  PyObject* o = PyUnicode_DecodeUTF8(s.data(), py::ssize_t(s.size()), "replace");
  if (!o) throw py::error_already_set();
  return py::reinterpret_steal<py::str>(o);
}

[[noreturn]] void throwLoad(const std::string& file, const std::string& path,
                            const std::string& message, const std::string& value = "") {
  throw LoadFailure({LoadError{SourceLoc{file, 0, 0, path}, value, message}});
}

// ---------------------------------------------------------------------------------------------
// argument conversion

// a value for a YAML scalar: str as written, numbers and booleans as YAML writes them
std::string scalarText(const py::handle& v, const char* what) {
  if (py::isinstance<py::bool_>(v)) return v.cast<bool>() ? "true" : "false";
  if (py::isinstance<py::str>(v)) return v.cast<std::string>();
  if (py::isinstance<py::int_>(v) || py::hasattr(v, "__index__"))
    return py::str(py::int_(py::reinterpret_borrow<py::object>(v))).cast<std::string>();
  if (PyNumber_Check(v.ptr()))  // float, numpy scalars
    return py::str(py::repr(py::float_(py::reinterpret_borrow<py::object>(v)))).cast<std::string>();
  throw py::type_error(std::string(what) +
                       ": expected a str (\"40 degC\"), int, float or bool, got " +
                       py::str(py::type::handle_of(v).attr("__name__")).cast<std::string>());
}

// a time: seconds as a number, or a quantity such as "10 min"; None -> 0 (the scenario's)
double timeArg(const py::handle& v, const char* what) {
  if (v.is_none()) return 0;
  double t = kNaN;
  if (py::isinstance<py::str>(v)) {
    std::string why;
    const auto q = parseQuantity(v.cast<std::string>(), Dim::Time, &why);
    if (!q) throw py::value_error(std::string(what) + ": " + why);
    t = q->value;
  } else if (!py::isinstance<py::bool_>(v) && PyNumber_Check(v.ptr())) {
    t = py::float_(py::reinterpret_borrow<py::object>(v)).cast<double>();
  } else {
    throw py::type_error(std::string(what) +
                         ": expected seconds (a number) or a time such as \"10 min\"");
  }
  if (!(t > 0) || !std::isfinite(t))
    throw py::value_error(std::string(what) + ": expected a positive time");
  return t;
}

// a path: str or os.PathLike
std::string pathArg(const py::handle& v, const char* what) {
  try {
    return py::str(py::module_::import("os").attr("fspath")(v)).cast<std::string>();
  } catch (py::error_already_set&) {
    throw py::type_error(std::string(what) + ": expected a path (str or os.PathLike)");
  }
}

// a facility, scenario or sweep file through the bounded opener (solver/common/bounded_file.h):
// a regular file of at most 16 MiB; a FIFO or a device is refused without blocking or reading it
std::string readFile(const std::string& path, const char* what) {
  FileRefusal why;
  auto text = readBoundedFile(path, kMaxInputFileBytes, &why);
  if (text) return std::move(*text);
  if (why.err == ENOENT || why.err == EISDIR || why.err == EACCES) {
    errno = why.err;
    PyErr_SetFromErrnoWithFilename(why.err == ENOENT   ? PyExc_FileNotFoundError
                                   : why.err == EISDIR ? PyExc_IsADirectoryError
                                                       : PyExc_PermissionError,
                                   path.c_str());
    throw py::error_already_set();
  }
  throw py::value_error(std::string("cannot read the ") + what + " file " + path + ": " +
                        why.reason);
}

std::string folderOf(const std::string& path) {
  const std::string d = std::filesystem::path(path).parent_path().string();
  return d.empty() ? "." : d;
}

// glob patterns ("/rack/*", "/gpu/T_junction") of the series to keep; empty keeps all
std::vector<std::string> patternsArg(const py::handle& v, const char* what) {
  std::vector<std::string> out;
  if (v.is_none()) return out;
  if (py::isinstance<py::str>(v)) return {v.cast<std::string>()};
  try {
    for (auto x : v) out.push_back(py::cast<std::string>(x));
  } catch (const py::cast_error&) {
    throw py::type_error(std::string(what) + ": expected a str or a list of str (paths or globs)");
  }
  return out;
}

bool wanted(const std::vector<std::string>& patterns, const std::string& path) {
  if (patterns.empty() || path == "/time") return true;
  for (const auto& p : patterns)
    if (fnmatch(p.c_str(), path.c_str(), 0) == 0) return true;
  return false;
}

// ---------------------------------------------------------------------------------------------
// numpy

py::array_t<double> doubles(const std::vector<double>& v) {
  py::array_t<double> a(static_cast<py::ssize_t>(v.size()));
  if (!v.empty()) std::copy(v.begin(), v.end(), a.mutable_data());
  return a;
}

template <class Int>
py::array_t<long long> integers(const std::vector<Int>& v) {
  py::array_t<long long> a(static_cast<py::ssize_t>(v.size()));
  for (std::size_t i = 0; i < v.size(); ++i) a.mutable_data()[i] = static_cast<long long>(v[i]);
  return a;
}

double finiteOrNaN(double v) {
  return std::abs(v) >= 1e299 ? kNaN : v;
}

// ---------------------------------------------------------------------------------------------
// facilities and scenarios: YAML text (edited by path) + the spec it loads into

struct PyFacility {
  std::string path;      // the file it came from ("" for a string)
  std::string name;      // file name in messages
  std::string base_dir;  // relative CSV paths resolve here
  std::string text;      // the YAML text, with the edits
  std::vector<std::pair<std::string, std::string>> edits;
  std::shared_ptr<const FacilitySpec> spec;  // immutable: replaced, never changed, by an edit
  std::shared_ptr<const RunLayout> layout;   // compiled on demand
  std::shared_ptr<const FacilitySpec> load(const std::string& t) const {
    auto s = std::make_shared<FacilitySpec>(loadFacilityFromString(t, name, base_dir));
    s->file = name;
    return s;
  }
};

struct PyScenario {
  std::string path, name, text;
  std::vector<std::pair<std::string, std::string>> edits;
  std::shared_ptr<const Scenario> sc = std::make_shared<Scenario>();
  std::shared_ptr<const Scenario> load(const std::string& t) const {
    return t.empty() ? std::make_shared<Scenario>()
                     : std::make_shared<Scenario>(loadScenarioFromString(t, name));
  }
};

// an edit: the text with the value at the path, re-validated by `load`; the object is unchanged
// when either step fails (LoadError naming the path, or the loader's errors)
template <class Obj>
void edit(Obj& o, const std::string& path, const py::handle& value) {
  const std::string v = scalarText(value, "value");
  std::string t;
  try {
    t = setYamlPath(o.text, path, v);
  } catch (const std::exception& e) {
    throwLoad(o.name, path, e.what(), v);
  }
  decltype(o.load(t)) loaded;
  try {
    loaded = o.load(t);
  } catch (const LoadFailure& e) {
    // the edited text's lines are not the file's: name the edit instead
    std::vector<LoadError> errs = e.errors();
    for (auto& le : errs) {
      le.loc.file = o.name + " (after set('" + path + "', '" + v + "'))";
      le.loc.line = le.loc.column = 0;
    }
    throw LoadFailure(std::move(errs));
  }
  o.text = std::move(t);
  o.edits.emplace_back(path, v);
  if constexpr (std::is_same_v<Obj, PyFacility>) {
    o.spec = std::move(loaded);
    o.layout.reset();
  } else {
    o.sc = std::move(loaded);
  }
}

template <class Obj>
py::str lookup(const Obj& o, const std::string& path) {
  try {
    return text(getYamlPath(o.text, path));
  } catch (const std::exception& e) {
    throw py::key_error(path + ": " + e.what());
  }
}

PyFacility facilityFromText(std::string text, std::string name, std::string base_dir,
                            std::string path) {
  PyFacility f;
  f.path = std::move(path);
  f.name = std::move(name);
  f.base_dir = std::move(base_dir);
  f.text = std::move(text);
  {
    py::gil_scoped_release nogil;
    f.spec = f.load(f.text);
  }
  return f;
}

py::dict layoutDict(const RunLayout& L) {
  py::dict d;
  // the static datasets as the results file has them (the layout table, observables.h)
  for (const LayoutInfo& r : layoutTable()) {
    if (!layoutPresent(r, L)) continue;
    if (r.strings)
      d[r.path] = L.*r.strings;
    else
      d[r.path] = integers(L.*r.ints);
  }
  d["has_plant"] = L.has_plant;  // a plant: section (the /plant, /weather, /water series)
  if (L.has_plant) d["plant_rejection"] = L.plant_towers ? "towers" : "dry_coolers";
  return d;
}

// the compiled layout, cached until the next edit (another thread may edit meanwhile: the layout
// is kept only if it is still the spec's)
std::shared_ptr<const RunLayout> facilityLayout(PyFacility& f) {
  if (f.layout) return f.layout;
  auto spec = f.spec;
  std::shared_ptr<const RunLayout> L;
  {
    py::gil_scoped_release nogil;
    L = std::make_shared<RunLayout>(describeFacility(*spec));
  }
  if (f.spec == spec) f.layout = L;
  return L;
}

py::dict countsDict(const RunLayout& L) {
  py::dict d;
  d["name"] = L.name;
  d["cdus"] = L.ncdu;
  d["racks"] = L.nrack;
  d["gpus"] = L.ngpu;
  d["gpu_groups"] = L.ngroup;
  d["jobs"] = L.njob;
  d["busways"] = L.nbusway;
  d["air_racks"] = L.nair;
  d["switch_racks"] = L.nsw;
  d["states"] = L.nstate;
  d["power"] = L.has_power;
  d["room_air"] = L.has_room;
  d["air_handlers"] = L.has_air_handlers;
  d["plant"] = L.has_plant;
  return d;
}

// ---------------------------------------------------------------------------------------------
// results: one object for a run's and a file's

struct PyResults {
  py::dict series;      // path -> ndarray [rows] or [rows, width]
  py::dict meta;        // path -> {unit, basis, shape, description}
  py::dict layout;      // "/rack/names" -> list of str, "/rack/cdu" -> int64 array, ...
  py::list events;      // {time, component, kind, severity, message}
  py::dict attributes;  // the file's root attributes, or a run's provenance
  py::object summary = py::none();
  py::dict stats;
  std::string status, error, source, summary_text;
  double t_end = 0, wall_seconds = 0;

  py::object get(const std::string& p) const {
    if (!series.contains(p)) {
      std::string best;
      int bestd = 4;
      for (auto kv : series) {
        const auto k = kv.first.cast<std::string>();
        if (int d = editDistance(p, k); d < bestd) bestd = d, best = k;
      }
      throw py::key_error("no series '" + p + "' in these results" +
                          (best.empty() ? std::string() : "; did you mean '" + best + "'?"));
    }
    return series[py::str(p)];
  }
  py::list names(const char* p) const {
    return layout.contains(p) ? py::list(layout[p]) : py::list();
  }
};

py::dict metaOf(const std::string& path, const std::string& unit, const std::string& basis) {
  py::dict m;
  const ObservableInfo* o = findObservable(path);
  m["unit"] = unit.empty() && o ? std::string(o->unit) : unit;
  m["basis"] = basis.empty() && o ? std::string(basisName(o->basis)) : basis;
  m["shape"] = o ? std::string(shapeName(o->shape)) : std::string();
  m["description"] = o ? std::string(o->description) : std::string();
  for (const JobModelInfo& c : jobModelTable())  // the step model's values per job (/job/model/*)
    if (path == jobModelPath(c.id)) {
      m["shape"] = "job";
      m["description"] = c.description;
    }
  for (const GridMetricInfo& c : gridMetricTable())  // the meter's metrics (/grid/*)
    if (path == c.path) m["description"] = c.description;
  return m;
}

// the meter's metrics of a run with fast rows (/grid/*, DCTWIN_GRID_METRICS), as the results
// file has them
void gridInto(PyResults& R, const GridReport& g) {
  if (!g.valid) return;
  for (const GridMetricInfo& c : gridMetricTable()) {
    const std::vector<double>& v = g.vec(c.id);
    py::array_t<double> a(py::ssize_t(v.size()));
    std::copy(v.begin(), v.end(), a.mutable_data());
    R.series[py::str(c.path)] = a;
    R.meta[py::str(c.path)] = metaOf(c.path, c.unit, gridBasis());
  }
}

// the step model of the described jobs (/job/model/*, DCTWIN_JOB_MODEL), as a results file has it
void jobModelInto(PyResults& R, const RunLayout& L) {
  bool described = false;
  for (int j = 0; j < L.njob; ++j) described = described || L.jobDescribed(j);
  if (!described) return;
  std::vector<std::string> recompute(L.njob);
  for (int j = 0; j < L.njob; ++j)
    recompute[j] = jobRecomputeName(L.jobModel(j, JobCol::Recompute));
  for (const JobModelInfo& c : jobModelTable()) {
    py::array_t<double> a(py::ssize_t(L.njob));
    for (int j = 0; j < L.njob; ++j) a.mutable_data()[j] = L.jobModel(j, c.id);
    const std::string path = jobModelPath(c.id);
    R.series[py::str(path)] = a;
    R.meta[py::str(path)] = metaOf(path, c.unit, "nominal");
  }
  R.layout["/job/model/recompute_name"] = recompute;
}

py::list eventList(const std::vector<EventRecord>& evs) {
  py::list l;
  for (const auto& e : evs) {
    py::dict d;
    d["time"] = e.time;
    d["component"] = e.component;
    d["kind"] = e.kind;
    // the event table's row (dctwin.EventKind), None for a kind it does not have (a file
    // written by another version)
    const EventInfo* k = eventByKind(e.kind);
    d["kind_id"] = k ? py::cast(k->id) : py::none();
    d["severity"] = e.severity;
    d["message"] = e.message;
    l.append(d);
  }
  return l;
}

py::dict statsDict(const SolverStats& s) {
  py::dict d;
  d["steps"] = s.steps;
  d["rhs_evals"] = s.rhs_evals;
  d["rhs_evals_jacobian"] = s.rhs_evals_jac;
  d["jacobian_evals"] = s.jac_evals;
  d["linear_setups"] = s.lin_setups;
  d["nonlinear_iterations"] = s.nonlin_iters;
  d["nonlinear_failures"] = s.nonlin_conv_fails;
  d["error_test_failures"] = s.err_test_fails;
  d["last_step"] = s.last_step;
  d["hydraulic_failures"] = s.hydraulic_failures;
  d["gpu_layer_seconds"] = s.gpu_layer_seconds;
  d["annual_windows"] = s.annual_windows;
  d["annual_window_time"] = s.annual_window_time;
  d["annual_slow_time"] = s.annual_slow_time;
  return d;
}

py::dict energyDict(const EnergyTotals& e) {
  py::dict d;
  d["heat_in"] = e.heat_in;
  d["heat_to_facility_water"] = e.heat_out_fws;
  d["heat_loss_ambient"] = e.heat_loss;
  d["stored"] = e.stored;
  d["balance_error"] = e.balanceError();
  d["gpu_electric"] = e.gpu_electric;
  d["gpu_to_coolant"] = e.gpu_to_coolant;
  d["gpu_stored"] = e.gpu_stored;
  d["air_in"] = e.air_in;
  d["air_removed"] = e.air_removed;
  d["air_handler_fans"] = e.ah_fans;
  d["air_handler_chiller"] = e.ah_chiller;
  d["air_stored"] = e.air_stored;
  d["pump_electric"] = e.pump_electric;
  return d;
}

// the run summary (SI; NaN where the run has no such value)
py::dict summaryDict(const RunSummary& s) {
  py::dict d;
  d["T_case_max"] = finiteOrNaN(s.T_case_max);
  d["T_case_max_rack"] = s.T_case_max_rack;
  d["T_case_max_time"] = s.T_case_max_time;
  d["T_return_max"] = finiteOrNaN(s.T_return_max);
  d["T_return_max_rack"] = s.T_return_max_rack;
  d["T_supply_max"] = finiteOrNaN(s.T_supply_max);
  d["rack_flow_min"] = finiteOrNaN(s.rack_flow_min);
  d["rack_flow_max"] = finiteOrNaN(s.rack_flow_max);
  d["cdu_flow_total"] = s.cdu_flow_total;
  d["heat_liquid"] = s.heat_liquid;
  d["heat_air"] = s.heat_air;
  d["heat_facility_water"] = s.heat_fws;
  d["P_pump"] = s.P_pump;
  d["P_IT"] = s.P_IT;
  d["t_end"] = s.t_end;
  d["T_junction_max"] = finiteOrNaN(s.T_j_max);
  d["T_junction_max_gpu"] = s.T_j_max_gpu;
  d["T_hbm_max"] = finiteOrNaN(s.T_hbm_max);
  d["gpu_seconds_throttled"] = s.gpu_seconds_throttled;
  d["gpus_shut_down"] = s.gpus_shut_down;
  d["T_room_max"] = finiteOrNaN(s.T_room_max);
  d["E_utility"] = s.E_utility;
  d["E_it_dc"] = s.E_it_dc;
  d["E_psu"] = s.E_psu;
  d["E_busway"] = s.E_bus;
  d["E_ups"] = s.E_ups;
  d["E_transformer"] = s.E_tx;
  d["E_pump"] = s.E_pump;
  d["busway_load_max"] = s.bus_load_max;
  d["racks_unpowered"] = s.racks_unpowered;
  d["coolant_lost"] = s.coolant_lost;
  d["air_volume"] = s.air_volume;
  d["energy"] = energyDict(s.energy);
  py::list jobs;
  for (const auto& j : s.jobs) {
    py::dict J;
    J["name"] = j.name;
    J["kind"] = j.kind == 0 ? "training" : j.kind == 1 ? "inference" : "trace";
    J["gpus"] = j.gpus;
    J["iterations"] = j.iterations;
    J["iteration_time"] = j.iteration_time;
    J["reference_iteration_time"] = j.reference_time;
    J["throughput_ratio"] = j.throughput_ratio;
    J["progress_ratio"] = j.progress_ratio;
    J["throttled_gpu_seconds"] = j.throttled_gpu_seconds;
    J["stalled_time"] = j.stalled_time;
    J["tokens_per_second"] = j.tokens_per_second;  // achieved (/job/tokens_per_second)
    J["mfu"] = j.mfu;                              // achieved (/job/mfu)
    jobs.append(J);
  }
  d["jobs"] = jobs;
  // the meter's metrics (with a fast interval; solver/output/grid_meter.h): keyed by the /grid
  // path, as read_results gives the file's
  if (s.grid.valid) {
    py::dict g;
    for (const GridMetricInfo& c : gridMetricTable()) g[py::str(c.path)] = s.grid.vec(c.id);
    d["grid"] = g;
  }
  return d;
}

// keeps the series the patterns select, row by row, for the numpy arrays: the values of the kept
// observables of each frame, one after the other
class RecordSink : public RunSink {
 public:
  RecordSink(double fast_interval, std::vector<std::string> patterns)
      : fast_interval_(fast_interval), patterns_(std::move(patterns)) {}
  void begin(const RunLayout& L, const FrameLayout& F) override {
    L_ = L;
    for (const ObservableInfo& o : observableTable()) {
      const bool fast = o.rate == Rate::Fast;
      if (!F.has(o.id) || (fast && fast_interval_ <= 0) || !wanted(patterns_, o.path)) continue;
      Part& P = fast ? fast_ : out_;
      P.kept.push_back(
          {&o, std::size_t(F.offset[int(o.id)]), std::size_t(F.width[int(o.id)]), P.stride});
      P.stride += std::size_t(F.width[int(o.id)]);
    }
  }
  void row(const OutputFrame& f) override { out_.add(f); }
  double fastInterval() const override { return fast_interval_; }
  void fastRow(const OutputFrame& f) override { fast_.add(f); }

  // the arrays (with the GIL held)
  void fill(PyResults& R) const {
    for (const Part* P : {&out_, &fast_})
      for (const Kept& k : P->kept) {
        const std::size_t w = L_.width(k.o->shape);  // 0: a facility scalar, 1-D
        py::array_t<double> a = w == 0
                                    ? py::array_t<double>(py::ssize_t(P->rows))
                                    : py::array_t<double>({py::ssize_t(P->rows), py::ssize_t(w)});
        double* dst = a.mutable_data();
        for (std::size_t r = 0; r < P->rows; ++r)
          std::copy_n(P->data.data() + r * P->stride + k.at, k.width, dst + r * k.width);
        R.series[k.o->path] = a;
        R.meta[k.o->path] = metaOf(k.o->path, k.o->unit, basisName(k.o->basis));
      }
  }

 private:
  struct Kept {
    const ObservableInfo* o;
    std::size_t offset, width;  // in the frame
    std::size_t at;             // in a kept row
  };
  struct Part {
    std::vector<Kept> kept;
    std::size_t stride = 0, rows = 0;
    std::vector<double> data;  // rows x stride
    void add(const OutputFrame& f) {
      for (const Kept& k : kept)
        data.insert(data.end(), f.values.begin() + std::ptrdiff_t(k.offset),
                    f.values.begin() + std::ptrdiff_t(k.offset + k.width));
      ++rows;
    }
  };
  double fast_interval_;
  std::vector<std::string> patterns_;
  RunLayout L_;
  Part out_, fast_;
};

// set from Python (or another thread) to stop a run or a sweep
struct PyCancel {
  std::shared_ptr<std::atomic<bool>> flag = std::make_shared<std::atomic<bool>>(false);
};

std::shared_ptr<std::atomic<bool>> cancelArg(const py::handle& v) {
  if (v.is_none()) return nullptr;
  if (!py::isinstance<PyCancel>(v)) throw py::type_error("cancel: expected a dctwin.Cancel");
  return v.cast<PyCancel&>().flag;
}

int threadsArg(int threads) {
  if (threads < 1 || threads > 1024) throw py::value_error("threads: expected 1 ... 1024");
  return threads;
}

// ---------------------------------------------------------------------------------------------
// run

PyResults runPy(PyFacility& fac, const py::object& scenario, const py::object& duration,
                const py::object& output_interval, int threads, const py::object& progress,
                const py::object& cancel, const py::object& output,
                const py::object& power_interval, const py::object& record, bool annual,
                bool allow_large) {
  std::shared_ptr<const Scenario> sc = std::make_shared<Scenario>();
  if (!scenario.is_none()) {
    if (!py::isinstance<PyScenario>(scenario))
      throw py::type_error("scenario: expected a dctwin.Scenario or None");
    sc = scenario.cast<PyScenario&>().sc;
  }
  RunSettings settings;
  settings.duration = timeArg(duration, "duration");
  settings.output_interval = timeArg(output_interval, "output_interval");
  settings.threads = threadsArg(threads);
  settings.annual = annual;
  settings.allow_large = allow_large;
  const double pi = power_interval.is_none() ? 0.0 : timeArg(power_interval, "power_interval");
  if (!progress.is_none() && !PyCallable_Check(progress.ptr()))
    throw py::type_error("progress: expected a callable progress(t, duration)");
  const auto token = cancelArg(cancel);
  std::string out_path;
  if (!output.is_none()) out_path = pathArg(output, "output");
  const auto spec = fac.spec;

  const std::vector<std::string> record_patterns = patternsArg(record, "record");
  if (!record_patterns
           .empty()) {  // as `dctwin run --record`: a pattern that matches no series is an error
    std::vector<std::string> paths;
    for (const ObservableInfo& o : observableTable()) paths.push_back(o.path);
    const std::string bad = unmatchedPatternError(record_patterns, paths, "record");
    if (!bad.empty()) throw py::value_error(bad);
  }
  RecordSink rec(pi, record_patterns);
  std::unique_ptr<Hdf5Sink> h5;
  std::vector<RunSink*> sinks{&rec};
  if (!out_path.empty()) {
    // the results never replace the facility or scenario file they came from, nor a file either
    // read (catalog entries, CSV series, weather), links too
    std::vector<std::string> inputs{spec ? spec->file : std::string(), sc->file};
    if (spec) inputs.insert(inputs.end(), spec->input_files.begin(), spec->input_files.end());
    inputs.insert(inputs.end(), sc->input_files.begin(), sc->input_files.end());
    checkOutputPath(out_path, inputs);
    h5 = std::make_unique<Hdf5Sink>(out_path, 10, pi);
    h5->allowLarge(allow_large);
    sinks.push_back(h5.get());
  }

  // progress: the caller's callback once per output interval of simulated time and at the end;
  // Ctrl-C looked for every 50 ms of wall time. An exception from either stops the run at the
  // next coupling window; it is raised again once the sinks have ended.
  std::atomic<bool> stop{false};
  std::optional<py::error_already_set> pending;
  const double every =
      settings.output_interval > 0 ? settings.output_interval : sc->output_interval;
  double next_t = 0;
  bool ended = false;  // the last call (t = duration) made
  auto last_check = std::chrono::steady_clock::now();
  RunControl control;
  control.cancel = &stop;
  control.progress = [&](double t, double T) {
    if (token && token->load()) stop.store(true);
    if (stop.load()) return;
    const bool call = !progress.is_none() && !ended && (t >= next_t || t >= T);
    const auto now = std::chrono::steady_clock::now();
    if (!call && now - last_check < std::chrono::milliseconds(50)) return;
    last_check = now;
    py::gil_scoped_acquire gil;
    try {
      if (PyErr_CheckSignals() != 0) throw py::error_already_set();
      if (call) {
        while (next_t <= t) next_t += every;
        ended = t >= T;
        progress(t, T);
      }
    } catch (py::error_already_set& e) {
      pending.emplace(std::move(e));
      stop.store(true);
    }
  };

  RunReport report;
  {
    py::gil_scoped_release nogil;
    report = runFacility(*spec, *sc, settings, sinks, control);
  }
  if (pending) throw py::error_already_set(std::move(*pending));

  PyResults R;
  R.source = "run";
  rec.fill(R);
  R.layout = layoutDict(report.layout);
  if (record_patterns.empty()) jobModelInto(R, report.layout);    // with the series of a full run
  if (record_patterns.empty()) gridInto(R, report.summary.grid);  // with --power-interval
  const RunResult& r = report.result;
  R.events = eventList(r.events);
  R.status = !r.ok ? "failed" : r.cancelled ? "cancelled" : "completed";
  R.error = r.error;
  R.t_end = r.t_end;
  R.wall_seconds = r.wall_seconds;
  R.stats = statsDict(r.stats);
  R.summary = summaryDict(report.summary);
  R.summary_text = report.text();
  R.attributes["dctwin_version"] = std::string(DCTWIN_VERSION);
  R.attributes["facility_name"] = report.layout.name;
  R.attributes["facility_text"] = text(report.layout.facility_text);
  R.attributes["scenario_text"] = text(report.layout.scenario_text);
  R.attributes["status"] = R.status;
  R.attributes["t_end"] = r.t_end;
  if (!out_path.empty()) R.attributes["output"] = out_path;
  // the calendar as the results file has it (solver/output/hdf5_sink.cpp): a plant's weather
  const RunLayout& L = report.layout;
  if (L.has_plant) {
    R.attributes["calendar_year_start"] = L.year_start;
    R.attributes["calendar_start"] = calendarText(L.year_start);
    R.attributes["calendar_utc_offset"] = L.utc_offset;
    R.attributes["calendar_time_zone"] = utcOffsetText(L.utc_offset);
  }
  return R;
}

// ---------------------------------------------------------------------------------------------
// pandas, where it is installed (python3-pandas): a table's columns as a DataFrame, with each
// column's unit and basis in DataFrame.attrs
py::object pandasFrame(const py::dict& table, const py::dict& units, const py::dict& basis) {
  py::object pd;
  try {
    pd = py::module_::import("pandas");
  } catch (const py::error_already_set&) {
    throw py::import_error("to_pandas() needs pandas (apt-get install python3-pandas)");
  }
  py::object df = pd.attr("DataFrame")(table);
  df.attr("attrs")["units"] = units;
  df.attr("attrs")["basis"] = basis;
  return df;
}

// a sweep's /cases table read from a file (dctwin sweep -o, dctwin merge, SweepResult.write)
struct PySweepTable {
  py::dict table, units, basis, attributes;
  std::string source;
  std::size_t rows = 0;
  py::object ensemble = py::none();  // a PyEnsemble for a sweep with replicates
  py::object jobs = py::none();      // a PyJobs: the /case_jobs table
};

// a sweep's per-job table (docs/sweep-format.md "Per-job metrics"): one row per case and job
struct PyJobs {
  py::dict table, units, basis;
  std::size_t rows = 0;
};

PyJobs jobsOf(const std::vector<SweepColumn>& cols) {
  PyJobs J;
  for (const SweepColumn& c : cols) {
    const py::str k(c.name);
    if (c.is_text) {
      J.table[k] = c.text;
      J.rows = c.text.size();
    } else {
      if (c.name == "case")
        J.table[k] = integers(std::vector<long long>(c.numbers.begin(), c.numbers.end()));
      else
        J.table[k] = doubles(c.numbers);
      J.rows = c.numbers.size();
    }
    J.units[k] = c.unit;
    J.basis[k] = c.basis;
  }
  return J;
}

// the same table from a sweep run in this process (the columns /case_jobs has)
PyJobs jobsOf(const std::vector<CaseResult>& results) {
  return jobsOf(caseJobColumns(results));
}

// an ensemble's /ensemble table (docs/sweep-format.md "Ensembles"): one row per design point
struct PyEnsemble {
  py::dict table, units, basis;
  std::size_t rows = 0;
};

PyEnsemble ensembleOf(const std::vector<SweepColumn>& cols) {
  PyEnsemble E;
  for (const SweepColumn& c : cols) {
    const py::str k(c.name);
    if (c.is_text) {
      E.table[k] = c.text;
      E.rows = c.text.size();
    } else {
      if (c.name == "point" || c.name == "replicates" || c.name == "completed")
        E.table[k] = integers(std::vector<long long>(c.numbers.begin(), c.numbers.end()));
      else
        E.table[k] = doubles(c.numbers);
      E.rows = c.numbers.size();
    }
    E.units[k] = c.unit;
    E.basis[k] = c.basis;
  }
  return E;
}

PySweepTable sweepTable(const ResultsData& d) {
  PySweepTable T;
  T.source = d.path;
  for (const SweepColumn& c : sweepColumns(d)) {
    const py::str k(c.name);
    if (c.is_text) {
      T.table[k] = c.text;
      T.rows = c.text.size();
    } else {
      if (c.name == "index")
        T.table[k] = integers(std::vector<long long>(c.numbers.begin(), c.numbers.end()));
      else
        T.table[k] = doubles(c.numbers);
      T.rows = c.numbers.size();
    }
    T.units[k] = c.unit;
    T.basis[k] = c.basis;
  }
  if (T.table.contains("status")) {  // as SweepResult: the cases that ran with their whole load
    py::array_t<bool> comparable(py::ssize_t(T.rows));
    const auto st = T.table["status"].cast<std::vector<std::string>>();
    for (std::size_t i = 0; i < st.size() && i < T.rows; ++i)
      comparable.mutable_data()[i] = st[i] == "completed";
    T.table["comparable"] = comparable;
  }
  for (const auto& [k, v] : d.text_attributes) T.attributes[py::str(k)] = v;
  for (const auto& [k, v] : d.number_attributes) T.attributes[py::str(k)] = v;
  if (auto cols = ensembleColumns(d); !cols.empty()) T.ensemble = py::cast(ensembleOf(cols));
  if (auto cols = sweepJobColumns(d); !cols.empty()) T.jobs = py::cast(jobsOf(cols));
  return T;
}

// results files

py::object readPy(const py::object& path_arg, const py::object& series) {
  const std::string path = pathArg(path_arg, "path");
  if (!std::filesystem::exists(path)) {
    errno = ENOENT;
    PyErr_SetFromErrnoWithFilename(PyExc_FileNotFoundError, path.c_str());
    throw py::error_already_set();
  }
  const auto patterns = patternsArg(series, "series");
  ResultsReadOptions opt;
  if (!patterns.empty()) opt.want = [&](const std::string& p) { return wanted(patterns, p); };
  opt.sweep = true;
  ResultsData d;
  {
    py::gil_scoped_release nogil;
    d = readResults(path, opt);
  }
  if (d.sweep) {  // a sweep's /cases file: its table
    if (!patterns.empty())
      throw py::value_error(path +
                            " is a sweep's /cases file: its table is read whole (series= "
                            "selects a run's series)");
    return py::cast(sweepTable(d));
  }
  PyResults R;
  R.source = path;
  const auto isEvent = [](const std::string& p) { return p.rfind("/events/", 0) == 0; };
  for (const auto& [p, s] : d.series) {
    if (isEvent(p)) continue;
    py::array_t<double> a = s.width == 0
                                ? py::array_t<double>(py::ssize_t(s.rows))
                                : py::array_t<double>({py::ssize_t(s.rows), py::ssize_t(s.width)});
    if (!s.data.empty()) std::copy(s.data.begin(), s.data.end(), a.mutable_data());
    R.series[py::str(p)] = a;
    R.meta[py::str(p)] = metaOf(p, s.units, s.basis);
  }
  for (const auto& [p, v] : d.integers)
    if (!isEvent(p)) R.layout[py::str(p)] = integers(v);
  for (const auto& [p, v] : d.strings)
    if (!isEvent(p)) R.layout[py::str(p)] = v;
  // a file has a plant when it has its series (read with a series filter: those read)
  bool plant = false;
  for (const auto& [p, s] : d.series) plant = plant || p.rfind("/plant/", 0) == 0;
  R.layout["has_plant"] = plant;
  R.events = eventList(d.events);
  for (const auto& [k, v] : d.text_attributes) R.attributes[py::str(k)] = text(v);
  for (const auto& [k, v] : d.number_attributes) R.attributes[py::str(k)] = v;
  // rows the file held past its durable end (rows_complete), left out (docs/results.md)
  R.attributes["rows_beyond_durable_end"] = py::int_(d.rows_beyond_durable_end);
  auto textAttr = [&](const char* k) {
    auto it = d.text_attributes.find(k);
    return it == d.text_attributes.end() ? std::string() : it->second;
  };
  auto numberAttr = [&](const char* k) {
    auto it = d.number_attributes.find(k);
    return it == d.number_attributes.end() ? kNaN : it->second;
  };
  R.status = textAttr("status");
  R.error = textAttr("error");
  R.t_end = numberAttr("t_end");
  R.wall_seconds = numberAttr("wall_seconds");
  for (const auto& [k, v] : d.number_attributes)
    if (k.rfind("solver_", 0) == 0) R.stats[py::str(k.substr(7))] = v;
  return py::cast(std::move(R));
}

// ---------------------------------------------------------------------------------------------
// sweeps

struct PySweep {
  SweepSpec spec;
  std::optional<SweepBase> base;  // in memory (Sweep.grid); else read from the files when run
  std::vector<SweepCase> cases;
};

struct PySweepResult {
  py::dict table;   // column -> ndarray (or list of str for "status", "error")
  py::dict values;  // parameter -> values as written (list of str)
  py::dict units;   // column -> unit
  SweepSpec spec;
  std::vector<SweepCase> cases;
  std::vector<CaseResult> results;
};

PySweepResult sweepResult(const PySweep& S, std::vector<CaseResult> results) {
  PySweepResult R;
  R.spec = S.spec;
  R.cases = S.cases;
  std::vector<long long> index;
  std::vector<double> wall;
  py::array_t<bool> ok(py::ssize_t(results.size()));
  py::array_t<bool> comparable(py::ssize_t(results.size()));
  std::vector<std::string> status, error, outcome;
  for (std::size_t i = 0; i < results.size(); ++i) {
    const auto& r = results[i];
    index.push_back(r.index);
    wall.push_back(r.wall_seconds);
    ok.mutable_data()[i] = r.ok;
    comparable.mutable_data()[i] = caseComparable(r);
    status.push_back(!r.status.empty() ? r.status : r.ok ? "completed" : "solver_failed");
    outcome.push_back(caseOutcome(r));
    error.push_back(r.error);
  }
  R.table["index"] = integers(index);
  R.table["ok"] = ok;  // the run finished (it may still have shed load: see "comparable")
  R.table["comparable"] = comparable;  // status completed: ran with its whole load
  R.table["status"] = status;
  R.table["outcome"] = outcome;
  R.table["error"] = error;
  R.table["wall_seconds"] = doubles(wall);
  R.units["wall_seconds"] = "s";
  for (std::size_t j = 0; j < S.spec.params.size(); ++j) {
    std::vector<std::string> text;
    std::vector<double> si;
    for (const auto& r : results) {
      text.push_back(S.cases[std::size_t(r.index)].values[j]);
      si.push_back(sweepValueSI(text.back()));
    }
    const std::string& col = S.spec.params[j].name;
    R.values[py::str(col)] = text;
    R.table[py::str(col)] = doubles(si);
    R.units[py::str(col)] = "SI";
  }
  for (const auto& [name, unit] : sweepMetrics()) {
    std::vector<double> v;
    for (const auto& r : results) v.push_back(r.metrics.at(name));
    R.table[py::str(name)] = doubles(v);
    R.units[py::str(name)] = unit;
  }
  R.results = std::move(results);
  return R;
}

PySweepResult runSweepPy(const PySweep& S, int threads, int max_cases, const py::object& progress,
                         const py::object& cancel) {
  threadsArg(threads);
  if (max_cases < 0) throw py::value_error("max_cases: expected >= 0 (0: all)");
  if (!progress.is_none() && !PyCallable_Check(progress.ptr()))
    throw py::type_error("progress: expected a callable progress(done, total)");
  const auto token = cancelArg(cancel);
  SweepBase base;
  if (S.base) {
    base = *S.base;
  } else {
    py::gil_scoped_release nogil;
    base = readSweepBase(S.spec);
  }
  std::atomic<bool> stop{false};
  std::optional<py::error_already_set> pending;
  std::mutex mu;
  auto finished = [&](const CaseResult&, int done, int total) {
    if (!progress.is_none() && !stop.load()) {
      py::gil_scoped_acquire gil;
      try {
        progress(done, total);
      } catch (py::error_already_set& e) {
        std::lock_guard<std::mutex> lock(mu);
        if (!pending) pending.emplace(std::move(e));
        stop.store(true);
      }
    }
    if (token && token->load()) stop.store(true);
  };
  std::vector<CaseResult> results;
  {
    // the sweep on its own thread; this one looks for Ctrl-C and the cancel token meanwhile
    py::gil_scoped_release nogil;
    auto job = std::async(std::launch::async, [&] {
      return runSweep(S.spec, base, S.cases, {}, threads, max_cases, finished, {}, "", &stop);
    });
    while (job.wait_for(std::chrono::milliseconds(50)) != std::future_status::ready) {
      if (token && token->load()) stop.store(true);
      py::gil_scoped_acquire gil;
      if (PyErr_CheckSignals() != 0) {
        std::lock_guard<std::mutex> lock(mu);
        if (!pending) pending.emplace();
        stop.store(true);
      }
    }
    results = job.get();
  }
  if (pending) throw py::error_already_set(std::move(*pending));
  return sweepResult(S, std::move(results));
}

// a grid sweep over an in-memory facility: {"facility.<path>" | "scenario.<path>": [values]}
PySweep gridSweep(const PyFacility& fac, const py::dict& parameters, const py::object& scenario,
                  const py::object& duration, const py::object& output_interval,
                  const std::string& name, int replicates, long long seed) {
  PySweep S;
  SweepSpec& s = S.spec;
  s.name = name;
  s.file = "<python sweep '" + name + "'>";
  s.base_dir = fac.base_dir;
  s.facility_path =
      fac.path.empty() ? (std::filesystem::path(fac.base_dir) / fac.name).string() : fac.path;
  SweepBase base;
  base.facility_text = fac.text;
  if (!scenario.is_none()) {
    if (!py::isinstance<PyScenario>(scenario))
      throw py::type_error("scenario: expected a dctwin.Scenario or None");
    const auto& sc = scenario.cast<const PyScenario&>();
    base.scenario_text = sc.text;
    s.scenario_path = sc.path.empty() ? sc.name : sc.path;
  }
  s.duration = timeArg(duration, "duration");
  s.output_interval = timeArg(output_interval, "output_interval");
  if (parameters.empty()) throw py::value_error("parameters: expected at least one parameter");
  std::ostringstream yaml;  // the sweep's own text: its identity in provenance
  yaml << "name: " << name << "\nfacility: " << s.facility_path << "\nparameters:\n";
  for (auto kv : parameters) {
    const std::string full = py::cast<std::string>(kv.first);
    const auto dot = full.find('.');
    SweepParam p;
    p.target = full.substr(0, dot);
    p.path = dot == std::string::npos ? "" : full.substr(dot + 1);
    if ((p.target != "facility" && p.target != "scenario") || p.path.empty())
      throwLoad(s.file, full,
                "expected facility.<path> or scenario.<path>, e.g. "
                "facility.facility_water.supply_temperature");
    p.name = p.path;
    p.loc = SourceLoc{s.file, 0, 0, full};
    if (py::isinstance<py::str>(kv.second))
      throw py::type_error(full + ": expected a list of values, got a str");
    for (auto v : kv.second) p.values.push_back(scalarText(v, full.c_str()));
    if (p.values.empty()) throw py::value_error(full + ": expected at least one value");
    yaml << "  - {path: " << full << ", values: [";
    for (std::size_t i = 0; i < p.values.size(); ++i) yaml << (i ? ", " : "") << p.values[i];
    yaml << "]}\n";
    s.params.push_back(std::move(p));
  }
  if (replicates != 0) {  // an ensemble: every case `replicates` times, variation seeds drawn
    if (replicates < 2 || replicates > 10000)
      throw py::value_error("replicates: " + std::to_string(replicates) +
                            ": an ensemble needs 2 to 10000 replicates (0: none)");
    if (seed < 0) throw py::value_error("seed: expected 0 or more");
    s.replicates = replicates;
    s.seed = static_cast<std::uint64_t>(seed);
    s.replicates_loc = SourceLoc{s.file, 0, 0, "replicates"};
    yaml << "replicates: " << replicates << "\nseed: " << seed << "\n";
    addReplicateSeeds(s);
  }
  s.text = yaml.str();
  S.cases = expandCases(s);
  // every value of every parameter once, before anything runs (errors name the parameter)
  std::vector<std::set<std::string>> seen(s.params.size());
  for (const SweepCase& c : S.cases) {
    bool fresh = false;
    for (std::size_t j = 0; j < s.params.size(); ++j)
      if (!s.params[j].replicate_seed || c.index == 0)  // one seed stands for the others
        fresh |= seen[j].insert(c.values[j]).second;
    if (!fresh) continue;
    const CaseInputs in = caseInputs(s, c, base.facility_text, base.scenario_text);
    (void)loadFacilityFromString(in.facility_text, s.facility_path, folderOf(s.facility_path));
    if (!base.scenario_text.empty() || in.scenario_text != "{}\n")
      (void)loadScenarioFromString(in.scenario_text, s.scenario_path);
  }
  S.base = std::move(base);
  return S;
}

py::list paramList(const SweepSpec& s) {
  py::list l;
  for (const auto& p : s.params) {
    py::dict d;
    d["name"] = p.name;
    d["path"] = p.target == "facility_file" ? std::string("facility") : p.target + "." + p.path;
    d["values"] = p.values;
    if (p.hi > p.lo) {
      d["range"] = py::make_tuple(p.lo, p.hi);
      d["unit"] = p.unit;
    }
    l.append(d);
  }
  return l;
}

py::object loadIssue(const LoadError& e) {
  return py::cast(e);
}

}  // namespace

// ---------------------------------------------------------------------------------------------
PYBIND11_MODULE(dctwin, m) {
  m.doc() =
      "dctwin: digital twin of liquid-cooled AI data centers (docs/python.md).\n\n"
      "Load a facility, edit it by path, run it, get every output series as numpy arrays:\n\n"
      "    fac = dctwin.Facility.load('data/facilities/pod_gb200.yaml')\n"
      "    fac.set('facility_water.supply_temperature', '40 degC')\n"
      "    res = dctwin.run(fac, duration='10 min')\n"
      "    res['/gpu/T_junction']   # [rows, GPUs], K\n";
  m.attr("__version__") = DCTWIN_VERSION;
  // the event and fault tables (solver/common/event_table.h, fault_table.h)
  py::enum_<EventKind> event_kind(m, "EventKind",
                                  "the kinds of the event log, one per row of the event table; "
                                  "each event's 'kind_id' (docs/scenario-format.md)");
  for (const EventInfo& e : kEventTable) event_kind.value(e.kind, e.id);
  m.def(
      "event_kinds",
      [] {
        py::list l;
        for (const EventInfo& e : kEventTable) {
          py::dict d;
          d["kind"] = e.kind;
          d["id"] = e.id;
          d["severity"] = e.severity;
          d["source"] = e.source;
          d["description"] = e.docs;
          l.append(d);
        }
        return l;
      },
      "The event table: kind, id (EventKind), severity, source and description of every kind of "
      "event a run logs");
  m.def(
      "fault_kinds",
      [] {
        py::list l;
        for (const FaultInfo& f : kFaultTable) {
          if (!*f.key) continue;  // compiled, never in a scenario
          py::dict d;
          d["key"] = f.key;
          d["target"] = faultTargetName(f.target);
          d["domain"] = faultDomainName(f.domain);
          d["event"] = f.event;
          d["severity"] = f.severity;
          d["description"] = f.docs;
          l.append(d);
        }
        return l;
      },
      "The fault table: the scenario key, target, engine domain, event logged, severity and "
      "description of every kind of fault a scenario names");
  m.attr("__license__") = "Apache-2.0";  // LICENSE at the repository root
  // provenance: the results files of this process record the Python command line
  try {
    std::string line = "python3";
    for (const py::handle a : py::module_::import("sys").attr("argv").cast<py::list>())
      line += " " + py::str(a).cast<std::string>();
    dctwin::setCommandLine(line);
  } catch (const std::exception&) {
    // no sys.argv (embedded interpreter): the files say so with an empty command line
  }

  // exceptions
  g_load_error = PyErr_NewExceptionWithDoc(
      "dctwin.LoadError",
      "A facility, scenario or sweep input has problems. str(e) lists every one as "
      "'file:line:col: key: message (got 'value')'; e.errors holds them as LoadIssue objects.",
      PyExc_ValueError, nullptr);
  g_results_error = PyErr_NewExceptionWithDoc(
      "dctwin.ResultsError", "A results file cannot be read or written (names the file and why).",
      PyExc_RuntimeError, nullptr);
  m.add_object("LoadError", py::handle(g_load_error));
  m.add_object("ResultsError", py::handle(g_results_error));
  py::class_<LoadError>(m, "LoadIssue", "One error of a LoadError: where it is and what is wrong.")
      .def_property_readonly("file", [](const LoadError& e) { return text(e.loc.file); })
      .def_property_readonly(
          "line", [](const LoadError& e) { return e.loc.line; }, "1-based; 0 when unknown")
      .def_property_readonly("column", [](const LoadError& e) { return e.loc.column; })
      .def_property_readonly(
          "path", [](const LoadError& e) { return text(e.loc.path); },
          "key path, e.g. cdus[0].control.flow_setpoint")
      .def_property_readonly(
          "value", [](const LoadError& e) { return text(e.value); },
          "the offending value as written")
      .def_property_readonly(
          "message", [](const LoadError& e) { return text(e.message); }, "what was expected")
      .def("__str__", [](const LoadError& e) { return text(e.format()); })
      .def("__repr__",
           [](const LoadError& e) { return text("<dctwin.LoadIssue " + e.format() + ">"); });
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const LoadFailure& e) {
      py::list errs;
      for (const auto& le : e.errors()) errs.append(loadIssue(le));
      py::object inst = py::reinterpret_borrow<py::object>(g_load_error)(text(e.what()));
      inst.attr("errors") = errs;
      PyErr_SetObject(g_load_error, inst.ptr());
    } catch (const ResultsError& e) {
      PyErr_SetObject(g_results_error, text(e.what()).ptr());
    } catch (const YAML::Exception& e) {
      PyErr_SetObject(g_load_error, text(e.what()).ptr());
    }
  });

  // facilities
  py::class_<PyFacility>(m, "Facility",
                         "A facility (docs/facility-format.md): its YAML text, edited by path, and "
                         "the spec it loads into. Every edit is checked at once.")
      .def_static(
          "load",
          [](const py::object& p) {
            const std::string path = pathArg(p, "path");
            std::string text = readFile(path, "facility");
            return facilityFromText(std::move(text), path, folderOf(path), path);
          },
          py::arg("path"),
          "Load a facility file. Raises FileNotFoundError, or LoadError listing every problem.")
      .def_static(
          "from_string",
          [](std::string text, std::string name, std::string base_dir) {
            return facilityFromText(std::move(text), std::move(name), std::move(base_dir), "");
          },
          py::arg("text"), py::arg("name") = "<string>", py::arg("base_dir") = ".",
          "Load a facility from YAML text; `name` is the file name in messages, relative CSV paths "
          "resolve against `base_dir`.")
      .def(
          "set",
          [](PyFacility& f, const std::string& path, const py::handle& v) { edit(f, path, v); },
          py::arg("path"), py::arg("value"),
          "Write `value` at `path` (the sweep's parameter paths: "
          "'facility_water.supply_temperature', 'cdus[cdu1].control.supply_temperature', "
          "'racks[A01].heat_load', 'jobs[llm_training].gpu_power_cap'; the last key is created) "
          "and "
          "reload. Raises LoadError (the facility is then unchanged).")
      .def(
          "update",
          [](PyFacility& f, const py::dict& d) {
            PyFacility trial = f;
            for (auto kv : d) edit(trial, py::cast<std::string>(kv.first), kv.second);
            f = std::move(trial);
          },
          py::arg("values"), "set() for every path: value of a dict, all or none.")
      .def(
          "get", [](const PyFacility& f, const std::string& p) { return lookup(f, p); },
          py::arg("path"),
          "The value at `path` as written ('32 degC'), or the YAML text of a mapping or list. "
          "Raises KeyError.")
      .def(
          "check", [](PyFacility& f) { return countsDict(*facilityLayout(f)); },
          "Compile the facility (as a run would) and return its size: cdus, racks, gpus, jobs, ... "
          "Raises LoadError.")
      .def("copy", [](const PyFacility& f) { return f; })
      .def(
          "save",
          [](const PyFacility& f, const py::object& p) {
            const std::string path = pathArg(p, "path");
            std::ofstream out(path, std::ios::binary);
            if (!(out << f.text)) throw py::value_error("cannot write " + path);
          },
          py::arg("path"), "Write the (edited) YAML text.")
      .def_property_readonly("name", [](const PyFacility& f) { return f.spec->name; })
      .def_property_readonly("description", [](const PyFacility& f) { return f.spec->description; })
      .def_property_readonly("path", [](const PyFacility& f) { return f.path; })
      .def_property_readonly("text", [](const PyFacility& f) { return text(f.text); })
      .def_property_readonly(
          "edits", [](const PyFacility& f) { return f.edits; },
          "(path, value) of every set(), in order")
      .def_property_readonly("cdus",
                             [](const PyFacility& f) {
                               std::vector<std::string> v;
                               for (const auto& c : f.spec->cdus) v.push_back(c.name);
                               return v;
                             })
      .def_property_readonly("racks",
                             [](const PyFacility& f) {
                               std::vector<std::string> v;
                               for (const auto& r : f.spec->racks) v.push_back(r.name);
                               return v;
                             })
      .def_property_readonly("jobs",
                             [](const PyFacility& f) {
                               std::vector<std::string> v;
                               for (const auto& j : f.spec->jobs) v.push_back(j.name);
                               return v;
                             })
      .def_property_readonly(
          "layout", [](PyFacility& f) { return layoutDict(*facilityLayout(f)); },
          "Names and indices as in a results file ('/rack/names', '/rack/cdu', '/gpu/rack', ...)")
      .def("__repr__", [](const PyFacility& f) {
        return "<dctwin.Facility '" + f.spec->name + "' (" + f.name + "), " +
               std::to_string(f.spec->cdus.size()) + " CDU(s), " +
               std::to_string(f.spec->racks.size()) + " rack(s), " +
               std::to_string(f.edits.size()) + " edit(s)>";
      });

  // scenarios
  py::class_<PyScenario>(m, "Scenario",
                         "A scenario (docs/scenario-format.md): duration, output interval, events "
                         "and faults. Scenario() is the empty one (1 h, 60 s rows).")
      .def(py::init<>())
      .def_static(
          "load",
          [](const py::object& p) {
            const std::string path = pathArg(p, "path");
            PyScenario s;
            s.path = s.name = path;
            s.text = readFile(path, "scenario");
            s.sc = s.load(s.text);
            return s;
          },
          py::arg("path"), "Load a scenario file. Raises FileNotFoundError or LoadError.")
      .def_static(
          "from_string",
          [](std::string text, std::string name) {
            PyScenario s;
            s.name = std::move(name);
            s.text = std::move(text);
            s.sc = s.load(s.text);
            return s;
          },
          py::arg("text"), py::arg("name") = "<string>")
      .def(
          "set",
          [](PyScenario& s, const std::string& path, const py::handle& v) { edit(s, path, v); },
          py::arg("path"), py::arg("value"),
          "Write `value` at `path` ('duration', 'events[0].time', ...) and reload; raises "
          "LoadError.")
      .def(
          "get", [](const PyScenario& s, const std::string& p) { return lookup(s, p); },
          py::arg("path"))
      .def_property_readonly("path", [](const PyScenario& s) { return s.path; })
      .def_property_readonly("text", [](const PyScenario& s) { return text(s.text); })
      .def_property_readonly(
          "duration", [](const PyScenario& s) { return s.sc->duration; }, "(s)")
      .def_property_readonly(
          "output_interval", [](const PyScenario& s) { return s.sc->output_interval; }, "(s)")
      .def_property_readonly("events",
                             [](const PyScenario& s) {
                               py::list l;
                               for (const auto& e : s.sc->events) {
                                 py::dict d;
                                 d["time"] = e.time;
                                 d["kind"] = e.kind;
                                 d["target"] = e.target;
                                 d["value"] = e.value;
                                 l.append(d);
                               }
                               return l;
                             })
      .def("__repr__", [](const PyScenario& s) {
        return "<dctwin.Scenario " + (s.name.empty() ? std::string("(empty)") : s.name) + ", " +
               std::to_string(s.sc->duration) + " s, " + std::to_string(s.sc->events.size()) +
               " event(s)>";
      });

  py::class_<PyCancel>(m, "Cancel",
                       "A cancel token: pass it to run() or Sweep.run() and call cancel() (from a "
                       "progress callback or another thread) to stop at the next coupling window.")
      .def(py::init<>())
      .def("cancel", [](PyCancel& c) { c.flag->store(true); })
      .def("reset", [](PyCancel& c) { c.flag->store(false); })
      .def_property_readonly("cancelled", [](const PyCancel& c) { return c.flag->load(); });

  // results
  py::class_<PyResults>(m, "Results",
                        "A run's output series as numpy arrays keyed by results-file path "
                        "(docs/results.md): [rows] for facility series, [rows, columns] for CDU, "
                        "rack, GPU, job and busway series. SI units (info(path)).")
      .def("__getitem__", &PyResults::get, py::arg("path"))
      .def("__contains__",
           [](const PyResults& R, const std::string& p) { return R.series.contains(p); })
      .def("__len__", [](const PyResults& R) { return R.series.size(); })
      .def("__iter__", [](const PyResults& R) { return py::iter(R.series); })
      .def("keys", [](const PyResults& R) { return R.series.attr("keys")(); })
      .def(
          "info",
          [](const PyResults& R, const std::string& p) {
            (void)R.get(p);
            return R.meta[py::str(p)];
          },
          py::arg("path"), "{unit, basis, shape, description} of a series")
      .def(
          "unit",
          [](const PyResults& R, const std::string& p) {
            (void)R.get(p);
            return R.meta[py::str(p)]["unit"];
          },
          py::arg("path"))
      .def_readonly("series", &PyResults::series)
      .def_readonly("meta", &PyResults::meta)
      .def_readonly("layout", &PyResults::layout)
      .def_readonly("events", &PyResults::events)
      .def_readonly("attributes", &PyResults::attributes)
      .def_readonly("summary", &PyResults::summary, "the run summary (a run's; None from a file)")
      .def_readonly("summary_text", &PyResults::summary_text, "the CLI's summary text")
      .def_readonly("stats", &PyResults::stats, "solver statistics")
      .def_readonly("status", &PyResults::status, "completed, cancelled or failed")
      .def_readonly("error", &PyResults::error)
      .def_readonly("t_end", &PyResults::t_end, "last time reached (s)")
      .def_readonly("wall_seconds", &PyResults::wall_seconds)
      .def_readonly("source", &PyResults::source, "'run' or the file it was read from")
      .def_property_readonly("ok", [](const PyResults& R) { return R.status != "failed"; })
      .def_property_readonly("cancelled",
                             [](const PyResults& R) { return R.status == "cancelled"; })
      .def_property_readonly("time", [](const PyResults& R) { return R.get("/time"); })
      .def(
          "events_frame",
          [](const PyResults& R) {
            py::dict cols;
            for (const char* k : {"time", "component", "kind", "severity", "message"}) {
              py::list l;
              for (auto e : R.events) l.append(e[py::str(k)]);
              cols[py::str(k)] = l;
            }
            py::dict units, basis;
            units["time"] = "s";
            basis["time"] = "instant";
            return pandasFrame(cols, units, basis);
          },
          "The event log as a pandas DataFrame: time (s), component, kind, severity, message.")
      .def_property_readonly(
          "cdu_names", [](const PyResults& R) { return R.names(layoutPath(Layout::CduNames)); })
      .def_property_readonly(
          "rack_names", [](const PyResults& R) { return R.names(layoutPath(Layout::RackNames)); })
      .def_property_readonly(
          "job_names", [](const PyResults& R) { return R.names(layoutPath(Layout::JobNames)); })
      .def_property_readonly(
          "busway_names",
          [](const PyResults& R) { return R.names(layoutPath(Layout::BuswayNames)); })
      .def_property_readonly(
          "air_rack_names",
          [](const PyResults& R) { return R.names(layoutPath(Layout::AirRackNames)); },
          "Air-cooled rack names, the columns of /air_rack/* (empty without air_racks).")
      .def_property_readonly(
          "switch_rack_names",
          [](const PyResults& R) { return R.names(layoutPath(Layout::SwitchRackNames)); },
          "Switch rack names, the columns of /switch_rack/* (empty without switch_racks).")
      .def("__repr__", [](const PyResults& R) {
        const std::size_t rows = R.series.contains("/time") ? py::len(R.series["/time"]) : 0;
        return "<dctwin.Results " + R.source + ": " + R.status + ", " + std::to_string(rows) +
               " rows, " + std::to_string(R.series.size()) + " series>";
      });

  m.def(
      "run",
      [](PyFacility& fac, const py::object& scenario, const py::object& duration,
         const py::object& output_interval, int threads, const py::object& progress,
         const py::object& cancel, const py::object& output, const py::object& power_interval,
         const py::object& record, bool annual, bool allow_large) {
        return runPy(fac, scenario, duration, output_interval, threads, progress, cancel, output,
                     power_interval, record, annual, allow_large);
      },
      py::arg("facility"), py::arg("scenario") = py::none(), py::kw_only(),
      py::arg("duration") = py::none(), py::arg("output_interval") = py::none(),
      py::arg("threads") = 1, py::arg("progress") = py::none(), py::arg("cancel") = py::none(),
      py::arg("output") = py::none(), py::arg("power_interval") = py::none(),
      py::arg("record") = py::none(), py::arg("annual") = false, py::arg("allow_large") = false,
      "Run a facility (optionally with a scenario) through the one run path and return Results.\n"
      "duration, output_interval: seconds or '10 min' (default: the scenario's); threads: worker "
      "threads of the run; progress(t, duration): called once per output interval and at the "
      "end, with the GIL; raising in it stops the run and the exception propagates; cancel: a "
      "dctwin.Cancel (status 'cancelled', the rows so far); output: also write the HDF5 results "
      "file; power_interval: also record the sub-second /power series; record: glob patterns of "
      "the series to keep (default: all); annual: the multi-rate annual mode "
      "(docs/models/annual.md) "
      "with the scenario's annual: settings, as `dctwin run --annual`; allow_large: run past the "
      "size limits (10 years, 1e7 rows, a 64 GiB file; ValueError otherwise, before the run). "
      "Ctrl-C stops the run (KeyboardInterrupt).");

  m.def("read_results", &readPy, py::arg("path"), py::arg("series") = py::none(),
        "Read a results file (docs/results.md) into Results, or a sweep's /cases file "
        "(dctwin sweep -o) into a SweepTable; series: glob patterns of a run's series to read "
        "(default: all). Raises FileNotFoundError or ResultsError.");

  py::class_<PyEnsemble>(m, "EnsembleTable",
                         "An ensemble sweep's intervals (docs/sweep-format.md \"Ensembles\"): "
                         "one row per design point; columns point, replicates, completed, "
                         "outcome, parameters/<name>, and mean/<metric>, std/<metric>, "
                         "p5/<metric>, p95/<metric> over the point's completed replicates.")
      .def("__getitem__",
           [](const PyEnsemble& E, const std::string& k) {
             if (!E.table.contains(k)) throw py::key_error(k);
             return E.table[py::str(k)];
           })
      .def("__len__", [](const PyEnsemble& E) { return E.rows; })
      .def("keys", [](const PyEnsemble& E) { return E.table.attr("keys")(); })
      .def_readonly("table", &PyEnsemble::table)
      .def_readonly("units", &PyEnsemble::units)
      .def_readonly("basis", &PyEnsemble::basis)
      .def(
          "to_pandas", [](const PyEnsemble& E) { return pandasFrame(E.table, E.units, E.basis); },
          "The table as a pandas DataFrame, one row per design point (units and basis in "
          ".attrs).")
      .def("__repr__", [](const PyEnsemble& E) {
        return "<dctwin.EnsembleTable: " + std::to_string(E.rows) + " design point(s), " +
               std::to_string(E.table.size()) + " columns>";
      });

  py::class_<PyJobs>(m, "JobsTable",
                     "A sweep's per-job table (/case_jobs, docs/sweep-format.md \"Per-job "
                     "metrics\"): one row per case and job; columns case, job, kind, gpus, "
                     "throughput_ratio, step_time, tokens_per_second, mfu, map_<part>, ...")
      .def("__getitem__",
           [](const PyJobs& J, const std::string& k) {
             if (!J.table.contains(k)) throw py::key_error(k);
             return J.table[py::str(k)];
           })
      .def("__len__", [](const PyJobs& J) { return J.rows; })
      .def("keys", [](const PyJobs& J) { return J.table.attr("keys")(); })
      .def_readonly("table", &PyJobs::table)
      .def_readonly("units", &PyJobs::units)
      .def_readonly("basis", &PyJobs::basis)
      .def(
          "to_pandas", [](const PyJobs& J) { return pandasFrame(J.table, J.units, J.basis); },
          "The table as a pandas DataFrame, one row per case and job (units and basis in "
          ".attrs).")
      .def("__repr__", [](const PyJobs& J) {
        return "<dctwin.JobsTable: " + std::to_string(J.rows) + " row(s), " +
               std::to_string(J.table.size()) + " columns>";
      });

  py::class_<PySweepTable>(m, "SweepTable",
                           "A sweep's /cases table read from its file (read_results): one entry "
                           "per case in each column (numpy arrays; lists of str for status, "
                           "outcome, error and the parameters as written), with units and basis.")
      .def("__getitem__",
           [](const PySweepTable& T, const std::string& k) {
             if (!T.table.contains(k)) throw py::key_error(k);
             return T.table[py::str(k)];
           })
      .def("__len__", [](const PySweepTable& T) { return T.rows; })
      .def("keys", [](const PySweepTable& T) { return T.table.attr("keys")(); })
      .def_readonly("table", &PySweepTable::table)
      .def_readonly("units", &PySweepTable::units)
      .def_readonly("basis", &PySweepTable::basis)
      .def_readonly("attributes", &PySweepTable::attributes, "the file's root attributes")
      .def_readonly("source", &PySweepTable::source)
      .def_readonly("ensemble", &PySweepTable::ensemble,
                    "an ensemble sweep's /ensemble table (EnsembleTable), None without replicates")
      .def_readonly("jobs", &PySweepTable::jobs,
                    "the per-job table /case_jobs (JobsTable): each job of each case; None in a "
                    "file from a dctwin before it")
      .def(
          "to_pandas", [](const PySweepTable& T) { return pandasFrame(T.table, T.units, T.basis); },
          "The table as a pandas DataFrame, one row per case (units and basis in .attrs).")
      .def("__repr__", [](const PySweepTable& T) {
        return "<dctwin.SweepTable " + T.source + ": " + std::to_string(T.rows) + " case(s), " +
               std::to_string(T.table.size()) + " columns>";
      });

  // sweeps
  py::class_<PySweep>(m, "Sweep",
                      "A design sweep (docs/sweep-format.md): parameters by path, cases from a "
                      "grid, a list or a Latin hypercube, run on threads.")
      .def_static(
          "load",
          [](const py::object& p) {
            const std::string path = pathArg(p, "path");
            (void)readFile(path, "sweep");
            PySweep S;
            S.spec = loadSweep(path);
            S.cases = expandCases(S.spec);
            return S;
          },
          py::arg("path"), "Load a sweep file; raises FileNotFoundError or LoadError.")
      .def_static(
          "from_string",
          [](const std::string& text, const std::string& name, const std::string& base_dir) {
            PySweep S;
            S.spec = loadSweepFromString(text, name, base_dir);
            S.cases = expandCases(S.spec);
            return S;
          },
          py::arg("text"), py::arg("name") = "<string>", py::arg("base_dir") = ".",
          "A sweep from YAML text; its facility and scenario paths resolve against base_dir.")
      .def_static("grid", &gridSweep, py::arg("facility"), py::arg("parameters"),
                  py::arg("scenario") = py::none(), py::kw_only(), py::arg("duration") = py::none(),
                  py::arg("output_interval") = py::none(), py::arg("name") = "python",
                  py::arg("replicates") = 0, py::arg("seed") = 1,
                  "A grid sweep over an in-memory (possibly edited) Facility: parameters maps "
                  "'facility.<path>' or 'scenario.<path>' to a list of values; every value is "
                  "checked at once (LoadError). replicates >= 2: an ensemble, every case run "
                  "that many times with variation seeds drawn from seed (SweepResult.ensemble()).")
      .def(
          "check",
          [](const PySweep& S) {
            if (S.base) return;  // checked when made
            py::gil_scoped_release nogil;
            validateSweep(S.spec);
          },
          "Load every case's inputs once (as `dctwin sweep` does before running); raises "
          "LoadError against the sweep file.")
      .def("run", &runSweepPy, py::kw_only(), py::arg("threads") = 1, py::arg("max_cases") = 0,
           py::arg("progress") = py::none(), py::arg("cancel") = py::none(),
           "Run the cases on `threads` threads and return a SweepResult. progress(done, total) is "
           "called after each case; raising in it (or cancel.cancel(), or Ctrl-C) lets the "
           "running cases finish and starts no more.")
      .def_property_readonly("name", [](const PySweep& S) { return S.spec.name; })
      .def_property_readonly("parameters", [](const PySweep& S) { return paramList(S.spec); })
      .def_property_readonly(
          "cases",
          [](const PySweep& S) {
            std::vector<std::vector<std::string>> v;
            for (const auto& c : S.cases) v.push_back(c.values);
            return v;
          },
          "each case's values, as written, in parameter order")
      .def_property_readonly("duration", [](const PySweep& S) { return S.spec.duration; })
      .def("__len__", [](const PySweep& S) { return S.cases.size(); })
      .def("__repr__", [](const PySweep& S) {
        return "<dctwin.Sweep '" + S.spec.name + "', " + std::to_string(S.spec.params.size()) +
               " parameter(s), " + std::to_string(S.cases.size()) + " case(s)>";
      });

  py::class_<PySweepResult>(m, "SweepResult",
                            "The metrics table of a sweep: one entry per case in `table` (numpy "
                            "arrays: index, ok, comparable, wall_seconds, each parameter in SI, "
                            "each metric of docs/sweep-format.md; lists: status, outcome, error). "
                            "Only cases with comparable True (status 'completed') ran with their "
                            "whole load.")
      .def("__getitem__",
           [](const PySweepResult& R, const std::string& k) {
             if (!R.table.contains(k)) throw py::key_error(k);
             return R.table[py::str(k)];
           })
      .def("__len__", [](const PySweepResult& R) { return R.results.size(); })
      .def("keys", [](const PySweepResult& R) { return R.table.attr("keys")(); })
      .def_readonly("table", &PySweepResult::table)
      .def_readonly("values", &PySweepResult::values, "parameter -> values as written")
      .def_readonly("units", &PySweepResult::units)
      .def(
          "to_pandas",
          [](const PySweepResult& R) {
            py::dict basis;
            for (const auto& [name, unit] : sweepMetrics())
              basis[py::str(name)] = sweepMetricBasis(name);
            return pandasFrame(R.table, R.units, basis);
          },
          "The metrics table as a pandas DataFrame, one row per case (units and basis in .attrs).")
      .def(
          "jobs", [](const PySweepResult& R) { return jobsOf(R.results); },
          "Every job's metrics, one row per case and job (JobsTable, as /case_jobs of the "
          "file): step time, tokens/s, MFU, throughput and map shares of each job.")
      .def(
          "ensemble",
          [](const PySweepResult& R) -> py::object {
            if (R.spec.replicates <= 0) return py::none();
            if (R.results.size() != R.cases.size())
              throw py::value_error("the sweep did not run all its cases (" +
                                    std::to_string(R.results.size()) + " of " +
                                    std::to_string(R.cases.size()) +
                                    "): an ensemble's intervals need every replicate");
            return py::cast(ensembleOf(ensembleColumns(ensembleTable(R.spec, R.cases, R.results))));
          },
          "An ensemble sweep's intervals (EnsembleTable: mean, std, p5, p95 of every metric per "
          "design point over its completed replicates), as /ensemble of the file; None without "
          "replicates.")
      .def(
          "write",
          [](const PySweepResult& R, const py::object& p) {
            const std::string path = pathArg(p, "path");
            py::gil_scoped_release nogil;
            writeSweepResults(path, R.spec, R.cases, R.results);
          },
          py::arg("path"), "Write the /cases table as `dctwin sweep -o` does.")
      .def("__repr__", [](const PySweepResult& R) {
        return "<dctwin.SweepResult '" + R.spec.name + "', " + std::to_string(R.results.size()) +
               " case(s)>";
      });

  // the tables
  m.def(
      "observables",
      [] {
        py::list l;
        for (const ObservableInfo& o : observableTable()) {
          py::dict d = metaOf(o.path, o.unit, basisName(o.basis));
          d["path"] = o.path;
          d["exists_with"] = std::string(needsName(o.needs));
          d["rate"] = o.rate == Rate::Fast ? "fast" : "output";
          d["computed"] = o.computed;
          l.append(d);
        }
        return l;
      },
      "The output table (`dctwin outputs`): path, unit, basis, shape, description, ...");
  m.def(
      "sweep_metrics",
      [] {
        py::dict d;
        for (const auto& [name, unit] : sweepMetrics()) d[py::str(name)] = unit;
        return d;
      },
      "metric -> unit, in column order (docs/sweep-format.md)");
  m.def(
      "sweep_metric_info",
      [] {
        py::list l;
        for (const auto& [name, unit] : sweepMetrics()) {
          py::dict d;
          d["name"] = name;
          d["unit"] = unit;
          d["basis"] = sweepMetricBasis(name);
          d["description"] = sweepMetricDescription(name);
          l.append(d);
        }
        return l;
      },
      "each metric's name, unit, basis and description, in column order (the /cases attributes)");
  m.def(
      "estimate",
      [](const std::string& path) {
        const auto cases = loadEstimateFile(path);
        py::list out;
        for (const auto& c : cases) {
          const EstimateResult r = estimate(c);
          py::dict d;
          d["id"] = r.c.id;
          d["gpu"] = r.c.gpu_name;
          d["gpus"] = r.c.gpus;
          d["precision"] = std::string(precisionName(r.c.job.workload.precision));
          d["error"] = r.error;
          d["measured_step_time"] = r.c.measured_step_time > 0
                                        ? py::object(py::float_(r.c.measured_step_time))
                                        : py::object(py::none());
          if (r.error.empty()) {
            const DescribedJob& j = r.d;
            d["step_time"] = j.step_time;
            d["tokens_per_second"] = j.tokens_per_second;
            d["mfu"] = j.mfu;
            d["memory_per_gpu"] = j.memory_per_gpu;
            d["recompute"] = std::string(recomputeName(j.recompute));
            d["parameters"] = j.parameters;
            d["dp"] = j.dp;
            d["micro_batches"] = j.micro_batches;
            d["vp"] = j.vp;
            d["delta"] = r.c.measured_step_time > 0 ? py::object(py::float_(r.delta()))
                                                    : py::object(py::none());
            py::dict mem;
            mem["weights"] = j.mem_weights;
            mem["gradients"] = j.mem_gradients;
            mem["optimizer"] = j.mem_optimizer;
            mem["activations"] = j.mem_activations;
            d["memory"] = mem;
            // each phase as the stages run it on average (a staggered pipeline's bubble phases
            // are the longest stage's, and each stage skips a part: docs/models/job.md), so the
            // phases add up to the step
            py::dict ph;
            const std::size_t np = j.job.phases.size();
            for (std::size_t i = 0; i < np; ++i) {
              double skip = 0;
              for (int k = 0; k < j.job.stages && !j.job.stage_skip.empty(); ++k)
                skip += j.job.stage_skip[std::size_t(k) * np + i];
              ph[py::str(j.job.phases[i].name)] =
                  j.job.phases[i].duration - skip / double(j.job.stages);
            }
            d["phases"] = ph;
            d["pipeline_stages"] = j.job.stages;
          }
          out.append(d);
        }
        return out;
      },
      py::arg("path"),
      "Training jobs of an estimate file on their GPU types, without a facility (`dctwin "
      "estimate`, docs/models/job.md): per case a dict of step_time (s), tokens_per_second, mfu, "
      "memory_per_gpu (B), recompute, phases (s), and measured_step_time / delta where given; a "
      "case that cannot be has its reason in 'error'. Raises LoadError for a bad file.");
  m.def("data_dirs", &defaultDataDirs,
        "Folders searched for catalog/ (and holding facilities/, scenarios/): $DCTWIN_DATA, then "
        "the build's data folder.");
  m.def(
      "to_si",
      [](const std::string& text) {
        const double v = sweepValueSI(text);
        if (std::isnan(v)) throw py::value_error("not a quantity dctwin reads: '" + text + "'");
        return v;
      },
      py::arg("text"), "A quantity as written ('40 degC', '1100 L/min') in SI (313.15, 0.0183).");
}
