// gui_scale_test.cpp: the manager's view at hall scale, QTest under
// QT_QPA_PLATFORM=offscreen: the bundled hall (768 racks, 55,296 GPUs) run for a few minutes,
// then zoom (wheel), search, select, compare on one colour scale and export, with what is drawn
// checked: the colour at a rack, the legend's entries and round ticks, and no label clipped or
// overlapping another (text measured against the widget's bounds). Also the pod's CDU states in
// the legend, the ticks before a run, no negative zeros, 1280 x 800.
#include <QApplication>
#include <QDockWidget>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QSettings>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>
#include <set>

#include "gui/alarms.h"
#include "gui/distributions.h"
#include "gui/floor_plan.h"
#include "gui/main_window.h"
#include "gui/rack_detail.h"
#include "gui/run_data.h"
#include "gui/timeline.h"
#include "gui/what_if.h"

using namespace dctwin;
using namespace dctwin::gui;

namespace {

const QString kSource = DCTWIN_SOURCE_DIR;
const QString kPod = kSource + "/data/facilities/pod_gb200.yaml";
const QString kHall = kSource + "/data/facilities/hall_gb300.yaml";
const QString kArtifacts = DCTWIN_GUI_ARTIFACT_DIR;

MainWindowOptions offscreenOptions() {
  MainWindowOptions o;
  o.with_3d = false;
  o.restore_settings = false;
  return o;
}

bool runScenario(MainWindow& w, const QString& yaml, const QString& name) {
  if (!w.whatIf()->setScenarioText(yaml, name)) return false;
  if (!w.startRun()) return false;
  QElapsedTimer c;
  c.start();
  while (w.isRunning() && c.elapsed() < 300000) QTest::qWait(50);
  return !w.isRunning() && w.lastOutcome().ok;
}

// every label drawn lies inside the canvas and overlaps no other
void checkLabels(const FloorPlan* f, const char* where, QRect bounds = QRect()) {
  if (bounds.isNull()) bounds = f->canvas()->rect();
  const auto& L = f->drawnLabels();
  for (std::size_t i = 0; i < L.size(); ++i) {
    QVERIFY2(bounds.contains(L[i].box), qPrintable(QString("%1: '%2' clipped (%3,%4 %5x%6)")
                                                       .arg(where, L[i].text)
                                                       .arg(L[i].box.x())
                                                       .arg(L[i].box.y())
                                                       .arg(L[i].box.width())
                                                       .arg(L[i].box.height())));
    for (std::size_t j = i + 1; j < L.size(); ++j)
      QVERIFY2(!L[i].box.intersects(L[j].box),
               qPrintable(QString("%1: '%2' overlaps '%3'").arg(where, L[i].text, L[j].text)));
  }
}

// a tick step of 1, 2, 2.5 or 5 x 10^k, every tick a multiple of it
void checkRoundTicks(const std::vector<double>& t) {
  QVERIFY(t.size() >= 2);
  const double step = t[1] - t[0];
  QVERIFY(step > 0);
  const double m = step / std::pow(10.0, std::floor(std::log10(step) + 1e-9));
  QVERIFY2(std::abs(m - 1) < 1e-6 || std::abs(m - 2) < 1e-6 || std::abs(m - 2.5) < 1e-6 ||
               std::abs(m - 5) < 1e-6,
           qPrintable(QString("tick step %1").arg(step)));
  for (double v : t) QVERIFY(std::abs(v / step - std::round(v / step)) < 1e-6);
}

int countPrefix(const FloorPlan* f, const QString& prefix) {
  int n = 0;
  for (const auto& l : f->drawnLabels()) n += l.text.startsWith(prefix);
  return n;
}

}  // namespace

class GuiScaleTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QApplication::setOrganizationName("dctwin-test");
    QApplication::setApplicationName("dctwin-gui-scale-test");
  }

  void numbersAndTicks() {
    QCOMPARE(formatNumber(-0.04, 1), QString("0.0"));
    QCOMPARE(formatNumber(-0.0, 0), QString("0"));
    QCOMPARE(formatNumber(-1.26, 1), QString("-1.3"));
    const auto t = niceTicks(29.9, 64.4, 5);
    checkRoundTicks(t);
    QVERIFY(t.front() <= 29.9 && t.back() >= 64.4);
    QCOMPARE(t.front(), 20.0);            // 29.9 … 64.4 -> 20, 30 … 70 (not 29.9, 41.4, 52.9)
    checkRoundTicks(niceTicks(0, 0, 5));  // one value: still distinct round ticks
    QCOMPARE(tickDecimals(2.5), 1);
    QCOMPARE(tickDecimals(10), 0);
  }

  void podBeforeRunAndCduLegend() {
    MainWindow w(offscreenOptions());
    w.resize(1280, 800);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(w.openFacility(kPod));
    // before a run: the metric's range on round ticks, not "0.0 0.0 0.0"
    FloorPlan* f = w.floorPlan();
    checkRoundTicks(f->legendTicks());
    QVERIFY(f->legendHi() > f->legendLo());
    // a leak run: the CDU's "coolant lost" has its own colour and legend entry
    w.whatIf()->resetScenario();
    QVERIFY(runScenario(w,
                        "name: leak\nduration: 4 min\noutput_interval: 10 s\nevents:\n"
                        "  - {time: 30 s, rack: A03, leak: {diameter: 3 mm}}\n",
                        "leak.yaml"));
    w.timeline()->toEnd();
    f->setMetric(Metric::LeakState);
    const auto entries = f->legendEntries();
    std::set<QRgb> named;
    QStringList names;
    for (const auto& [name, c] : entries) named.insert(c.rgb()), names << name;
    for (int r = 0; r < w.currentRun()->nrack(); ++r)
      QVERIFY2(named.count(f->rackColor(r).rgb()), qPrintable("rack colour not in the legend"));
    QVERIFY(named.count(f->cduColor(0).rgb()));
    QCOMPARE(f->cduColor(0), cduStateColor(1));
    QVERIFY(f->cduColor(0) != leakStateColor(1));  // not the racks' "leaking" red
    QVERIFY(names.contains("coolant lost (CDU)"));
    QVERIFY(entries.size() <= 8);
    f->renderImage(QSize(1280, 520));
    checkLabels(f, "pod, leak state", QRect(0, 0, 1280, 520));
    // at 1280 x 800 the alarms dock shows the message of an event in full (under the table)
    auto* detail = w.alarms()->findChild<QLabel*>("alarmDetail");
    QVERIFY(detail && detail->isVisible());
    const EventRecord& last = w.currentRun()->events.back();
    QVERIFY2(detail->text().contains(QString::fromStdString(last.component)),
             qPrintable(detail->text()));
    QVERIFY(detail->width() >= 200);
    auto* table = w.alarms()->findChild<QTableWidget*>("alarmTable");
    QVERIFY(table->columnWidth(4) >= 60 || table->horizontalHeader()->stretchLastSection());
    // the compare tab without a baseline is not where a new facility opens
    w.views()->setCurrentWidget(w.compareView());
    QVERIFY(w.openFacility(kPod));
    QVERIFY(w.views()->currentWidget() != w.compareView());
  }

  void hallZoomSearchSelectCompareExport() {
    MainWindow w(offscreenOptions());
    w.resize(1920, 1080);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(w.openFacility(kHall));
    const RunData* d0 = w.currentRun();
    QCOMPARE(d0->nrack(), 768);
    QCOMPARE(d0->ngpu(), 55296);
    w.whatIf()->resetScenario();
    // short runs keep the test fast: 2 min each
    QVERIFY(runScenario(w, "name: base\nduration: 2 min\noutput_interval: 60 s\n", "base.yaml"));
    QVERIFY(runScenario(w,
                        "name: warm\nduration: 2 min\noutput_interval: 60 s\nevents:\n"
                        "  - {time: 30 s, facility_water_temperature: 38 degC}\n",
                        "warm.yaml"));
    const RunData& d = *w.currentRun();
    w.timeline()->toEnd();
    FloorPlan* f = w.floorPlan();
    w.views()->setCurrentWidget(f);
    f->setMetric(Metric::JunctionMax);
    QApplication::processEvents();
    // hall scale: the colour at a rack is its value on the legend's scale, ticks round
    checkRoundTicks(f->legendTicks());
    for (int r : {0, 100, 767})
      QCOMPARE(f->rackColor(r), sequentialColor(f->rackValue(r), f->legendLo(), f->legendHi()));
    f->canvas()->repaint();
    checkLabels(f, "hall, fit");
    QVERIFY(countPrefix(f, "busway") <= 40);  // not 256 busway labels over each other
    QVERIFY(f->renderImage(QSize(1280, 600)).save(kArtifacts + "/hall_floor_fit.png"));
    checkLabels(f, "hall, fit, 1280 x 600", QRect(0, 0, 1280, 600));
    // zoom with the wheel about a rack: names appear where they fit
    const double z0 = f->zoom();
    const QPoint at = f->rackCenter(200);
    for (int k = 0; k < 8; ++k) {
      QWheelEvent we(QPointF(at), f->canvas()->mapToGlobal(QPointF(at)), QPoint(), QPoint(0, 120),
                     Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
      QApplication::sendEvent(f->canvas(), &we);
    }
    QVERIFY(f->zoom() > z0 * 5);
    QVERIFY((f->rackCenter(200) - at).manhattanLength() < 6);  // zoomed about the cursor
    f->canvas()->repaint();
    checkLabels(f, "hall, zoomed");
    QVERIFY(countPrefix(f, QString::fromStdString(d.rack_name[200])) == 1);
    // search: a GPU by index selects its rack and shows its trays
    QSignalSpy found(f, &FloorPlan::gpuFound);
    QLineEdit* box = f->searchBox();
    box->setText("gpu 40000");
    QTest::keyClick(box, Qt::Key_Return);
    QCOMPARE(found.count(), 1);
    QCOMPARE(f->selectedRack(), d.gpu_rack[40000]);
    QCOMPARE(w.rackDetail()->rack(), d.gpu_rack[40000]);
    f->canvas()->repaint();
    checkLabels(f, "hall, at a GPU's rack");
    QVERIFY(countPrefix(f, "tray 0") >= 1);  // trays 0-based, as in /gpu/tray
    QVERIFY(countPrefix(f, "tray 18") == 0);
    // a rack and a CDU by name; nonsense is refused
    QVERIFY(f->find(QString::fromStdString(d.rack_name[5])));
    QCOMPARE(f->selectedRack(), 5);
    QVERIFY(f->find(QString::fromStdString(d.cdu_name[3])));
    QVERIFY(!f->find("no such rack"));
    // aggregation by row: every rack of a row shows the row's hottest rack
    f->setAggregate(FloorPlan::Aggregate::Row);
    const std::string row0 = d.rack_row[0];
    double worst = -1e9;
    for (int r = 0; r < d.nrack(); ++r)
      if (d.rack_row[r] == row0)
        worst = std::max(worst, rackMetric(d, Metric::JunctionMax, r, d.rows() - 1));
    for (int r = 0; r < d.nrack(); ++r)
      if (d.rack_row[r] == row0) QCOMPARE(f->rackValue(r), worst);
    f->setAggregate(FloorPlan::Aggregate::None);
    f->resetView();
    QCOMPARE(f->zoom(), 1.0);
    // distributions at hall scale: every GPU counted, the hottest first, a cause named
    w.views()->setCurrentWidget(w.distributions());
    QApplication::processEvents();
    DistributionView* dv = w.distributions();
    QCOMPARE(dv->histogram(0).n, 55296);
    QCOMPARE(dv->histogram(2).n, 55296);
    checkRoundTicks(dv->histogram(0).edges);
    QCOMPARE(dv->topGpuCount(), 10);
    const double t0 = d.value(obsPath(Obs::GpuTJunction), d.rows() - 1, dv->topGpu(0));
    for (int k = 1; k < 10; ++k)
      QVERIFY(d.value(obsPath(Obs::GpuTJunction), d.rows() - 1, dv->topGpu(k)) <= t0);
    QVERIFY(!dv->topGpuCause(0).isEmpty());
    QCOMPARE(int(dv->rowSpread().size()), 32);
    for (const auto& s : dv->rowSpread()) QVERIFY(s.min <= s.mean && s.mean <= s.max + 1e-9);
    // compare: baseline and this run on ONE colour scale, the difference symmetric
    QVERIFY(w.compareWithPrevious());
    QCOMPARE(w.views()->currentWidget(), w.compareView());
    FloorPlan* a = w.compareFloor(0);
    FloorPlan* b = w.compareFloor(1);
    FloorPlan* diff = w.compareFloor(2);
    QCOMPARE(a->legendLo(), b->legendLo());
    QCOMPARE(a->legendHi(), b->legendHi());
    QVERIFY(diff->differenceMode());
    QCOMPARE(diff->legendLo(), -diff->legendHi());
    for (int r : {0, 400})  // one colour means one value in both panes
      QCOMPARE(b->rackColor(r), sequentialColor(b->rackValue(r), a->legendLo(), a->legendHi()));
    QVERIFY(diff->rackValue(0) > 0);  // warmer water: hotter junctions
    QApplication::processEvents();
    for (FloorPlan* p : {a, b, diff}) {
      p->canvas()->repaint();
      checkLabels(p, "compare pane");
    }
    // export
    QTemporaryDir tmp;
    QVERIFY(w.exportPng(w.compareView(), tmp.filePath("compare.png")));
    QVERIFY(QImage(tmp.filePath("compare.png")).width() > 600);
    QVERIFY(w.exportPng(w.distributions(), tmp.filePath("dist.png")));
    w.views()->setCurrentWidget(w.floorPlan());
    // fits 1280 x 800 (the compare tab's three panes no longer force 1,700 px)
    w.views()->setCurrentWidget(w.compareView());
    QVERIFY2(w.minimumSizeHint().width() <= 1280,
             qPrintable(QString("minimum width %1").arg(w.minimumSizeHint().width())));
    w.views()->setCurrentWidget(w.floorPlan());
    w.resize(1280, 800);
    QApplication::processEvents();
    QCOMPARE(w.width(), 1280);
    QVERIFY(w.height() <= 800);
    f->canvas()->repaint();
    checkLabels(f, "hall at 1280 x 800");
    QVERIFY(w.grab().save(kArtifacts + "/hall_main_window_1280x800.png"));
  }
};

QTEST_MAIN(GuiScaleTest)
#include "gui_scale_test.moc"
