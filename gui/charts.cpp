// charts.cpp: time-series charts with zoom, pan, cursor and CSV export (see charts.h)
#include "gui/charts.h"

#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QFile>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineSeries>
#include <QMouseEvent>
#include <QPen>
#include <QPushButton>
#include <QTextStream>
#include <QVBoxLayout>
#include <QValueAxis>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>

namespace dctwin::gui {

namespace {
// more CDUs than this are drawn as their min, mean and max (a legend stays readable)
constexpr int kMaxCduLines = 8;
constexpr int kColMin = -1, kColMean = -2, kColMax = -3;
}  // namespace

namespace {

enum Scope { kRack, kCdu, kGpu, kFacility, kJob };

struct Quantity {
  const char* name;
  Scope scope;
  Obs obs;  // the series (solver/output/observables.h), or Obs::Count for a derived rack metric
  double scale, offset;
  const char* unit;
  Metric metric = Metric::Count;  // derived rack metric
};

// a series in its display unit (its quantity's row of DCTWIN_UNITS, solver/output/observables.h)
Quantity shownAs(const char* name, Scope scope, Obs obs) {
  const UnitInfo& u = unitInfo(observable(obs).quantity);
  return {name, scope, obs, u.scale, u.offset, u.display};
}

const Quantity kQ[] = {
    {"Rack: max GPU junction temperature", kRack, Obs::Count, 1, 0, "°C", Metric::JunctionMax},
    {"Rack: max HBM temperature", kRack, Obs::Count, 1, 0, "°C", Metric::HbmMax},
    shownAs("Rack: supply temperature", kRack, Obs::RackTSupply),
    shownAs("Rack: return temperature", kRack, Obs::RackTReturn),
    shownAs("Rack: coolant flow", kRack, Obs::RackVFlow),
    shownAs("Rack: power", kRack, Obs::RackP),
    {"Rack: mean SM clock", kRack, Obs::Count, 1, 0, "%", Metric::ClockMean},
    {"Rack: GPUs throttled", kRack, Obs::Count, 1, 0, "%", Metric::ThrottleShare},
    {"Rack: isolation valves closed", kRack, Obs::RackIsolation, 100, 0, "%"},
    shownAs("Rack: leak flow", kRack, Obs::RackLeakFlow),
    shownAs("CDU: secondary supply temperature", kCdu, Obs::CduTSecSupply),
    shownAs("CDU: secondary return temperature", kCdu, Obs::CduTSecReturn),
    shownAs("CDU: secondary flow", kCdu, Obs::CduVFlowSec),
    {"CDU: pump speed", kCdu, Obs::CduPumpSpeed, 100, 0, "%"},
    shownAs("CDU: pump power", kCdu, Obs::CduPPump),
    shownAs("CDU: tank pressure", kCdu, Obs::CduPTank),
    shownAs("CDU: coolant lost", kCdu, Obs::CduCoolantLost),
    shownAs("CDU: facility water supply temperature", kCdu, Obs::CduTPrimSupply),
    shownAs("GPU: junction temperature", kGpu, Obs::GpuTJunction),
    shownAs("GPU: HBM temperature", kGpu, Obs::GpuTHbm),
    {"GPU: power", kGpu, Obs::GpuP, 1, 0, "W"},
    {"GPU: SM clock", kGpu, Obs::GpuClockRatio, 100, 0, "%"},
    shownAs("Facility: IT power", kFacility, Obs::FacilityPIT),
    {"Job: throughput (vs reference)", kJob, Obs::JobThroughputRatio, 100, 0, "%"},
};
constexpr int kNQ = sizeof(kQ) / sizeof(kQ[0]);

const QColor kPalette[] = {QColor(31, 119, 180),  QColor(255, 127, 14),  QColor(44, 160, 44),
                           QColor(214, 39, 40),   QColor(148, 103, 189), QColor(140, 86, 75),
                           QColor(227, 119, 194), QColor(127, 127, 127), QColor(188, 189, 34),
                           QColor(23, 190, 207)};

}  // namespace

// a chart view with wheel zoom, drag pan and keyboard zoom/pan
class ZoomChartView : public QChartView {
 public:
  ZoomChartView(QChart* chart, ChartPanel* panel) : QChartView(chart, panel), panel_(panel) {}

