// charts.h: time-series chart (Qt Charts) of one quantity for the selected components: several
// racks, CDUs, GPUs or jobs at once; in compare mode the baseline run's series are drawn dashed
// next to this run's. Rubber-band zoom, wheel zoom, drag to pan (right or middle button), arrow
// keys, a reset button; a cursor line at the timeline's time (a click moves the timeline there);
// CSV export of what is plotted.
#pragma once

#include <QWidget>
#include <vector>

#include "gui/run_data.h"

class QChart;
class QComboBox;
class QLineSeries;
class QValueAxis;

namespace dctwin::gui {

class ZoomChartView;

class ChartPanel : public QWidget {
  Q_OBJECT
 public:
  explicit ChartPanel(QWidget* parent = nullptr);
  void setRuns(const RunData* run, const RunData* baseline);
  void setRacks(const std::vector<int>& racks);
  void setGpus(const std::vector<int>& gpus);
  void setQuantity(int k);
  int quantity() const;
  static int quantityCount();
  static QString quantityName(int k);
  void setCursorTime(double t);
  void dataChanged();
  void resetZoom();

  // what is plotted: name of each series and its points (time s, display units)
  int seriesCount() const { return int(names_.size()); }
  QString seriesName(int k) const { return names_[k]; }
  // CSV: "time_s,<series> [unit],..." then one line per time of this run; false on I/O error
  QString csvText() const;
  bool exportCsv(const QString& path, QString* error = nullptr) const;
  QImage renderImage();
  // the time axis's unit: seconds per unit and its name ("min", "h", "d"), by the longest run
  // plotted: minutes up to 2 h, hours up to 4 days, days beyond (a year is 365 d, not 525,600 min)
  struct TimeUnit {
    double seconds = 60;
    const char* name = "min";
  };
  static TimeUnit timeUnitFor(double duration);
  TimeUnit timeUnit() const { return unit_; }
  QString timeAxisTitle() const;

 signals:
  void quantityChanged(int k);
  void timeClicked(double t);  // a click in the plot (s)

 private:
  friend class ZoomChartView;
  void rebuild();

  const RunData* run_ = nullptr;
  const RunData* base_ = nullptr;
  std::vector<int> racks_, gpus_;
  double cursor_t_ = 0;
  TimeUnit unit_;
  QComboBox* combo_ = nullptr;
  QChart* chart_ = nullptr;
  ZoomChartView* view_ = nullptr;
  QValueAxis* ax_ = nullptr;
  QValueAxis* ay_ = nullptr;
  QLineSeries* cursor_ = nullptr;
  std::vector<QLineSeries*> series_;
  std::vector<QString> names_;
  std::vector<std::vector<double>> values_;  // per series, per row of its run
  std::vector<const RunData*> owners_;
};

}  // namespace dctwin::gui
