// floor_plan.h: the 2D top-down floor plan: rows of racks, CDUs, pipes and busways coloured by a
// chosen metric, a legend in the units people read, hover tooltips, click to select, right-click
// for the component's context menu (inject a fault). In compare mode it colours the difference
// between two runs (this run minus the baseline) on a diverging scale.
#pragma once

#include <QWidget>
#include <set>

#include "gui/floor_layout.h"
#include "gui/run_data.h"

class QComboBox;
class QCheckBox;
class QLabel;

namespace dctwin::gui {

class FloorCanvas;

class FloorPlan : public QWidget {
  Q_OBJECT
 public:
  explicit FloorPlan(QWidget* parent = nullptr);

  // the run to show (not owned; may be null); call dataChanged() when rows were appended
  void setRun(const RunData* d);
  // difference colouring against a baseline run (null: off)
  void setBaseline(const RunData* base);
  // both at once (one recompute): neither pointer is read while the other may dangle
  void setRunAndBaseline(const RunData* d, const RunData* base);
  void dataChanged();
  void setTime(double t);
  void setMetric(Metric m);
  Metric metric() const { return metric_; }
  void setTitle(const QString& title);
  void setSelectedRack(int r);
  void setSelectedCdu(int c);
  void setMarked(const std::set<int>& racks);  // racks pinned to the charts
  int selectedRack() const { return sel_rack_; }

  // what is drawn, for the 3D view and the tests
  QColor rackColor(int r) const;
  QColor cduColor(int c) const;
  double rackValue(int r) const;  // display units; the difference in compare mode
  double legendLo() const { return lo_; }
  double legendHi() const { return hi_; }
  QString legendTitle() const;
  QString legendUnit() const;
  bool differenceMode() const { return base_ != nullptr; }
  const FloorLayout& layout() const { return layout_; }
  QString tooltipForRack(int r) const;
  QString tooltipForCdu(int c) const;
  QImage renderImage(QSize size = QSize(1280, 520));
  // the drawing surface and where a rack's centre is on it (for mouse tests)
  QWidget* canvas() const;
  QPoint rackCenter(int r) const;

 signals:
  void rackClicked(int rack, Qt::KeyboardModifiers mods);
  void cduClicked(int cdu);
  void rackDoubleClicked(int rack);  // opens the rack detail
  // kind 0 rack, 1 CDU, 2 empty floor
  void contextMenuRequested(int kind, int index, const QPoint& global_pos);
  void metricChanged(dctwin::gui::Metric m);
  void colorsChanged();

 private:
  friend class FloorCanvas;
  void recompute();
  double valueAt(const RunData& d, int rack, double t) const;

  const RunData* run_ = nullptr;
  const RunData* base_ = nullptr;
  FloorLayout layout_;
  Metric metric_ = Metric::JunctionMax;
  double t_ = 0;
  double lo_ = 0, hi_ = 1;
  int sel_rack_ = -1, sel_cdu_ = -1;
  std::set<int> marked_;
  std::vector<QColor> rack_colors_, cdu_colors_;
  std::vector<double> rack_values_;
  QString title_;
  QComboBox* combo_ = nullptr;
  QCheckBox* auto_range_ = nullptr;
  QLabel* title_label_ = nullptr;
  FloorCanvas* canvas_ = nullptr;
};

}  // namespace dctwin::gui