 protected:
  void wheelEvent(QWheelEvent* e) override {
    chart()->zoom(e->angleDelta().y() > 0 ? 1.25 : 0.8);
    e->accept();
  }
  void mousePressEvent(QMouseEvent* e) override {
    if (e->button() == Qt::MiddleButton || e->button() == Qt::RightButton) {
      panning_ = true;
      last_ = e->position();
      e->accept();
      return;
    }
    if (e->button() == Qt::LeftButton) press_ = e->position();
    QChartView::mousePressEvent(e);
  }
  void mouseMoveEvent(QMouseEvent* e) override {
    if (panning_) {
      const QPointF d = e->position() - last_;
      chart()->scroll(-d.x(), d.y());
      last_ = e->position();
      e->accept();
      return;
    }
    QChartView::mouseMoveEvent(e);
  }
  void mouseReleaseEvent(QMouseEvent* e) override {
    if (panning_ && (e->button() == Qt::MiddleButton || e->button() == Qt::RightButton)) {
      panning_ = false;
      e->accept();
      return;
    }
    // a click without a drag moves the timeline to that time
    if (e->button() == Qt::LeftButton && (e->position() - press_).manhattanLength() < 4 &&
        chart()->plotArea().contains(e->position())) {
      const QPointF v = chart()->mapToValue(e->position());
      emit panel_->timeClicked(v.x() * panel_->unit_.seconds);
      e->accept();
      return;
    }
    QChartView::mouseReleaseEvent(e);
  }
  void keyPressEvent(QKeyEvent* e) override {
    switch (e->key()) {
      case Qt::Key_Plus:
        chart()->zoomIn();
        break;
      case Qt::Key_Minus:
        chart()->zoomOut();
        break;
      case Qt::Key_Left:
        chart()->scroll(-20, 0);
        break;
      case Qt::Key_Right:
        chart()->scroll(20, 0);
        break;
      case Qt::Key_Up:
        chart()->scroll(0, 20);
        break;
      case Qt::Key_Down:
        chart()->scroll(0, -20);
        break;
      default:
        QChartView::keyPressEvent(e);
    }
  }

