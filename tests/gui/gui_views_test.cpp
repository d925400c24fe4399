// gui_views_test.cpp: the views for what the other issues added, QTest under
// QT_QPA_PLATFORM=offscreen, at the default 1280 x 800 window: the Jobs tab's bottleneck map (its
// stacked parts add up to the job's wall time since the start), the Plant tab (every plant and
// weather series of the output table that the run has, in display units), the campus level of the
// floor plan (a block per hall, rows named per hall), and the hottest GPU's cause from the
// library's /gpu/hot_cause. Every text drawn lies inside its widget and overlaps no other.
#include <QApplication>
#include <QFile>
#include <QLabel>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>
#include <set>

#include "gui/charts.h"
#include "gui/distributions.h"
#include "gui/floor_plan.h"
#include "gui/job_view.h"
#include "gui/main_window.h"
#include "gui/plant_view.h"
#include "gui/run_data.h"
#include "gui/timeline.h"
#include "gui/what_if.h"
#include "models/weather.h"
#include "solver/input/loader.h"
#include "solver/output/results_reader.h"
#include "solver/output/sinks.h"
#include "solver/run/run.h"

using namespace dctwin;
using namespace dctwin::gui;

namespace {

const QString kSource = DCTWIN_SOURCE_DIR;
const QString kPod = kSource + "/data/facilities/pod_gb200.yaml";
const QString kPlantPod = kSource + "/data/facilities/pod_gb200_plant_w32.yaml";
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

// every text drawn lies inside `bounds` and overlaps no other
template <class Label>
void checkLabels(const std::vector<Label>& L, QRect bounds, const char* where) {
  QVERIFY2(!L.empty(), where);
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

void show1280(MainWindow& w) {
  w.resize(1280, 800);
  w.show();
  QVERIFY(QTest::qWaitForWindowExposed(&w));
}

}  // namespace

class GuiViewsTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QApplication::setOrganizationName("dctwin-test");
    QApplication::setApplicationName("dctwin-gui-views-test");
  }

  // the pod's job starts at 5 min: at 8 min its map holds 3 min, 1 min more than at 7 min
  void jobsBottleneckMap() {
    MainWindow w(offscreenOptions());
    show1280(w);
    QVERIFY(w.openFacility(kPod));
    w.whatIf()->resetScenario();
    QVERIFY(runScenario(w, "name: job\nduration: 8 min\noutput_interval: 60 s\n", "job.yaml"));
    w.timeline()->toEnd();
    w.views()->setCurrentWidget(w.jobs());
    QApplication::processEvents();
    JobView* jv = w.jobs();
    const RunData& d = *w.currentRun();
    QCOMPARE(jv->jobCount(), int(d.job_name.size()));
    QVERIFY(jv->jobCount() >= 1);
    // generic: every /job/time/* series the run has is a part, nothing else
    int have = 0;
    for (const auto& p : bottleneckParts()) have += d.find(p.path) != nullptr;
    QCOMPARE(int(jv->parts().size()), have);
    QVERIFY(have >= 10);
    const double t_end = d.time.back();
    QVERIFY2(std::abs(jv->totalSeconds(0) - (t_end - 300.0)) < 0.01 * (t_end - 300.0),
             qPrintable(QString("bars total %1 s, wall time since the start %2 s")
                            .arg(jv->totalSeconds(0))
                            .arg(t_end - 300.0)));
    for (int k = 0; k < int(jv->parts().size()); ++k) {
      QVERIFY(jv->partSeconds(0, k) >= 0);
      QCOMPARE(jv->partSeconds(0, k),
               d.value(bottleneckParts()[jv->parts()[k]].path, d.rows() - 1, 0));
    }
    const double end_total = jv->totalSeconds(0);
    w.timeline()->seek(t_end - 60);
    QApplication::processEvents();
    QVERIFY(std::abs(end_total - jv->totalSeconds(0) - 60.0) < 0.6);
    w.timeline()->toEnd();
    QApplication::processEvents();
    QVERIFY(jv->goodput(0) > 0.5 && jv->goodput(0) <= 1.0);
    // drawn: a legend entry per part with time, compute among them; nothing clipped
    jv->plot()->repaint();
    const auto legend = jv->legendEntries();
    std::set<QString> names;
    for (const auto& [n, c] : legend) names.insert(n);
    QVERIFY(names.count("compute"));
    for (int k = 0; k < int(jv->parts().size()); ++k)
      QCOMPARE(names.count(bottleneckParts()[jv->parts()[k]].name) == 1,
               jv->partSeconds(0, k) > 1e-9);
    checkLabels(jv->drawnLabels(), jv->plot()->rect(), "bottleneck map at 1280 x 800");
    // the table: a row per part plus total, goodput, progress
    QCOMPARE(jv->table()->rowCount(), int(jv->parts().size()) + 3);
    // per GPU where the outputs have it: the longest-throttled GPUs, most first
    const auto& slow = jv->slowGpus();
    for (std::size_t k = 1; k < slow.size(); ++k)
      QVERIFY(d.value(obsPath(Obs::GpuThrottledTime), d.rows() - 1, slow[k]) <=
              d.value(obsPath(Obs::GpuThrottledTime), d.rows() - 1, slow[k - 1]));
    for (int g = 0; g < d.ngpu() && !slow.empty(); ++g)
      QVERIFY(d.value(obsPath(Obs::GpuThrottledTime), d.rows() - 1, g) <=
              d.value(obsPath(Obs::GpuThrottledTime), d.rows() - 1, slow[0]));
    QCOMPARE(jv->gpuTable()->rowCount(),
             slow.empty() ? 1 : int(slow.size() + jv->slowRacks().size()));
    // the step model of the described job (/job/model/*): a row with the nominal values
    // from the run's layout beside what the run achieved at the timeline's time
    QTableWidget* mt = jv->modelTable();
    QVERIFY(d.jobModel(0, JobCol::StepTime) > 0);
    QVERIFY(!mt->isHidden());
    QCOMPARE(mt->rowCount(), 1);
    QCOMPARE(mt->columnCount(), int(JobView::modelColumns().size()));
    auto cell = [&](int c) { return mt->item(0, c) ? mt->item(0, c)->text() : QString(); };
    const int last = d.rows() - 1;
    const double achieved = d.value(obsPath(Obs::JobIterationTime), last, 0);
    QCOMPARE(cell(0), formatNumber(d.jobModel(0, JobCol::StepTime), 3));
    QCOMPARE(cell(1), formatNumber(achieved, 3));
    QCOMPARE(cell(4), formatNumber(100 * d.jobModel(0, JobCol::Mfu), 1));
    QCOMPARE(cell(5), formatNumber(100 * d.value(obsPath(Obs::JobMfu), last, 0), 1));
    QVERIFY(std::abs(d.value(obsPath(Obs::JobMfu), last, 0) -
                     d.jobModel(0, JobCol::Mfu) * d.jobModel(0, JobCol::StepTime) / achieved) <
            1e-12);
    QCOMPARE(cell(6), formatNumber(d.jobModel(0, JobCol::MemoryPerGpu) / 1e9, 1));
    QCOMPARE(cell(12), formatNumber(d.jobModel(0, JobCol::MicroBatches), 0));
    QCOMPARE(cell(13), QString(jobRecomputeName(d.jobModel(0, JobCol::Recompute))));
    QVERIFY(!cell(13).isEmpty());
    // the same table from a results file (RunData::fromResults reads /job/model/* through the
    // library's reader)
    {
      QTemporaryDir tmp;
      const std::string h5 = (tmp.path() + "/job.h5").toStdString();
      Scenario sc;
      sc.duration = 420;
      sc.output_interval = 60;
      Hdf5Sink sink(h5);
      std::vector<RunSink*> sinks{&sink};
      QVERIFY(runFacility(loadFacility(kPod.toStdString()), sc, RunSettings{}, sinks).result.ok);
      const RunData f = RunData::fromResults(readResults(h5));
      QCOMPARE(f.job_model.size(), d.job_model.size());
      for (std::size_t k = 0; k < d.job_model.size(); ++k)
        QVERIFY(f.job_model[k] == d.job_model[k] ||
                (std::isnan(f.job_model[k]) && std::isnan(d.job_model[k])));
      QVERIFY(f.find("/job/model/step_time") == nullptr);  // not a series of the views
    }
    QVERIFY(jv->grab().save(kArtifacts + "/pod_jobs_1280x800.png"));
    // the hottest GPU's cause is the library's (/gpu/hot_cause), not the estimate
    w.views()->setCurrentWidget(w.distributions());
    QApplication::processEvents();
    DistributionView* dv = w.distributions();
    QVERIFY(d.find(obsPath(Obs::GpuHotCause)));
    const QString cause = dv->topGpuCause(0);
    const int c = int(d.value(obsPath(Obs::GpuHotCause), d.rows() - 1, dv->topGpu(0)));
    static const char* const kCause[] = {"hot coolant inlet", "low flow or a poor cold plate",
                                         "silicon: high power", "TIM or seating"};
    QVERIFY2(c >= 0 && c < 4 && cause.contains(kCause[c]) && !cause.contains("estimated"),
             qPrintable(QString("cause %1: '%2'").arg(c).arg(cause)));
    // a run without the library's cause (older files): the estimate, marked so
    RunData old = d;
    old.series.erase(obsPath(Obs::GpuHotCause));
    const QString est = hotCause(old, dv->topGpu(0), -1, old.rows() - 1);
    QVERIFY2(est.contains("estimated") || est.startsWith("none"), qPrintable(est));
  }

  // a long run with a calendar has dates on its time axis: month starts over a year, days over
  // a few days; a run without a calendar or shorter than two days has none
  void dateTicksOfLongRuns() {
    RunData d;
    d.has_calendar = true;
    d.year_start = secondsOfYear(7, 15, 0);  // t = 0 at 15 July 00:00
    const double day = 86400;
    const auto year = dateTicks(d, 0, 365 * day, 6);
    QVERIFY(!year.empty() && year.size() <= 6);
    QCOMPARE(year.front().second, QString("Aug"));
    QCOMPARE(year.front().first, secondsOfYear(8, 1, 0) - d.year_start);
    for (const auto& [t, s] : year) QVERIFY(t >= 0 && t <= 365 * day);
    // each tick is the first of its month at midnight, in increasing time, across the new year
    const QStringList names = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                               "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
    for (std::size_t i = 0; i < year.size(); ++i) {
      const auto& [t, s] = year[i];
      const QString date = QString::fromStdString(calendarText(d.year_start + t));
      QCOMPARE(date, QString("%1-01 00:00").arg(names.indexOf(s) + 1, 2, 10, QChar('0')));
      if (i > 0) QVERIFY(t > year[i - 1].first);
    }
    const auto days = dateTicks(d, 0.5 * day, 5 * day, 6);
    QVERIFY(days.size() >= 2 && days.size() <= 6);
    QCOMPARE(days.front().second, QString("07-16"));  // the first midnight inside the span
    QCOMPARE(days.front().first, day);
    QVERIFY(dateTicks(d, 0, 1.5 * day).empty());
    d.has_calendar = false;
    QVERIFY(dateTicks(d, 0, 365 * day).empty());
    // the charts' time axis: minutes up to 2 h, hours up to 4 days, days beyond
    QCOMPARE(QString(ChartPanel::timeUnitFor(3600).name), QString("min"));
    QCOMPARE(QString(ChartPanel::timeUnitFor(3 * day).name), QString("h"));
    QCOMPARE(ChartPanel::timeUnitFor(365 * day).seconds, day);
  }

  void plantAndWeather() {
    MainWindow w(offscreenOptions());
    show1280(w);
    QVERIFY(w.openFacility(kPlantPod));
    w.views()->setCurrentWidget(w.floorPlan());  // the run streams while another tab is shown
    w.whatIf()->resetScenario();
    QVERIFY(runScenario(w, "name: plant\nduration: 20 min\noutput_interval: 60 s\n", "p.yaml"));
    w.timeline()->toEnd();
    w.views()->setCurrentWidget(w.plant());
    QApplication::processEvents();
    PlantView* pv = w.plant();
    const RunData& d = *w.currentRun();
    const auto paths = pv->paths();
    const std::set<std::string> shown(paths.begin(), paths.end());
    // generic: every facility-wide plant row of the output table the run has, and only those
    int expected = 0;
    for (const ObservableInfo& o : observableTable())
      if (o.needs == Needs::Plant && o.shape == Shape::Facility && o.rate == Rate::Output &&
          d.find(o.path)) {
        ++expected;
        QVERIFY2(shown.count(o.path), o.path);
      }
    QCOMPARE(int(paths.size()), expected);
    for (Obs id :
         {Obs::PlantQRejected, Obs::PlantPChillers, Obs::PlantPFans, Obs::PlantPPumps,
          Obs::PlantMode, Obs::WeatherTDryBulb, Obs::WeatherTWetBulb, Obs::PlantPUE, Obs::PlantWUE})
      QVERIFY2(shown.count(obsPath(id)), obsPath(id));
    // display units: degC for the weather, the PUE as it is
    const int last = d.rows() - 1;
    QVERIFY(std::abs(pv->displayValue(obsPath(Obs::WeatherTDryBulb)) -
                     (d.value(obsPath(Obs::WeatherTDryBulb), last) - 273.15)) < 1e-9);
    QCOMPARE(pv->displayValue(obsPath(Obs::PlantPUE)), d.value(obsPath(Obs::PlantPUE), last));
    QVERIFY(pv->displayValue(obsPath(Obs::PlantPUE)) > 1.0);
    QCOMPARE(pv->table()->rowCount(), expected);
    // temperatures and weather in one panel in degC, power in kW
    bool temps = false, power = false;
    for (const auto& p : pv->panels()) {
      if (p.unit == "°C") temps = true;
      if (p.unit == "kW" || p.unit == "MW") power = true;
    }
    QVERIFY(temps && power);
    // calendar time: the weather's date and time zone beside the run time, in the
    // timeline, the plant tab and the alarms; the file the run wrote says the same
    QVERIFY(d.has_calendar);
    const QString date = QString::fromStdString(calendarText(d.year_start + d.duration()));
    QCOMPARE(d.dateAt(d.duration()), date);
    QVERIFY(!std::isnan(d.utc_offset));
    const QString tz = QString::fromStdString(utcOffsetText(d.utc_offset));
    const QString label = w.timeline()->findChild<QLabel*>("timeLabel")->text();
    QVERIFY2(label.contains(date) && label.contains(tz), qPrintable(label));
    const QString note = pv->findChild<QLabel*>("plantNote")->text();
    QVERIFY2(note.contains(date), qPrintable(note));
    // the charts say where t = 0 falls in the calendar
    const QString title = w.chart(0)->timeAxisTitle();
    QVERIFY2(title.contains(d.dateAt(0.0)) && title.contains(tz), qPrintable(title));
    QVERIFY(!d.source_path.isEmpty());
    {  // the run's results file: the same calendar
      const RunData f = RunData::fromResults(readResults(d.source_path.toStdString()));
      QVERIFY(f.has_calendar);
      QCOMPARE(f.year_start, d.year_start);
      QCOMPARE(f.utc_offset, d.utc_offset);
      QCOMPARE(f.dateAt(600.0), d.dateAt(600.0));
    }
    pv->plot()->repaint();
    checkLabels(pv->drawnLabels(), pv->plot()->rect(), "plant at 1280 x 800");
    QVERIFY(pv->grab().save(kArtifacts + "/pod_plant_1280x800.png"));
    // a facility without a plant: the tab says so, no panels
    QVERIFY(w.openFacility(kPod));
    QVERIFY(pv->panels().empty());
    QVERIFY(!w.currentRun() || !w.currentRun()->has_calendar);
    QVERIFY(!w.timeline()->findChild<QLabel*>("timeLabel")->text().contains("UTC"));
  }

  // the campus level: racks[].hall reaches the run layout; a block per hall, rows per hall
  // air-cooled racks (docs/models/air_rack.md) on the floor plan: in their row at their
  // position, coloured by the metrics that apply to them, a tooltip; from a run and from a file
  void airRacksOnTheFloor() {
    const QString block = kSource + "/data/facilities/datasheet_block.yaml";
    MainWindow w(offscreenOptions());
    show1280(w);
    QVERIFY(w.openFacility(block));
    const RunData& d = *w.currentRun();
    QCOMPARE(d.nair(), 2);
    QCOMPARE(QString::fromStdString(d.air_row[0]), QString("B"));
    QCOMPARE(d.air_index[1], 21);
    FloorPlan* f = w.floorPlan();
    const FloorLayout& L = f->layout();
    QCOMPARE(int(L.air.size()), 2);
    // row B with the lumped block BLOCK (index 1): SW01 at index 20, ST01 next to it
    QCOMPARE(L.air[0].y(), L.rack[0].y());
    QCOMPARE(L.air[0].x(), L.rack[0].x() + 19 * kRackWidth);
    QCOMPARE(L.air[1].x(), L.air[0].right());
    QVERIFY(L.bounds.contains(L.air[1]));
    QCOMPARE(f->airRackColor(0), QColor(128, 128, 128));  // nothing known before a run
    w.whatIf()->resetScenario();
    QVERIFY(runScenario(w, "name: a\nduration: 2 min\noutput_interval: 30 s\n", "a.yaml"));
    w.timeline()->toEnd();
    f->setMetric(Metric::Power);
    const QColor grey(128, 128, 128);
    QVERIFY(f->airRackColor(0) != grey);
    QCOMPARE(f->airRackColor(0), sequentialColor(airRackMetric(*w.currentRun(), Metric::Power, 0,
                                                               w.currentRun()->rows() - 1),
                                                 f->legendLo(), f->legendHi()));
    QVERIFY(std::abs(airRackMetric(*w.currentRun(), Metric::Power, 0, w.currentRun()->rows() - 1) -
                     12.164) < 0.01);  // 12 kW IT + 164 W of fans (the example's numbers)
    f->setMetric(Metric::ReturnT);
    QVERIFY(f->airRackColor(0) != grey);
    f->setMetric(Metric::LeakState);
    QCOMPARE(f->airRackColor(1), leakStateColor(0));  // running
    f->setMetric(Metric::JunctionMax);
    QCOMPARE(f->airRackColor(0), grey);  // no GPUs
    const QString tip = f->tooltipForAirRack(0);
    QVERIFY(tip.contains("SW01"));
    QVERIFY(tip.contains("running"));
    QVERIFY(tip.contains("row B, position 20"));
    // the search finds it: centred, close enough to read its name
    w.views()->setCurrentWidget(f);
    QVERIFY(f->find("st01"));
    QVERIFY(f->canvas()->rect().contains(f->airRackCenter(1)));
    QVERIFY(f->pixelsPerMetre() * kRackWidth >= 60);
    // drawn with its name when zoomed in, nothing clipped or overlapping
    f->zoomToRack(0, 60);
    f->canvas()->repaint();
    checkLabels(f->drawnLabels(), f->canvas()->rect(), "air racks zoomed in");
    f->setMetric(Metric::Power);
    f->resetView();
    QVERIFY(f->legendLo() <= 6.2);  // the auto range covers the air racks (6.1 and 12.2 kW)
    f->renderImage(QSize(1280, 520)).save(kArtifacts + "/floor_air_racks.png");
    // a results file has their rows and positions
    QTemporaryDir tmp;
    const std::string h5 = tmp.filePath("block.h5").toStdString();
    {
      Hdf5Sink sink(h5);
      std::vector<RunSink*> sinks{&sink};
      Scenario sc;
      sc.duration = 60;
      sc.output_interval = 30;
      runFacility(loadFacility(block.toStdString()), sc, RunSettings{}, sinks);
    }
    const RunData r = RunData::fromResults(readResults(h5));
    QCOMPARE(r.nair(), 2);
    QCOMPARE(QString::fromStdString(r.air_row[1]), QString("B"));
    QCOMPARE(r.air_index[0], 20);
    QVERIFY(std::abs(airRackMetric(r, Metric::Power, 1, r.rows() - 1) - 6.126) < 0.01);
  }

  void campusBlocksPerHall() {
    QFile in(kPod);
    QVERIFY(in.open(QIODevice::ReadOnly));
    QString text = QString::fromUtf8(in.readAll());
    // racks A05 … A08 in a second hall, in a row named A as well (positions are per hall)
    for (int i = 5; i <= 8; ++i)
      text.replace(QString("row: A, index: %1}").arg(i),
                   QString("row: A, hall: H2, index: %1}").arg(i - 4));
    for (int i = 1; i <= 4; ++i)
      text.replace(QString("row: A, index: %1}").arg(i),
                   QString("row: A, hall: H1, index: %1}").arg(i));
    QTemporaryDir tmp;
    const QString path = tmp.filePath("pod_two_halls.yaml");
    {
      QFile out(path);
      QVERIFY(out.open(QIODevice::WriteOnly));
      out.write(text.toUtf8());
    }
    MainWindow w(offscreenOptions());
    show1280(w);
    QVERIFY(w.openFacility(path));
    const RunData& d = *w.currentRun();
    QCOMPARE(int(d.rack_hall.size()), d.nrack());
    QCOMPARE(QString::fromStdString(d.rack_hall[0]), QString("H1"));
    QCOMPARE(QString::fromStdString(d.rack_hall[7]), QString("H2"));
    FloorPlan* f = w.floorPlan();
    const FloorLayout& L = f->layout();
    QCOMPARE(int(L.halls.size()), 2);
    QCOMPARE(L.halls[0].name, QString("H1"));
    QVERIFY(!L.halls[0].rect.intersects(L.halls[1].rect));
    for (int r = 0; r < d.nrack(); ++r) QVERIFY(L.halls[L.rack_hall[r]].rect.contains(L.rack[r]));
    for (int c = 0; c < d.ncdu(); ++c) QVERIFY(L.halls[L.cdu_hall[c]].rect.contains(L.cdu[c]));
    QCOMPARE(int(L.row_label.size()), 2);  // row A of hall H1 and row A of hall H2
    QVERIFY(L.rack_row[0] != L.rack_row[7]);
    // drawn: both hall names, nothing clipped or overlapping
    w.views()->setCurrentWidget(f);
    f->resetView();
    f->canvas()->repaint();
    int hall_labels = 0;
    for (const auto& l : f->drawnLabels())
      hall_labels += l.text == "hall H1" || l.text == "hall H2";
    QCOMPARE(hall_labels, 2);
    checkLabels(f->drawnLabels(), f->canvas()->rect(), "campus at 1280 x 800");
    // "By hall": each rack takes its hall's worst rack; the search finds a hall
    w.whatIf()->resetScenario();
    QVERIFY(runScenario(w, "name: c\nduration: 2 min\noutput_interval: 30 s\n", "c.yaml"));
    w.timeline()->toEnd();
    f->setAggregate(FloorPlan::Aggregate::Hall);
    for (int h = 0; h < 2; ++h) {
      double worst = -1e300;
      for (int r = 0; r < d.nrack(); ++r)
        if (f->layout().rack_hall[r] == h)
          worst = std::max(worst, rackMetric(*w.currentRun(), Metric::JunctionMax, r,
                                             w.currentRun()->rows() - 1));
      for (int r = 0; r < d.nrack(); ++r)
        if (f->layout().rack_hall[r] == h) QCOMPARE(f->rackValue(r), worst);
    }
    f->setAggregate(FloorPlan::Aggregate::None);
    QVERIFY(f->find("hall H2"));
    QVERIFY(f->zoom() > 1.0);
    QVERIFY(f->grab().save(kArtifacts + "/campus_two_halls.png"));
  }
};

QTEST_MAIN(GuiViewsTest)
#include "gui_views_test.moc"
