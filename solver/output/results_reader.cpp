// results_reader.cpp: read a run's HDF5 results file back (see results_reader.h, docs/results.md)
//
// walks every object of the file with H5Ovisit2 and reads each dataset by its class: float64
// datasets become ResultsSeries, int64 datasets integer vectors, variable-length strings string
// vectors. HDF5's automatic error printing is switched off while reading and restored after;
// every failure becomes a ResultsError naming the file and the innermost HDF5 message.
#include "solver/output/results_reader.h"
#include "solver/common/bounded_file.h"
#include "solver/common/provenance.h"
#include "solver/output/observables.h"

#include <hdf5.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <limits>
#include <numeric>

namespace dctwin {

namespace {

// owns an hid_t, closing it with the matching H5*close
struct Hid {
  hid_t id = -1;
  herr_t (*close)(hid_t) = nullptr;
  Hid(hid_t i, herr_t (*c)(hid_t)) : id(i), close(c) {}
  ~Hid() {
    if (id >= 0 && close) close(id);
  }
  Hid(const Hid&) = delete;
  Hid& operator=(const Hid&) = delete;
  bool ok() const { return id >= 0; }
};

herr_t collect(unsigned, const H5E_error2_t* err, void* data) {
  auto* out = static_cast<std::vector<std::string>*>(data);
  if (err->desc && err->desc[0]) out->push_back(err->desc);
  return 0;
}

// the innermost message of the HDF5 error stack; clears it
std::string hdf5Reason() {
  std::vector<std::string> msgs;
  H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, collect, &msgs);
  H5Eclear2(H5E_DEFAULT);
  return msgs.empty() ? std::string("unknown HDF5 error") : msgs.front();
}

// switches HDF5's error printing off for a scope
struct QuietHdf5 {
  H5E_auto2_t func = nullptr;
  void* data = nullptr;
  QuietHdf5() {
    H5Eget_auto2(H5E_DEFAULT, &func, &data);
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  }
  ~QuietHdf5() { H5Eset_auto2(H5E_DEFAULT, func, data); }
};

struct Reader {
  std::string path;
  const ResultsReadOptions* opt = nullptr;
  ResultsData* out = nullptr;
  std::string error;  // first failure, stops the walk

  [[noreturn]] void fail(const std::string& what) const { throw ResultsError(path + ": " + what); }

  // a string attribute or dataset element type
  static bool isString(hid_t type) { return H5Tget_class(type) == H5T_STRING; }

  std::string readStringAttribute(hid_t attr, hid_t type) {
    if (H5Tis_variable_str(type) > 0) {
      char* s = nullptr;
      Hid mem(H5Tcopy(H5T_C_S1), H5Tclose);
      H5Tset_size(mem.id, H5T_VARIABLE);
      H5Tset_cset(mem.id, H5Tget_cset(type));
      if (H5Aread(attr, mem.id, &s) < 0) return "";
      std::string v = s ? s : "";
      Hid space(H5Aget_space(attr), H5Sclose);
      H5Dvlen_reclaim(mem.id, space.id, H5P_DEFAULT, &s);
      return v;
    }
    const std::size_t n = H5Tget_size(type);
    std::string v(n, '\0');
    if (H5Aread(attr, type, v.data()) < 0) return "";
    v.resize(std::strlen(v.c_str()));
    return v;
  }

  void readRootAttributes(hid_t file) {
    H5O_info_t info;
    if (H5Oget_info2(file, &info, H5O_INFO_NUM_ATTRS) < 0) fail(hdf5Reason());
    for (hsize_t i = 0; i < info.num_attrs; ++i) {
      Hid a(H5Aopen_by_idx(file, ".", H5_INDEX_NAME, H5_ITER_INC, i, H5P_DEFAULT, H5P_DEFAULT),
            H5Aclose);
      if (!a.ok()) continue;
      char name[256] = {0};
      H5Aget_name(a.id, sizeof name, name);
      Hid type(H5Aget_type(a.id), H5Tclose);
      Hid space(H5Aget_space(a.id), H5Sclose);
      if (H5Sget_simple_extent_npoints(space.id) != 1) continue;
      if (isString(type.id)) {
        out->text_attributes[name] = readStringAttribute(a.id, type.id);
      } else if (H5Tget_class(type.id) == H5T_FLOAT || H5Tget_class(type.id) == H5T_INTEGER) {
        double v = 0;
        if (H5Aread(a.id, H5T_NATIVE_DOUBLE, &v) >= 0) out->number_attributes[name] = v;
      }
    }
    H5Eclear2(H5E_DEFAULT);
  }