 private:
  ChartPanel* panel_;
  bool panning_ = false;
  QPointF last_, press_;
};

ChartPanel::ChartPanel(QWidget* parent) : QWidget(parent) {
  auto* v = new QVBoxLayout(this);
  v->setContentsMargins(2, 2, 2, 2);
  auto* bar = new QHBoxLayout;
  combo_ = new QComboBox(this);
  combo_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  combo_->setMinimumContentsLength(14);
  combo_->setObjectName("quantityCombo");
  for (const auto& q : kQ) combo_->addItem(QString("%1 (%2)").arg(q.name, q.unit));
  bar->addWidget(combo_, 1);
  auto* reset = new QPushButton("Reset zoom", this);
  reset->setToolTip(
      "Show the whole run (drag a rectangle to zoom, wheel to zoom, right-drag to pan)");
  bar->addWidget(reset);
  v->addLayout(bar);
  chart_ = new QChart;
  chart_->legend()->setAlignment(Qt::AlignRight);
  chart_->setMargins(QMargins(4, 4, 4, 4));
  ax_ = new QValueAxis;
  ax_->setTitleText("time (min)");
  ax_->setLabelFormat("%.1f");
  ay_ = new QValueAxis;
  chart_->addAxis(ax_, Qt::AlignBottom);
  chart_->addAxis(ay_, Qt::AlignLeft);
  cursor_ = new QLineSeries;
  cursor_->setName("now");
  cursor_->setPen(QPen(QColor(90, 90, 90), 1, Qt::DashDotLine));
  chart_->addSeries(cursor_);
  cursor_->attachAxis(ax_);
  cursor_->attachAxis(ay_);
  view_ = new ZoomChartView(chart_, this);
  view_->setRenderHint(QPainter::Antialiasing);
  view_->setRubberBand(QChartView::RectangleRubberBand);
  view_->setMinimumHeight(160);
  v->addWidget(view_, 1);
  connect(combo_, &QComboBox::currentIndexChanged, this, [this](int k) {
    rebuild();
    resetZoom();
    emit quantityChanged(k);
  });
  connect(reset, &QPushButton::clicked, this, &ChartPanel::resetZoom);
  rebuild();
}

int ChartPanel::quantityCount() {
  return kNQ;
}
QString ChartPanel::quantityName(int k) {
  return kQ[std::clamp(k, 0, kNQ - 1)].name;
}
int ChartPanel::quantity() const {
  return combo_->currentIndex();
}
void ChartPanel::setQuantity(int k) {
  combo_->setCurrentIndex(std::clamp(k, 0, kNQ - 1));
}

void ChartPanel::setRuns(const RunData* run, const RunData* baseline) {
  run_ = run;
  base_ = baseline;
  rebuild();
  resetZoom();
}

void ChartPanel::setRacks(const std::vector<int>& racks) {
  racks_ = racks;
  rebuild();
}

void ChartPanel::setGpus(const std::vector<int>& gpus) {
  gpus_ = gpus;
  rebuild();
}

ChartPanel::TimeUnit ChartPanel::timeUnitFor(double duration) {
  if (duration > 4 * 86400.0) return {86400.0, "d"};
  if (duration > 2 * 3600.0) return {3600.0, "h"};
  return {60.0, "min"};
}

QString ChartPanel::timeAxisTitle() const {
  // a run with a calendar (a plant's weather) says where t = 0 falls
  const QString date = run_ ? run_->dateAt(0.0) : QString();
  return date.isEmpty() ? QString("time (%1)").arg(unit_.name)
                        : QString("time (%1) since %2 %3").arg(unit_.name, date, run_->timeZone());
}

void ChartPanel::setCursorTime(double t) {
  cursor_t_ = t;
  const double x = t / unit_.seconds;
  cursor_->replace(QList<QPointF>{QPointF(x, ay_->min()), QPointF(x, ay_->max())});
}

void ChartPanel::dataChanged() {
  rebuild();
}

void ChartPanel::resetZoom() {
  chart_->zoomReset();
  rebuild();
}

void ChartPanel::rebuild() {
  const Quantity& Q = kQ[std::clamp(combo_->currentIndex(), 0, kNQ - 1)];
  // the series wanted: (run, column, name)
  struct Want {
    const RunData* d;
    int col;
    QString name;
  };
  std::vector<Want> want;
  for (const RunData* d : {run_, base_}) {
    if (!d || d->empty()) continue;
    const QString suffix = base_ ? (d == run_ ? "" : " (baseline)") : "";
    switch (Q.scope) {
      case kRack:
        for (int r : racks_)
          if (r >= 0 && r < run_->nrack()) {
            const int c = d == run_ ? r : d->rackByName(run_->rack_name[r]);
            if (c >= 0) want.push_back({d, c, QString::fromStdString(d->rack_name[c]) + suffix});
          }
        break;
      case kCdu:
        if (d->ncdu() > kMaxCduLines) {  // a hall: the spread across its CDUs, not 64 lines
          const QString n = QString::number(d->ncdu());
          want.push_back({d, kColMax, "max of " + n + " CDUs" + suffix});
          want.push_back({d, kColMean, "mean of " + n + " CDUs" + suffix});
          want.push_back({d, kColMin, "min of " + n + " CDUs" + suffix});
          break;
        }
        for (int c = 0; c < d->ncdu(); ++c)
          want.push_back({d, c, QString::fromStdString(d->cdu_name[c]) + suffix});
        break;
      case kGpu:
        for (int i : gpus_)
          if (i >= 0 && i < d->ngpu())
            want.push_back({d, i,
                            QString("%1 tray %2 GPU %3")
                                    .arg(QString::fromStdString(d->rack_name[d->gpu_rack[i]]))
                                    .arg(d->gpu_tray[i])
                                    .arg(d->gpu_slot[i]) +
                                suffix});
        break;
      case kFacility:
        want.push_back({d, 0, "facility" + suffix});
        break;
      case kJob:
        for (int j = 0; j < int(d->job_name.size()); ++j)
          want.push_back({d, j, QString::fromStdString(d->job_name[j]) + suffix});
        break;
    }
  }
  // drop surplus series, add missing ones
  while (series_.size() > want.size()) {
    chart_->removeSeries(series_.back());
    delete series_.back();
    series_.pop_back();
  }
  while (series_.size() < want.size()) {
    auto* s = new QLineSeries;
    chart_->addSeries(s);
    s->attachAxis(ax_);
    s->attachAxis(ay_);
    series_.push_back(s);
  }
  names_.clear();
  values_.clear();
  owners_.clear();
  double ymin = 1e300, ymax = -1e300, tmax = 0;
  {  // the time axis's unit from the longest run plotted
    double longest = 0;
    for (const Want& w : want)
      if (!w.d->time.empty()) longest = std::max(longest, w.d->time.back());
    unit_ = timeUnitFor(longest);
    ax_->setTitleText(timeAxisTitle());
  }
  int colour = 0;
  int nrun = 0;
  for (const Want& w : want) nrun += w.d == run_;
  for (std::size_t k = 0; k < want.size(); ++k) {
    const Want& w = want[k];
    const RunData& d = *w.d;
    std::vector<double> vals(d.rows());
    QList<QPointF> pts;
    pts.reserve(d.rows());
    for (int row = 0; row < d.rows(); ++row) {
      double v = NAN;
      if (w.col < 0) {  // min / mean / max across the CDUs
        double lo = 1e300, hi = -1e300, sum = 0;
        int n = 0;
        for (int c = 0; c < d.ncdu(); ++c) {
          const double x = d.value(observable(Q.obs).path, row, c) * Q.scale + Q.offset;
          if (std::isnan(x)) continue;
          lo = std::min(lo, x), hi = std::max(hi, x), sum += x, ++n;
        }
        if (n > 0) v = w.col == kColMin ? lo : (w.col == kColMax ? hi : sum / n);
      } else {
        v = Q.metric != Metric::Count
                ? rackMetric(d, Q.metric, w.col, row)
                : d.value(observable(Q.obs).path, row, w.col) * Q.scale + Q.offset;
      }
      vals[row] = v;
      if (std::isnan(v)) continue;
      pts.append(QPointF(d.time[row] / unit_.seconds, v));
      ymin = std::min(ymin, v);
      ymax = std::max(ymax, v);
    }
    if (!d.time.empty()) tmax = std::max(tmax, d.time.back());
    series_[k]->replace(pts);
    series_[k]->setName(w.name);
    const bool is_base = base_ && w.d == base_;
    const QColor c = kPalette[std::max(0, is_base ? colour - nrun : colour) % 10];
    series_[k]->setPen(QPen(c, is_base ? 1.5 : 2, is_base ? Qt::DashLine : Qt::SolidLine));
    ++colour;
    names_.push_back(w.name);
    values_.push_back(std::move(vals));
    owners_.push_back(w.d);
  }
  ay_->setTitleText(Q.unit);
  if (!chart_->isZoomed()) {
    // round-number ticks (30, 40, 50 … not 29.9, 41.4 …); before a run 0 … 1 min, not 0.0 0.0
    if (ymin > ymax) ymin = 0, ymax = 1;
    const double pad = std::max(0.02 * (ymax - ymin), 0.25);
    // as many ticks as the height (width) leaves room for, so Qt need not elide them to "…"
    const int ny = std::clamp(view_->height() / 40, 2, 6),
              nx = std::clamp(view_->width() / 90, 2, 8);
    auto nice = [](QValueAxis* a, double lo, double hi, int n) {
      const auto t = niceTicks(lo, hi, n);
      a->setRange(t.front(), t.back());
      a->setTickCount(int(t.size()));
      a->setLabelFormat(QString("%.%1f").arg(tickDecimals(t[1] - t[0])));
    };
    nice(ay_, ymin - pad, ymax + pad, ny);
    nice(ax_, 0, std::max(tmax / unit_.seconds, 1.0), nx);
  }
  chart_->setTitle(
      QString(Q.name) +
      (want.empty() && Q.scope == kRack
           ? "  (select racks on the floor plan)"
           : (want.empty() && Q.scope == kGpu ? "  (click GPUs in the rack detail)" : "")));
  setCursorTime(cursor_t_);
}

QString ChartPanel::csvText() const {
  const Quantity& Q = kQ[std::clamp(combo_->currentIndex(), 0, kNQ - 1)];
  QString out;
  QTextStream s(&out);
  s << "time_s";
  for (const QString& n : names_) {
    QString h = QString("%1 %2 [%3]").arg(n, QString(Q.name).section(": ", 1), Q.unit);
    h.replace('"', '\'');
    s << ",\"" << h << '"';
  }
  s << '\n';
  if (!run_) return out;
  for (int row = 0; row < run_->rows(); ++row) {
    const double t = run_->time[row];
    s << QString::number(t, 'g', 10);
    for (std::size_t k = 0; k < values_.size(); ++k) {
      const RunData* d = owners_[k];
      const int r = d == run_ ? row : d->rowAt(t);
      const double v = r < int(values_[k].size()) ? values_[k][r] : NAN;
      s << ',';
      if (!std::isnan(v)) s << QString::number(v, 'g', 10);
    }
    s << '\n';
  }
  return out;
}

bool ChartPanel::exportCsv(const QString& path, QString* error) const {
  QFile f(path);
  if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate | QIODevice::Text)) {
    if (error) *error = f.errorString();
    return false;
  }
  const QByteArray bytes = csvText().toUtf8();
  if (f.write(bytes) != bytes.size()) {
    if (error) *error = f.errorString();
    return false;
  }
  return true;
}

QImage ChartPanel::renderImage() {
  return grab().toImage();
}

}  // namespace dctwin::gui
