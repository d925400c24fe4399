// alarms.h: the alarms and events panel: every entry of the run's event log (faults, detector
// alarms: throttling onset, HBM over-temperature, leak detected, isolation, pump switch-over,
// breaker trip, ...) with time, severity, component and message; filter by severity and text.
// Activating an entry moves the timeline to its time and selects its component.
#pragma once

#include <QWidget>

#include "gui/run_data.h"

class QComboBox;
class QLineEdit;
class QLabel;
class QTableWidget;

namespace dctwin::gui {

class AlarmPanel : public QWidget {
  Q_OBJECT
 public:
  explicit AlarmPanel(QWidget* parent = nullptr);
  void setRun(const RunData* d);
  void dataChanged();  // new events appended
  int rowCount() const;
  // the event shown in table row k
  const EventRecord* eventAt(int k) const;
  // the first row whose event has this kind and component ("rack A03"), -1 if none
  int find(const std::string& kind, const std::string& component) const;
  void activateRow(int k);  // as if clicked
  // the rows shown, as CSV: time_s,severity,component,kind,message
  QString csvText() const;

 signals:
  void eventActivated(double time, const QString& component);

 private:
  void refill();

  const RunData* run_ = nullptr;
  std::size_t shown_events_ = 0;
  std::vector<int> rows_;  // event index of each table row
  QComboBox* severity_ = nullptr;
  QLineEdit* filter_ = nullptr;
  QTableWidget* table_ = nullptr;
  QLabel* detail_ = nullptr;  // the selected (else the latest) event in full
};

}  // namespace dctwin::gui
