// what_if.h: the scenario panel: run length and output interval, the list of events (faults and
// input changes) with a form to add one (every fault kind of the library's fault table,
// solver/common/fault_table.h: its label, YAML, unit, range and default; and the facility-water
// temperature step), further scenario settings as YAML (detection, initial temperature),
// load/save of scenario files, run/cancel and the run's progress.
//
// The scenario text (docs/scenario-format.md) is what runs: the panel assembles it and the
// library parses it (dctwin::loadScenarioFromString), so every check and message is the
// library's. Each event is kept as its YAML item, e.g. "{time: 60 s, rack: A03, leak: {...}}".
#pragma once

#include <QStringList>
#include <QWidget>

#include "gui/run_data.h"
#include "solver/common/fault_table.h"

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QTableWidget;

namespace dctwin::gui {

// the form's faults are the library's (solver/common/fault_table.h): every kind a scenario can
// name, with the row's label, YAML, unit, range and default
using dctwin::FaultKind;
// the kinds in the form, in table order
std::vector<FaultKind> formFaultKinds();

class WhatIfPanel : public QWidget {
  Q_OBJECT
 public:
  explicit WhatIfPanel(QWidget* parent = nullptr);
  void setRun(const RunData* d);  // names for the target lists

  // the scenario as YAML, and its name
  QString scenarioText() const;
  QString scenarioName() const;
  // replace the scenario by a file's text; false (and *error) when the library rejects it
  bool setScenarioText(const QString& text, const QString& name, QString* error = nullptr);
  void resetScenario();  // the default: 20 min, 5 s outputs, no events

  // add a fault; time (s), value in the form's unit (the fault table's: mm, pumps, %, W, ...);
  // a leak's target is a rack or a CDU; returns the YAML item added, or "" with *error
  QString addFault(FaultKind kind, const QString& target, double time, double value,
                   QString* error = nullptr);
  // the facility-water supply temperature steps to degC at time (s)
  QString addSupplyStep(double time, double degC, QString* error = nullptr);
  // add an event given as a YAML flow mapping; false with *error when it does not parse
  bool addEventYaml(const QString& item, QString* error = nullptr);
  void removeEvent(int k);
  int eventCount() const { return int(events_.size()); }
  QString eventYaml(int k) const { return events_[k]; }
  void setDuration(double seconds);
  double duration() const;   // (s)
  double eventTime() const;  // the form's "At" (s)
  void setOutputInterval(double seconds);
  // preset the form (context menu on the floor plan); the supply step: presetSupplyStep
  void presetFault(FaultKind kind, const QString& target);
  void presetSupplyStep();

  void setRunning(bool running);
  void setProgress(double fraction, double t, double duration);
  void setStatus(const QString& text);

 signals:
  void runRequested();
  void cancelRequested();
  void loadRequested();
  void saveRequested();

 private:
  void refreshTable();
  void refreshForm();
  QString describe(const QString& item, QString* error) const;

  const RunData* run_ = nullptr;
  QStringList events_;
  QLineEdit* name_ = nullptr;
  QDoubleSpinBox* duration_ = nullptr;  // (min)
  QDoubleSpinBox* interval_ = nullptr;  // (s)
  QPlainTextEdit* extra_ = nullptr;
  QComboBox* kind_ = nullptr;
  QComboBox* target_ = nullptr;
  QDoubleSpinBox* at_ = nullptr;  // (min)
  QDoubleSpinBox* value_ = nullptr;
  QLabel* value_label_ = nullptr;
  QTableWidget* table_ = nullptr;
  QPushButton* run_button_ = nullptr;
  QPushButton* cancel_button_ = nullptr;
  QProgressBar* progress_ = nullptr;
  QLabel* status_ = nullptr;
};

}  // namespace dctwin::gui
