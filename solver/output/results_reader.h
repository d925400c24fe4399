// results_reader.h: read a run's HDF5 results file (docs/results.md) back into memory
//
// the counterpart of ResultsFile/Hdf5Sink for the GUI and scripts in C++: every dataset of the
// file by its path, with its units, plus the root attributes and the event log. A file that is not
// HDF5, is truncated, or lacks the run layout (/time, /rack/names) throws ResultsError naming the
// file and the reason. No HDF5 types appear in this header.
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "solver/common/report.h"
#include "solver/output/observables.h"
#include "solver/output/results.h"

namespace dctwin {

// a float64 dataset: a time series [rows x width] (row-major), or 1-D [rows] with width 0
struct ResultsSeries {
  std::string units;
  std::string basis;  // "instant", "interval mean", ... (docs/results.md); "" in older files
  std::size_t rows = 0;
  std::size_t width = 0;  // 0: 1-D
  std::vector<double> data;
  std::size_t columns() const { return width == 0 ? 1 : width; }
  double at(std::size_t row, std::size_t col = 0) const { return data[row * columns() + col]; }
};

struct ResultsData {
  std::string path;
  std::map<std::string, std::string> text_attributes;       // root string attributes
  std::map<std::string, double> number_attributes;          // root numeric attributes
  std::map<std::string, ResultsSeries> series;              // every float64 dataset by path
  std::map<std::string, std::vector<long long>> integers;   // int64 datasets
  std::map<std::string, std::vector<std::string>> strings;  // string datasets
  std::vector<EventRecord> events;                          // /events, in time order
  // rows the file holds past its durable end (root attribute rows_complete), dropped on reading:
  // a run killed while it flushed or closed; 0 for a file whose every row is durable
  std::size_t rows_beyond_durable_end = 0;
  // a sweep's /cases file (root attribute schema "dctwin-sweep ..."), read with
  // ResultsReadOptions::sweep: its columns are the /cases datasets (run/sweep.h, sweepColumns)
  bool sweep = false;

  const ResultsSeries* find(const std::string& p) const {
    auto it = series.find(p);
    return it == series.end() ? nullptr : &it->second;
  }
  std::size_t rows() const;  // length of /time
};

// the results layout (docs/results.md) this program writes (root attribute schema_version), and
// the oldest it still reads; a file outside [kResultsOldestSchema, kResultsSchemaVersion] is
// refused naming both versions. A file without the attribute is read as version 1.
inline constexpr int kResultsSchemaVersion =
    2;  // 2: power, PUE, throttling as interval means (docs/results.md)
inline constexpr int kResultsOldestSchema = 1;

struct ResultsReadOptions {
  // datasets to read (by path); empty reads all. Static name/index datasets and /events are
  // always read.
  std::function<bool(const std::string&)> want;
  // also read a sweep's /cases file (ResultsData::sweep); without it such a file is refused with
  // what reads it (a run's results were expected)
  bool sweep = false;
};

// The file is checked with the bounded opener first (solver/common/bounded_file.h): a FIFO, a
// device or a file over kMaxResultsFileBytes is refused without blocking or reading it.
// throws ResultsError: "FILE: not an HDF5 file", "FILE: truncated or damaged (...)",
// "FILE: not a dctwin results file (no /time)", "FILE: results schema version 2 (written by
// dctwin 0.3.0) is newer than this dctwin 0.1.0 reads (1) ...", ...
ResultsData readResults(const std::string& path, const ResultsReadOptions& options = {});

// the static datasets of a results file (the layout table, observables.h) in a RunLayout, with
// the counts they give (racks, CDUs, GPUs, jobs, busways, air and switch racks; has_power with
// busways); what the file lacks stays empty
RunLayout layoutOfResults(const ResultsData& d);

// the step model's table of a results file (/job/model/*, DCTWIN_JOB_MODEL) as RunLayout::job_model
// holds it: jobs x kJobModelCount, NaN where the file has no value (a job not described, a file
// written before the table existed or read without it)
std::vector<double> jobModelTable(const ResultsData& d);

}  // namespace dctwin
