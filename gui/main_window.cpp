// main_window.cpp: dctwin-gui main window (see main_window.h)
#include "gui/main_window.h"

#include <fcntl.h>
#include <unistd.h>

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QCursor>
#include <QDesktopServices>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QImageWriter>
#include <QKeySequence>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QRegularExpression>
#include <QScrollArea>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QTextStream>
#include <QTimer>
#include <QToolBar>
#include <QToolTip>
#include <QUrl>
#include <QVBoxLayout>
#include <cerrno>
#include <cmath>

#include "gui/alarms.h"
#include "gui/charts.h"
#include "gui/distributions.h"
#include "gui/floor_layout.h"
#include "gui/floor_plan.h"
#include "gui/job_view.h"
#include "gui/plant_view.h"
#include "gui/rack_detail.h"
#include "gui/timeline.h"
#include "solver/common/bounded_file.h"
#include "solver/common/paths.h"
#include "solver/common/provenance.h"
#include "solver/input/loader.h"
#include "solver/output/results_reader.h"
#include "solver/run/run.h"
#ifdef DCTWIN_GUI_3D
#include "gui/view3d/hall_view_3d.h"
#endif

namespace dctwin::gui {

namespace {

ErrorHook& hookRef() {
  static ErrorHook hook;
  return hook;
}

constexpr int kMaxRecent = 8;

// a YAML file's top-level keys tell a scenario from a facility
bool looksLikeScenario(const QString& text) {
  static const QRegularExpression fac("^(racks|cdus|site|jobs|power)\\s*:",
                                      QRegularExpression::MultilineOption);
  static const QRegularExpression scen("^(dctwin_scenario|events|duration|output_interval)\\s*:",
                                       QRegularExpression::MultilineOption);
  return !fac.match(text).hasMatch() && scen.match(text).hasMatch();
}

}  // namespace

ErrorHook setErrorHook(ErrorHook hook) {
  ErrorHook old = std::move(hookRef());
  hookRef() = std::move(hook);
  return old;
}

void reportError(QWidget* parent, const QString& title, const QString& message) {
  if (hookRef()) return hookRef()(title, message);
  QMessageBox box(QMessageBox::Critical, title, message.section("\n", 0, 3), QMessageBox::Ok,
                  parent);
  if (message.count('\n') > 3) box.setDetailedText(message);
  box.exec();
}

MainWindow::MainWindow(const MainWindowOptions& options, QWidget* parent)
    : QMainWindow(parent), opt_(options) {
  setObjectName("dctwinMainWindow");
  worker_ = new RunWorker(this);
  connect(worker_, &RunWorker::finished, this, &MainWindow::onFinished);
  poll_ = new QTimer(this);
  poll_->setInterval(100);
  connect(poll_, &QTimer::timeout, this, &MainWindow::poll);
  buildUi();
  buildMenus();
  if (opt_.restore_settings) loadSettings();
  updateTitle();
}

MainWindow::~MainWindow() {
  if (worker_->running()) worker_->cancel();
}

QWidget* MainWindow::view3d() const {
#ifdef DCTWIN_GUI_3D
  return hall3d_;
#else
  return nullptr;
#endif
}

void MainWindow::buildUi() {
  resize(1280, 800);
  auto* central = new QWidget(this);
  auto* v = new QVBoxLayout(central);
  v->setContentsMargins(2, 2, 2, 2);
  tabs_ = new QTabWidget(central);
  tabs_->setObjectName("viewTabs");
  floor_ = new FloorPlan(tabs_);
  floor_->setObjectName("floorPlan");
  tabs_->addTab(floor_, "Floor plan");
#ifdef DCTWIN_GUI_3D
  if (opt_.with_3d) {
    hall3d_ = new HallView3D(tabs_);
    hall3d_->setObjectName("hallView3D");
    tabs_->addTab(hall3d_, "3D hall");
    connect(hall3d_, &HallView3D::boxHovered, this, [this](int box) {
      if (!current_ || box < 0) return QToolTip::hideText();
      const int nr = current_->nrack();
      const QString tip = box < nr ? floor_->tooltipForRack(box) : floor_->tooltipForCdu(box - nr);
      QToolTip::showText(QCursor::pos(), tip, hall3d_);
    });
    connect(hall3d_, &HallView3D::boxClicked, this, [this](int box) {
      if (!current_) return;
      if (box >= 0 && box < current_->nrack())
        selectRack(box);
      else if (box >= current_->nrack() && box < current_->nrack() + current_->ncdu())
        selectCdu(box - current_->nrack());
    });
  }
#endif
  detail_ = new RackDetail(tabs_);
  detail_->setObjectName("rackDetail");
  tabs_->addTab(detail_, "Rack detail");
  dist_ = new DistributionView(tabs_);
  dist_->setObjectName("distributions");
  tabs_->addTab(dist_, "Distributions");
  connect(dist_, &DistributionView::rackActivated, this, &MainWindow::selectRack);
  connect(dist_, &DistributionView::gpuActivated, this, [this](int g) {
    if (!current_ || g < 0 || g >= current_->ngpu()) return;
    selectRack(current_->gpu_rack[g]);
    floor_->zoomToRack(current_->gpu_rack[g], 220);
  });
  // what the other issues added: the jobs' bottleneck maps, the plant and its weather
  jobs_ = new JobView(tabs_);
  jobs_->setObjectName("jobs");
  tabs_->addTab(jobs_, "Jobs");
  plant_ = new PlantView(tabs_);
  plant_->setObjectName("plant");
  tabs_->addTab(plant_, "Plant");
  connect(tabs_, &QTabWidget::currentChanged, this, [this] {
    if (tabs_->currentWidget() == dist_) dist_->setTime(timeline_->time());
    if (tabs_->currentWidget() == jobs_) jobs_->setTime(timeline_->time());
    if (tabs_->currentWidget() == plant_) plant_->setTime(timeline_->time());
  });
  auto* cmp = new QWidget(tabs_);
  cmp_view_ = cmp;
  cmp->setObjectName("compareView");
  auto* ch = new QHBoxLayout(cmp);
  ch->setContentsMargins(0, 0, 0, 0);
  auto* split = new QSplitter(Qt::Horizontal, cmp);
  for (int k = 0; k < 3; ++k) {
    cmp_[k] = new FloorPlan(split);
    split->addWidget(cmp_[k]);
    connect(cmp_[k], &FloorPlan::rackClicked, this, &MainWindow::onRackClicked);
    connect(cmp_[k], &FloorPlan::metricChanged, this, [this](Metric m) {
      for (FloorPlan* f : cmp_) f->setMetric(m);
    });
  }
  // one bar for the three panes (the metric follows): three would not fit 1280 px
  cmp_[0]->setSearchVisible(false);
  cmp_[1]->setControlsVisible(false);
  cmp_[2]->setControlsVisible(false);
  cmp_[0]->setTitle("Baseline");
  cmp_[1]->setTitle("This run");
  cmp_[2]->setTitle("Difference (this run − baseline)");
  split->setSizes({1000, 1000, 1000});  // three equal panes
  ch->addWidget(split);
  tabs_->addTab(cmp, "Compare");
  v->addWidget(tabs_, 1);
  timeline_ = new Timeline(central);
  timeline_->setObjectName("timeline");
  connect(plant_, &PlantView::timeClicked, this, [this](double t) {
    timeline_->setFollowing(false);
    timeline_->seek(t);
  });
  v->addWidget(timeline_);
  setCentralWidget(central);

  // docks
  auto* charts = new QWidget(this);
  auto* cv = new QVBoxLayout(charts);
  cv->setContentsMargins(0, 0, 0, 0);
  auto* csplit = new QSplitter(Qt::Horizontal, charts);
  for (int k = 0; k < 2; ++k) {
    charts_[k] = new ChartPanel(csplit);
    charts_[k]->setObjectName(QString("chart%1").arg(k));
    csplit->addWidget(charts_[k]);
  }
  for (auto* c : charts_)
    connect(c, &ChartPanel::timeClicked, this, [this](double t) {
      timeline_->setFollowing(false);
      timeline_->seek(t);
    });
  charts_[0]->setQuantity(0);   // rack max junction
  charts_[1]->setQuantity(12);  // CDU secondary flow
  cv->addWidget(csplit);
  chart_dock_ = new QDockWidget("Charts", this);
  chart_dock_->setObjectName("chartDock");
  chart_dock_->setWidget(charts);
  addDockWidget(Qt::BottomDockWidgetArea, chart_dock_);

  alarms_ = new AlarmPanel(this);
  alarm_dock_ = new QDockWidget("Alarms and events", this);
  alarm_dock_->setObjectName("alarmDock");
  alarm_dock_->setWidget(alarms_);
  addDockWidget(Qt::RightDockWidgetArea, alarm_dock_);

  what_if_ = new WhatIfPanel(this);
  what_if_dock_ = new QDockWidget("What-if", this);
  what_if_dock_->setObjectName("whatIfDock");
  auto* what_if_scroll = new QScrollArea(this);  // tall panel: scrolls on small screens
  what_if_scroll->setWidget(what_if_);
  what_if_scroll->setWidgetResizable(true);
  what_if_scroll->setFrameShape(QFrame::NoFrame);
  what_if_dock_->setWidget(what_if_scroll);
  addDockWidget(Qt::RightDockWidgetArea, what_if_dock_);
  tabifyDockWidget(alarm_dock_, what_if_dock_);
  alarm_dock_->raise();
  // at 1280 x 800 the docks leave the views most of the window and the alarms their message
  // (after the first layout: before it the dock areas have no size to share)
  QTimer::singleShot(0, this, [this] {
    resizeDocks({alarm_dock_}, {340}, Qt::Horizontal);
    resizeDocks({chart_dock_}, {230}, Qt::Vertical);
  });

  status_run_ = new QLabel("No facility open", this);
  statusBar()->addPermanentWidget(status_run_);

  connect(timeline_, &Timeline::timeChanged, this, &MainWindow::onTime);
  connect(floor_, &FloorPlan::rackClicked, this, &MainWindow::onRackClicked);
  connect(floor_, &FloorPlan::cduClicked, this, &MainWindow::selectCdu);
  connect(floor_, &FloorPlan::gpuFound, this, [this](int g) {
    if (!current_ || g < 0 || g >= current_->ngpu()) return;
    statusBar()->showMessage(
        QString("GPU %1: rack %2, tray %3, slot %4 (0-based, as in the "
                "results file)")
            .arg(g)
            .arg(QString::fromStdString(current_->rack_name[current_->gpu_rack[g]]))
            .arg(current_->gpu_tray[g])
            .arg(current_->gpu_slot[g]),
        8000);
  });
  connect(floor_, &FloorPlan::rackDoubleClicked, this, [this](int r) {
    selectRack(r);
    tabs_->setCurrentWidget(detail_);
  });
  connect(floor_, &FloorPlan::contextMenuRequested, this, &MainWindow::onContextMenu);
  connect(floor_, &FloorPlan::colorsChanged, this, &MainWindow::update3d);
  connect(floor_, &FloorPlan::metricChanged, this, [this](Metric m) {
    for (FloorPlan* f : cmp_) f->setMetric(m);
  });
  connect(alarms_, &AlarmPanel::eventActivated, this, &MainWindow::onEvent);
  connect(detail_, &RackDetail::gpuClicked, this, [this](int gpu) {
    if (std::find(gpus_.begin(), gpus_.end(), gpu) == gpus_.end()) gpus_.push_back(gpu);
    if (gpus_.size() > 8) gpus_.erase(gpus_.begin());
    updateCharts();
    if (charts_[1]->quantity() < 18 || charts_[1]->quantity() > 21) charts_[1]->setQuantity(18);
    statusBar()->showMessage("GPU added to the charts (GPU quantities)", 4000);
  });
  connect(what_if_, &WhatIfPanel::runRequested, this, &MainWindow::startRun);
  connect(what_if_, &WhatIfPanel::cancelRequested, this, &MainWindow::cancelRun);
  connect(what_if_, &WhatIfPanel::loadRequested, this, [this] {
    const QString p = QFileDialog::getOpenFileName(this, "Load scenario", defaultDir(),
                                                   "Scenario (*.yaml *.yml);;All files (*)");
    if (!p.isEmpty()) openScenario(p);
  });
  connect(what_if_, &WhatIfPanel::saveRequested, this, [this] {
    const QString p = QFileDialog::getSaveFileName(
        this, "Save scenario", defaultDir() + "/" + what_if_->scenarioName() + ".yaml",
        "Scenario (*.yaml)");
    if (!p.isEmpty()) saveScenario(p);
  });
}

void MainWindow::buildMenus() {
  auto act = [this](QMenu* m, const QString& text, const QKeySequence& key, auto fn) {
    QAction* a = m->addAction(text);
    if (!key.isEmpty()) a->setShortcut(key);
    connect(a, &QAction::triggered, this, fn);
    addAction(a);  // shortcuts work with the menu bar hidden too
    return a;
  };
  QMenu* file = menuBar()->addMenu("&File");
  act(file, "&Open…", QKeySequence::Open, [this] {
    const QString p = QFileDialog::getOpenFileName(
        this, "Open facility, scenario or results", defaultDir(),
        "dctwin files (*.yaml *.yml *.h5);;Facility or scenario (*.yaml *.yml);;Results (*.h5)"
        ";;All files (*)");
    if (!p.isEmpty()) openFile(p);
  });
  recent_menu_ = file->addMenu("Open &recent");
  act(file, "Open the default &pod", QKeySequence(),
      [this] { openFacility(QString::fromStdString(dataFile("facilities/pod_gb200.yaml"))); });
  file->addSeparator();
  act(file, "Load &scenario…", QKeySequence("Ctrl+Shift+O"),
      [this] { emit what_if_->loadRequested(); });
  act(file, "Save scenario &as…", QKeySequence("Ctrl+Shift+S"),
      [this] { emit what_if_->saveRequested(); });
  act(file, "Save &facility as…", QKeySequence(), [this] {
    const QString p = QFileDialog::getSaveFileName(
        this, "Save facility", defaultDir() + "/facility.yaml", "Facility (*.yaml)");
    if (!p.isEmpty()) saveFacility(p);
  });
  act(file, "Save &results as…", QKeySequence::Save, [this] {
    const QString p = QFileDialog::getSaveFileName(this, "Save results", defaultDir() + "/run.h5",
                                                   "Results (*.h5)");
    if (!p.isEmpty()) saveResults(p);
  });
  file->addSeparator();
  act(file, "&Export view as PNG…", QKeySequence("Ctrl+E"), [this] {
    const QString p = QFileDialog::getSaveFileName(this, "Export view", defaultDir() + "/view.png",
                                                   "PNG image (*.png)");
    if (!p.isEmpty()) exportPng(currentView(), p);
  });
  act(file, "Export &charts as PNG…", QKeySequence(), [this] {
    const QString p = QFileDialog::getSaveFileName(
        this, "Export charts", defaultDir() + "/charts.png", "PNG image (*.png)");
    if (!p.isEmpty()) exportPng(chart_dock_->widget(), p);
  });
  for (int k = 0; k < 2; ++k)
    act(file, QString("Export chart %1 as CSV…").arg(k + 1),
        k == 0 ? QKeySequence("Ctrl+Shift+E") : QKeySequence(), [this, k] {
          const QString p = QFileDialog::getSaveFileName(
              this, "Export chart data", defaultDir() + QString("/chart%1.csv").arg(k + 1),
              "CSV (*.csv)");
          if (!p.isEmpty()) exportChartCsv(k, p);
        });
  act(file, "Export &alarms as CSV…", QKeySequence(), [this] {
    const QString p = QFileDialog::getSaveFileName(this, "Export alarms and events",
                                                   defaultDir() + "/alarms.csv", "CSV (*.csv)");
    if (!p.isEmpty()) exportAlarmsCsv(p);
  });
  file->addSeparator();
  act(file, "&Quit", QKeySequence::Quit, [this] { close(); });

  QMenu* run = menuBar()->addMenu("&Run");
  act(run, "&Run scenario", QKeySequence("F5"), [this] { startRun(); });
  act(run, "&Cancel run", QKeySequence("Esc"), [this] { cancelRun(); });
  run->addSeparator();
  act(run, "Inject &leak at the selected rack", QKeySequence("Ctrl+L"), [this] {
    if (current_ && sel_rack_ >= 0)
      injectFault(FaultKind::Leak, QString::fromStdString(current_->rack_name[sel_rack_]));
    else
      statusBar()->showMessage("Select a rack first (click it on the floor plan)", 4000);
  });
  act(run, "New &scenario (no events)", QKeySequence("Ctrl+N"), [this] {
    what_if_->resetScenario();
    what_if_dock_->raise();
  });
  run->addSeparator();
  act(run, "Run &summary…", QKeySequence("Ctrl+I"), [this] {
    if (outcome_.summary.isEmpty()) {
      statusBar()->showMessage("No run finished yet (F5 runs the scenario)", 4000);
      return;
    }
    QDialog dlg(this);
    dlg.setWindowTitle("Run summary");
    auto* lay = new QVBoxLayout(&dlg);
    auto* text = new QPlainTextEdit(outcome_.summary, &dlg);
    text->setReadOnly(true);
    text->setLineWrapMode(QPlainTextEdit::NoWrap);
    text->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    lay->addWidget(text);
    auto* close = new QDialogButtonBox(QDialogButtonBox::Close, &dlg);
    connect(close, &QDialogButtonBox::rejected, &dlg, &QDialog::reject);
    lay->addWidget(close);
    dlg.resize(900, 600);
    dlg.exec();
  });
  act(run, "Compare with &previous run", QKeySequence("Ctrl+D"), [this] { compareWithPrevious(); });
  act(run, "Compare with results &file…", QKeySequence(), [this] {
    const QString p =
        QFileDialog::getOpenFileName(this, "Baseline results", defaultDir(), "Results (*.h5)");
    if (!p.isEmpty()) compareWithFile(p);
  });
  act(run, "S&top comparing", QKeySequence(), [this] { stopComparing(); });

  QMenu* view = menuBar()->addMenu("&View");
  for (int k = 0; k < tabs_->count(); ++k)
    act(view, tabs_->tabText(k), QKeySequence(QString("Ctrl+%1").arg(k + 1)),
        [this, k] { tabs_->setCurrentIndex(k); });
  view->addSeparator();
  view->addAction(chart_dock_->toggleViewAction());
  view->addAction(alarm_dock_->toggleViewAction());
  view->addAction(what_if_dock_->toggleViewAction());
  view->addSeparator();
  act(view, "&Play / pause", QKeySequence("Space"), [this] { timeline_->togglePlay(); });
  act(view, "Step &forward", QKeySequence("Ctrl+Right"), [this] { timeline_->stepForward(); });
  act(view, "Step &back", QKeySequence("Ctrl+Left"), [this] { timeline_->stepBack(); });
  act(view, "To the &start", QKeySequence("Ctrl+Home"), [this] { timeline_->toStart(); });
  act(view, "To the &end", QKeySequence("Ctrl+End"), [this] { timeline_->toEnd(); });
  act(view, "Clear pinned &racks", QKeySequence(), [this] {
    pinned_.clear();
    gpus_.clear();
    floor_->setMarked(pinned_);
    updateCharts();
  });
#ifdef DCTWIN_GUI_3D
  if (hall3d_)
    act(view, "Reset 3D &camera", QKeySequence("Ctrl+R"), [this] { hall3d_->resetCamera(); });
#endif

  QMenu* help = menuBar()->addMenu("&Help");
  act(help, "&User guide", QKeySequence::HelpContents, [] {
    QDesktopServices::openUrl(QUrl::fromLocalFile(QString::fromStdString(docDir()) + "/gui.md"));
  });
  act(help, "&Keyboard shortcuts", QKeySequence(), [this] {
    QMessageBox::information(
        this, "Keyboard shortcuts",
        "Ctrl+O open · Ctrl+S save results · Ctrl+Shift+S save scenario · Ctrl+Shift+O load "
        "scenario\nF5 run · Esc cancel · Ctrl+L leak at the selected rack · Ctrl+N new "
        "scenario · Ctrl+D compare with the previous run · Ctrl+I run summary\nSpace play/pause · "
        "Ctrl+Left/Right "
        "step · Ctrl+Home/End start/end\nCtrl+1..4 views · Ctrl+E export view PNG · "
        "Ctrl+Shift+E export chart CSV · Ctrl+Q quit\nCharts: drag to zoom, wheel zoom, "
        "right-drag pan, +/- and arrows\nFloor plan: click selects, Ctrl+click pins to the "
        "charts, right-click injects faults");
  });
  act(help, "&About", QKeySequence(), [this] {
    QMessageBox::about(this, "About dctwin-gui",
                       QString("dctwin %1: digital twin of liquid-cooled AI data centers.\n"
                               "Desktop front end (Qt %2).")
                           .arg(QString::fromStdString(versionText()), qVersion()));
  });

  QToolBar* tb = addToolBar("Main");
  tb->setObjectName("mainToolbar");
  tb->setMovable(false);
  tb->addAction(file->actions().at(0));
  tb->addSeparator();
  tb->addAction(run->actions().at(0));
  tb->addAction(run->actions().at(1));
  tb->addAction(run->actions().at(3));
  tb->addAction(run->actions().at(7));
  tb->addSeparator();
  tb->addAction(file->actions().at(9));
  rebuildRecentMenu();
}

QString MainWindow::defaultDir() const {
  if (!last_dir_.isEmpty() && QDir(last_dir_).exists()) return last_dir_;
  return QString::fromStdString(dataDir());
}

void MainWindow::updateTitle() {
  QString t = "dctwin-gui";
  if (current_)
    t += " — " + (current_->label.isEmpty() ? QString::fromStdString(current_->facility_name)
                                            : current_->label);
  if (baseline_) t += "  (compared with " + baseline_->label + ")";
  setWindowTitle(t);
}

// ---------------------------------------------------------------------------------------------
// files

bool MainWindow::openFile(const QString& path) {
  if (path.endsWith(".h5", Qt::CaseInsensitive) || path.endsWith(".hdf5", Qt::CaseInsensitive))
    return openResults(path);
  // the bounded opener (solver/common/bounded_file.h): a FIFO or a device never blocks the window
  // and a huge file is refused by its size; the reason never quotes the file
  FileRefusal why;
  const auto bytes = readBoundedFile(path.toStdString(), kMaxInputFileBytes, &why);
  if (!bytes) {
    // a results file may be larger than any YAML file: one that starts as HDF5 does is read by
    // readResults, on its own limits
    if (why.err == EFBIG) {
      char head[8] = {};
      const int fd = ::open(path.toLocal8Bit().constData(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
      const bool hdf5 = fd >= 0 && ::pread(fd, head, 8, 0) == 8 &&
                        std::string(head, 8) == std::string("\x89HDF\r\n\x1a\n", 8);
      if (fd >= 0) ::close(fd);
      if (hdf5) return openResults(path);
    }
    reportError(this, "Cannot open file", path + ": " + QString::fromStdString(why.reason));
    return false;
  }
  if (bytes->rfind("\x89HDF", 0) == 0) return openResults(path);
  const QString text = QString::fromUtf8(bytes->data(), qsizetype(bytes->size()));
  return looksLikeScenario(text) ? openScenario(path) : openFacility(path);
}

bool MainWindow::openFacility(const QString& path) {
  if (isRunning()) {
    reportError(this, "A run is going on", "Cancel the run (Esc) before opening another facility.");
    return false;
  }
  try {
    FacilitySpec spec = loadFacility(path.toStdString());
    const RunLayout m = describeFacility(spec);
    auto d = std::make_unique<RunData>(RunData::fromLayout(m));
    d->label = QFileInfo(path).fileName();
    spec_ = std::move(spec);
    facility_path_ = path;
    previous_.reset();
    stopComparing();
    setCurrent(std::move(d));
    current_results_.clear();
    addRecent(path);
    if (opt_.restore_settings)
      QSettings().setValue("files/last_facility", QFileInfo(path).absoluteFilePath());
    status_run_->setText(QString("%1: %2 racks, %3 CDUs, %4 GPUs — F5 runs the scenario")
                             .arg(QString::fromStdString(m.name))
                             .arg(m.nrack)
                             .arg(m.ncdu)
                             .arg(m.ngpu));
    statusBar()->showMessage("Opened " + path, 5000);
    return true;
  } catch (const std::exception& e) {
    reportError(this, "Cannot open facility",
                QString("%1\n\n%2").arg(path, QString::fromStdString(e.what())));
    return false;
  }
}

bool MainWindow::openScenario(const QString& path) {
  FileRefusal why;
  const auto bytes = readBoundedFile(path.toStdString(), kMaxInputFileBytes, &why);
  if (!bytes) {
    reportError(this, "Cannot open scenario", path + ": " + QString::fromStdString(why.reason));
    return false;
  }
  QString error;
  if (!what_if_->setScenarioText(QString::fromUtf8(bytes->data(), qsizetype(bytes->size())), path,
                                 &error)) {
    reportError(this, "Cannot open scenario", path + "\n\n" + error);
    return false;
  }
  addRecent(path);
  what_if_dock_->raise();
  statusBar()->showMessage("Scenario " + path + " loaded: F5 runs it", 5000);
  return true;
}

bool MainWindow::openResults(const QString& path) {
  if (isRunning()) {
    reportError(this, "A run is going on", "Cancel the run (Esc) before opening results.");
    return false;
  }
  try {
    // first without the per-GPU series; then with them where they fit in about 1 GB
    ResultsReadOptions no_gpu;
    no_gpu.want = [](const std::string& p) { return p.rfind("/gpu/", 0) != 0; };
    ResultsData r = readResults(path.toStdString(), no_gpu);
    const std::size_t ngpu = std::size_t(layoutOfResults(r).ngpu);
    if (ngpu > 0 && double(ngpu) * r.rows() * 5 * 8 <= 1e9) {
      r = readResults(path.toStdString());
    } else if (ngpu > 0) {
      statusBar()->showMessage(
          "Large run: per-GPU series not loaded (rack detail unavailable; GPU metrics need the "
          "per-GPU series)",
          10000);
    }
    auto d = std::make_unique<RunData>(RunData::fromResults(r));
    d->label = QFileInfo(path).fileName();
    // the facility of the run, so what-if runs can start from it
    if (!d->facility_text.empty()) {
      try {
        spec_ = loadFacilityFromString(d->facility_text, path.toStdString(),
                                       QFileInfo(path).absolutePath().toStdString());
        facility_path_ = path;
      } catch (const std::exception&) {
        // results still show; runs need a facility file
      }
    }
    if (!d->scenario_text.empty())
      what_if_->setScenarioText(QString::fromStdString(d->scenario_text), path);
    if (current_ && current_->rows() > 0) previous_ = std::move(current_);
    setCurrent(std::move(d));
    current_results_ = path;
    addRecent(path);
    status_run_->setText(QString("%1: %2 rows to %3")
                             .arg(current_->label)
                             .arg(current_->rows())
                             .arg(formatTime(current_->duration())));
    return true;
  } catch (const std::exception& e) {
    reportError(this, "Cannot open results",
                QString("%1\n\n%2").arg(path, QString::fromStdString(e.what())));
    return false;
  }
}

bool MainWindow::saveScenario(const QString& path) {
  QFile f(path);
  if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate | QIODevice::Text)) {
    reportError(this, "Cannot save scenario", path + ": " + f.errorString());
    return false;
  }
  const QByteArray bytes = what_if_->scenarioText().toUtf8();
  if (f.write(bytes) != bytes.size()) {
    reportError(this, "Cannot save scenario", path + ": " + f.errorString());
    return false;
  }
  last_dir_ = QFileInfo(path).absolutePath();
  statusBar()->showMessage("Scenario saved to " + path, 5000);
  return true;
}

bool MainWindow::saveFacility(const QString& path) {
  if (!current_ || current_->facility_text.empty()) {
    reportError(this, "No facility to save", "Open a facility or a results file first.");
    return false;
  }
  QFile f(path);
  const QByteArray bytes = QByteArray::fromStdString(current_->facility_text);
  if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) || f.write(bytes) != bytes.size()) {
    reportError(this, "Cannot save facility", path + ": " + f.errorString());
    return false;
  }
  last_dir_ = QFileInfo(path).absolutePath();
  statusBar()->showMessage("Facility saved to " + path, 5000);
  return true;
}

