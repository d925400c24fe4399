// main_window.h: the dctwin-gui main window: views (floor plan, 3D hall, rack detail, compare),
// timeline, charts, alarms and the what-if panel around one current run; menus, toolbar and
// shortcuts; open/save of facility, scenario and results files; PNG and CSV export; recent files
// and settings (QSettings). Simulations run on a RunWorker thread and stream into the views.
//
// Errors (a corrupt or truncated file, a rejected scenario, a failed run) go through
// reportError(), which shows a message box naming the file and the reason; tests replace it with
// setErrorHook() to capture the message instead.
#pragma once

#include <QMainWindow>
#include <QTemporaryDir>
#include <functional>
#include <memory>
#include <optional>
#include <set>

#include "gui/run_data.h"
#include "gui/run_worker.h"
#include "gui/what_if.h"
#include "solver/input/spec.h"

class QAction;
class QDockWidget;
class QLabel;
class QMenu;
class QTabWidget;
class QTimer;

namespace dctwin::gui {

class AlarmPanel;
class ChartPanel;
class DistributionView;
class FloorPlan;
class HallView3D;
class JobView;
class PlantView;
class RackDetail;
class Timeline;

using ErrorHook = std::function<void(const QString& title, const QString& message)>;
// replaces the message box (null restores it); returns the previous hook
ErrorHook setErrorHook(ErrorHook hook);
void reportError(QWidget* parent, const QString& title, const QString& message);

struct MainWindowOptions {
  bool with_3d = true;           // build the VTK 3D tab (needs an X display; never offscreen)
  bool restore_settings = true;  // window geometry, recent files, choices (QSettings)
};

class MainWindow : public QMainWindow {
  Q_OBJECT
 public:
  explicit MainWindow(const MainWindowOptions& options = {}, QWidget* parent = nullptr);
  ~MainWindow() override;

  // files: a facility or scenario YAML (told apart by their keys) or a results .h5
  bool openFile(const QString& path);
  bool openFacility(const QString& path);
  bool openScenario(const QString& path);
  bool openResults(const QString& path);
  bool saveScenario(const QString& path);
  bool saveFacility(const QString& path);  // the facility YAML of the current run, verbatim
  bool saveResults(const QString& path);
  bool compareWithFile(const QString& path);
  bool compareWithPrevious();
  void stopComparing();

  // runs
  bool startRun();
  void cancelRun();
  bool isRunning() const;
  const RunOutcome& lastOutcome() const { return outcome_; }

  // selection and time
  void selectRack(int r);
  void selectCdu(int c);
  // pin a rack to the charts (Ctrl+click on the floor plan)
  void pinRack(int r, bool on = true);
  void injectFault(FaultKind kind, const QString& target);
  void injectSupplyStep();  // the facility-water supply temperature steps (form default)

  // export
  bool exportPng(QWidget* view, const QString& path);
  bool exportChartCsv(int chart, const QString& path);
  bool exportAlarmsCsv(const QString& path);
  // every view as PNG into dir (docs/gui/); false when one could not be written
  bool saveScreenshots(const QString& dir, const QString& prefix = QString());

  // parts, for tests and the screenshot mode
  const RunData* currentRun() const { return current_.get(); }
  const RunData* baselineRun() const { return baseline_.get(); }
  FloorPlan* floorPlan() const { return floor_; }
  FloorPlan* compareFloor(int k) const { return cmp_[k]; }
  RackDetail* rackDetail() const { return detail_; }
  DistributionView* distributions() const { return dist_; }
  JobView* jobs() const { return jobs_; }
  PlantView* plant() const { return plant_; }
  QWidget* compareView() const { return cmp_view_; }
  QDockWidget* alarmDock() const { return alarm_dock_; }
  QDockWidget* chartDock() const { return chart_dock_; }
  AlarmPanel* alarms() const { return alarms_; }
  WhatIfPanel* whatIf() const { return what_if_; }
  Timeline* timeline() const { return timeline_; }
  ChartPanel* chart(int k) const { return charts_[k]; }
  QTabWidget* views() const { return tabs_; }
  QWidget* view3d() const;
  QStringList recentFiles() const { return recent_; }

 signals:
  void runFinished(bool ok);
  void runStarted();

 protected:
  void closeEvent(QCloseEvent* e) override;

 private:
  double injectTime() const;  // when an injected event happens (s)
  void showInjected(const QString& item, const QString& error);
  void buildUi();
  void buildMenus();
  void setCurrent(std::unique_ptr<RunData> run);
  void attachViews();
  void dataArrived();
  void poll();
  void onFinished(const RunOutcome& out);
  void onTime(double t);
  void onEvent(double t, const QString& component);
  void onRackClicked(int r, Qt::KeyboardModifiers mods);
  void onContextMenu(int kind, int index, const QPoint& pos);
  void update3d();
  void updateCharts();
  void addRecent(const QString& path);
  void rebuildRecentMenu();
  void loadSettings();
  void saveSettings();
  void updateTitle();
  QString defaultDir() const;
  QWidget* currentView() const;

  MainWindowOptions opt_;
  // the facility runs start from
  std::optional<FacilitySpec> spec_;
  QString facility_path_;
  // runs: the current one (shown), the one before it, and a baseline for comparison
  std::unique_ptr<RunData> current_, previous_, baseline_;
  int run_counter_ = 0;
  RunWorker* worker_ = nullptr;
  QTimer* poll_ = nullptr;
  RunOutcome outcome_;
  QTemporaryDir tmp_;
  QString current_results_;  // results file of the current run
  int sel_rack_ = -1, sel_cdu_ = -1;
  std::set<int> pinned_;
  std::vector<int> gpus_;

  QTabWidget* tabs_ = nullptr;
  FloorPlan* floor_ = nullptr;
  FloorPlan* cmp_[3] = {nullptr, nullptr, nullptr};  // baseline, this run, difference
  RackDetail* detail_ = nullptr;
  DistributionView* dist_ = nullptr;
  JobView* jobs_ = nullptr;
  PlantView* plant_ = nullptr;
  QWidget* cmp_view_ = nullptr;
  HallView3D* hall3d_ = nullptr;
  bool scene3d_dirty_ = true;
  Timeline* timeline_ = nullptr;
  ChartPanel* charts_[2] = {nullptr, nullptr};
  AlarmPanel* alarms_ = nullptr;
  WhatIfPanel* what_if_ = nullptr;
  QDockWidget* chart_dock_ = nullptr;
  QDockWidget* alarm_dock_ = nullptr;
  QDockWidget* what_if_dock_ = nullptr;
  QLabel* status_run_ = nullptr;
  QMenu* recent_menu_ = nullptr;
  QStringList recent_;
  QString last_dir_;
};

}  // namespace dctwin::gui
