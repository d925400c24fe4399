// results_test.cpp: ResultsFile writes HDF5 that reads back exactly (HDF5 C++ API, h5dump, h5py)
#include "solver/output/results.h"

#include <H5Cpp.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cmath>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using dctwin::ResultsError;
using dctwin::ResultsFile;

namespace {

// a file in the temp directory, unique per process, removed at scope exit
struct TempFile {
  fs::path path;
  explicit TempFile(const std::string& tag)
      : path(fs::temp_directory_path() /
             ("dctwin_results_" + std::to_string(::getpid()) + "_" + tag + ".h5")) {
    fs::remove(path);
  }
  ~TempFile() {
    std::error_code ec;
    fs::remove(path, ec);
  }
  std::string str() const { return path.string(); }
};

struct Array {
  std::vector<hsize_t> dims;
  std::vector<double> values;
};

Array readDoubles(const H5::H5File& f, const std::string& path) {
  H5::DataSet ds = f.openDataSet(path);
  H5::DataSpace space = ds.getSpace();
  Array a;
  a.dims.resize(static_cast<std::size_t>(space.getSimpleExtentNdims()));
  space.getSimpleExtentDims(a.dims.data());
  a.values.resize(static_cast<std::size_t>(space.getSimpleExtentNpoints()));
  if (!a.values.empty()) ds.read(a.values.data(), H5::PredType::NATIVE_DOUBLE);
  return a;
}

std::vector<long long> readInts(const H5::H5File& f, const std::string& path) {
  H5::DataSet ds = f.openDataSet(path);
  std::vector<long long> v(static_cast<std::size_t>(ds.getSpace().getSimpleExtentNpoints()));
  if (!v.empty()) ds.read(v.data(), H5::PredType::NATIVE_LLONG);
  return v;
}

std::vector<std::string> readStrings(const H5::H5File& f, const std::string& path) {
  H5::DataSet ds = f.openDataSet(path);
  H5::DataType t = ds.getDataType();
  REQUIRE(t.getClass() == H5T_STRING);
  H5::StrType st = ds.getStrType();
  REQUIRE(st.isVariableStr());
  REQUIRE(st.getCset() == H5T_CSET_UTF8);
  H5::DataSpace space = ds.getSpace();
  std::vector<char*> ptrs(static_cast<std::size_t>(space.getSimpleExtentNpoints()));
  std::vector<std::string> out;
  if (ptrs.empty()) return out;
  ds.read(ptrs.data(), st);
  for (char* p : ptrs) out.emplace_back(p != nullptr ? p : "");
  H5Dvlen_reclaim(st.getId(), space.getId(), H5P_DEFAULT, ptrs.data());
  return out;
}

H5::Attribute openAttr(const H5::H5File& f, const std::string& path, const std::string& name) {
  H5O_type_t type = path == "/" ? H5O_TYPE_GROUP : f.childObjType(path);
  if (type == H5O_TYPE_DATASET) return f.openDataSet(path).openAttribute(name);
  return f.openGroup(path).openAttribute(name);
}

bool hasAttr(const H5::H5File& f, const std::string& path, const std::string& name) {
  H5O_type_t type = path == "/" ? H5O_TYPE_GROUP : f.childObjType(path);
  if (type == H5O_TYPE_DATASET) return f.openDataSet(path).attrExists(name);
  return f.openGroup(path).attrExists(name);
}

std::string stringAttr(const H5::H5File& f, const std::string& path, const std::string& name) {
  H5::Attribute a = openAttr(f, path, name);
  H5::DataType t = a.getDataType();
  REQUIRE(t.getClass() == H5T_STRING);
  H5::StrType st = a.getStrType();
  REQUIRE(st.isVariableStr());
  REQUIRE(st.getCset() == H5T_CSET_UTF8);
  H5std_string s;
  a.read(st, s);
  return s;
}

double doubleAttr(const H5::H5File& f, const std::string& path, const std::string& name) {
  H5::Attribute a = openAttr(f, path, name);
  REQUIRE(a.getDataType().getClass() == H5T_FLOAT);
  double v = 0;
  a.read(H5::PredType::NATIVE_DOUBLE, &v);
  return v;
}

long long intAttr(const H5::H5File& f, const std::string& path, const std::string& name) {
  H5::Attribute a = openAttr(f, path, name);
  REQUIRE(a.getDataType().getClass() == H5T_INTEGER);
  REQUIRE(a.getDataType().getSize() == 8);
  long long v = 0;
  a.read(H5::PredType::NATIVE_LLONG, &v);
  return v;
}

// every dataset in the file, by full path
std::vector<std::string> allDatasets(const H5::H5File& f) {
  struct Ctx {
    const H5::H5File* file;
    std::vector<std::string> out;
  } ctx{&f, {}};
  auto cb = [](hid_t, const char* name, const H5L_info_t*, void* data) -> herr_t {
    auto* c = static_cast<Ctx*>(data);
    std::string p = std::string("/") + name;
    if (c->file->childObjType(p) == H5O_TYPE_DATASET) c->out.push_back(p);
    return 0;
  };
  H5Lvisit(f.getId(), H5_INDEX_NAME, H5_ITER_INC, cb, &ctx);
  return ctx.out;
}

// runs a command, returns its exit status and collects stdout+stderr
int runCommand(const std::string& cmd, std::string& output) {
  output.clear();
  FILE* p = ::popen((cmd + " 2>&1").c_str(), "r");
  if (p == nullptr) return -1;
  char buf[4096];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) output.append(buf, n);
  int status = ::pclose(p);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

fs::path sourceDir() {
#ifdef DCTWIN_SOURCE_DIR
  return fs::path(DCTWIN_SOURCE_DIR);
#else
  return fs::path(__FILE__).parent_path().parent_path().parent_path();
#endif
}

// value of series row r, column c, used to fill and check series
double cell(std::size_t r, std::size_t c) {
  return 1000.0 * static_cast<double>(r) + 0.25 * c;
}

}  // namespace