bool MainWindow::saveResults(const QString& path) {
  if (isRunning()) {
    reportError(this, "A run is going on", "Save the results when the run has finished.");
    return false;
  }
  if (current_results_.isEmpty() || !QFile::exists(current_results_)) {
    reportError(this, "No results to save", "Run a scenario first (F5).");
    return false;
  }
  // the same file (through a link, too): removing the target first would lose the results
  if (sameFile(path.toStdString(), current_results_.toStdString())) return true;
  if (QFile::exists(path)) QFile::remove(path);
  if (!QFile::copy(current_results_, path)) {
    reportError(this, "Cannot save results", path + ": cannot write the file");
    return false;
  }
  last_dir_ = QFileInfo(path).absolutePath();
  addRecent(path);
  statusBar()->showMessage("Results saved to " + path, 5000);
  return true;
}

bool MainWindow::compareWithFile(const QString& path) {
  if (isRunning()) {  // the HDF5 library is serial: one thread at a time
    reportError(this, "A run is going on", "Open the baseline when the run has finished.");
    return false;
  }
  try {
    const ResultsData r = readResults(path.toStdString());
    baseline_ = std::make_unique<RunData>(RunData::fromResults(r));
    baseline_->label = QFileInfo(path).fileName();
  } catch (const std::exception& e) {
    reportError(this, "Cannot open results",
                QString("%1\n\n%2").arg(path, QString::fromStdString(e.what())));
    return false;
  }
  attachViews();
  tabs_->setCurrentWidget(cmp_[0]->parentWidget()->parentWidget());
  updateTitle();
  return true;
}

