// results.cpp: HDF5 results file (see results.h and docs/results.md)
//
// layout choices:
// - superblock and object formats are left at the library default (earliest) so a file that was
//   flushed and then abandoned (process killed) opens without h5clear: the 1.10 "latest" format
//   sets consistency flags in the superblock that only a clean close removes.
// - time series are chunked {rows, c} with c = min(width, kMaxChunkBytes / (8 rows)), rows =
//   chunk_rows but see below;
//   a chunk then fits in HDF5's default 1 MiB per-dataset chunk cache, and very wide datasets
//   (one column per GPU) are split along the column dimension too.
// - a very wide series (per GPU on a hall: 55,296 columns) takes fewer rows per chunk, so that its
//   row buffer stays under kMaxBlockBytes (64 rows of every per-GPU series would hold ~1 GB of
//   buffers on a campus)
// - rows are buffered per series in a block of `rows` rows aligned with the chunk grid; a full
//   block is written with one extend + hyperslab write. flush() writes the partial block but keeps
//   it in the buffer, so when the block fills up it is rewritten whole (full-chunk writes need no
//   read-back of a compressed chunk).
#include "solver/output/results.h"

#include <H5Cpp.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <limits>
#include <optional>
#include <string_view>

namespace dctwin {

namespace {

constexpr std::size_t kMaxChunkBytes = std::size_t{1} << 20;  // = default chunk cache size
constexpr std::size_t kMaxBlockBytes = std::size_t{4} << 20;  // row buffer per series
constexpr int kDeflateLevel = 4;

// collects the messages of the current HDF5 error stack, innermost first
herr_t collectError(unsigned /*n*/, const H5E_error2_t* err, void* data) {
  auto* out = static_cast<std::vector<std::string>*>(data);
  if (err->desc != nullptr && err->desc[0] != '\0') {
    std::string d = err->desc;
    std::replace(d.begin(), d.end(), '\n', ' ');
    out->push_back(std::move(d));
  }
  return 0;
}

// the innermost HDF5 error (the cause) and the outermost (what failed); clears the stack
std::string errorStack() {
  std::vector<std::string> msgs;
  H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, collectError, &msgs);
  H5Eclear2(H5E_DEFAULT);
  if (msgs.empty()) return "";
  if (msgs.size() == 1 || msgs.front() == msgs.back()) return msgs.front();
  return msgs.front() + "; " + msgs.back();
}

// splits "/a/b/c" (or "a/b/c") into its components; "/" and "" give none
std::vector<std::string> splitPath(const std::string& path) {
  std::vector<std::string> parts;
  std::size_t i = 0;
  while (i < path.size()) {
    std::size_t j = path.find('/', i);
    if (j == std::string::npos) j = path.size();
    if (j > i) {
      std::string part = path.substr(i, j - i);
      if (part != ".") parts.push_back(std::move(part));
    }
    i = j + 1;
  }
  return parts;
}

std::string joinPath(const std::vector<std::string>& parts, std::size_t n) {
  std::string s;
  for (std::size_t i = 0; i < n; ++i) s += "/" + parts[i];
  return s.empty() ? "/" : s;
}

H5::StrType utf8Type() {
  H5::StrType t(H5::PredType::C_S1, H5T_VARIABLE);
  t.setCset(H5T_CSET_UTF8);
  return t;
}

}  // namespace

struct ResultsFile::Impl {
  struct Series {
    H5::DataSet ds;
    std::string path;
    std::size_t width = 0;        // as given (0: 1-D)
    std::size_t cols = 1;         // values per row (max(width, 1))
    std::size_t rows = 1;         // rows per chunk and buffered block
    std::size_t block_start = 0;  // first row of the buffered block (a multiple of rows)
    std::size_t buffered = 0;     // rows in the buffer
    std::size_t on_disk = 0;      // rows of the buffer already written by a flush
    std::vector<double> buf;      // rows x cols, allocated on the first append
  };

  std::string path;
  std::size_t chunk_rows = 64;
  std::optional<H5::H5File> file;  // engaged once created
  bool open = false;
  std::vector<Series> series;