TEST_CASE("results: static datasets and attributes round trip", "[results]") {
  TempFile tmp("static");
  const std::string big(200000, 'x');  // larger than the 64 KiB object header limit
  const std::vector<std::string> names{"R01", "rack-2", "", "T_°C ✓"};
  const std::vector<double> vec{1.5, -2.25, 1e-300, 6.02e23};
  const std::vector<long long> ints{0, -1, 42, 9007199254740993LL};
  {
    ResultsFile f(tmp.str());
    f.setAttribute("/", "dctwin_version", std::string("0.1.0"));
    f.setAttribute("/", "schema_version", 1LL);
    f.setAttribute("/", "facility_text", big);
    f.setAttribute("/", "rtol", 1e-6);
    f.setAttribute("/solver/stats", "steps", 1234LL);  // groups created as needed
    f.writeStrings("/rack/names", names, "rack names");
    f.writeVector("/rack/volume", vec, "m3", "loop volume");
    f.writeIntVector("rack/cdu", ints, "cdu index per rack");  // leading '/' is optional
    f.writeVector("/empty", std::vector<double>{}, "K", "nothing");
    f.writeStrings("/no_names", {}, "no names");
    f.setAttribute("/rack/volume", "note", std::string("dataset attribute"));
    // overwriting: same name, other value and type
    f.setAttribute("/", "rtol", 2e-6);
    f.setAttribute("/rack/volume", "note", 7LL);
    f.setAttribute("/rack", "kind", std::string("group attribute"));
    f.close();
    f.close();  // harmless
  }
  H5::H5File f(tmp.str(), H5F_ACC_RDONLY);
  CHECK(stringAttr(f, "/", "dctwin_version") == "0.1.0");
  CHECK(intAttr(f, "/", "schema_version") == 1);
  CHECK(stringAttr(f, "/", "facility_text") == big);
  CHECK(doubleAttr(f, "/", "rtol") == 2e-6);
  CHECK(intAttr(f, "/solver/stats", "steps") == 1234);
  CHECK(f.childObjType("/solver/stats") == H5O_TYPE_GROUP);
  CHECK(stringAttr(f, "/rack", "kind") == "group attribute");
  CHECK(intAttr(f, "/rack/volume", "note") == 7);

  CHECK(readStrings(f, "/rack/names") == names);
  CHECK(readStrings(f, "/no_names").empty());
  Array v = readDoubles(f, "/rack/volume");
  CHECK(v.dims == std::vector<hsize_t>{4});
  CHECK(v.values == vec);
  CHECK(readInts(f, "/rack/cdu") == ints);
  CHECK(f.openDataSet("/rack/cdu").getDataType().getSize() == 8);
  CHECK(readDoubles(f, "/empty").dims == std::vector<hsize_t>{0});

  CHECK(stringAttr(f, "/rack/volume", "units") == "m3");
  CHECK(stringAttr(f, "/rack/volume", "description") == "loop volume");
  CHECK(stringAttr(f, "/rack/cdu", "units") == "1");
  CHECK(stringAttr(f, "/rack/names", "units").empty());
  CHECK(stringAttr(f, "/rack/names", "description") == "rack names");
  auto datasets = allDatasets(f);
  CHECK(datasets.size() == 5);
  for (const auto& p : datasets) {
    INFO(p);
    CHECK(hasAttr(f, p, "units"));
    CHECK(hasAttr(f, p, "description"));
  }
}

