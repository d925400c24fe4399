// gui_test.cpp: QTest checks of dctwin-gui under QT_QPA_PLATFORM=offscreen (no 3D tab): open the
// default pod, run a short leak scenario through the real worker thread while the event loop
// keeps serving a timer, the alarms and the floor-plan colours that follow, cancel, bad files,
// chart CSV, scenario files, settings, the timeline and compare colouring. A screenshot of the
// main window is saved in the build folder (DCTWIN_GUI_ARTIFACT_DIR) as a test artifact.
#include <sys/stat.h>

#include <QApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QProgressBar>
#include <QSettings>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>

#include "gui/alarms.h"
#include "gui/charts.h"
#include "gui/floor_plan.h"
#include "gui/main_window.h"
#include "gui/rack_detail.h"
#include "gui/run_data.h"
#include "gui/timeline.h"
#include "gui/what_if.h"
#include "solver/input/loader.h"
#include "solver/output/results.h"
#include "solver/run/run.h"

using namespace dctwin;
using namespace dctwin::gui;

namespace {

const QString kSource = DCTWIN_SOURCE_DIR;
const QString kPod = kSource + "/data/facilities/pod_gb200.yaml";
const QString kArtifacts = DCTWIN_GUI_ARTIFACT_DIR;

// captures reportError() for one test
struct ErrorCapture {
  QStringList titles, messages;
  ErrorHook old;
  ErrorCapture() {
    old = setErrorHook([this](const QString& t, const QString& m) {
      titles << t;
      messages << m;
    });
  }
  ~ErrorCapture() { setErrorHook(old); }
};

MainWindowOptions offscreenOptions() {
  MainWindowOptions o;
  o.with_3d = false;           // QOpenGLWidget crashes under offscreen
  o.restore_settings = false;  // tests do not touch the user's settings
  return o;
}

// a 30-minute leak scenario, the leak at A03 from 60 s, added the way the context menu does it
// (long enough that the run lasts many 20 ms timer periods even on a fast machine)
void setupLeakScenario(MainWindow& w) {
  w.whatIf()->resetScenario();
  w.whatIf()->setDuration(1800);
  w.whatIf()->setOutputInterval(5);
  w.timeline()->seek(0);
  w.injectFault(gui::FaultKind::Leak, "A03");
}

}  // namespace

class GuiTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QApplication::setOrganizationName("dctwin-test");
    QApplication::setApplicationName("dctwin-gui-test");
  }

  void openPod() {
    ErrorCapture errors;
    MainWindow w(offscreenOptions());
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(w.openFile(kPod));
    QVERIFY(errors.messages.isEmpty());
    const RunData* d = w.currentRun();
    QVERIFY(d);
    QCOMPARE(d->nrack(), 8);
    QCOMPARE(d->ncdu(), 1);
    QCOMPARE(d->ngpu(), 576);
    QCOMPARE(d->rack_trays[0], 18);
    QCOMPARE(d->rack_gpunum[0], 72);
    // the floor layout: racks 0.6 m apart along x, the CDU before them
    const FloorLayout& L = w.floorPlan()->layout();
    QCOMPARE(int(L.rack.size()), 8);
    QCOMPARE(L.rack[2].x(), 1.2);
    QVERIFY(L.cdu[0].right() < L.rack[0].left());
    QCOMPARE(int(L.pipes.size()), 16);
    QCOMPARE(int(L.busways.size()), 2);
    // before any run nothing is known: grey racks
    QCOMPARE(w.floorPlan()->rackColor(2), QColor(128, 128, 128));
    // tooltips name the rack and its CDU
    QVERIFY(w.floorPlan()->tooltipForRack(2).contains("A03"));
    QVERIFY(w.floorPlan()->tooltipForRack(2).contains("cdu1"));
    QVERIFY(w.recentFiles().contains(QFileInfo(kPod).absoluteFilePath()));
    // the mouse: click selects, Ctrl+click pins to the charts, double-click opens the detail
    QWidget* canvas = w.floorPlan()->canvas();
    QTest::mouseClick(canvas, Qt::LeftButton, {}, w.floorPlan()->rackCenter(4));
    QCOMPARE(w.floorPlan()->selectedRack(), 4);
    QCOMPARE(w.rackDetail()->rack(), 4);
    QTest::mouseClick(canvas, Qt::LeftButton, Qt::ControlModifier, w.floorPlan()->rackCenter(6));
    QCOMPARE(w.floorPlan()->selectedRack(), 4);
    QCOMPARE(w.chart(0)->seriesCount(), 2);  // the selected rack and the pinned one
    QTest::mouseDClick(canvas, Qt::LeftButton, {}, w.floorPlan()->rackCenter(1));
    QCOMPARE(w.floorPlan()->selectedRack(), 1);
    QCOMPARE(w.views()->currentWidget(), static_cast<QWidget*>(w.rackDetail()));
    // save the facility and open the copy
    QTemporaryDir tmp;
    QVERIFY(w.saveFacility(tmp.filePath("pod_copy.yaml")));
    QVERIFY(w.openFile(tmp.filePath("pod_copy.yaml")));
    QCOMPARE(w.currentRun()->nrack(), 8);
    QVERIFY(errors.messages.isEmpty());
  }

  // File > Open on what is not a dctwin file: a FIFO (the window must not freeze), /dev/zero (no
  // memory blow-up), a folder, a 60 MB file, a text file (its content is not shown)
  void openBadFilesAtOnce() {
    ErrorCapture errors;
    MainWindow w(offscreenOptions());
    QTemporaryDir tmp;
    const QString fifo = tmp.filePath("fifo.yaml");
    QVERIFY(::mkfifo(fifo.toLocal8Bit().constData(), 0600) == 0);
    const QString large = tmp.filePath("large.yaml");
    {
      QFile f(large);
      QVERIFY(f.open(QIODevice::WriteOnly));
      QVERIFY(f.resize(60 << 20));
    }
    const QString passwd = tmp.filePath("passwd");
    {
      QFile f(passwd);
      QVERIFY(f.open(QIODevice::WriteOnly));
      f.write("root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1:daemon:/usr/sbin:/bin/sh\n");
    }
    QElapsedTimer clock;
    clock.start();
    for (const QString& p :
         {fifo, QString("/dev/zero"), tmp.path(), large, passwd, tmp.filePath("fifo.h5")}) {
      if (p.endsWith("fifo.h5")) QVERIFY(::mkfifo(p.toLocal8Bit().constData(), 0600) == 0);
      QVERIFY2(!w.openFile(p), qPrintable(p));
    }
    QVERIFY(clock.elapsed() < 10000);
    QCOMPARE(errors.messages.size(), 6);
    for (const QString& m : errors.messages) {
      QVERIFY2(!m.contains("root:x") && !m.contains("daemon"), qPrintable(m));
    }
    QVERIFY(errors.messages[0].contains("FIFO"));
    QVERIFY(errors.messages[1].contains("character device"));
    QVERIFY(errors.messages[3].contains("too large"));
  }

  void leakRunStreamsDetectsIsolates() {
    ErrorCapture errors;
    MainWindow w(offscreenOptions());
    w.resize(1280, 800);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(w.openFacility(kPod));
    setupLeakScenario(w);
    QCOMPARE(w.whatIf()->eventCount(), 1);
    QVERIFY(w.whatIf()->eventYaml(0).contains("rack: A03"));
    QVERIFY(w.whatIf()->eventYaml(0).contains("time: 60 s"));
    w.floorPlan()->setMetric(Metric::LeakState);

    // the event loop keeps serving a 20 ms timer while the worker runs
    int ticks = 0, rows_seen_live = 0;
    QTimer timer;
    timer.setInterval(20);
    connect(&timer, &QTimer::timeout, [&] {
      ++ticks;
      if (w.isRunning() && w.currentRun())
        rows_seen_live = std::max(rows_seen_live, w.currentRun()->rows());
    });
    QElapsedTimer clock;
    clock.start();
    timer.start();
    QSignalSpy finished(&w, &MainWindow::runFinished);
    QVERIFY(w.startRun());
    QVERIFY(w.isRunning());
    QVERIFY(!w.startRun());  // one run at a time
    QTRY_VERIFY_WITH_TIMEOUT(!w.isRunning(), 120000);
    const qint64 ms = clock.elapsed();
    timer.stop();
    QCOMPARE(finished.count(), 1);
    QVERIFY2(errors.messages.isEmpty(), qPrintable(errors.messages.join("\n")));
    QVERIFY(w.lastOutcome().ok);
    QVERIFY(!w.lastOutcome().cancelled);
    QVERIFY(w.lastOutcome().summary.contains("A03"));  // the CLI's summary of the run
    qInfo("run: %lld ms wall, %d timer ticks, %d rows seen while running", ms, ticks,
          rows_seen_live);
    QVERIFY2(ticks >= 5, qPrintable(QString("only %1 ticks in %2 ms").arg(ticks).arg(ms)));
    if (ms > 300) QVERIFY(rows_seen_live > 0);  // rows streamed in before the run ended
    QVERIFY(ticks >= int(ms / 20 / 10));        // the loop was never blocked for long

    const RunData* d = w.currentRun();
    QVERIFY(d && d->complete);
    QCOMPARE(d->rows(), 361);  // 0 .. 1800 s every 5 s
    QCOMPARE(w.whatIf()->findChild<QProgressBar*>("runProgress")->value(), 1000);

    // the alarms: leak detected, isolation started and completed, at A03
    AlarmPanel* a = w.alarms();
    const int detected = a->find("leak_detected", "rack A03");
    QVERIFY(detected >= 0);
    QVERIFY(a->find("liquid_isolation", "rack A03") >= 0);
    const int isolated = a->find("isolated", "rack A03");
    QVERIFY(isolated >= 0);
    QVERIFY(a->eventAt(detected)->time > 60 && a->eventAt(detected)->time < 70);
    QCOMPARE(QString::fromStdString(a->eventAt(detected)->severity), QString("critical"));
    QVERIFY(a->eventAt(isolated)->time > a->eventAt(detected)->time + 25);

    // clicking an alarm moves the timeline there and selects the rack
    w.selectRack(0);
    a->activateRow(isolated);
    QVERIFY(std::abs(w.timeline()->time() - a->eventAt(isolated)->time) <= 5.0);
    QCOMPARE(w.floorPlan()->selectedRack(), 2);
    QCOMPARE(w.rackDetail()->rack(), 2);

    // A03's colour: normal before the leak, isolated at the end, unlike its neighbours
    FloorPlan* f = w.floorPlan();
    w.timeline()->seek(0);
    const QColor before = f->rackColor(2);
    QCOMPARE(before, leakStateColor(0));
    QCOMPARE(f->rackColor(1), before);
    w.timeline()->toEnd();
    const QColor after = f->rackColor(2);
    QCOMPARE(after, leakStateColor(3));
    QVERIFY(after != before);
    QVERIFY(after != f->rackColor(1));
    QVERIFY(after != f->rackColor(3));
    QCOMPARE(f->rackColor(1), leakStateColor(0));
    // while the valves close it shows "isolating"
    w.timeline()->seek(a->eventAt(detected)->time + 10);
    QCOMPARE(f->rackColor(2), leakStateColor(2));
    // by power, A03 (electrically isolated) is off while its neighbours still draw power
    w.timeline()->toEnd();
    f->setMetric(Metric::Power);
    QVERIFY(f->rackValue(2) < 0.1);
    QVERIFY(f->rackValue(1) > 1.0);
    QVERIFY(f->rackColor(2) != f->rackColor(1));
    // the rack detail heatmap holds A03's 72 GPUs
    QVERIFY(!std::isnan(w.rackDetail()->cellValue(71)));
    QVERIFY(std::isnan(w.rackDetail()->cellValue(72)));
    // the selected rack is in the charts; a click in a chart moves the timeline there
    QVERIFY(w.chart(0)->seriesCount() >= 1);
    emit w.chart(0)->timeClicked(300);
    QCOMPARE(w.timeline()->time(), 300.0);

    // the results file of the run saves and opens again with the same events
    QTemporaryDir tmp;
    const QString saved = tmp.filePath("leak.h5");
    QVERIFY(w.saveResults(saved));
    const int nev = int(d->events.size());
    QVERIFY(w.openResults(saved));
    QCOMPARE(int(w.currentRun()->events.size()), nev);
    QCOMPARE(w.currentRun()->rows(), 361);
    QVERIFY(w.alarms()->find("isolated", "rack A03") >= 0);
    // compare the file with itself and with the streamed run before it: no difference
    QVERIFY(w.compareWithFile(saved));
    QVERIFY(w.baselineRun());
    w.timeline()->toEnd();
    QVERIFY(w.compareFloor(2)->differenceMode());
    QCOMPARE(w.compareFloor(2)->rackValue(2), 0.0);
    QVERIFY(w.compareWithPrevious());
    QCOMPARE(w.compareFloor(2)->rackValue(5), 0.0);
    QVERIFY(w.chart(0)->seriesCount() >= 2);  // this run's and the baseline's
    w.stopComparing();
    QVERIFY(!w.baselineRun());

    // the alarms as CSV: a header and one line per event shown
    const QString csv = tmp.filePath("alarms.csv");
    QVERIFY(w.exportAlarmsCsv(csv));
    QFile af(csv);
    QVERIFY(af.open(QIODevice::ReadOnly));
    const QStringList alines = QString::fromUtf8(af.readAll()).split('\n', Qt::SkipEmptyParts);
    QCOMPARE(alines[0], QString("time_s,severity,component,kind,message"));
    QCOMPARE(alines.size(), 1 + w.alarms()->rowCount());
    QVERIFY(alines.join('\n').contains("\"leak_detected\""));

    // the artifact: a screenshot of the main window at the end of the run
    w.floorPlan()->setMetric(Metric::LeakState);
    w.timeline()->toEnd();
    w.selectRack(2);
    QApplication::processEvents();
    const QString shot = kArtifacts + "/gui_main_window.png";
    QVERIFY(w.grab().save(shot, "PNG"));
    QVERIFY(QFileInfo(shot).size() > 10000);
  }

  void cancelKeepsResults() {
    ErrorCapture errors;
    MainWindow w(offscreenOptions());
    w.show();
    QVERIFY(w.openFacility(kPod));
    w.whatIf()->resetScenario();
    w.whatIf()->setDuration(6 * 3600);  // far longer than the test waits
    w.whatIf()->setOutputInterval(10);
    QVERIFY(w.startRun());
    QTRY_VERIFY_WITH_TIMEOUT(w.currentRun() && w.currentRun()->rows() >= 3, 60000);
    QElapsedTimer clock;
    clock.start();
    w.cancelRun();
    QTRY_VERIFY_WITH_TIMEOUT(!w.isRunning(), 30000);
    qInfo("cancel took %lld ms", clock.elapsed());
    QVERIFY(w.lastOutcome().cancelled);
    QVERIFY(w.lastOutcome().ok);
    QVERIFY(w.lastOutcome().t_end < 6 * 3600);
    QVERIFY(w.currentRun()->rows() >= 3);
    QVERIFY(w.currentRun()->complete);
    QVERIFY(errors.messages.isEmpty());
    // cancelling when nothing runs is harmless
    w.cancelRun();
    QVERIFY(!w.isRunning());
  }

  void badFilesGiveMessages() {
    ErrorCapture errors;
    MainWindow w(offscreenOptions());
    w.show();
    QTemporaryDir tmp;
    // a corrupt facility: the loader's message names the file and the line
    const QString bad = tmp.filePath("broken_facility.yaml");
    {
      QFile f(bad);
      QVERIFY(f.open(QIODevice::WriteOnly));
      f.write("name: broken\ncdus:\n  - {name: cdu1, model: no_such_cdu\nracks: [\n");
    }
    QVERIFY(!w.openFile(bad));
    QCOMPARE(errors.messages.size(), 1);
    QVERIFY(errors.messages[0].contains("broken_facility.yaml"));
    QVERIFY(errors.titles[0].contains("facility"));
    QVERIFY(!w.currentRun());
    // a facility with a wrong value: line and key
    const QString wrong = tmp.filePath("wrong.yaml");
    {
      QFile f(wrong);
      QVERIFY(f.open(QIODevice::WriteOnly));
      QFile pod(kPod);
      QVERIFY(pod.open(QIODevice::ReadOnly));
      f.write(pod.readAll().replace("index: 3}", "index: three}"));
    }
    QVERIFY(!w.openFile(wrong));
    QVERIFY(errors.messages.last().contains("wrong.yaml:"));
    QVERIFY(errors.messages.last().contains("three"));
    // a truncated results file
    const QString full = tmp.filePath("full.h5");
    {
      ResultsFile rf(full.toStdString());
      rf.writeStrings("/rack/names", {"A01"}, "racks");
      rf.writeStrings("/cdu/names", {"cdu1"}, "cdus");
      const int ts = rf.addSeries("/time", 0, "s", "time");
      const int tr = rf.addSeries("/rack/T_return", 1, "K", "T");
      for (int k = 0; k < 500; ++k) {
        const double t = k, T = 300 + k * 0.01;
        rf.appendRow(ts, std::span<const double>(&t, 1));
        rf.appendRow(tr, std::span<const double>(&T, 1));
      }
    }
    QVERIFY(w.openResults(full));  // the whole file opens
    const QString cut = tmp.filePath("truncated.h5");
    {
      QFile in(full);
      QVERIFY(in.open(QIODevice::ReadOnly));
      QFile out(cut);
      QVERIFY(out.open(QIODevice::WriteOnly));
      out.write(in.read(in.size() / 2));
    }
    const int n = errors.messages.size();
    QVERIFY(!w.openFile(cut));
    QCOMPARE(errors.messages.size(), n + 1);
    QVERIFY(errors.messages.last().contains("truncated.h5"));
    QVERIFY(errors.messages.last().contains("truncated") ||
            errors.messages.last().contains("damaged"));
    // not HDF5 at all, and not a results file
    const QString text = tmp.filePath("notes.h5");
    {
      QFile f(text);
      QVERIFY(f.open(QIODevice::WriteOnly));
      f.write("just text\n");
    }
    QVERIFY(!w.openFile(text));
    QVERIFY(errors.messages.last().contains("not an HDF5 file"));
    // a scenario the library rejects: its message, nothing changed
    const QString sc = tmp.filePath("bad_scenario.yaml");
    {
      QFile f(sc);
      QVERIFY(f.open(QIODevice::WriteOnly));
      f.write(
          "dctwin_scenario: 1\nduration: 10 parsecs\nevents:\n  - {time: 1 min, cdu: cdu1, "
          "pump_failure: 1}\n");
    }
    const int events_before = w.whatIf()->eventCount();
    QVERIFY(!w.openFile(sc));
    QVERIFY(errors.messages.last().contains("bad_scenario.yaml"));
    QCOMPARE(w.whatIf()->eventCount(), events_before);
    // a missing file
    QVERIFY(!w.openFile(tmp.filePath("missing.yaml")));
    QVERIFY(errors.messages.last().contains("missing.yaml"));
    // running without a facility
    QVERIFY(!w.startRun());
    QVERIFY(errors.titles.last().contains("facility", Qt::CaseInsensitive));
  }

  void chartCsvExport() {
    RunData d;
    d.rack_name = {"A01", "A02"};
    d.rack_row = {"A", "A"};
    d.rack_index = {1, 2};
    d.rack_cdu = {0, 0};
    d.cdu_name = {"cdu1"};
    d.time = {0, 5, 10};
    d.series["/rack/T_supply"] = {"K", 2, {300, 301, 302, 303, 304.5, 305}};
    ChartPanel c;
    c.setRuns(&d, nullptr);
    c.setRacks({0, 1});
    c.setQuantity(2);  // rack supply temperature
    QCOMPARE(ChartPanel::quantityName(2), QString("Rack: supply temperature"));
    QCOMPARE(c.seriesCount(), 2);
    const QStringList lines = c.csvText().split('\n', Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 4);
    QCOMPARE(lines[0],
             QString("time_s,\"A01 supply temperature [°C]\",\"A02 supply temperature [°C]\""));
    const QStringList r2 = lines[3].split(',');
    QCOMPARE(r2.size(), 3);
    QCOMPARE(r2[0], QString("10"));
    QCOMPARE(r2[1].toDouble(), 304.5 - 273.15);
    QCOMPARE(r2[2].toDouble(), 305 - 273.15);
    QTemporaryDir tmp;
    const QString path = tmp.filePath("chart.csv");
    QVERIFY(c.exportCsv(path));
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(QString::fromUtf8(f.readAll()), c.csvText());
    QString err;
    QVERIFY(!c.exportCsv(tmp.filePath("no/such/dir/x.csv"), &err));
    QVERIFY(!err.isEmpty());
    // a facility-wide quantity has one series, a job quantity one per job
    d.series["/facility/P_IT"] = {"W", 1, {1e5, 2e5, 3e5}};
    c.setQuantity(22);
    QCOMPARE(c.seriesCount(), 1);
    QVERIFY(c.csvText().split('\n')[3].endsWith(",300"));
  }

  void scenarioRoundTrip() {
    WhatIfPanel p;
    QString err;
    QFile f(kSource + "/data/scenarios/pod_rack_leak.yaml");
    QVERIFY(f.open(QIODevice::ReadOnly));
    QVERIFY2(p.setScenarioText(QString::fromUtf8(f.readAll()), "pod_rack_leak.yaml", &err),
             qPrintable(err));
    QCOMPARE(p.eventCount(), 1);
    QCOMPARE(p.scenarioName(), QString("pod_rack_leak"));
    const Scenario a = loadScenarioFromString(p.scenarioText().toStdString(), "a.yaml");
    QCOMPARE(a.duration, 1200.0);
    QCOMPARE(a.output_interval, 5.0);
    QCOMPARE(int(a.events.size()), 1);
    QCOMPARE(a.events[0].kind, std::string("leak"));
    QCOMPARE(a.events[0].target, std::string("A03"));
    QVERIFY(a.events[0].area_final > a.events[0].area);  // growth kept
    QCOMPARE(a.detection.isolation_valve_stroke, 30.0);
    // every kind of the form (every fault kind of the library's table that a scenario names)
    // makes an event the library accepts, with the table's default
    const std::vector<FaultKind> kinds = gui::formFaultKinds();
    // all but those the compiler schedules (generator_online, the ride-through's recoveries)
    const int written = int(std::count_if(std::begin(kFaultTable), std::end(kFaultTable),
                                          [](const FaultInfo& f) { return *f.key != '\0'; }));
    QCOMPARE(int(kinds.size()), written);
    QCOMPARE(written, kFaultKinds - 5);
    for (const FaultKind kind : kinds) {
      const FaultInfo& f = faultInfo(kind);
      const QString target = f.target == FaultTarget::Job        ? "llm_training"
                             : f.target == FaultTarget::Cdu      ? "cdu1"
                             : f.target == FaultTarget::Facility ? ""
                                                                 : "A01";
      QVERIFY2(!p.addFault(kind, target, 120, f.form.def, &err).isEmpty(), qPrintable(err));
    }
    QVERIFY(!p.addSupplyStep(120, 40, &err).isEmpty());
    const int n_form = int(kinds.size()) + 1;
    QCOMPARE(p.eventCount(), 1 + n_form);
    const Scenario b = loadScenarioFromString(p.scenarioText().toStdString(), "b.yaml");
    QCOMPARE(int(b.events.size()), 1 + n_form);
    FacilitySpec spec = loadFacility(kPod.toStdString());
    Scenario pod = b;  // the pod has a power section, no plant: every other target exists in it
    std::erase_if(pod.events, [](const ScenarioEvent& e) {
      const FaultInfo* f = faultByKey(e.kind);
      return f && f->needs == FaultNeeds::Plant;
    });
    applyScenario(pod, spec);
    // a bad item is refused with the library's message
    QVERIFY(!p.addEventYaml("{time: 1 min, cdu: cdu1, pump_failure: lots}", &err));
    QVERIFY(err.contains("pump_failure"));
    p.removeEvent(0);
    QCOMPARE(p.eventCount(), n_form);
    // save and load through the window
    MainWindow w(offscreenOptions());
    ErrorCapture errors;
    QTemporaryDir tmp;
    w.whatIf()->setScenarioText(p.scenarioText(), "x");
    QVERIFY(w.saveScenario(tmp.filePath("s.yaml")));
    w.whatIf()->resetScenario();
    QCOMPARE(w.whatIf()->eventCount(), 0);
    QVERIFY(w.openFile(tmp.filePath("s.yaml")));  // recognised as a scenario
    QCOMPARE(w.whatIf()->eventCount(), n_form);
    QVERIFY(errors.messages.isEmpty());
  }

  void settingsAndRecentFiles() {
    QSettings().clear();
    MainWindowOptions o = offscreenOptions();
    o.restore_settings = true;
    {
      MainWindow w(o);
      w.show();
      QVERIFY(w.openFacility(kPod));
      w.floorPlan()->setMetric(Metric::Flow);
      w.timeline()->setSpeedIndex(5);
      w.chart(1)->setQuantity(15);
      w.close();
    }
    MainWindow w2(o);
    QVERIFY(w2.recentFiles().contains(QFileInfo(kPod).absoluteFilePath()));
    QCOMPARE(w2.floorPlan()->metric(), Metric::Flow);
    QCOMPARE(w2.timeline()->speedIndex(), 5);
    QCOMPARE(w2.chart(1)->quantity(), 15);
    QSettings().clear();
  }

  void timelinePlayback() {
    Timeline t;
    QSignalSpy spy(&t, &Timeline::timeChanged);
    t.setFollowing(false);
    t.setTimes({0, 5, 10, 15, 20});
    t.seek(12);
    QCOMPARE(t.time(), 10.0);
    t.stepForward();
    QCOMPARE(t.time(), 15.0);
    t.toStart();
    QCOMPARE(t.time(), 0.0);
    t.setSpeedIndex(7);  // 1200x: the 20 s pass in well under a second
    t.play();
    QVERIFY(t.playing());
    QTRY_VERIFY_WITH_TIMEOUT(!t.playing(), 5000);
    QCOMPARE(t.time(), 20.0);
    QVERIFY(spy.count() >= 3);
    // following a growing run stays at its end
    t.setFollowing(true);
    t.setTimes({0, 5, 10, 15, 20, 25});
    QCOMPARE(t.time(), 25.0);
  }

  void twoCduMixedFacility() {
    // two CDUs in two rows, racks with heat-load profiles (no resolved GPUs)
    ErrorCapture errors;
    MainWindow w(offscreenOptions());
    w.show();
    QVERIFY(w.openFile(kSource + "/data/facilities/two_cdu_mixed.yaml"));
    const RunData* d = w.currentRun();
    QCOMPARE(d->ncdu(), 2);
    QCOMPARE(d->nrack(), 14);
    QCOMPARE(d->ngpu(), 0);
    const FloorLayout& L = w.floorPlan()->layout();
    QCOMPARE(int(L.row_label.size()), 2);
    QVERIFY(L.rack[d->rackByName("B01")].y() > L.rack[d->rackByName("A01")].y());
    QVERIFY(L.cdu[1].y() > L.cdu[0].y());
    w.whatIf()->resetScenario();
    w.whatIf()->setDuration(600);
    w.whatIf()->setOutputInterval(30);
    w.injectFault(gui::FaultKind::PumpFailure, "cdu_b");
    QVERIFY(w.startRun());
    QTRY_VERIFY_WITH_TIMEOUT(!w.isRunning(), 120000);
    QVERIFY2(errors.messages.isEmpty(), qPrintable(errors.messages.join("\n")));
    QVERIFY(w.lastOutcome().ok);
    QVERIFY(w.alarms()->find("pump_failure", "cdu_b") >= 0);
    // without GPUs the "junction" metric falls back to the cold-plate case temperature
    w.timeline()->toEnd();
    w.floorPlan()->setMetric(Metric::JunctionMax);
    QVERIFY(w.floorPlan()->rackValue(0) > 20 && w.floorPlan()->rackValue(0) < 100);
    w.floorPlan()->setMetric(Metric::Flow);
    QVERIFY(w.floorPlan()->rackValue(0) > 1);
    QVERIFY(!std::isnan(cduMetric(*w.currentRun(), Metric::Flow, 1, w.currentRun()->rows() - 1)));
    w.selectRack(3);
    QVERIFY(std::isnan(w.rackDetail()->cellValue(0)));  // no GPUs to show
    // a scenario naming a rack the facility lacks is refused before it runs, with a did-you-mean
    QVERIFY(w.whatIf()->setScenarioText(
        "duration: 5 min\nevents:\n  - {time: 1 min, rack: A33, leak: {diameter: 2 mm}}\n",
        "typo"));
    QVERIFY(!w.startRun());
    QVERIFY(!w.isRunning());
    QCOMPARE(errors.messages.size(), 1);
    QVERIFY(errors.messages[0].contains("A33"));
    QVERIFY(errors.titles[0].contains("scenario"));
  }

  void rackAggregatesAndMetrics() {
    // two racks of two GPUs; the per-rack GPU aggregates come with the rows from the library's
    // output table (solver/output/observables.h), the views only convert units
    RunData s;
    s.rack_name = {"A01", "A02"};
    s.rack_row = {"A", "A"};
    s.rack_index = {1, 2};
    s.rack_cdu = {0, 0};
    s.cdu_name = {"cdu1"};
    s.gpu_rack = {0, 0, 1, 1};
    s.gpu_tray = {0, 0, 0, 0};
    s.gpu_slot = {0, 1, 0, 1};
    s.rack_gpuadr = {0, 2};
    s.rack_gpunum = {2, 2};
    s.rack_trays = {1, 1};
    RowBlock b;
    b.time = {0, 5};
    b.values[kRackTjMax] = {340, 321, 345, 323};
    b.values[kRackThbmMax] = {330, 311, 335, 313};
    b.values[kRackClockMean] = {1, 0.75, 1, 0.5};
    b.values[kRackThrottled] = {0, 0.5, 0, 1};
    b.values["/rack/isolation"] = {0, 0, 0, 0.5};
    b.values["/rack/leak_flow"] = {0, 0, 0, 1e-5};
    s.append(b);
    QCOMPARE(s.rows(), 2);
    QCOMPARE(kRackTjMax, std::string("/rack/gpu_T_junction_max"));
    QCOMPARE(rackMetric(s, Metric::JunctionMax, 0, 1), 345 - 273.15);
    QCOMPARE(rackMetric(s, Metric::HbmMax, 1, 0), 311 - 273.15);
    QCOMPARE(rackMetric(s, Metric::ClockMean, 1, 0), 75.0);
    QCOMPARE(rackMetric(s, Metric::ThrottleShare, 1, 0), 50.0);
    QCOMPARE(rackMetric(s, Metric::ThrottleShare, 1, 1), 100.0);
    QCOMPARE(rackMetric(s, Metric::LeakState, 0, 1), 0.0);
    QCOMPARE(rackMetric(s, Metric::LeakState, 1, 1), 2.0);
    QCOMPARE(s.rowAt(4.9), 0);
    QCOMPARE(s.rowAt(5), 1);
    QCOMPARE(s.component("rack A02"), std::make_pair(0, 1));
    QCOMPARE(s.component("cdu1"), std::make_pair(1, 0));
    QCOMPARE(formatTime(3725), QString("01:02:05"));
    // a rack without GPUs shows its case temperature
    s.rack_gpunum = {0, 2};
    s.series["/rack/T_case"] = {"K", 2, {300, 301, 302, 303}};
    QCOMPARE(rackMetric(s, Metric::JunctionMax, 0, 1), 302 - 273.15);
  }

  void compareColorsDifferences() {
    RunData a, b;
    for (RunData* d : {&a, &b}) {
      d->rack_name = {"A01", "A02"};
      d->rack_row = {"A", "A"};
      d->rack_index = {1, 2};
      d->rack_cdu = {0, 0};
      d->cdu_name = {"cdu1"};
      d->time = {0, 60};
    }
    a.series["/rack/T_return"] = {"K", 2, {310, 310, 310, 310}};
    b.series["/rack/T_return"] = {"K", 2, {310, 310, 315, 310}};
    FloorPlan f;
    f.setRun(&b);
    f.setBaseline(&a);
    f.setMetric(Metric::ReturnT);
    f.setTime(60);
    QVERIFY(f.differenceMode());
    QCOMPARE(f.rackValue(0), 5.0);
    QCOMPARE(f.rackValue(1), 0.0);
    QCOMPARE(f.rackColor(1), divergingColor(0, 5));
    QVERIFY(f.rackColor(0) != f.rackColor(1));
    QVERIFY(f.rackColor(0).red() > f.rackColor(0).blue());  // warmer: red side
    QCOMPARE(f.legendUnit(), QString("K"));
    f.setTime(0);
    QCOMPARE(f.rackValue(0), 0.0);
    const QImage img = f.renderImage(QSize(800, 400));
    QCOMPARE(img.size(), QSize(800, 400));
  }
};

QTEST_MAIN(GuiTest)
#include "gui_test.moc"
