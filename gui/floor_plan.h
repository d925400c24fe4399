// floor_plan.h: the 2D top-down floor plan: rows of racks, CDUs, pipes and busways coloured by a
// chosen metric, a legend in the units people read, hover tooltips, click to select, right-click
// for the component's context menu (inject a fault). In compare mode it colours the difference
// between two runs (this run minus the baseline) on a diverging scale; the two side-by-side panes
// share one colour scale (setRangeWith).
//
// Scale: the wheel zooms about the cursor, a drag pans, Home (or the Fit button) shows all. What
// is drawn follows the zoom (levels of detail): at hall scale racks are coloured cells, pipes and
// busways lines; closer, the rack names and values, then the trays (and their GPUs) inside each
// rack, coloured by the hottest GPU junction. Labels are drawn only where they fit and do not
// overlap one another. Racks can be coloured by their group (row, CDU loop, busway): the worst
// rack of the group. A search box finds a rack, CDU, busway, hall or GPU ("gpu 1234") by name.
// On a campus (racks[].hall) each hall is a block with its name: campus -> hall -> row -> rack ->
// tray -> GPU; "By hall" colours each hall by its worst rack.
#pragma once

#include <QWidget>
#include <set>

#include "gui/floor_layout.h"
#include "gui/run_data.h"

class QComboBox;
class QCheckBox;
class QLabel;
class QLineEdit;

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
  // the bar above the drawing (metric, grouping, range, search, fit); compare panes show it once
  void setControlsVisible(bool on);
  // the search box and the Fit button (compare panes leave them out: 1280 px for three panes)
  void setSearchVisible(bool on);
  void setSelectedRack(int r);
  void setSelectedCdu(int c);
  void setMarked(const std::set<int>& racks);  // racks pinned to the charts
  int selectedRack() const { return sel_rack_; }
  // another run whose values widen the auto range (compare: both panes on one scale); null: off.
  // Read at the next recompute: set it before setRun so that no stale pointer is read
  void setRangeWith(const RunData* other);

  // groups racks are coloured by (their worst rack)
  enum class Aggregate { None, Row, CduLoop, Busway, Hall };
  void setAggregate(Aggregate a);
  Aggregate aggregate() const { return agg_; }

  // the view: zoom 1 shows everything; the world point (m) at the centre of the drawing
  void zoomBy(double factor, QPointF widget_anchor = QPointF(-1, -1));
  void zoomToRack(int r, double rack_px = 90);  // centre the rack, about rack_px wide
  void resetView();
  double zoom() const { return zoom_; }
  double pixelsPerMetre() const;
  // find a rack / CDU / busway / GPU by name ("A03", "cdu1", "gpu 17", "busway BW-A1"), select and
  // centre it; false (and the box marked) when nothing matches
  bool find(const QString& text);
  QLineEdit* searchBox() const { return search_; }

  // what the legend names, with the colour of each entry: the categories in categorical mode
  // (rack states and CDU states), the tick labels on the continuous scale otherwise
  std::vector<std::pair<QString, QColor>> legendEntries() const;
  std::vector<double> legendTicks() const { return ticks_; }
  // text drawn at the last paint, with its box in canvas pixels (tests: nothing clipped or
  // overlapping)
  struct DrawnLabel {
    QString text;
    QRect box;
  };
  const std::vector<DrawnLabel>& drawnLabels() const { return drawn_; }

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
  // air-cooled racks: drawn in their rows with a fan mark, coloured where the metric
  // applies to them (power, air in/out, running or off), grey otherwise
  QColor airRackColor(int k) const;
  QString tooltipForAirRack(int k) const;
  QPoint airRackCenter(int k) const;
  QImage renderImage(QSize size = QSize(1280, 520));
  // the drawing surface and where a rack's centre is on it (for mouse tests)
  QWidget* canvas() const;
  QPoint rackCenter(int r) const;

 signals:
  void rackClicked(int rack, Qt::KeyboardModifiers mods);
  void cduClicked(int cdu);
  void rackDoubleClicked(int rack);  // opens the rack detail
  void gpuFound(int gpu);            // the search found a GPU (its rack was selected)
  // kind 0 rack, 1 CDU, 2 empty floor
  void contextMenuRequested(int kind, int index, const QPoint& global_pos);
  void metricChanged(dctwin::gui::Metric m);
  void colorsChanged();

 private:
  friend class FloorCanvas;
  void recompute();
  double valueAt(const RunData& d, int rack, double t) const;
  int groupOf(int rack) const;

  const RunData* run_ = nullptr;
  const RunData* base_ = nullptr;
  FloorLayout layout_;
  Metric metric_ = Metric::JunctionMax;
  double t_ = 0;
  double lo_ = 0, hi_ = 1;
  int sel_rack_ = -1, sel_cdu_ = -1;
  std::set<int> marked_;
  std::vector<QColor> rack_colors_, cdu_colors_, air_colors_;
  std::vector<double> rack_values_;
  std::vector<double> ticks_;
  const RunData* range_with_ = nullptr;
  Aggregate agg_ = Aggregate::None;
  double zoom_ = 1.0;
  QPointF center_;  // world (m); null: the layout's centre
  bool has_center_ = false;
  mutable std::vector<DrawnLabel> drawn_;
  QString title_;
  QComboBox* combo_ = nullptr;
  QComboBox* agg_combo_ = nullptr;
  QLineEdit* search_ = nullptr;
  QWidget* bar_ = nullptr;
  QWidget* fit_ = nullptr;
  QLabel* colour_by_ = nullptr;
  QCheckBox* auto_range_ = nullptr;
  QLabel* title_label_ = nullptr;
  FloorCanvas* canvas_ = nullptr;
};

}  // namespace dctwin::gui