TEST_CASE("results: series round trip, chunking and filters", "[results]") {
  TempFile tmp("series");
  const std::size_t chunk = 16;
  const std::size_t n_rows = 16 * 4 + 5;  // not a multiple of the chunk size
  const std::size_t width = 3;
  {
    ResultsFile f(tmp.str(), chunk);
    int t = f.addSeries("/time", 0, "s", "simulation time");
    int x = f.addSeries("/rack/T_supply", width, "K", "supply temperature");
    int one = f.addSeries("/cdu/pump_speed", 1, "1", "pump speed");
    CHECK((t == 0 && x == 1 && one == 2));
    for (std::size_t r = 0; r < n_rows; ++r) {
      const double tr = 0.5 * static_cast<double>(r);
      f.appendRow(t, std::span<const double>(&tr, 1));
      std::vector<double> row(width);
      for (std::size_t c = 0; c < width; ++c) row[c] = cell(r, c);
      f.appendRow(x, row);
      const double s = -static_cast<double>(r);
      f.appendRow(one, std::span<const double>(&s, 1));
      CHECK(f.rows(x) == r + 1);
      // flushes in the middle of a block (rewritten later) and at a block boundary
      if (r == 6 || r == 20 || r == 31) f.flush();
    }
    CHECK(f.rows(t) == n_rows);
    CHECK(f.rows(one) == n_rows);
    f.close();
    CHECK(f.rows(t) == n_rows);  // still answers after close
  }
  H5::H5File f(tmp.str(), H5F_ACC_RDONLY);
  Array time = readDoubles(f, "/time");
  REQUIRE(time.dims == std::vector<hsize_t>{n_rows});
  for (std::size_t r = 0; r < n_rows; ++r) CHECK(time.values[r] == 0.5 * static_cast<double>(r));
  Array x = readDoubles(f, "/rack/T_supply");
  REQUIRE(x.dims == std::vector<hsize_t>{n_rows, width});
  bool exact = true;
  for (std::size_t r = 0; r < n_rows; ++r) {
    for (std::size_t c = 0; c < width; ++c) exact = exact && x.values[r * width + c] == cell(r, c);
  }
  CHECK(exact);
  Array one = readDoubles(f, "/cdu/pump_speed");
  REQUIRE(one.dims == std::vector<hsize_t>{n_rows, 1});
  CHECK(one.values[n_rows - 1] == -static_cast<double>(n_rows - 1));

  struct Want {
    std::string path;
    int rank;
    hsize_t cols;
    std::string units;
  };
  for (const Want& w : {Want{"/time", 1, 0, "s"}, Want{"/rack/T_supply", 2, width, "K"},
                        Want{"/cdu/pump_speed", 2, 1, "1"}}) {
    INFO(w.path);
    H5::DataSet ds = f.openDataSet(w.path);
    CHECK(stringAttr(f, w.path, "units") == w.units);
    CHECK(!stringAttr(f, w.path, "description").empty());
    H5::DataSpace space = ds.getSpace();
    REQUIRE(space.getSimpleExtentNdims() == w.rank);
    hsize_t dims[2], maxdims[2];
    space.getSimpleExtentDims(dims, maxdims);
    CHECK(maxdims[0] == H5S_UNLIMITED);
    if (w.rank == 2) CHECK(maxdims[1] == w.cols);

    H5::DSetCreatPropList dcpl = ds.getCreatePlist();
    REQUIRE(dcpl.getLayout() == H5D_CHUNKED);
    hsize_t cdims[2] = {0, 0};
    REQUIRE(dcpl.getChunk(2, cdims) == w.rank);
    CHECK(cdims[0] == chunk);
    if (w.rank == 2) CHECK(cdims[1] == w.cols);
    REQUIRE(dcpl.getNfilters() == 2);
    unsigned flags = 0, cd[4] = {0, 0, 0, 0}, config = 0;
    std::size_t ncd = 4;
    char name[64];
    CHECK(dcpl.getFilter(0, flags, ncd, cd, sizeof name, name, config) == H5Z_FILTER_SHUFFLE);
    ncd = 4;
    CHECK(dcpl.getFilter(1, flags, ncd, cd, sizeof name, name, config) == H5Z_FILTER_DEFLATE);
    CHECK(ncd >= 1);
    CHECK(cd[0] == 4);
    double fill = 0;
    dcpl.getFillValue(H5::PredType::NATIVE_DOUBLE, &fill);
    CHECK(std::isnan(fill));
  }
}