bool MainWindow::compareWithPrevious() {
  if (!previous_ || previous_->rows() == 0) {
    reportError(this, "Nothing to compare with",
                "Run (or open) another result first: the comparison uses the run before the "
                "current one as the baseline.");
    return false;
  }
  baseline_ = std::make_unique<RunData>(*previous_);
  attachViews();
  tabs_->setCurrentWidget(cmp_[0]->parentWidget()->parentWidget());
  updateTitle();
  return true;
}

void MainWindow::stopComparing() {
  baseline_.reset();
  attachViews();
  updateTitle();
}

bool MainWindow::exportPng(QWidget* view, const QString& path) {
  if (!view) return false;
  QImage img;
#ifdef DCTWIN_GUI_3D
  if (view == hall3d_) img = hall3d_->renderImage();
#endif
  if (img.isNull()) img = view->grab().toImage();
  if (img.isNull() || !img.save(path, "PNG")) {
    reportError(this, "Cannot export PNG", path + ": cannot write the image");
    return false;
  }
  last_dir_ = QFileInfo(path).absolutePath();
  statusBar()->showMessage("Saved " + path, 4000);
  return true;
}

bool MainWindow::exportChartCsv(int chart, const QString& path) {
  QString error;
  if (!charts_[chart]->exportCsv(path, &error)) {
    reportError(this, "Cannot export CSV", path + ": " + error);
    return false;
  }
  last_dir_ = QFileInfo(path).absolutePath();
  statusBar()->showMessage("Saved " + path, 4000);
  return true;
}