  std::string units(hid_t ds, const char* name = "units") {
    if (H5Aexists(ds, name) <= 0) return "";
    Hid a(H5Aopen(ds, name, H5P_DEFAULT), H5Aclose);
    if (!a.ok()) return "";
    Hid type(H5Aget_type(a.id), H5Tclose);
    return isString(type.id) ? readStringAttribute(a.id, type.id) : "";
  }

  // read whatever a front asks for: the layout's static datasets (the layout table, observables.h),
  // the time axis, the event log and a sweep's tables
  static bool alwaysRead(const std::string& p) {
    if (p == "/time" || p.rfind("/events/", 0) == 0 || p.rfind("/cases/", 0) == 0 ||
        p.rfind("/case_jobs/", 0) == 0 || p.rfind("/ensemble/", 0) == 0)
      return true;
    return findLayout(p) != nullptr;
  }

  void readDataset(hid_t file, const std::string& p) {
    Hid ds(H5Dopen2(file, p.c_str(), H5P_DEFAULT), H5Dclose);
    if (!ds.ok()) fail("cannot open " + p + " (" + hdf5Reason() + ")");
    Hid type(H5Dget_type(ds.id), H5Tclose);
    Hid space(H5Dget_space(ds.id), H5Sclose);
    const int rank = H5Sget_simple_extent_ndims(space.id);
    if (rank < 0 || rank > 2) return;
    hsize_t dims[2] = {0, 0};
    if (rank > 0) H5Sget_simple_extent_dims(space.id, dims, nullptr);
    const hsize_t n = rank == 0 ? 1 : (rank == 1 ? dims[0] : dims[0] * dims[1]);
    if (rank == 2 && dims[1] != 0 && n / dims[1] != dims[0]) fail(p + ": impossible shape");
    // a damaged (or crafted) header can claim any shape: read no more than the file can hold
    // (deflate packs at most ~1000:1, a series of NaN about that), nor more than 2^31 values
    const std::size_t elem = std::max<std::size_t>(8, H5Tget_size(type.id));
    const double claimed = double(n) * double(elem);
    const double stored = double(H5Dget_storage_size(ds.id));
    if (n > (hsize_t{1} << 31) || claimed > std::max(64.0 * (1 << 20), 2000.0 * stored))
      fail(p + ": damaged or too large to read at once (" + std::to_string(n) + " values in " +
           std::to_string(static_cast<long long>(stored)) + " bytes)");
    const H5T_class_t cls = H5Tget_class(type.id);
    if (cls == H5T_STRING) {
      std::vector<std::string> v;
      if (H5Tis_variable_str(type.id) > 0) {
        std::vector<char*> raw(n, nullptr);
        Hid mem(H5Tcopy(H5T_C_S1), H5Tclose);
        H5Tset_size(mem.id, H5T_VARIABLE);
        H5Tset_cset(mem.id, H5Tget_cset(type.id));
        if (n > 0 && H5Dread(ds.id, mem.id, H5S_ALL, H5S_ALL, H5P_DEFAULT, raw.data()) < 0)
          fail("cannot read " + p + " (" + hdf5Reason() + ")");
        for (char* s : raw) v.emplace_back(s ? s : "");
        if (n > 0) H5Dvlen_reclaim(mem.id, space.id, H5P_DEFAULT, raw.data());
      } else {
        const std::size_t w = H5Tget_size(type.id);
        std::vector<char> raw(n * w + 1, '\0');
        if (n > 0 && H5Dread(ds.id, type.id, H5S_ALL, H5S_ALL, H5P_DEFAULT, raw.data()) < 0)
          fail("cannot read " + p + " (" + hdf5Reason() + ")");
        for (hsize_t i = 0; i < n; ++i) {
          std::string s(raw.data() + i * w, w);
          v.push_back(s.substr(0, std::strlen(s.c_str())));
        }
      }
      out->strings[p] = std::move(v);
    } else if (cls == H5T_INTEGER) {
      std::vector<long long> v(n);
      if (n > 0 && H5Dread(ds.id, H5T_NATIVE_LLONG, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data()) < 0)
        fail("cannot read " + p + " (" + hdf5Reason() + ")");
      out->integers[p] = std::move(v);
    } else if (cls == H5T_FLOAT) {
      ResultsSeries s;
      s.units = units(ds.id);
      s.basis = units(ds.id, "basis");
      s.rows = rank == 0 ? 1 : dims[0];
      s.width = rank == 2 ? dims[1] : 0;
      s.data.resize(n);
      if (n > 0 &&
          H5Dread(ds.id, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, s.data.data()) < 0)
        fail("truncated or damaged: cannot read " + p + " (" + hdf5Reason() + ")");
      out->series[p] = std::move(s);
    }
  }

