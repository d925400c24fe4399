// run_worker.h: runs one simulation on a worker thread and streams its rows to the GUI
//
// start() copies the facility spec and the scenario text and returns at once; the thread applies
// the scenario, compiles, simulates (dctwin::simulate) and writes the results file (Hdf5Sink)
// while a StreamSink copies each output row into a buffer under a mutex. The GUI thread polls
// (take()) from a QTimer: it never waits on the worker, and the worker never touches a widget.
// cancel() sets the atomic flag of RunOptions::cancel; the run stops at the next coupling window
// and keeps its results. finished() is emitted on the GUI thread (queued).
#pragma once

#include <QObject>
#include <QString>
#include <atomic>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

#include "gui/run_data.h"
#include "solver/input/spec.h"

namespace dctwin::gui {

struct RunOutcome {
  bool ok = false;
  bool cancelled = false;
  QString error;     // load/compile/solver failure, in words
  double t_end = 0;  // (s)
  double wall_seconds = 0;
  QString summary;       // dctwin::formatSummary
  QString results_path;  // the HDF5 file written
};

class RunWorker : public QObject {
  Q_OBJECT
 public:
  explicit RunWorker(QObject* parent = nullptr);
  ~RunWorker() override;  // cancels and joins

  // results_path: where the HDF5 results go ("" for none). False when a run is going on.
  bool start(const FacilitySpec& spec, const std::string& scenario_text,
             const std::string& scenario_name, const QString& results_path);
  void cancel();
  bool running() const { return running_; }
  double progress() const;  // 0 .. 1
  double simTime() const { return t_now_.load(); }
  double duration() const { return duration_.load(); }

  // the static layout, once compiled (moved out; empty optional before and after)
  std::optional<RunData> takeSkeleton();
  // rows and events produced since the last call
  RowBlock take();

 signals:
  void finished(const dctwin::gui::RunOutcome& outcome);

 private:
  void work(FacilitySpec spec, std::string text, std::string name, std::string path);

  std::thread thread_;
  std::atomic<bool> cancel_{false};
  std::atomic<bool> running_{false};
  std::atomic<double> t_now_{0}, duration_{1};
  std::mutex mutex_;
  std::optional<RunData> skeleton_;
  RowBlock pending_;

  friend struct StreamSink;
};

}  // namespace dctwin::gui

Q_DECLARE_METATYPE(dctwin::gui::RunOutcome)