bool MainWindow::exportAlarmsCsv(const QString& path) {
  QFile f(path);
  const QByteArray bytes = alarms_->csvText().toUtf8();
  if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate | QIODevice::Text) ||
      f.write(bytes) != bytes.size()) {
    reportError(this, "Cannot export CSV", path + ": " + f.errorString());
    return false;
  }
  last_dir_ = QFileInfo(path).absolutePath();
  statusBar()->showMessage("Saved " + path, 4000);
  return true;
}

QWidget* MainWindow::currentView() const {
  return tabs_->currentWidget();
}

// ---------------------------------------------------------------------------------------------
// runs

bool MainWindow::isRunning() const {
  return worker_->running();
}

bool MainWindow::startRun() {
  if (isRunning()) return false;
  if (!spec_) {
    reportError(this, "No facility", "Open a facility first (File > Open, Ctrl+O).");
    return false;
  }
  if (!tmp_.isValid()) {
    reportError(this, "Cannot run", "No temporary folder for the results: " + tmp_.errorString());
    return false;
  }
  const QString text = what_if_->scenarioText();
  // the library checks the scenario against the facility here, so a mistake (an unknown rack,
  // a wrong unit) is reported at once with its message
  try {
    FacilitySpec check = *spec_;
    applyScenario(loadScenarioFromString(text.toStdString(),
                                         what_if_->scenarioName().toStdString() + ".yaml"),
                  check);
  } catch (const std::exception& e) {
    reportError(this, "Cannot run the scenario", QString::fromStdString(e.what()));
    return false;
  }
  ++run_counter_;
  const QString path = tmp_.filePath(QString("run_%1.h5").arg(run_counter_));
  if (!worker_->start(*spec_, text.toStdString(), what_if_->scenarioName().toStdString() + ".yaml",
                      path))
    return false;
  outcome_ = RunOutcome{};
  what_if_->setRunning(true);
  what_if_->setStatus("Running " + what_if_->scenarioName().toHtmlEscaped() + "…");
  status_run_->setText("Running…");
  timeline_->setFollowing(true);
  poll_->start();
  emit runStarted();
  return true;
}