  static herr_t visit(hid_t obj, const char* name, const H5O_info_t* info, void* data) {
    auto* self = static_cast<Reader*>(data);
    if (info->type != H5O_TYPE_DATASET) return 0;
    const std::string p = std::string("/") + name;
    const auto& want = self->opt->want;
    if (want && !want(p) && !alwaysRead(p)) return 0;
    try {
      self->readDataset(obj, p);
    } catch (const ResultsError& e) {
      self->error = e.what();
      return -1;
    }
    return 0;
  }
};

}  // namespace

std::size_t ResultsData::rows() const {
  const ResultsSeries* t = find("/time");
  return t ? t->rows : 0;
}

ResultsData readResults(const std::string& path, const ResultsReadOptions& options) {
  QuietHdf5 quiet;
  Reader rd;
  rd.path = path;
  rd.opt = &options;
  ResultsData data;
  data.path = path;
  rd.out = &data;
  // the bounded opener's check first: HDF5 would block on a FIFO and read a device forever
  FileRefusal why;
  if (!checkRegularFile(path, kMaxResultsFileBytes, &why))
    rd.fail(why.err == EISDIR ? "is a folder, not a results file" : why.reason);
  if (H5Fis_hdf5(path.c_str()) <= 0) {
    H5Eclear2(H5E_DEFAULT);
    rd.fail("not an HDF5 file (a results file written by dctwin run or dctwin-gui expected)");
  }
  Hid file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
  if (!file.ok()) rd.fail("truncated or damaged HDF5 file (" + hdf5Reason() + ")");
  rd.readRootAttributes(file.id);
  if (auto v = data.number_attributes.find("schema_version"); v != data.number_attributes.end()) {
    const int have = static_cast<int>(v->second);
    auto by = data.text_attributes.find("dctwin_version");
    const std::string writer =
        by != data.text_attributes.end() ? " (written by dctwin " + by->second + ")" : "";
    const std::string reads =
        kResultsOldestSchema == kResultsSchemaVersion
            ? std::to_string(kResultsSchemaVersion)
            : std::to_string(kResultsOldestSchema) + " to " + std::to_string(kResultsSchemaVersion);
    if (have > kResultsSchemaVersion)
      rd.fail("results schema version " + std::to_string(have) + writer +
              " is newer than this dctwin " + version() + " reads (schema version " + reads +
              "); read it with a newer dctwin");
    if (have < kResultsOldestSchema)
      rd.fail("results schema version " + std::to_string(have) + writer +
              " is older than this dctwin " + version() + " reads (schema version " + reads +
              "); read it with the dctwin that wrote it, or run the facility again");
  }
  if (H5Ovisit2(file.id, H5_INDEX_NAME, H5_ITER_INC, Reader::visit, &rd, H5O_INFO_BASIC) < 0) {
    if (!rd.error.empty()) throw ResultsError(rd.error);
    rd.fail("truncated or damaged HDF5 file (" + hdf5Reason() + ")");
  }
  // a sweep's /cases file: a table, one row per case, not a run
  if (auto sc = data.text_attributes.find("schema");
      sc != data.text_attributes.end() && sc->second.rfind("dctwin-sweep", 0) == 0) {
    if (!options.sweep)
      rd.fail(
          "a sweep's /cases file (dctwin sweep -o), not a run's results file: read its table "
          "with dctwin export or the Python dctwin.read_results; a case's run file is "
          "OUTPUT.cases/case_NNNNNN.h5 with series: true");
    if (!data.integers.count("/cases/index"))
      rd.fail("a sweep file without /cases/index (truncated or not written by dctwin sweep)");
    data.sweep = true;
    return data;
  }
  // the run layout
  const ResultsSeries* t = data.find("/time");
  if (!t || t->width != 0) rd.fail("not a dctwin run results file (no /time series)");
  if (!data.strings.count(layoutPath(Layout::RackNames)) ||
      !data.strings.count(layoutPath(Layout::CduNames)))
    rd.fail("not a dctwin run results file (no /rack/names or /cdu/names)");
  // the durable end (docs/results.md, "Flushing and interrupted runs"): rows_complete is written
  // only after every row it counts is on disk, so rows past it (a flush cut short, a kill during
  // the close) are not trusted whatever the status says; they are dropped and counted in
  // rows_beyond_durable_end. The /power series keep their rows up to the last durable time.
  const auto rc = data.number_attributes.find("rows_complete");
  if (rc != data.number_attributes.end() && rc->second >= 0 && rc->second < double(t->rows)) {
    const std::size_t keep = std::size_t(rc->second), T0 = t->rows;
    const double t_end = keep > 0 ? t->at(keep - 1) : -std::numeric_limits<double>::infinity();
    data.rows_beyond_durable_end = T0 - keep;
    // (without /power/time among the series read, /power is left as it is)
    const ResultsSeries* pt = data.find("/power/time");
    std::size_t keep_power = 0;
    while (pt != nullptr && keep_power < pt->rows && pt->at(keep_power) <= t_end) ++keep_power;
    for (auto& [p, s] : data.series) {
      if (p.rfind("/events/", 0) == 0 || p.rfind("/job/model/", 0) == 0 ||
          p.rfind("/grid/", 0) == 0)
        continue;
      if (p.rfind("/power/", 0) == 0) {
        if (pt != nullptr && s.rows > keep_power) {
          s.rows = keep_power;
          s.data.resize(keep_power * s.columns());
        }
        continue;
      }
      if (s.rows < keep) continue;
      if (s.rows != T0 && s.width == 0 && p != "/time") continue;
      s.rows = keep;
      s.data.resize(keep * s.columns());
    }
  }
  const std::size_t T = t->rows;
  for (auto& [p, s] : data.series) {
    if (p.rfind("/power/", 0) == 0 || p.rfind("/cases/", 0) == 0 ||
        p.rfind("/job/model/", 0) == 0 || p.rfind("/grid/", 0) == 0)
      continue;
    if (s.rows != T &&
        (s.width > 0 || p.rfind("/energy/", 0) == 0 || p.rfind("/facility/", 0) == 0))
      rd.fail("inconsistent: " + p + " has " + std::to_string(s.rows) + " rows, /time has " +
              std::to_string(T));
  }
  // the event log
  const auto et = data.find("/events/time");
  if (et) {
    const std::size_t E = et->rows;
    auto col = [&](const char* name) -> const std::vector<std::string>* {
      auto it = data.strings.find(std::string("/events/") + name);
      return it != data.strings.end() && it->second.size() == E ? &it->second : nullptr;
    };
    const auto *comp = col("component"), *kind = col("kind"), *sev = col("severity"),
               *msg = col("message");
    for (std::size_t i = 0; i < E; ++i) {
      EventRecord ev;
      ev.time = et->at(i);
      if (comp) ev.component = (*comp)[i];
      if (kind) ev.kind = (*kind)[i];
      if (sev) ev.severity = (*sev)[i];
      if (msg) ev.message = (*msg)[i];
      data.events.push_back(std::move(ev));
    }
  }
  return data;
}