TEST_CASE("results: wide series chunk the column dimension", "[results]") {
  TempFile tmp("wide");
  const std::size_t width = 70000;
  {
    ResultsFile f(tmp.str());  // 64 rows per chunk, fewer for very wide series
    int s = f.addSeries("/gpu/T_case", width, "K", "case temperature per GPU");
    int n = f.addSeries("/rack/T", 5000, "K", "narrower");
    std::vector<double> row(width);
    f.appendRow(n, std::vector<double>(5000, 1.0));
    for (std::size_t r = 0; r < 120; ++r) {  // past two blocks of 59 rows
      for (std::size_t c = 0; c < width; ++c) row[c] = cell(r, c);
      f.appendRow(s, row);
    }
  }  // the destructor flushes and closes
  H5::H5File f(tmp.str(), H5F_ACC_RDONLY);
  H5::DataSet ds = f.openDataSet("/gpu/T_case");
  hsize_t cdims[2] = {0, 0};
  REQUIRE(ds.getCreatePlist().getChunk(2, cdims) == 2);
  // the row buffer (rows x 70000 doubles) stays under 32 MiB: 59 rows; a chunk under 1 MiB
  CHECK(cdims[0] == 59);
  CHECK(cdims[1] == 2221);  // 59 x 2221 doubles <= 1 MiB
  REQUIRE(f.openDataSet("/rack/T").getCreatePlist().getChunk(2, cdims) == 2);
  CHECK(cdims[0] == 64);    // 5000 columns: 64 rows fit in 32 MiB
  CHECK(cdims[1] == 2048);  // 64 x 2048 doubles = 1 MiB
  Array a = readDoubles(f, "/gpu/T_case");
  REQUIRE(a.dims == std::vector<hsize_t>{120, width});
  CHECK(a.values[119 * width + 7] == cell(119, 7));
  CHECK(a.values[60 * width + 9000] == cell(60, 9000));
  CHECK(a.values[0] == cell(0, 0));
  CHECK(a.values[2 * width + 9999] == cell(2, 9999));
  CHECK(a.values[1 * width + 4097] == cell(1, 4097));
}

TEST_CASE("results: a wide series' chunks compressed on threads are HDF5's own, byte for byte",
          "[results]") {
  // the same rows through HDF5's write (1 thread) and through the chunks filtered on 3 threads and
  // written directly (H5Dwrite_chunk): every stored chunk (filter mask and bytes) is the same, for
  // full blocks, a block flushed in part and then filled (rewritten), the last block in part
  // (its rows past the data NaN) and the edge chunk past the width; NaN values and a narrow series
  // (one chunk: HDF5's own write either way) among them
  const std::size_t width = 30001, narrow = 7;
  TempFile one("chunks1"), three("chunks3");
  for (const TempFile* t : {&one, &three}) {
    ResultsFile f(t->str(), 10);  // 10 rows per chunk; 13107 columns (1 MiB), the last 3787
    f.setThreads(t == &three ? 3 : 1);
    const int s = f.addSeries("/gpu/T", width, "K", "per GPU");
    const int n = f.addSeries("/rack/T", narrow, "K", "per rack");
    std::vector<double> row(width), small(narrow);
    for (std::size_t r = 0; r < 27; ++r) {
      for (std::size_t c = 0; c < width; ++c)
        row[c] = c % 97 == 3 ? std::nan("") : cell(r, c) + 1e-3 * double(c % 13);
      for (std::size_t c = 0; c < narrow; ++c) small[c] = cell(r, c);
      f.appendRow(s, row);
      f.appendRow(n, small);
      if (r == 13) f.flush();  // the second block in part, rewritten when it fills
    }
  }  // 27 rows: two full blocks and 7 rows of a third
  H5::H5File a(one.str(), H5F_ACC_RDONLY), b(three.str(), H5F_ACC_RDONLY);
  for (const char* path : {"/gpu/T", "/rack/T"}) {
    H5::DataSet da = a.openDataSet(path), db = b.openDataSet(path);
    hsize_t cdims[2] = {0, 0};
    REQUIRE(da.getCreatePlist().getChunk(2, cdims) == 2);
    const hsize_t w = std::string(path) == "/gpu/T" ? width : narrow;
    if (w == width) CHECK(cdims[1] < w);  // the series spans several chunks
    int chunks = 0;
    for (hsize_t r = 0; r < 27; r += cdims[0]) {
      for (hsize_t c = 0; c < w; c += cdims[1]) {
        const hsize_t off[2] = {r, c};
        hsize_t na = 0, nb = 0;
        REQUIRE(H5Dget_chunk_storage_size(da.getId(), off, &na) >= 0);
        REQUIRE(H5Dget_chunk_storage_size(db.getId(), off, &nb) >= 0);
        REQUIRE(na > 0);
        REQUIRE(na == nb);
        std::vector<unsigned char> ca(na), cb(nb);
        std::uint32_t fa = 99, fb = 99;
        REQUIRE(H5Dread_chunk(da.getId(), H5P_DEFAULT, off, &fa, ca.data()) >= 0);
        REQUIRE(H5Dread_chunk(db.getId(), H5P_DEFAULT, off, &fb, cb.data()) >= 0);
        CHECK(fa == 0);  // every filter applied
        CHECK(fb == fa);
        CHECK(ca == cb);
        ++chunks;
      }
    }
    CHECK(chunks == (w == width ? 9 : 3));
    Array x = readDoubles(a, path), y = readDoubles(b, path);
    REQUIRE(x.dims == std::vector<hsize_t>{27, w});
    REQUIRE(y.dims == x.dims);
    for (std::size_t i = 0; i < x.values.size(); ++i)
      if (!(x.values[i] == y.values[i] || (std::isnan(x.values[i]) && std::isnan(y.values[i]))))
        FAIL("value " << i << " differs: " << x.values[i] << " vs " << y.values[i]);
  }
  Array y = readDoubles(b, "/gpu/T");
  CHECK(y.values[26 * width + 4] == cell(26, 4) + 1e-3 * double(4 % 13));
  CHECK(std::isnan(y.values[26 * width + 3]));
}