void MainWindow::cancelRun() {
  if (!isRunning()) return;
  worker_->cancel();
  what_if_->setStatus("Cancelling…");
}

void MainWindow::poll() {
  if (auto skel = worker_->takeSkeleton()) {
    auto d = std::make_unique<RunData>(std::move(*skel));
    d->label = QString("run %1 (%2)").arg(run_counter_).arg(what_if_->scenarioName());
    if (current_ && current_->rows() > 0) previous_ = std::move(current_);
    setCurrent(std::move(d));
    current_results_.clear();
  }
  RowBlock b = worker_->take();
  if (current_ && !current_->complete && (!b.time.empty() || !b.events.empty())) {
    current_->append(b);
    dataArrived();
  }
  what_if_->setProgress(worker_->progress(), worker_->simTime(), worker_->duration());
}

void MainWindow::onFinished(const RunOutcome& out) {
  poll();
  poll_->stop();
  outcome_ = out;
  if (current_ && !current_->complete) {
    current_->complete = true;
    current_->source_path = out.results_path;
    current_results_ = out.results_path;
  }
  what_if_->setRunning(false);
  what_if_->setProgress(out.ok ? 1.0 : worker_->progress(), out.t_end, worker_->duration());
  QString s;
  if (out.cancelled)
    s = QString("Cancelled at %1; the results up to there are kept.").arg(formatTime(out.t_end));
  else if (out.ok)
    s = QString("Finished: %1 simulated in %2 s (%3× real time).")
            .arg(formatTime(out.t_end))
            .arg(out.wall_seconds, 0, 'f', 1)
            .arg(out.t_end / std::max(out.wall_seconds, 1e-3), 0, 'f', 0);
  else
    s = "<font color='#b71c1c'>Failed: " + out.error.toHtmlEscaped() + "</font>";
  what_if_->setStatus(s);
  status_run_->setText(out.ok ? (out.cancelled ? "Run cancelled" : "Run finished") : "Run failed");
  if (!out.summary.isEmpty())
    what_if_->setToolTip("<pre>" + out.summary.toHtmlEscaped() + "</pre>");
  if (!out.ok && !out.cancelled)
    reportError(this, "The run failed", out.error.isEmpty() ? "unknown error" : out.error);
  dataArrived();
  emit runFinished(out.ok);
}