  std::string message(const std::string& what, const std::string& obj,
                      const H5::Exception* e = nullptr) const {
    std::string msg = "results file '" + path + "'";
    if (!obj.empty()) msg += ", '" + obj + "'";
    msg += ": " + what;
    if (e != nullptr) {
      std::string detail = e->getDetailMsg();
      std::string stack = errorStack();
      if (!detail.empty()) msg += ": " + detail;
      if (!stack.empty()) msg += " (" + stack + ")";
    }
    return msg;
  }

  [[noreturn]] void fail(const std::string& what, const std::string& obj,
                         const H5::Exception* e = nullptr) const {
    throw ResultsError(message(what, obj, e));
  }

  void requireOpen(const std::string& obj) const {
    if (!open) fail("file is closed", obj);
  }

  H5O_type_t typeOf(const std::string& p) const { return file->childObjType(p); }

  bool exists(const std::string& p) const {
    return H5Lexists(file->getId(), p.c_str(), H5P_DEFAULT) > 0;
  }

  // creates the groups of parts[0, n) as needed; throws if one is not a group
  void makeGroups(const std::vector<std::string>& parts, std::size_t n, const std::string& obj) {
    for (std::size_t i = 1; i <= n; ++i) {
      std::string g = joinPath(parts, i);
      if (!exists(g)) {
        file->createGroup(g).close();
      } else if (typeOf(g) != H5O_TYPE_GROUP) {
        fail("'" + g + "' exists and is not a group", obj);
      }
    }
  }

  // parent groups of a new dataset; throws if the dataset already exists
  std::string prepareDataset(const std::string& p) {
    auto parts = splitPath(p);
    if (parts.empty()) fail("a dataset needs a name", p);
    std::string full = joinPath(parts, parts.size());
    makeGroups(parts, parts.size() - 1, full);
    if (exists(full)) fail("already exists", full);
    return full;
  }

  template <class F>
  void withObject(const std::string& p, F&& f) {
    auto parts = splitPath(p);
    std::string full = joinPath(parts, parts.size());
    if (parts.empty()) {
      H5::Group root = file->openGroup("/");
      f(static_cast<H5::H5Object&>(root));
      return;
    }
    if (!exists(full)) makeGroups(parts, parts.size(), full);
    switch (typeOf(full)) {
      case H5O_TYPE_GROUP: {
        H5::Group g = file->openGroup(full);
        f(static_cast<H5::H5Object&>(g));
        break;
      }
      case H5O_TYPE_DATASET: {
        H5::DataSet d = file->openDataSet(full);
        f(static_cast<H5::H5Object&>(d));
        break;
      }
      default:
        fail("not a group or dataset", full);
    }
  }

  static void putString(H5::H5Object& obj, const std::string& name, const std::string& value) {
    if (obj.attrExists(name)) obj.removeAttr(name);
    H5::StrType t = utf8Type();
    H5::Attribute a = obj.createAttribute(name, t, H5::DataSpace(H5S_SCALAR));
    const char* p = value.c_str();
    a.write(t, &p);
  }

  static void putScalar(H5::H5Object& obj, const std::string& name, const H5::PredType& file_type,
                        const H5::PredType& mem_type, const void* value) {
    if (obj.attrExists(name)) obj.removeAttr(name);
    H5::Attribute a = obj.createAttribute(name, file_type, H5::DataSpace(H5S_SCALAR));
    a.write(mem_type, value);
  }

  static void labelDataset(H5::DataSet& ds, const std::string& units,
                           const std::string& description) {
    putString(ds, "units", units);
    putString(ds, "description", description);
  }