TEST_CASE("results: errors name the path and the reason", "[results]") {
  SECTION("missing directory") {
    const std::string bad = "/nonexistent-dctwin-dir/sub/out.h5";
    try {
      ResultsFile f(bad);
      FAIL("no exception");
    } catch (const ResultsError& e) {
      std::string msg = e.what();
      CHECK(msg.find(bad) != std::string::npos);
      CHECK(msg.find("does not exist") != std::string::npos);
    }
  }
  SECTION("path is a directory") {
    const std::string dir = fs::temp_directory_path().string();
    try {
      ResultsFile f(dir);
      FAIL("no exception");
    } catch (const ResultsError& e) {
      CHECK(std::string(e.what()).find(dir) != std::string::npos);
    }
  }
  SECTION("directory not writable") {
    if (::geteuid() == 0) {
      WARN("running as root: permissions are not enforced, skipped");
    } else {
      fs::path dir = fs::temp_directory_path() / ("dctwin_ro_" + std::to_string(::getpid()));
      fs::create_directories(dir);
      fs::permissions(dir, fs::perms::owner_read | fs::perms::owner_exec);
      const std::string p = (dir / "out.h5").string();
      try {
        ResultsFile f(p);
        FAIL("no exception");
      } catch (const ResultsError& e) {
        std::string msg = e.what();
        CHECK(msg.find(p) != std::string::npos);
        CHECK(msg.find("not writable") != std::string::npos);
      }
      fs::permissions(dir, fs::perms::owner_all);
      fs::remove_all(dir);
    }
  }
  SECTION("misuse of an open file") {
    TempFile tmp("errors");
    ResultsFile f(tmp.str(), 4);
    int s = f.addSeries("/rack/T", 3, "K", "t");
    int t = f.addSeries("/time", 0, "s", "time");
    std::vector<double> two{1, 2}, three{1, 2, 3};
    CHECK_THROWS_AS(f.appendRow(s, two), ResultsError);
    CHECK_THROWS_WITH(f.appendRow(s, two), Catch::Contains("/rack/T") && Catch::Contains("3"));
    CHECK_THROWS_AS(f.appendRow(t, three), ResultsError);
    CHECK_NOTHROW(f.appendRow(t, std::vector<double>{0.0}));
    CHECK_THROWS_AS(f.appendRow(7, three), ResultsError);
    CHECK_THROWS_AS(f.appendRow(-1, three), ResultsError);
    CHECK_THROWS_AS(f.rows(7), ResultsError);
    CHECK(f.rows(s) == 0);
    CHECK_THROWS_WITH(f.addSeries("/rack/T", 3, "K", "again"), Catch::Contains("already exists"));
    CHECK_THROWS_AS(f.writeVector("/rack/T/x", three, "K", "under a dataset"), ResultsError);
    CHECK_THROWS_AS(f.addSeries("/", 1, "K", "no name"), ResultsError);
    f.close();
    CHECK_THROWS_WITH(f.appendRow(s, three), Catch::Contains("closed"));
    CHECK_THROWS_AS(f.flush(), ResultsError);
    CHECK_THROWS_AS(f.setAttribute("/", "a", 1.0), ResultsError);
    H5::H5File h(tmp.str(), H5F_ACC_RDONLY);
    CHECK(readDoubles(h, "/time").dims == std::vector<hsize_t>{1});
    CHECK(readDoubles(h, "/rack/T").dims == std::vector<hsize_t>{0, 3});
  }
}