// ---------------------------------------------------------------------------------------------
// views

void MainWindow::setCurrent(std::unique_ptr<RunData> run) {
  // the views compare the new run with the one they show (FloorPlan::setRun keeps its zoom on the
  // same floor): the old run lives until every view has the new one
  const std::unique_ptr<RunData> old = std::move(current_);
  current_ = std::move(run);
  if (current_) {
    if (sel_rack_ >= current_->nrack()) sel_rack_ = -1;
    if (sel_cdu_ >= current_->ncdu()) sel_cdu_ = -1;
    for (auto it = pinned_.begin(); it != pinned_.end();)
      it = *it >= current_->nrack() ? pinned_.erase(it) : std::next(it);
    std::erase_if(gpus_, [&](int g) { return g >= current_->ngpu(); });
  }
  scene3d_dirty_ = true;
  attachViews();
  updateTitle();
}

void MainWindow::attachViews() {
  const RunData* d = current_.get();
  floor_->setRun(d);
  detail_->setRun(d);
  alarms_->setRun(d);
  what_if_->setRun(d);
  jobs_->setRun(d);  // before the timeline's setTimes: its time signal reaches them
  plant_->setRun(d);
  // baseline and this run on one colour scale (each pane's range covers both runs)
  cmp_[0]->setRangeWith(baseline_ ? d : nullptr);
  cmp_[1]->setRangeWith(baseline_.get());
  cmp_[0]->setRun(baseline_ ? baseline_.get() : nullptr);
  cmp_[1]->setRun(d);
  // the baseline may just have been freed (stopComparing): set both before a recompute
  cmp_[2]->setRunAndBaseline(d, baseline_.get());
  for (auto* c : charts_) c->setRuns(d, baseline_.get());
  updateCharts();
  timeline_->setTimes(d ? d->time : std::vector<double>{});
  timeline_->setCalendar(d);
  dist_->setRun(d);
  if (sel_rack_ >= 0) selectRack(sel_rack_);
  update3d();
  // the tab should make sense for what is open: no compare without a baseline
  if (!baseline_ && tabs_->currentWidget() == cmp_view_) tabs_->setCurrentWidget(floor_);
}

void MainWindow::dataArrived() {
  if (!current_) return;
  floor_->dataChanged();
  if (baseline_) cmp_[0]->dataChanged();
  cmp_[1]->dataChanged();
  cmp_[2]->dataChanged();
  detail_->dataChanged();
  if (tabs_->currentWidget() == dist_) dist_->dataChanged();
  if (tabs_->currentWidget() == jobs_) jobs_->dataChanged();
  if (tabs_->currentWidget() == plant_) plant_->dataChanged();
  alarms_->dataChanged();
  for (auto* c : charts_) c->dataChanged();
  timeline_->setTimes(current_->time);
}

void MainWindow::onTime(double t) {
  floor_->setTime(t);
  for (FloorPlan* f : cmp_) f->setTime(t);
  detail_->setTime(t);
  dist_->setTime(t);
  jobs_->setTime(t);
  plant_->setTime(t);
  for (auto* c : charts_) c->setCursorTime(t);
}

void MainWindow::onEvent(double t, const QString& component) {
  timeline_->setFollowing(false);
  timeline_->seek(t);
  if (!current_) return;
  auto [kind, index] = current_->component(component.toStdString());
  if (kind == 0) selectRack(index);
  if (kind == 1) selectCdu(index);
}

