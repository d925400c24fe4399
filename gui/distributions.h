// distributions.h: the facility at one time as distributions, not lists: histograms of GPU
// junction, HBM and SM clock across every GPU, the per-row spread (min, mean, p99, max of the
// racks' hottest junction, row by row), and the N hottest GPUs and racks with the likely cause of
// each (what differs from the median: a hot inlet, low flow, high power, a high thermal
// resistance, throttling, an isolated rack). Clicking a row of the lists selects the rack.
//
// Every colour and axis range comes from the data at that time, so GPUs that differ by a kelvin
// are told apart; the ticks are round numbers.
#pragma once

#include <QWidget>
#include <vector>

#include "gui/run_data.h"

class QTableWidget;
class QLabel;

namespace dctwin::gui {

// the likely reason GPU `gpu` (or, with gpu < 0, rack `rack`'s hottest GPU) runs hot at row, in
// words: the rack's isolation first, then the library's /gpu/hot_cause (the largest of the four
// terms raising the junction above the typical GPU: inlet, flow or plate, silicon, TIM or
// seating) with its size vs the median where the output table shows it ("hot coolant inlet
// (+2.1 K vs median rack)"); files without /gpu/hot_cause get the largest deviation from the
// median, marked "estimated"
QString hotCause(const RunData& d, int gpu, int rack, int row);

// a histogram of values on round-number bins
struct Histogram {
  std::vector<double> edges;  // bins + 1, round numbers
  std::vector<int> counts;
  double p99 = 0;
  int n = 0;
};
Histogram makeHistogram(std::vector<double> v, int max_bins = 40);

class HistogramPlot;
class RowSpreadPlot;

class DistributionView : public QWidget {
  Q_OBJECT
 public:
  explicit DistributionView(QWidget* parent = nullptr);
  void setRun(const RunData* d);
  void dataChanged();
  void setTime(double t);
  void setTopN(int n);

  // what is shown, for the tests
  const Histogram& histogram(int k) const { return hist_[k]; }  // 0 junction, 1 HBM, 2 clock
  int topGpuCount() const;
  int topGpu(int k) const;  // GPU index of the k-th hottest
  QString topGpuCause(int k) const;
  int topRack(int k) const;
  struct RowSpread {
    QString row;
    double min = 0, mean = 0, p99 = 0, max = 0;
  };
  const std::vector<RowSpread>& rowSpread() const { return spread_; }

 signals:
  void rackActivated(int rack);
  void gpuActivated(int gpu);

 private:
  void recompute();

  const RunData* run_ = nullptr;
  double t_ = 0;
  int top_n_ = 10;
  Histogram hist_[3];
  std::vector<RowSpread> spread_;
  std::vector<int> top_gpu_, top_rack_;
  HistogramPlot* plots_[3] = {nullptr, nullptr, nullptr};
  RowSpreadPlot* spread_plot_ = nullptr;
  QTableWidget* gpu_table_ = nullptr;
  QTableWidget* rack_table_ = nullptr;
  QLabel* note_ = nullptr;
};

}  // namespace dctwin::gui