  // writes the buffered rows not yet on disk (the whole buffered block, so a partial chunk is
  // rewritten in one piece); a full block moves the buffer on to the next block
  void writeBuffered(Series& s) {
    if (s.buffered > s.on_disk) {
      const hsize_t total = s.block_start + s.buffered;
      if (s.width == 0) {
        hsize_t size[1] = {total};
        s.ds.extend(size);
        H5::DataSpace fspace = s.ds.getSpace();
        hsize_t start[1] = {s.block_start}, count[1] = {s.buffered};
        fspace.selectHyperslab(H5S_SELECT_SET, count, start);
        H5::DataSpace mspace(1, count);
        s.ds.write(s.buf.data(), H5::PredType::NATIVE_DOUBLE, mspace, fspace);
      } else {
        hsize_t size[2] = {total, s.cols};
        s.ds.extend(size);
        H5::DataSpace fspace = s.ds.getSpace();
        hsize_t start[2] = {s.block_start, 0}, count[2] = {s.buffered, s.cols};
        fspace.selectHyperslab(H5S_SELECT_SET, count, start);
        H5::DataSpace mspace(2, count);
        s.ds.write(s.buf.data(), H5::PredType::NATIVE_DOUBLE, mspace, fspace);
      }
      s.on_disk = s.buffered;
    }
    if (s.buffered == s.rows) {
      s.block_start += s.rows;
      s.buffered = 0;
      s.on_disk = 0;
    }
  }

  void flushAll() {
    for (auto& s : series) {
      try {
        writeBuffered(s);
      } catch (const H5::Exception& e) {
        fail("writing rows failed", s.path, &e);
      }
    }
    try {
      file->flush(H5F_SCOPE_GLOBAL);
    } catch (const H5::Exception& e) {
      fail("flush failed", "", &e);
    }
  }
};

ResultsFile::ResultsFile(const std::string& path, std::size_t chunk_rows)
    : impl_(std::make_unique<Impl>()) {
  namespace fs = std::filesystem;
  H5::Exception::dontPrint();
  impl_->path = path;
  impl_->chunk_rows = chunk_rows;
  if (path.empty()) throw ResultsError("results file: empty path");
  if (chunk_rows == 0) impl_->fail("chunk_rows must be positive", "");

  // clear reasons first; HDF5's own message only says the create failed
  std::error_code ec;
  fs::path p(path);
  fs::path dir = p.parent_path();
  if (dir.empty()) dir = ".";
  if (!fs::exists(dir, ec)) impl_->fail("directory '" + dir.string() + "' does not exist", "");
  if (!fs::is_directory(dir, ec)) impl_->fail("'" + dir.string() + "' is not a directory", "");
  if (fs::is_directory(p, ec)) impl_->fail("is a directory", "");
  if (fs::exists(p, ec)) {
    if (::access(path.c_str(), W_OK) != 0) {
      impl_->fail(std::string("file is not writable: ") + std::strerror(errno), "");
    }
  } else if (::access(dir.c_str(), W_OK) != 0) {
    impl_->fail("directory '" + dir.string() + "' is not writable: " + std::strerror(errno), "");
  }

  try {
    impl_->file.emplace(path, H5F_ACC_TRUNC);
  } catch (const H5::Exception& e) {
    impl_->fail("cannot create", "", &e);
  }
  impl_->open = true;
}

ResultsFile::~ResultsFile() {
  if (!impl_ || !impl_->open) return;
  try {
    close();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "dctwin: closing %s failed: %s\n", impl_->path.c_str(), e.what());
  } catch (...) {
    std::fprintf(stderr, "dctwin: closing %s failed\n", impl_->path.c_str());
  }
}

void ResultsFile::setAttribute(const std::string& path, const std::string& name,
                               const std::string& value) {
  impl_->requireOpen(path);
  try {
    impl_->withObject(path, [&](H5::H5Object& o) { Impl::putString(o, name, value); });
  } catch (const H5::Exception& e) {
    impl_->fail("cannot set attribute '" + name + "'", path, &e);
  }
}

void ResultsFile::setAttribute(const std::string& path, const std::string& name, double value) {
  impl_->requireOpen(path);
  try {
    impl_->withObject(path, [&](H5::H5Object& o) {
      Impl::putScalar(o, name, H5::PredType::IEEE_F64LE, H5::PredType::NATIVE_DOUBLE, &value);
    });
  } catch (const H5::Exception& e) {
    impl_->fail("cannot set attribute '" + name + "'", path, &e);
  }
}