TEST_CASE("results: a run killed after flush leaves a readable file", "[results]") {
  TempFile tmp("killed");
  const std::size_t width = 3, chunk = 8, flushed = 16;  // crash-safe: flush at full blocks
  const bool kill_self = GENERATE(true, false);          // SIGKILL, or _exit without closing
  // no hint (HDF5's chunk B-tree K, a version-0 superblock), or a long run's (a larger K, a
  // version-1 superblock, whose end of allocation publishEnd finds at another offset)
  const std::size_t expected_rows = GENERATE(std::size_t{0}, std::size_t{4000});
  INFO((kill_self ? "SIGKILL" : "_exit") << ", expected rows " << expected_rows);
  std::fflush(nullptr);
  pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    // child: no Catch2 here, report through the exit status
    int code = 0;
    try {
      auto* f = new ResultsFile(tmp.str(), chunk, expected_rows);  // never deleted: no close
      f->setAttribute("/", "scenario_text", std::string("steps: []"));
      int t = f->addSeries("/time", 0, "s", "time");
      int x = f->addSeries("/rack/P", width, "W", "power");
      std::vector<double> row(width);
      for (std::size_t r = 0; r < flushed + 5; ++r) {
        if (r == flushed) f->flush();  // the 5 rows after this stay in memory
        if (r == 3) f->flush(false);   // full blocks only: the partial one stays in memory
        const double tr = static_cast<double>(r);
        f->appendRow(t, std::span<const double>(&tr, 1));
        for (std::size_t c = 0; c < width; ++c) row[c] = cell(r, c);
        f->appendRow(x, row);
      }
    } catch (...) {
      code = 3;
    }
    if (kill_self && code == 0) ::raise(SIGKILL);
    ::_exit(code);
  }
  int status = 0;
  REQUIRE(::waitpid(pid, &status, 0) == pid);
  if (kill_self) {
    REQUIRE(WIFSIGNALED(status));
    CHECK(WTERMSIG(status) == SIGKILL);
  } else {
    REQUIRE(WIFEXITED(status));
    REQUIRE(WEXITSTATUS(status) == 0);
  }
  H5::H5File f(tmp.str(), H5F_ACC_RDONLY);
  CHECK(stringAttr(f, "/", "scenario_text") == "steps: []");
  Array time = readDoubles(f, "/time");
  REQUIRE(time.dims == std::vector<hsize_t>{flushed});
  CHECK(time.values[flushed - 1] == static_cast<double>(flushed - 1));
  Array x = readDoubles(f, "/rack/P");
  REQUIRE(x.dims == std::vector<hsize_t>{flushed, width});
  bool exact = true;
  for (std::size_t r = 0; r < flushed; ++r) {
    for (std::size_t c = 0; c < width; ++c) exact = exact && x.values[r * width + c] == cell(r, c);
  }
  CHECK(exact);
  CHECK(stringAttr(f, "/rack/P", "units") == "W");
  H5F_info2_t info{};
  REQUIRE(H5Fget_info2(f.getId(), &info) >= 0);
  CHECK(info.super.version == (expected_rows > 0 ? 1u : 0u));
}

TEST_CASE("results: the chunk index is sized by the rows the run expects", "[results]") {
  // a v1 B-tree node holds 2 K chunks; a full one splits, and a kill during the flush that
  // writes a split can leave a parent pointing at a node not yet written (docs/results.md)
  struct Case {
    std::size_t expected_rows, widest;
    unsigned k;
  };
  // 10 rows per chunk: 361 rows are 37 chunks (HDF5's K = 32 holds 64), 1,801 rows 181 (K
  // 128), 100,000 rows 10,000 (K at its bound, 1,024); a series of 300,000 columns takes 10
  // rows of 13,107 columns per chunk: 121 rows are 13 x 23 chunks (K 256)
  for (const Case& c : {Case{0, 1, 32}, Case{361, 3, 32}, Case{1801, 3, 128}, Case{100000, 3, 1024},
                        Case{121, 300000, 256}}) {
    INFO("expected rows " << c.expected_rows << ", widest " << c.widest);
    TempFile tmp("btree_k");
    {
      ResultsFile f(tmp.str(), 10, c.expected_rows, c.widest);
      const int t = f.addSeries("/time", 0, "s", "time");
      for (int r = 0; r < 25; ++r) {
        const double tr = r;
        f.appendRow(t, std::span<const double>(&tr, 1));
        if (r % 10 == 9) f.flush(false);
      }
      f.close();
    }
    H5::H5File f(tmp.str(), H5F_ACC_RDONLY);
    const hid_t fcpl = H5Fget_create_plist(f.getId());
    unsigned k = 0;
    REQUIRE(H5Pget_istore_k(fcpl, &k) >= 0);
    H5Pclose(fcpl);
    CHECK(k == c.k);
    H5F_info2_t info{};
    REQUIRE(H5Fget_info2(f.getId(), &info) >= 0);
    CHECK(info.super.version == (c.k == 32 ? 0u : 1u));
    // a clean close trims the file to the end of allocation its superblock records (8 bytes at
    // offset 40 in version 0, 44 in version 1), in either version
    unsigned char head[56] = {};
    std::FILE* raw = std::fopen(tmp.str().c_str(), "rb");
    REQUIRE(raw);
    const std::size_t got = std::fread(head, 1, sizeof head, raw);
    std::fclose(raw);
    REQUIRE(got == sizeof head);
    CHECK(head[8] == info.super.version);
    const int at = head[8] == 0 ? 40 : 44;
    std::uint64_t eoa = 0;
    for (int b = 7; b >= 0; --b) eoa = (eoa << 8) | head[at + b];
    CHECK(fs::file_size(tmp.path) == eoa);
    Array time = readDoubles(f, "/time");
    REQUIRE(time.dims == std::vector<hsize_t>{25});
    CHECK(time.values[24] == 24.0);
  }
}