void MainWindow::onRackClicked(int r, Qt::KeyboardModifiers mods) {
  if (mods & Qt::ControlModifier) {
    if (!pinned_.erase(r)) pinned_.insert(r);
    floor_->setMarked(pinned_);
    updateCharts();
    return;
  }
  selectRack(r);
}

void MainWindow::pinRack(int r, bool on) {
  if (!current_ || r < 0 || r >= current_->nrack()) return;
  if (on)
    pinned_.insert(r);
  else
    pinned_.erase(r);
  floor_->setMarked(pinned_);
  updateCharts();
}

void MainWindow::selectRack(int r) {
  if (!current_ || r < 0 || r >= current_->nrack()) return;
  sel_rack_ = r;
  sel_cdu_ = -1;
  floor_->setSelectedRack(r);
  for (FloorPlan* f : cmp_) f->setSelectedRack(r);
  detail_->setRack(r);
#ifdef DCTWIN_GUI_3D
  if (hall3d_) hall3d_->setSelected(r);
#endif
  updateCharts();
  statusBar()->showMessage(
      QString("Rack %1 selected: Ctrl+click pins more racks to the charts, right-click injects "
              "a fault")
          .arg(QString::fromStdString(current_->rack_name[r])),
      4000);
}

void MainWindow::selectCdu(int c) {
  if (!current_ || c < 0 || c >= current_->ncdu()) return;
  sel_cdu_ = c;
  sel_rack_ = -1;
  floor_->setSelectedCdu(c);
#ifdef DCTWIN_GUI_3D
  if (hall3d_) hall3d_->setSelected(current_->nrack() + c);
#endif
}

void MainWindow::updateCharts() {
  std::vector<int> racks(pinned_.begin(), pinned_.end());
  if (sel_rack_ >= 0 && !pinned_.count(sel_rack_)) racks.insert(racks.begin(), sel_rack_);
  for (auto* c : charts_) {
    c->setRacks(racks);
    c->setGpus(gpus_);
  }
}

// at the timeline's time ("inject it here"), but not in the first minute nor so late that the
// scenario would end before it: then at the form's time
double MainWindow::injectTime() const {
  double t = std::round(timeline_->time());
  if (t < 60 || t > 0.9 * what_if_->duration()) t = std::max(0.0, what_if_->eventTime());
  return t;
}

void MainWindow::injectFault(FaultKind kind, const QString& target) {
  QString error;
  what_if_->presetFault(kind, target);
  // the fault table's default for the form (solver/common/fault_table.h)
  const QString item =
      what_if_->addFault(kind, target, injectTime(), faultInfo(kind).form.def, &error);
  showInjected(item, error);
}

void MainWindow::injectSupplyStep() {
  QString error;
  what_if_->presetSupplyStep();
  showInjected(what_if_->addSupplyStep(injectTime(), 40.0, &error), error);
}

void MainWindow::showInjected(const QString& item, const QString& error) {
  what_if_dock_->show();
  what_if_dock_->raise();
  if (item.isEmpty())
    reportError(this, "Cannot add the event", error);
  else
    statusBar()->showMessage("Added to the scenario: " + item + " — F5 runs it", 6000);
}

void MainWindow::onContextMenu(int kind, int index, const QPoint& pos) {
  if (!current_) return;
  QMenu menu(this);
  if (kind == 0) {
    const QString rack = QString::fromStdString(current_->rack_name[index]);
    selectRack(index);
    menu.addSection("Rack " + rack);
    menu.addAction("Show rack detail", this, [this] { tabs_->setCurrentWidget(detail_); });
    menu.addAction(pinned_.count(index) ? "Unpin from the charts" : "Pin to the charts", this,
                   [this, index] { onRackClicked(index, Qt::ControlModifier); });
    menu.addSeparator();
    menu.addAction("Inject a leak here", this,
                   [this, rack] { injectFault(FaultKind::Leak, rack); });
    menu.addAction("Inject a leak here and run", this, [this, rack] {
      injectFault(FaultKind::Leak, rack);
      startRun();
    });
    menu.addAction("Inject PSU failures here", this,
                   [this, rack] { injectFault(FaultKind::PsuFailure, rack); });
  } else if (kind == 1) {
    const QString cdu = QString::fromStdString(current_->cdu_name[index]);
    selectCdu(index);
    menu.addSection("CDU " + cdu);
    menu.addAction("Inject a pump failure", this,
                   [this, cdu] { injectFault(FaultKind::PumpFailure, cdu); });
    menu.addAction("Inject a CDU failure", this,
                   [this, cdu] { injectFault(FaultKind::CduFailure, cdu); });
    menu.addAction("Inject a leak at the CDU", this,
                   [this, cdu] { injectFault(FaultKind::Leak, cdu); });
    menu.addAction("Stick the facility-water valve", this,
                   [this, cdu] { injectFault(FaultKind::ValveStuck, cdu); });
  } else {
    menu.addSection("Facility");
    menu.addAction("Facility-water temperature excursion", this, [this] { injectSupplyStep(); });
    menu.addAction("Facility-water loss of flow (plant trip)", this,
                   [this] { injectFault(FaultKind::FacilityWaterFlow, ""); });
    if (!current_->job_name.empty()) {
      const QString job = QString::fromStdString(current_->job_name[0]);
      menu.addAction("Power cap for job " + job, this,
                     [this, job] { injectFault(FaultKind::PowerCap, job); });
    }
  }
  menu.addSeparator();
  menu.addAction("Run the scenario (F5)", this, [this] { startRun(); });
  menu.exec(pos);
}

