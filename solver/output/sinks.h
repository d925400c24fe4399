// sinks.h: where a run's rows go. A RunSink receives the run's layout, one OutputFrame per output
// row (every observable of the output table, solver/output/observables.h), fast rows when it
// asks for them, and the outcome. The run path (solver/run/run.h) feeds every sink; no sink sees
// the model or the state.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "solver/common/report.h"
#include "solver/output/observables.h"

namespace dctwin {

class RunSink {
 public:
  virtual ~RunSink() = default;
  // before the first row: what the run is
  virtual void begin(const RunLayout& L, const FrameLayout& F) { (void)L, (void)F; }
  // t = 0 and every output time; f.events holds the event log so far
  virtual void row(const OutputFrame& f) = 0;
  // > 0: also call fastRow every fastInterval() seconds (rounded to GPU steps) with the Rate::Fast
  // observables (sub-second power); 0: never
  virtual double fastInterval() const { return 0; }
  virtual void fastRow(const OutputFrame& f) { (void)f; }
  // after the last row (also after a failure or a cancel)
  virtual void end(const RunResult& r) { (void)r; }
};

// writes the run layout of docs/results.md as the run goes, flushing every `flush_every` rows;
// the file is created when the run begins. power_interval > 0: also the /power rows (rack and
// facility power every power_interval, rounded to GPU steps), to show the sub-second swings of
// synchronous training
class Hdf5Sink : public RunSink {
 public:
  explicit Hdf5Sink(std::string path, int flush_every = 10, double power_interval = 0);
  ~Hdf5Sink() override;
  void begin(const RunLayout& L, const FrameLayout& F) override;
  void row(const OutputFrame& f) override;
  double fastInterval() const override { return power_interval_; }
  void fastRow(const OutputFrame& f) override;
  void end(const RunResult& r) override;  // solver statistics, status and events, then close
  // write only the series whose paths match one of these globs (series_filter.h; /time always,
  // the name and index datasets always); begin() throws ResultsError naming a pattern that
  // matches no series of the output table. Empty: every series.
  void record(std::vector<std::string> patterns);
  // write a file past kMaxOutputBytes (solver/common/run_limits.h); without it begin() throws
  // RunSizeError, before the file is created, naming the size the run would write
  void allowLarge(bool allow) { allow_large_ = allow; }

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  bool allow_large_ = false;
  std::string path_;
  int flush_every_;
  double power_interval_;
};

}  // namespace dctwin