namespace {
// a small file in the shape the run layout uses, for the external readers
void writeSample(const std::string& path) {
  ResultsFile f(path, 8);
  f.setAttribute("/", "dctwin_version", std::string("0.1.0"));
  f.setAttribute("/", "schema_version", 1LL);
  f.writeStrings("/rack/names", {"R01", "R02"}, "rack names");
  f.writeIntVector("/rack/cdu", std::vector<long long>{0, 0}, "CDU index per rack");
  int t = f.addSeries("/time", 0, "s", "simulation time");
  int T = f.addSeries("/rack/T_supply", 2, "K", "rack supply temperature");
  for (int r = 0; r < 11; ++r) {
    const double tr = r;
    f.appendRow(t, std::span<const double>(&tr, 1));
    f.appendRow(T, std::vector<double>{300.0 + r, 301.0 + r});
  }
  f.close();
}
}  // namespace

TEST_CASE("results: h5dump shows the units attributes", "[results]") {
  if (!fs::exists("/usr/bin/h5dump")) {
    WARN("/usr/bin/h5dump not installed (hdf5-tools): skipped");
    return;
  }
  TempFile tmp("h5dump");
  writeSample(tmp.str());
  std::string out;
  REQUIRE(runCommand("/usr/bin/h5dump -H -A '" + tmp.str() + "'", out) == 0);
  INFO(out);
  CHECK(out.find("ATTRIBUTE \"units\"") != std::string::npos);
  CHECK(out.find("H5T_CSET_UTF8") != std::string::npos);
  CHECK(out.find("\"K\"") != std::string::npos);
  CHECK(out.find("H5S_UNLIMITED") != std::string::npos);
  std::string props;
  REQUIRE(runCommand("/usr/bin/h5dump -H -p -d /rack/T_supply '" + tmp.str() + "'", props) == 0);
  INFO(props);
  CHECK(props.find("CHUNKED ( 8, 2 )") != std::string::npos);
  CHECK(props.find("SHUFFLE") != std::string::npos);
  CHECK(props.find("DEFLATE") != std::string::npos);
}

TEST_CASE("results: h5py reads shapes and str units", "[results]") {
  std::string out;
  if (!fs::exists("/usr/bin/python3") ||
      runCommand("/usr/bin/python3 -c 'import h5py'", out) != 0) {
    WARN("/usr/bin/python3 with h5py not available (python3-h5py): skipped");
    return;
  }
  TempFile tmp("h5py");
  writeSample(tmp.str());
  const fs::path script = sourceDir() / "tests" / "solver" / "results_readback.py";
  REQUIRE(fs::exists(script));
  int rc = runCommand("/usr/bin/python3 '" + script.string() + "' '" + tmp.str() +
                          "' /time=11 /rack/T_supply=11x2 /rack/names=2 /rack/cdu=2",
                      out);
  INFO(out);
  CHECK(rc == 0);
  CHECK(out.find("ok") != std::string::npos);
  // the values too, straight from a snippet
  rc = runCommand(
      "/usr/bin/python3 -c \"import h5py, sys\n"
      "f = h5py.File(sys.argv[1], 'r')\n"
      "assert f['/rack/T_supply'][10, 1] == 311.0\n"
      "assert f['/rack/T_supply'].compression == 'gzip'\n"
      "assert f['/rack/T_supply'].shuffle\n"
      "assert f['/rack/T_supply'].maxshape == (None, 2)\n"
      "assert isinstance(f.attrs['dctwin_version'], str)\n"
      "assert list(f['/rack/names'].asstr()[...]) == ['R01', 'R02']\n"
      "print('values ok')\" '" +
          tmp.str() + "'",
      out);
  INFO(out);
  CHECK(rc == 0);
  CHECK(out.find("values ok") != std::string::npos);
}

