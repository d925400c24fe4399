// fuzz_open.cpp: libFuzzer target for opening a file by its path, as the Python module's loaders
// (Facility.load, Scenario.load, Sweep.load, read_results) and the GUI's File > Open do it:
// the bounded opener (solver/common/bounded_file.h), then HDF5's signature (readResults) or the
// file kind told by its keys (detectFileKind) and the loader of that kind on the path.
//
// The input's first byte picks what the path names: the bytes as a regular file (most inputs), a
// FIFO with no writer, /dev/zero, a directory, or a regular file one byte over the limit. Every
// call must return or throw LoadFailure / ResultsError; a crash, a sanitizer report, a hang (the
// FIFO, the device) or another exception type is a bug (that errors do not quote a file that is
// not YAML is tested in tests/solver/bounded_input_test.cpp).
#include <sys/stat.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <fstream>
#include <string>

#include "solver/common/bounded_file.h"
#include "solver/input/loader.h"
#include "solver/input/scenario.h"
#include "solver/input/sweep_file.h"
#include "solver/input/yaml_reader.h"
#include "solver/output/results.h"
#include "solver/output/results_reader.h"

namespace {

const std::string& dir() {
  static const std::string d = [] {
    const char* shm = ::access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
    std::string p = std::string(shm) + "/dctwin_fuzz_open_" + std::to_string(::getpid());
    ::mkdir(p.c_str(), 0700);
    return p;
  }();
  return d;
}

// what the GUI's File > Open and the Python loaders do with a path
void open(const std::string& path) {
  dctwin::FileRefusal why;
  const auto text = dctwin::readBoundedFile(path, dctwin::kMaxInputFileBytes, &why);
  try {
    if (!text || text->rfind("\x89HDF", 0) == 0) {
      (void)dctwin::readResults(path);  // refuses what the bounded opener refused, too
      return;
    }
    std::string kind_why;
    const auto kind = dctwin::reader::detectFileKind(*text, &kind_why);
    if (!kind || *kind == dctwin::keys::FileKind::Facility)
      (void)dctwin::loadFacility(path);
    else if (*kind == dctwin::keys::FileKind::Scenario)
      (void)dctwin::loadScenario(path);
    else
      (void)dctwin::loadSweep(path);
  } catch (const dctwin::LoadFailure&) {
  } catch (const dctwin::ResultsError&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string body(reinterpret_cast<const char*>(data + 1), size - 1);
  const std::string path = dir() + "/input";
  ::unlink(path.c_str());
  ::rmdir(path.c_str());
  switch (data[0] % 16) {
    case 0:  // a FIFO nobody writes to: must not block
      ::mkfifo(path.c_str(), 0600);
      open(path);
      break;
    case 1:  // a device without end
      open("/dev/zero");
      break;
    case 2:  // a directory
      ::mkdir(path.c_str(), 0700);
      open(path);
      ::rmdir(path.c_str());
      break;
    case 3: {  // over the size limit: refused by its size, not read
      {
        std::ofstream out(path, std::ios::binary);
        out << body;
      }
      (void)::truncate(path.c_str(), off_t(dctwin::kMaxInputFileBytes) + 1);
      open(path);
      break;
    }
    default: {
      {
        std::ofstream out(path, std::ios::binary);
        out << body;
      }
      open(path);
    }
  }
  ::unlink(path.c_str());
  return 0;
}