void ResultsFile::setAttribute(const std::string& path, const std::string& name, long long value) {
  impl_->requireOpen(path);
  try {
    impl_->withObject(path, [&](H5::H5Object& o) {
      Impl::putScalar(o, name, H5::PredType::STD_I64LE, H5::PredType::NATIVE_LLONG, &value);
    });
  } catch (const H5::Exception& e) {
    impl_->fail("cannot set attribute '" + name + "'", path, &e);
  }
}

void ResultsFile::writeStrings(const std::string& path, const std::vector<std::string>& values,
                               const std::string& description) {
  impl_->requireOpen(path);
  try {
    std::string full = impl_->prepareDataset(path);
    std::vector<const char*> ptrs;
    ptrs.reserve(values.size());
    for (const auto& v : values) ptrs.push_back(v.c_str());
    hsize_t dims[1] = {values.size()};
    H5::StrType t = utf8Type();
    H5::DataSet ds = impl_->file->createDataSet(full, t, H5::DataSpace(1, dims));
    if (!values.empty()) ds.write(ptrs.data(), t);
    // labels are not quantities: the units attribute is present but empty
    Impl::labelDataset(ds, "", description);
  } catch (const H5::Exception& e) {
    impl_->fail("cannot write strings", path, &e);
  }
}

void ResultsFile::writeVector(const std::string& path, std::span<const double> values,
                              const std::string& units, const std::string& description) {
  impl_->requireOpen(path);
  try {
    std::string full = impl_->prepareDataset(path);
    hsize_t dims[1] = {values.size()};
    H5::DataSet ds =
        impl_->file->createDataSet(full, H5::PredType::IEEE_F64LE, H5::DataSpace(1, dims));
    if (!values.empty()) ds.write(values.data(), H5::PredType::NATIVE_DOUBLE);
    Impl::labelDataset(ds, units, description);
  } catch (const H5::Exception& e) {
    impl_->fail("cannot write vector", path, &e);
  }
}

void ResultsFile::writeIntVector(const std::string& path, std::span<const long long> values,
                                 const std::string& description) {
  impl_->requireOpen(path);
  try {
    std::string full = impl_->prepareDataset(path);
    hsize_t dims[1] = {values.size()};
    H5::DataSet ds =
        impl_->file->createDataSet(full, H5::PredType::STD_I64LE, H5::DataSpace(1, dims));
    if (!values.empty()) ds.write(values.data(), H5::PredType::NATIVE_LLONG);
    Impl::labelDataset(ds, "1", description);
  } catch (const H5::Exception& e) {
    impl_->fail("cannot write integer vector", path, &e);
  }
}

int ResultsFile::addSeries(const std::string& path, std::size_t width, const std::string& units,
                           const std::string& description) {
  impl_->requireOpen(path);
  if (impl_->series.size() >= static_cast<std::size_t>(std::numeric_limits<int>::max())) {
    impl_->fail("too many series", path);
  }
  Impl::Series s;
  s.width = width;
  s.cols = std::max<std::size_t>(width, 1);
  s.rows =
      std::clamp<std::size_t>(kMaxBlockBytes / (sizeof(double) * s.cols), 1, impl_->chunk_rows);
  try {
    s.path = impl_->prepareDataset(path);
    const hsize_t rows = s.rows;
    const hsize_t max_cols = std::max<hsize_t>(1, kMaxChunkBytes / (sizeof(double) * rows));
    H5::DSetCreatPropList dcpl;
    const double nan = std::numeric_limits<double>::quiet_NaN();
    dcpl.setFillValue(H5::PredType::NATIVE_DOUBLE, &nan);
    if (width == 0) {
      hsize_t dims[1] = {0}, maxdims[1] = {H5S_UNLIMITED}, chunk[1] = {rows};
      dcpl.setChunk(1, chunk);
      dcpl.setShuffle();
      dcpl.setDeflate(kDeflateLevel);
      s.ds = impl_->file->createDataSet(s.path, H5::PredType::IEEE_F64LE,
                                        H5::DataSpace(1, dims, maxdims), dcpl);
    } else {
      hsize_t dims[2] = {0, width}, maxdims[2] = {H5S_UNLIMITED, width};
      hsize_t chunk[2] = {rows, std::min<hsize_t>(width, max_cols)};
      dcpl.setChunk(2, chunk);
      dcpl.setShuffle();
      dcpl.setDeflate(kDeflateLevel);
      s.ds = impl_->file->createDataSet(s.path, H5::PredType::IEEE_F64LE,
                                        H5::DataSpace(2, dims, maxdims), dcpl);
    }
    Impl::labelDataset(s.ds, units, description);
  } catch (const H5::Exception& e) {
    impl_->fail("cannot create series", path, &e);
  }
  impl_->series.push_back(std::move(s));
  return static_cast<int>(impl_->series.size() - 1);
}

