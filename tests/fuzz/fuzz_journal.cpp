// fuzz_journal.cpp: libFuzzer target for the sweep journal (solver/run/journal.cpp): its line
// parser, and the reader of a whole journal (the right header, then the input's lines)
//
// every line must either parse into a case of this sweep or be refused with a reason; a line
// that parses must round-trip through journalLine; readJournal returns only cases in range, each
// once. A crash, a sanitizer report, a hang or any exception other than LoadFailure is a bug.
#include <unistd.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "solver/run/sweep.h"

namespace {

[[noreturn]] void bug(const char* what) {
  std::fprintf(stderr, "%s\n", what);
  std::abort();
}

// a sweep whose fingerprint needs no file (no facility or scenario path)
const dctwin::SweepSpec& spec() {
  static const dctwin::SweepSpec s = [] {
    dctwin::SweepSpec x;
    x.text = "dctwin_sweep: 1\n";
    x.name = "fuzz";
    return x;
  }();
  return s;
}
constexpr std::size_t kCases = 8;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    // 1. each line on its own
    std::stringstream ss(text);
    std::string line;
    while (std::getline(ss, line)) {
      dctwin::CaseResult r;
      std::string why;
      if (!dctwin::parseJournalLine(line, r, &why)) {
        if (why.empty()) bug("a refused journal line without a reason");
        continue;
      }
      dctwin::CaseResult back;
      if (!dctwin::parseJournalLine(dctwin::journalLine(r), back) || back.index != r.index ||
          back.ok != r.ok || back.metrics.size() != r.metrics.size())
        bug("a parsed journal line does not round-trip");
    }
    // 2. the whole journal behind the right header
    static const std::string path =
        "/tmp/dctwin_fuzz_journal_" + std::to_string(::getpid()) + ".journal";
    std::remove(path.c_str());
    dctwin::startJournal(path, spec(), kCases);
    {
      std::ofstream out(path, std::ios::app | std::ios::binary);
      out << text;
    }
    std::vector<std::string> warnings;
    const std::vector<dctwin::CaseResult> done =
        dctwin::readJournal(path, spec(), kCases, &warnings);
    std::set<int> seen;
    for (const dctwin::CaseResult& r : done) {
      if (r.index < 0 || std::size_t(r.index) >= kCases) bug("a case out of range was taken");
      if (!seen.insert(r.index).second) bug("a case was taken twice");
    }
  } catch (const dctwin::LoadFailure& e) {
    if (e.errors().empty()) bug("LoadFailure without errors");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "unexpected exception escaped the journal reader: %s\n", e.what());
    std::abort();
  } catch (...) {
    bug("unexpected non-std exception escaped the journal reader");
  }
  return 0;
}