RunLayout layoutOfResults(const ResultsData& d) {
  RunLayout L;
  for (const LayoutInfo& r : layoutTable()) {
    if (r.strings) {
      if (auto it = d.strings.find(r.path); it != d.strings.end()) L.*r.strings = it->second;
    } else if (auto it = d.integers.find(r.path); it != d.integers.end()) {
      (L.*r.ints).assign(it->second.begin(), it->second.end());
    }
  }
  L.nrack = int(L.rack_name.size());
  L.ncdu = int(L.cdu_name.size());
  L.ngpu = int(L.gpu_rack.size());
  L.njob = int(L.job_name.size());
  L.nbusway = int(L.busway_name.size());
  L.has_power = L.nbusway > 0;
  L.nair = int(L.air_name.size());
  L.nsw = int(L.sw_name.size());
  return L;
}

std::vector<double> jobModelTable(const ResultsData& d) {
  auto names = d.strings.find(layoutPath(Layout::JobNames));
  const std::size_t nj = names == d.strings.end() ? 0 : names->second.size();
  std::vector<double> out(nj * kJobModelCount, std::numeric_limits<double>::quiet_NaN());
  for (const JobModelInfo& c : jobModelTable()) {
    const ResultsSeries* s = d.find(jobModelPath(c.id));
    if (!s || s->width != 0 || s->rows != nj) continue;
    for (std::size_t j = 0; j < nj; ++j) out[j * kJobModelCount + std::size_t(c.id)] = s->at(j);
  }
  return out;
}

}  // namespace dctwin