void ResultsFile::appendRow(int series, std::span<const double> row) {
  if (series < 0 || static_cast<std::size_t>(series) >= impl_->series.size()) {
    impl_->fail("no series with handle " + std::to_string(series), "");
  }
  Impl::Series& s = impl_->series[static_cast<std::size_t>(series)];
  impl_->requireOpen(s.path);
  if (row.size() != s.cols) {
    impl_->fail(
        "row has " + std::to_string(row.size()) + " values, expected " + std::to_string(s.cols),
        s.path);
  }
  if (s.buf.empty()) s.buf.resize(s.rows * s.cols);
  std::copy(row.begin(), row.end(),
            s.buf.begin() + static_cast<std::ptrdiff_t>(s.buffered * s.cols));
  ++s.buffered;
  if (s.buffered == s.rows) {
    try {
      impl_->writeBuffered(s);
    } catch (const H5::Exception& e) {
      impl_->fail("writing rows failed", s.path, &e);
    }
  }
}

std::size_t ResultsFile::rows(int series) const {
  if (series < 0 || static_cast<std::size_t>(series) >= impl_->series.size()) {
    impl_->fail("no series with handle " + std::to_string(series), "");
  }
  const Impl::Series& s = impl_->series[static_cast<std::size_t>(series)];
  return s.block_start + s.buffered;
}

void ResultsFile::flush() {
  impl_->requireOpen("");
  impl_->flushAll();
}

void ResultsFile::close() {
  if (!impl_->open) return;  // closing twice is harmless
  // whatever fails below, the file counts as closed afterwards: the destructor must not retry
  std::string error;
  try {
    impl_->flushAll();
  } catch (const ResultsError& e) {
    error = e.what();
  }
  try {
    for (auto& s : impl_->series) s.ds.close();
    impl_->file->close();
  } catch (const H5::Exception& e) {
    if (error.empty()) error = impl_->message("close failed", "", &e);
  }
  impl_->open = false;
  for (auto& s : impl_->series) std::vector<double>().swap(s.buf);
  if (!error.empty()) throw ResultsError(error);
}

void writeProvenance(ResultsFile& f, const Provenance& p, const SolverSettings& s) {
  f.setAttribute("/", "dctwin_version", p.version);
  f.setAttribute("/", "git_revision", p.git_revision);
  f.setAttribute("/", "command_line", p.command_line);
  f.setAttribute("/", "host", p.host);
  f.setAttribute("/", "created", p.created);
  f.setAttribute("/", "data_dir", p.data_dir);
  f.setAttribute("/", "solver_rtol", s.rtol);
  f.setAttribute("/", "solver_atol_temperature", s.atol_T);
  f.setAttribute("/", "solver_atol_control", s.atol_ctrl);
  f.setAttribute("/", "solver_max_step", s.max_step);
  f.setAttribute("/", "output_interval", s.output_interval);
  f.setAttribute("/", "gpu_step", s.gpu_step);
  f.setAttribute("/", "coupling_step", s.coupling_step);
}

}  // namespace dctwin