TEST_CASE("results: a second writer is refused and leaves the first one's file alone",
          "[results]") {
  TempFile tmp("second_writer");
  std::vector<double> row{1.0, 2.0, 3.0};
  {
    ResultsFile first(tmp.str(), 4);
    int s = first.addSeries("/rack/P", 3, "W", "power");
    for (int r = 0; r < 8; ++r) first.appendRow(s, row);
    first.flush();
    // a second writer (another process, or here another descriptor: flock conflicts either way)
    CHECK_THROWS_WITH(ResultsFile(tmp.str(), 4), Catch::Contains("open in another process"));
    for (int r = 0; r < 4; ++r) first.appendRow(s, row);
  }
  H5::H5File f(tmp.str(), H5F_ACC_RDONLY);
  Array a = readDoubles(f, "/rack/P");
  CHECK(a.dims == std::vector<hsize_t>{12, 3});
  CHECK(a.values[11 * 3 + 2] == 3.0);
  // the file is free again once closed: a new writer replaces it
  f.close();
  { ResultsFile again(tmp.str(), 4); }
  CHECK(!fs::exists(tmp.str() + ".partial"));
}

TEST_CASE("results: an existing file that is not HDF5 is never overwritten", "[results]") {
  TempFile tmp("not_hdf5");
  {
    std::FILE* f = std::fopen(tmp.str().c_str(), "w");
    REQUIRE(f != nullptr);
    std::fputs("facility:\n  name: precious\n", f);
    std::fclose(f);
  }
  CHECK_THROWS_WITH(ResultsFile(tmp.str()), Catch::Contains("is not an HDF5 file"));
  std::string text(64, '\0');
  std::FILE* f = std::fopen(tmp.str().c_str(), "r");
  text.resize(std::fread(text.data(), 1, text.size(), f));
  std::fclose(f);
  CHECK(text == "facility:\n  name: precious\n");
  // and the output path may not name an input
  CHECK_THROWS_WITH(dctwin::checkOutputPath(tmp.str(), {"", tmp.str()}),
                    Catch::Contains("refusing to overwrite"));
  CHECK_NOTHROW(dctwin::checkOutputPath(tmp.str() + ".h5", {tmp.str()}));
}

TEST_CASE("results: until a flush with rows the file is PATH.partial, an older PATH stays",
          "[results]") {
  TempFile tmp("partial");
  std::vector<double> one{1.0};
  {
    ResultsFile old(tmp.str());
    old.setAttribute("/", "status", std::string("completed"));
  }
  ResultsFile f(tmp.str(), 4);
  f.setAttribute("/", "status", std::string("running"));
  CHECK(fs::exists(tmp.str() + ".partial"));
  // the old file is still there (locked by the new writer until the rename replaces it)
  CHECK(fs::file_size(tmp.str()) > 0);
  // a flush of the layout alone: the chunk indexes come with the first rows, and a kill during
  // that flush must not leave a file under the final name that does not read
  const int t = f.addSeries("/time", 0, "s", "time");
  f.flush();
  CHECK(fs::exists(tmp.str() + ".partial"));
  f.appendRow(t, one);
  f.flush();
  CHECK(!fs::exists(tmp.str() + ".partial"));
  f.close();
}

TEST_CASE("dctwin run: refuses an output that is its input, or a file another run writes",
          "[results][cli]") {
  const fs::path dir =
      fs::temp_directory_path() / ("dctwin_overwrite_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path fac = dir / "pod.yaml";
  fs::copy_file(sourceDir() / "data/facilities/pod_gb200.yaml", fac,
                fs::copy_options::overwrite_existing);
  const auto before = fs::file_size(fac);
  std::string out;
  const std::string cli = DCTWIN_CLI;
  CHECK(runCommand(cli + " run " + fac.string() + " -d 10min -q -o " + fac.string(), out) == 2);
  CHECK_THAT(out, Catch::Contains("refusing to overwrite"));
  CHECK(fs::file_size(fac) == before);
  // a second run on the same output while the first one writes it: refused, the first completes
  const fs::path h5 = dir / "same.h5";
  const std::string first = cli + " run " + fac.string() + " -d 2h -i 1s -q -o " + h5.string();
  FILE* p = ::popen((first + " 2>&1").c_str(), "r");
  REQUIRE(p != nullptr);
  for (int k = 0; k < 200 && !fs::exists(h5); ++k) ::usleep(20000);  // its first flush
  CHECK(runCommand(cli + " run " + fac.string() + " -d 10min -q -o " + h5.string(), out) == 2);
  CHECK_THAT(out, Catch::Contains("open in another process"));
  char buf[256];
  while (std::fread(buf, 1, sizeof buf, p) > 0) {
  }
  const int st = ::pclose(p);
  CHECK(WIFEXITED(st));
  CHECK(WEXITSTATUS(st) == 0);
  H5::H5File f(h5.string(), H5F_ACC_RDONLY);
  CHECK(readDoubles(f, "/time").dims == std::vector<hsize_t>{7201});
  f.close();
  fs::remove_all(dir);
}
