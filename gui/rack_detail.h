// rack_detail.h: one rack in detail: its compute trays and GPUs as a heatmap grid (trays down,
// GPUs across) of a chosen GPU quantity, the rack's loop values and its CDU's, at the timeline's
// time. Clicking a GPU cell asks for its series in the charts.
#pragma once

#include <QWidget>

#include "gui/run_data.h"

class QComboBox;
class QLabel;
class QTableWidget;

namespace dctwin::gui {

class GpuGrid;

class RackDetail : public QWidget {
  Q_OBJECT
 public:
  explicit RackDetail(QWidget* parent = nullptr);
  void setRun(const RunData* d);
  void setRack(int r);
  void setTime(double t);
  void dataChanged();
  int rack() const { return rack_; }
  // GPU quantity of the heatmap: 0 junction, 1 HBM, 2 power, 3 clock, 4 throttled
  void setQuantity(int q);
  // the heatmap value of GPU slot k of the rack (display units), for tests
  double cellValue(int k) const;

 signals:
  void gpuClicked(int gpu);  // global GPU index

 private:
  friend class GpuGrid;
  void refresh();

  const RunData* run_ = nullptr;
  int rack_ = -1;
  double t_ = 0;
  int quantity_ = 0;
  QLabel* title_ = nullptr;
  QComboBox* combo_ = nullptr;
  GpuGrid* grid_ = nullptr;
  QTableWidget* loop_ = nullptr;
  QTableWidget* cdu_ = nullptr;
};

}  // namespace dctwin::gui
