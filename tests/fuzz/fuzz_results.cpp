// fuzz_results.cpp: libFuzzer target for the results reader (solver/output/results_reader.h)
//
// the input picks a file: the bytes themselves, or a small valid run layout written by
// ResultsFile and then cut after a number of bytes (as a copy, a full disk or a kill leaves it).
// readResults must either return data whose series have as many values as their shape says or
// throw ResultsError; a crash, a sanitizer report, a hang or any other exception type is a bug.
//
// With DCTWIN_FUZZ_FLIPS=1 in the environment a third kind of input overwrites a few bytes of the
// valid file anywhere. That mostly fuzzes HDF5's own metadata parser, which is not instrumented
// and is known not to survive it: HDF5 1.10.8 crashes in H5HG_read (global heap) on a file with
// four bytes overwritten (found by this target in its first minute; nothing dctwin can check
// before HDF5 reads the heap). Run: ASAN_OPTIONS=allocator_may_return_null=1 fuzz_results
// -detect_leaks=0 -malloc_limit_mb=4096 (HDF5 leaks on its error paths and asks for absurd
// allocations on damaged headers; both are HDF5's).
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "solver/output/results.h"
#include "solver/output/results_reader.h"

namespace {

const std::string& dir() {
  static const std::string d = [] {
    const char* shm = ::access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
    return std::string(shm) + "/dctwin_fuzz_results_" + std::to_string(::getpid());
  }();
  return d;
}

// a small file with the run layout: names, a few series, root attributes, events
const std::vector<char>& validFile() {
  static const std::vector<char> bytes = [] {
    const std::string path = dir() + "_valid.h5";
    {
      dctwin::ResultsFile f(path, 4);
      f.setAttribute("/", "status", std::string("running"));
      f.setAttribute("/", "rows_complete", 8LL);
      f.setAttribute("/", "facility_text", std::string("name: fuzz\n"));
      f.writeStrings("/rack/names", {"A01", "A02"}, "racks");
      f.writeStrings("/cdu/names", {"cdu1"}, "cdus");
      const int t = f.addSeries("/time", 0, "s", "time");
      const int T = f.addSeries("/rack/T_return", 2, "K", "outlet");
      const int P = f.addSeries("/facility/P_total", 0, "W", "power");
      const int et = f.addSeries("/events/time", 0, "s", "event time");
      const int ek = f.addStringSeries("/events/kind", "event kind");
      for (int k = 0; k < 10; ++k) {
        const double tt = 10.0 * k, row[2] = {300.0 + k, 301.0 + k}, p = 1e5 * k;
        f.appendRow(t, std::span<const double>(&tt, 1));
        f.appendRow(T, std::span<const double>(row, 2));
        f.appendRow(P, std::span<const double>(&p, 1));
        if (k == 8) f.flush(false);
      }
      const double e = 42;
      f.appendRow(et, std::span<const double>(&e, 1));
      f.appendString(ek, "pump_failure");
    }
    std::ifstream in(path, std::ios::binary);
    std::vector<char> b((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::remove(path.c_str());
    return b;
  }();
  return bytes;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const bool flips = std::getenv("DCTWIN_FUZZ_FLIPS") != nullptr;
  std::vector<char> file;
  if (size > 0 && data[0] % 3 == 0) {  // the bytes as they are
    file.assign(reinterpret_cast<const char*>(data) + 1,
                reinterpret_cast<const char*>(data) + size);
  } else if (size >= 5) {  // a valid file, cut or with bytes overwritten
    file = validFile();
    std::size_t pos = 0;
    for (int k = 1; k < 5; ++k) pos = (pos << 8) | data[k];
    if (data[0] % 3 == 1 || !flips) {
      file.resize(pos % (file.size() + 1));
    } else {
      for (std::size_t k = 5; k + 1 < size; k += 2)
        file[(pos + std::size_t(data[k]) * 257 + k) % file.size()] = char(data[k + 1]);
    }
  } else {
    return 0;
  }
  const std::string path = dir() + ".h5";
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(file.data(), std::streamsize(file.size()));
  }
  try {
    const dctwin::ResultsData d = dctwin::readResults(path);
    const std::size_t T = d.rows();
    for (const auto& [p, s] : d.series)
      if (s.data.size() != s.rows * s.columns()) {
        std::fprintf(stderr, "%s: %zu values for %zu x %zu\n", p.c_str(), s.data.size(), s.rows,
                     s.columns());
        std::abort();
      }
    (void)T;
  } catch (const dctwin::ResultsError&) {
  } catch (const std::exception& e) {
    std::fprintf(stderr, "unexpected exception escaped the results reader: %s\n", e.what());
    std::abort();
  } catch (...) {
    std::fprintf(stderr, "unexpected non-std exception escaped the results reader\n");
    std::abort();
  }
  std::remove(path.c_str());
  return 0;
}
