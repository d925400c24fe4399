// plant_view.h: the Plant tab: the cooling plant and its weather over the run: heat rejection,
// chiller, tower or dry-cooler and pump power, plant mode and staging, supply and return
// temperatures, outdoor dry and wet bulb, water use, PUE / pPUE / WUE, energy, cost and CO2, with
// the timeline's time as a cursor, and a table of every value at that time.
//
// Generic: the series are every facility-wide row of the library's output table
// (solver/output/observables.h) that exists with a plant (Needs::Plant) and that the run has,
// grouped into panels by their results-file group (/plant, /weather, /energy, /water), unit and
// basis; so a plant or annual output added to the table shows up here without a change.
#pragma once

#include <QWidget>
#include <vector>

#include "gui/run_data.h"

class QLabel;
class QTableWidget;

namespace dctwin::gui {

class PlantPlot;

class PlantView : public QWidget {
  Q_OBJECT
 public:
  explicit PlantView(QWidget* parent = nullptr);
  void setRun(const RunData* d);
  void dataChanged();
  void setTime(double t);

  // one panel: series of one group, unit and basis, in display units
  struct Panel {
    QString title;                 // "plant: power (kW)"
    QString unit;                  // display unit
    double scale = 1, offset = 0;  // display = SI * scale + offset
    std::vector<std::string> paths;
    std::vector<QString> names;  // "P_chillers"
  };
  const std::vector<Panel>& panels() const { return panels_; }
  // every series shown, and its value at the current time in display units
  std::vector<std::string> paths() const;
  double displayValue(const std::string& path) const;
  struct DrawnLabel {
    QString text;
    QRect box;
  };
  const std::vector<DrawnLabel>& drawnLabels() const;
  QWidget* plot() const;
  QTableWidget* table() const { return table_; }

 signals:
  void timeClicked(double t);

 private:
  friend class PlantPlot;
  void rebuild();
  void fillTable();

  const RunData* run_ = nullptr;
  double t_ = 0;
  std::vector<Panel> panels_;
  PlantPlot* plot_ = nullptr;
  QTableWidget* table_ = nullptr;
  QLabel* note_ = nullptr;
};

// "free cooling", "partial mechanical", "full mechanical" for /plant/mode
QString plantModeName(double mode);

}  // namespace dctwin::gui
