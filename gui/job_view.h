// job_view.h: the Jobs tab: each job's bottleneck map at the timeline's time, as one stacked bar
// per job (where its wall time since the start went: compute, memory, NVLink and scale-out
// collectives, bubble, checkpoints, barrier waits, thermal, power cap, HBM throttling, fabric,
// stalls, restarts, lost work), its goodput and progress, and the same numbers in a table.
//
// Generic: the parts are every job-shaped `/job/time/<part>` row of the library's output table
// (solver/output/observables.h) that the run has, in table order, so a part added there shows up
// here without a change. The map is the mean over the job's GPUs (docs/models/job.md); its parts
// add up to the wall time since the job started. Per-GPU or per-rack maps are not outputs yet;
// what the outputs have per GPU is shown beside the map: the GPUs that throttled longest
// (/gpu/throttled_time) and the time each waited at barriers (/gpu/wait_time), and the racks
// whose GPUs throttled longest on average.
//
// Described training jobs (docs/models/job.md) also get a row each in the step-model table: the
// step model's nominal step time, tokens/s and MFU beside what the run achieved by the
// timeline's time (/job/iteration_time, /job/tokens_per_second, /job/mfu), memory per GPU
// (weights, gradients, optimizer, activations) against the GPU's HBM, micro-batches and the
// recompute mode, read from the run's layout or the results file's /job/model/* (RunData).
#pragma once

#include <QWidget>
#include <vector>

#include "gui/run_data.h"

class QLabel;
class QTableWidget;

namespace dctwin::gui {

class BottleneckPlot;

// one part of the map: "/job/time/thermal" -> "thermal", its colour and description
struct BottleneckPart {
  std::string path;
  QString name;
  QString description;
  QColor color;
};
// every `/job/time/*` row of the output table, in table order, with a fixed colour each
const std::vector<BottleneckPart>& bottleneckParts();

class JobView : public QWidget {
  Q_OBJECT
 public:
  explicit JobView(QWidget* parent = nullptr);
  void setRun(const RunData* d);
  void dataChanged();
  void setTime(double t);

  // what is shown, for the tests: the parts the run has, and per job the value of each (s)
  const std::vector<int>& parts() const { return parts_; }  // indices into bottleneckParts()
  double partSeconds(int job, int k) const { return value_[job][k]; }
  double totalSeconds(int job) const;
  double goodput(int job) const { return goodput_[job]; }  // (1), NaN when absent
  int jobCount() const { return int(value_.size()); }
  // the legend entries drawn (parts with time in any job), and every text drawn with its box
  std::vector<std::pair<QString, QColor>> legendEntries() const;
  struct DrawnLabel {
    QString text;
    QRect box;
  };
  const std::vector<DrawnLabel>& drawnLabels() const;
  QWidget* plot() const;
  QTableWidget* table() const { return table_; }
  // the GPUs that throttled longest (most first) and the racks by their GPUs' mean throttled time
  const std::vector<int>& slowGpus() const { return slow_gpu_; }
  const std::vector<int>& slowRacks() const { return slow_rack_; }
  QTableWidget* gpuTable() const { return gpu_table_; }
  // the step-model table: a row per described job (hidden when none is); its columns
  QTableWidget* modelTable() const { return model_table_; }
  static QStringList modelColumns();

 private:
  void recompute();
  void fillSlowest(int row);
  void fillModel(int row);

  const RunData* run_ = nullptr;
  double t_ = 0;
  std::vector<int> parts_;
  std::vector<std::vector<double>> value_;  // job x part (s)
  std::vector<double> goodput_, progress_;
  BottleneckPlot* plot_ = nullptr;
  QTableWidget* table_ = nullptr;
  QTableWidget* gpu_table_ = nullptr;
  QTableWidget* model_table_ = nullptr;
  std::vector<int> slow_gpu_, slow_rack_;
  QLabel* note_ = nullptr;
};

}  // namespace dctwin::gui
