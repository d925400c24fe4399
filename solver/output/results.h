// results.h: HDF5 results file, written as a run goes
//
// time series are 2-D datasets [time x width] (or 1-D [time] for width 0), chunked, shuffled and
// deflated, with an unlimited time dimension and NaN fill; rows are buffered and written a chunk
// at a time, and flush() pushes everything to disk so an interrupted run leaves a readable file.
// Every dataset carries a `units` attribute (SI: "K", "Pa", "m3/s", "W", "1", ...) and a
// `description`. No HDF5 types appear in this header.
//
// Crash safety (docs/results.md, "Flushing and interrupted runs"): between two flushes the file
// on disk is not touched except by chunks written to space never used before (no freed space is
// reused, the metadata cache never evicts), so a process killed between flushes leaves exactly
// the file of the last flush. A writer that flushes only when every series' block is full
// (flush(false) at multiples of chunkRows()) never rewrites a chunk. The file is written as
// PATH.partial and takes its name at the end of its first flush with rows (or at its close).
// Before a flush or a static dataset the writer checks there is room for what it writes; a
// write that fails (a full disk) freezes the file as of its last flush. The file is locked
// (flock, exclusive) for as long as it is open: a second writer or a reader holding it makes the
// constructor throw before anything is truncated.
#pragma once

#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "solver/common/provenance.h"

namespace dctwin {

class ResultsError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// throws ResultsError when `output` names the same file as one of `inputs` (empty ones are
// skipped), through links and whatever the spelling (the same device and inode): an output
// never replaces the facility, scenario, sweep, journal or results file it came from
void checkOutputPath(const std::string& output, const std::vector<std::string>& inputs);

class ResultsFile {
 public:
  // creates (truncates) the file; throws ResultsError naming the path and the reason. Refuses
  // (throws, leaving the file as it is) when another process holds the file open with a lock (a
  // run writing it, an HDF5 reader) or when the path is an existing file that is not HDF5.
  // chunk_rows: rows per chunk of every series (fewer only where one series' row buffer would
  // exceed 32 MiB). expected_rows, widest: about how many rows the series will hold and the
  // widest one's columns (0: unknown), which size the chunk index's B-tree nodes so that they
  // rarely split, a split being what a kill during a flush can break (docs/results.md)
  explicit ResultsFile(const std::string& path, std::size_t chunk_rows = 64,
                       std::size_t expected_rows = 0, std::size_t widest = 1);
  ~ResultsFile();  // flushes and closes
  ResultsFile(const ResultsFile&) = delete;
  ResultsFile& operator=(const ResultsFile&) = delete;

  // attributes on the root ("/") or on a group/dataset path; groups are created as needed
  void setAttribute(const std::string& path, const std::string& name, const std::string& value);
  void setAttribute(const std::string& path, const std::string& name, double value);
  void setAttribute(const std::string& path, const std::string& name, long long value);

  // static datasets
  void writeStrings(const std::string& path, const std::vector<std::string>& values,
                    const std::string& description);
  void writeVector(const std::string& path, std::span<const double> values,
                   const std::string& units, const std::string& description);
  void writeIntVector(const std::string& path, std::span<const long long> values,
                      const std::string& description);

  // makes the dataset `scale` a dimension scale named `name` (HDF5's H5DS, as netCDF-4 and xarray
  // read coordinates) and attaches it to dimension `dim` of the dataset `path`: /time to a series'
  // rows, /rack/names to a rack series' columns
  void attachScale(const std::string& path, unsigned dim, const std::string& scale,
                   const std::string& name);

  // growing time series; returns a handle for appendRow
  int addSeries(const std::string& path, std::size_t width, const std::string& units,
                const std::string& description);
  // append one row (row.size() == width, or 1 for width 0); throws ResultsError on mismatch
  void appendRow(int series, std::span<const double> row);
  std::size_t rows(int series) const;
  std::size_t chunkRows(int series) const;  // rows per chunk (and buffered block) of a series
  // compress the chunks of a series that spans several (one column per GPU) on this many
  // threads; the file is the same byte for byte (1: HDF5's own write, the default)
  void setThreads(int threads);

  // growing 1-D series of strings (the event log); written at every flush, one chunk per entry
  int addStringSeries(const std::string& path, const std::string& description);
  void appendString(int series, const std::string& value);

  // writes the buffered rows and calls H5Fflush. partial_blocks = false: only the blocks that are
  // full (and the string series), so that no chunk is ever rewritten; the rows of partial blocks
  // stay buffered until their block fills or the file closes
  void flush(bool partial_blocks = true);
  void close();  // flush and close; further calls throw

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// the provenance root attributes every results file carries, run and sweep files alike
// (docs/results.md, Root attributes): dctwin_version, git_revision, command_line, host, created,
// data_dir, and the solver settings solver_rtol, solver_atol_temperature, solver_atol_control,
// solver_max_step, output_interval, gpu_step, coupling_step
void writeProvenance(ResultsFile& f, const Provenance& p, const SolverSettings& s);

}  // namespace dctwin
