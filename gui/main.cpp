// dctwin-gui: desktop application for data center managers
//
//   dctwin-gui [FACILITY.yaml | SCENARIO.yaml | RESULTS.h5]...
//   dctwin-gui --screenshots DIR     the user guide's screenshots: the default pod, a baseline
//                                    run and the rack-leak scenario, every view saved as PNG;
//                                    then the hall (hall_*.png, its plant too) and the campus
//
// With no file it opens the last facility opened, or the default pod.
#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSettings>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTimer>
#include <cstdio>

#include "gui/floor_plan.h"
#include "gui/main_window.h"
#include "gui/plant_view.h"
#include "gui/rack_detail.h"
#include "gui/run_data.h"
#include "gui/timeline.h"
#include "gui/what_if.h"
#include "solver/common/paths.h"
#include "solver/common/provenance.h"
#ifdef DCTWIN_GUI_3D
#include "gui/view3d/hall_view_3d.h"
#endif

namespace {

// waits for the window's run to end, keeping the event loop going
bool waitForRun(dctwin::gui::MainWindow& w) {
  QEventLoop loop;
  bool ok = false;
  QObject::connect(&w, &dctwin::gui::MainWindow::runFinished, &loop, [&](bool r) {
    ok = r;
    loop.quit();
  });
  if (!w.startRun()) return false;
  loop.exec();
  return ok;
}

// the bundled hall (768 racks, 55,296 GPUs): a short baseline, then the same with the facility
// water 4 K warmer from 1 min; every view at hall scale as hall_*.png
int hallScreenshots(dctwin::gui::MainWindow& w, const QString& dir, const QString& data) {
  using namespace dctwin::gui;
  w.stopComparing();
  if (!w.openFacility(data + "/facilities/hall_gb300.yaml")) return 11;
  w.whatIf()->resetScenario();
  // 7 min: the hall's training job starts at 5 min, so the Jobs tab has its bottleneck map
  w.whatIf()->setScenarioText("name: hall_baseline\nduration: 7 min\noutput_interval: 30 s\n",
                              "hall_baseline.yaml");
  if (!waitForRun(w)) return 12;
  w.whatIf()->setScenarioText(
      "name: hall_warm_water\nduration: 7 min\noutput_interval: 30 s\nevents:\n"
      "  - {time: 1 min, facility_water_temperature: 36 degC}\n",
      "hall_warm_water.yaml");
  if (!waitForRun(w)) return 13;
  w.timeline()->toEnd();
  w.floorPlan()->setMetric(Metric::JunctionMax);
  w.floorPlan()->resetView();
  w.compareWithPrevious();
  for (int k = 0; k < 3; ++k) w.compareFloor(k)->setMetric(Metric::JunctionMax);
  w.views()->setCurrentWidget(w.floorPlan());
  QApplication::processEvents();
  if (!w.saveScreenshots(dir, "hall_")) return 14;
  // closer: the hottest rack with its trays and GPUs, found by the search box
  const RunData& run = *w.currentRun();
  int hot = 0;
  for (int r = 0; r < run.nrack(); ++r)
    if (rackMetric(run, Metric::JunctionMax, r, run.rows() - 1) >
        rackMetric(run, Metric::JunctionMax, hot, run.rows() - 1))
      hot = r;
  w.floorPlan()->find(QString::fromStdString(run.rack_name[hot]));
  w.floorPlan()->zoomToRack(hot, 160);
  w.views()->setCurrentWidget(w.floorPlan());
  QApplication::processEvents();
  w.floorPlan()->grab().save(dir + "/hall_floor_zoom_rack.png", "PNG");
  w.floorPlan()->zoomToRack(hot, 30);
  w.floorPlan()->setAggregate(FloorPlan::Aggregate::Row);
  QApplication::processEvents();
  w.floorPlan()->grab().save(dir + "/hall_floor_rows.png", "PNG");
  w.floorPlan()->setAggregate(FloorPlan::Aggregate::None);
  w.floorPlan()->resetView();
  return 0;
}

// the hall with a plant: the bundled hall plus the plant section of pod_gb200_plant_w32.yaml
// scaled to the hall's 96 pods of 8 racks (96 dry coolers and chillers; each of 96 pumps stands
// for the pod's pair, 2 x 1200 L/min): the Plant tab at hall scale as hall_plant.png. An
// illustration for the guide, not a bundled facility.
int hallPlantScreenshot(dctwin::gui::MainWindow& w, const QString& dir, const QString& data,
                        const QString& tmp) {
  using namespace dctwin::gui;
  QFile hall(data + "/facilities/hall_gb300.yaml"),
      pod(data + "/facilities/pod_gb200_plant_w32.yaml");
  if (!hall.open(QIODevice::ReadOnly) || !pod.open(QIODevice::ReadOnly)) return 21;
  QString plant = QString::fromUtf8(pod.readAll());
  plant = plant.mid(plant.indexOf("\nplant:"));
  plant.replace("../weather/", data + "/weather/");
  plant.replace(QRegularExpression("count: 2\\n(\\s+)running: 2\\n(\\s+)rated_flow: 1200 L/min"),
                "count: 96\n\\1running: 96\n\\2rated_flow: 2400 L/min");
  plant.replace("design_flow: 2400 L/min", "design_flow: 230400 L/min");
  plant.replace(QRegularExpression("(dry_coolers:[^\\n]*\\n\\s+)count: 1"), "\\1count: 96");
  plant.replace(QRegularExpression("(chillers:[^\\n]*\\n\\s+)count: 1"), "\\1count: 96");
  const QString path = tmp + "/hall_gb300_plant.yaml";
  QFile out(path);
  if (!out.open(QIODevice::WriteOnly)) return 22;
  out.write(hall.readAll() + plant.toUtf8());
  out.close();
  w.stopComparing();
  if (!w.openFacility(path)) return 23;
  w.whatIf()->resetScenario();
  w.whatIf()->setScenarioText("name: hall_plant\nduration: 7 min\noutput_interval: 30 s\n",
                              "hall_plant.yaml");
  if (!waitForRun(w)) return 24;
  w.timeline()->toEnd();
  w.views()->setCurrentWidget(w.plant());
  QApplication::processEvents();
  if (!w.plant()->grab().save(dir + "/hall_plant.png", "PNG")) return 25;
  w.views()->setCurrentWidget(w.floorPlan());
  return 0;
}

// the campus (4 halls, 3,072 racks, 221,184 GPUs) after a minute: a block per hall, then one
// hall found by the search box
int campusScreenshots(dctwin::gui::MainWindow& w, const QString& dir, const QString& data) {
  using namespace dctwin::gui;
  w.stopComparing();
  if (!w.openFacility(data + "/facilities/campus_gb300.yaml")) return 31;
  w.whatIf()->resetScenario();
  w.whatIf()->setScenarioText("name: campus\nduration: 1 min\noutput_interval: 30 s\n",
                              "campus.yaml");
  if (!waitForRun(w)) return 32;
  w.timeline()->toEnd();
  w.views()->setCurrentWidget(w.floorPlan());
  w.floorPlan()->setMetric(Metric::JunctionMax);
  w.floorPlan()->resetView();
  QApplication::processEvents();
  if (!w.grab().save(dir + "/campus_main_window.png", "PNG")) return 33;
  w.floorPlan()->setAggregate(FloorPlan::Aggregate::Hall);
  QApplication::processEvents();
  w.floorPlan()->grab().save(dir + "/campus_by_hall.png", "PNG");
  w.floorPlan()->setAggregate(FloorPlan::Aggregate::None);
  w.floorPlan()->find("hall H3");
  QApplication::processEvents();
  w.floorPlan()->grab().save(dir + "/campus_hall_h3.png", "PNG");
  w.floorPlan()->resetView();
  return 0;
}

int screenshots(dctwin::gui::MainWindow& w, const QString& dir) {
  using namespace dctwin::gui;
  const QString data = QString::fromStdString(dctwin::dataDir());
  w.resize(1280, 800);
  w.show();
  if (!w.openFacility(data + "/facilities/pod_gb200.yaml")) return 1;
  // a baseline without faults, then the bundled rack-leak scenario
  w.whatIf()->resetScenario();
  w.whatIf()->setScenarioText("name: baseline\nduration: 20 min\noutput_interval: 5 s\n",
                              "baseline.yaml");
  if (!waitForRun(w)) return 2;
  if (!w.openScenario(data + "/scenarios/pod_rack_leak.yaml")) return 3;
  if (!waitForRun(w)) return 4;
  // at 12 min: the leak detected, A03 isolated and off, its neighbours warmer
  w.timeline()->seek(12 * 60);
  const RunData& run = *w.currentRun();
  w.selectRack(run.rackByName("A03"));
  w.pinRack(run.rackByName("A02"));
  w.pinRack(run.rackByName("A04"));
  w.floorPlan()->setMetric(Metric::LeakState);
  w.compareWithPrevious();
  for (int k = 0; k < 3; ++k) w.compareFloor(k)->setMetric(Metric::ReturnT);
  w.floorPlan()->setMetric(Metric::LeakState);
  QApplication::processEvents();
  if (!w.saveScreenshots(dir)) return 5;
  // the rack detail just before the leak, when its GPUs are working
  w.timeline()->seek(9 * 60 + 30);
  w.views()->setCurrentWidget(w.rackDetail());
  QApplication::processEvents();
  w.rackDetail()->grab().save(dir + "/rack_detail.png", "PNG");
  w.views()->setCurrentWidget(w.floorPlan());
  w.timeline()->seek(12 * 60);
  // the floor plan by temperature too
  w.floorPlan()->setMetric(Metric::JunctionMax);
  QApplication::processEvents();
  w.floorPlan()->grab().save(dir + "/floor_plan_junction.png", "PNG");
  if (const int rc = hallScreenshots(w, dir, data); rc != 0) return rc;
  QTemporaryDir tmp;
  if (const int rc = hallPlantScreenshot(w, dir, data, tmp.path()); rc != 0) return rc;
  if (const int rc = campusScreenshots(w, dir, data); rc != 0) return rc;
  std::printf("screenshots written to %s\n", qPrintable(QDir(dir).absolutePath()));
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  // the 3D view needs an OpenGL 3.2 core context, and never under the offscreen platform
  const bool offscreen = qEnvironmentVariable("QT_QPA_PLATFORM") == "offscreen";
#ifdef DCTWIN_GUI_3D
  if (!offscreen) dctwin::gui::HallView3D::setDefaultSurfaceFormat();
#endif
  QApplication app(argc, argv);
  QApplication::setOrganizationName("dctwin");
  QApplication::setApplicationName("dctwin-gui");
  QApplication::setApplicationVersion(QString::fromStdString(dctwin::versionText()));
  dctwin::setCommandLine(argc, argv);  // recorded in the results files it writes

  QCommandLineParser p;
  p.setApplicationDescription(
      "dctwin-gui: digital twin of liquid-cooled AI data centers (desktop front end)");
  p.addHelpOption();
  p.addVersionOption();
  p.addPositionalArgument("files", "facility or scenario YAML, or a results .h5 file", "[FILE...]");
  QCommandLineOption shots("screenshots", "write the user guide's screenshots into DIR and exit",
                           "DIR");
  QCommandLineOption no3d("no-3d", "leave the 3D view out (no OpenGL)");
  p.addOption(shots);
  p.addOption(no3d);
  p.process(app);

  dctwin::gui::MainWindowOptions opt;
  opt.with_3d = !offscreen && !p.isSet(no3d);
  if (p.isSet(shots)) opt.restore_settings = false;
  dctwin::gui::MainWindow w(opt);
  if (p.isSet(shots)) return screenshots(w, p.value(shots));

  w.show();
  const QStringList files = p.positionalArguments();
  if (!files.isEmpty()) {
    for (const QString& f : files) w.openFile(f);
  } else {
    // the last facility, else the default pod
    QString start = QSettings().value("files/last_facility").toString();
    if (start.isEmpty() || !QFileInfo::exists(start))
      start = QString::fromStdString(dctwin::dataFile("facilities/pod_gb200.yaml"));
    QTimer::singleShot(0, &w, [&w, start] { w.openFile(start); });
  }
  return app.exec();
}