void MainWindow::update3d() {
#ifdef DCTWIN_GUI_3D
  if (!hall3d_ || !current_) return;
  const FloorLayout& L = floor_->layout();
  if (scene3d_dirty_) {
    std::vector<Box3D> boxes;
    for (int r = 0; r < int(L.rack.size()); ++r) {
      const QRectF& b = L.rack[r];
      boxes.push_back({b.left(), b.top(), 0, b.right(), b.bottom(), kRackHeight,
                       QString::fromStdString(current_->rack_name[r]), 0});
    }
    for (int c = 0; c < int(L.cdu.size()); ++c) {
      const QRectF& b = L.cdu[c];
      boxes.push_back({b.left(), b.top(), 0, b.right(), b.bottom(), kCduHeight,
                       QString::fromStdString(current_->cdu_name[c]), 1});
    }
    std::vector<Line3D> lines;
    for (const auto& p : L.pipes)
      lines.push_back({p.xyz3d, p.supply ? QColor(66, 133, 244) : QColor(219, 68, 55), 2});
    for (const auto& bw : L.busways)
      lines.push_back({{bw.a.x(), bw.a.y() - 0.75 + kRackDepth / 2, 2.8, bw.b.x(),
                        bw.b.y() - 0.75 + kRackDepth / 2, 2.8},
                       QColor(150, 110, 40),
                       4});
    hall3d_->setScene(boxes, lines);
    hall3d_->resetCamera();
    scene3d_dirty_ = false;
  }
  std::vector<QColor> colors;
  for (int r = 0; r < int(L.rack.size()); ++r) colors.push_back(floor_->rackColor(r));
  for (int c = 0; c < int(L.cdu.size()); ++c) colors.push_back(floor_->cduColor(c));
  hall3d_->setColors(colors);
  // the legend of the floor plan: its categories (rack and CDU states), else its scale and ticks
  if (metricInfo(floor_->metric()).categorical && !floor_->differenceMode()) {
    hall3d_->setCategories(floor_->legendTitle(), floor_->legendEntries());
  } else {
    const auto ticks = floor_->legendTicks();
    hall3d_->setLegend(floor_->legendTitle(), floor_->legendLo(), floor_->legendHi(),
                       floor_->legendUnit(), int(ticks.size()),
                       ticks.size() > 1 ? tickDecimals(ticks[1] - ticks[0]) : 1);
  }
  if (sel_rack_ >= 0) hall3d_->setSelected(sel_rack_);
#endif
}

// ---------------------------------------------------------------------------------------------
// recent files and settings

void MainWindow::addRecent(const QString& path) {
  const QString abs = QFileInfo(path).absoluteFilePath();
  recent_.removeAll(abs);
  recent_.prepend(abs);
  while (recent_.size() > kMaxRecent) recent_.removeLast();
  last_dir_ = QFileInfo(path).absolutePath();
  rebuildRecentMenu();
  if (opt_.restore_settings) saveSettings();
}

void MainWindow::rebuildRecentMenu() {
  recent_menu_->clear();
  for (const QString& p : recent_) {
    QAction* a = recent_menu_->addAction(QFileInfo(p).fileName());
    a->setToolTip(p);
    a->setStatusTip(p);
    connect(a, &QAction::triggered, this, [this, p] { openFile(p); });
  }
  recent_menu_->setEnabled(!recent_.isEmpty());
  if (!recent_.isEmpty()) {
    recent_menu_->addSeparator();
    recent_menu_->addAction("Clear the list", this, [this] {
      recent_.clear();
      rebuildRecentMenu();
      if (opt_.restore_settings) saveSettings();
    });
  }
}

void MainWindow::loadSettings() {
  QSettings s;
  if (s.contains("window/geometry")) restoreGeometry(s.value("window/geometry").toByteArray());
  if (s.contains("window/state")) restoreState(s.value("window/state").toByteArray());
  recent_ = s.value("files/recent").toStringList();
  last_dir_ = s.value("files/last_dir").toString();
  floor_->setMetric(
      Metric(std::clamp(s.value("view/metric", 0).toInt(), 0, int(Metric::Count) - 1)));
  timeline_->setSpeedIndex(s.value("view/speed", 3).toInt());
  timeline_->setFollowing(s.value("view/follow", true).toBool());
  for (int k = 0; k < 2; ++k)
    charts_[k]->setQuantity(s.value(QString("view/chart%1").arg(k), k == 0 ? 0 : 12).toInt());
  // the last tab, unless it needs what is not open yet (a compare needs a baseline)
  tabs_->setCurrentIndex(std::clamp(s.value("view/tab", 0).toInt(), 0, tabs_->count() - 1));
  if (tabs_->currentWidget() == cmp_view_) tabs_->setCurrentWidget(floor_);
  rebuildRecentMenu();
}

void MainWindow::saveSettings() {
  QSettings s;
  s.setValue("window/geometry", saveGeometry());
  s.setValue("window/state", saveState());
  s.setValue("files/recent", recent_);
  s.setValue("files/last_dir", last_dir_);
  s.setValue("view/metric", int(floor_->metric()));
  s.setValue("view/speed", timeline_->speedIndex());
  s.setValue("view/follow", timeline_->following());
  for (int k = 0; k < 2; ++k) s.setValue(QString("view/chart%1").arg(k), charts_[k]->quantity());
  s.setValue("view/tab", tabs_->currentIndex());
}

void MainWindow::closeEvent(QCloseEvent* e) {
  if (isRunning()) worker_->cancel();
  if (opt_.restore_settings) saveSettings();
  e->accept();
}

// ---------------------------------------------------------------------------------------------
// screenshots for the user guide

bool MainWindow::saveScreenshots(const QString& dir, const QString& prefix) {
  QDir().mkpath(dir);
  bool ok = true;
  auto settle = [] {
    for (int k = 0; k < 5; ++k) QApplication::processEvents();
  };
  auto save = [&](const QImage& img, const QString& name) {
    if (img.isNull() || !img.save(dir + "/" + prefix + name, "PNG")) ok = false;
  };
  const int keep = tabs_->currentIndex();
  tabs_->setCurrentWidget(floor_);
  settle();
  save(grab().toImage(), "main_window.png");
  save(floor_->grab().toImage(), "floor_plan.png");
#ifdef DCTWIN_GUI_3D
  if (hall3d_) {
    tabs_->setCurrentWidget(hall3d_);
    settle();
    save(hall3d_->renderImage(), "view_3d.png");
  }
#endif
  tabs_->setCurrentWidget(detail_);
  settle();
  save(detail_->grab().toImage(), "rack_detail.png");
  save(chart_dock_->widget()->grab().toImage(), "charts.png");
  tabs_->setCurrentWidget(dist_);
  settle();
  save(dist_->grab().toImage(), "distributions.png");
  tabs_->setCurrentWidget(jobs_);
  settle();
  save(jobs_->grab().toImage(), "jobs.png");
  if (!plant_->panels().empty()) {  // a facility with a plant: section
    tabs_->setCurrentWidget(plant_);
    settle();
    save(plant_->grab().toImage(), "plant.png");
  }
  alarm_dock_->raise();
  settle();
  save(alarms_->grab().toImage(), "alarms.png");
  what_if_dock_->raise();
  settle();
  save(what_if_->grab().toImage(), "what_if.png");
  if (baseline_) {
    tabs_->setCurrentWidget(cmp_[0]->parentWidget()->parentWidget());
    settle();
    save(tabs_->currentWidget()->grab().toImage(), "compare.png");
  }
  alarm_dock_->raise();
  tabs_->setCurrentIndex(keep);
  return ok;
}

}  // namespace dctwin::gui
