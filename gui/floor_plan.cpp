// floor_plan.cpp: 2D floor plan with metric colouring, legend, tooltips and selection
// (see floor_plan.h)
#include "gui/floor_plan.h"

#include <QCheckBox>
#include <QComboBox>
#include <QContextMenuEvent>
#include <QHBoxLayout>
#include <QHelpEvent>
#include <QLabel>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QToolTip>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

namespace dctwin::gui {

// the drawing surface; all state lives in the FloorPlan
class FloorCanvas : public QWidget {
 public:
  explicit FloorCanvas(FloorPlan* plan) : QWidget(plan), p_(plan) {
    setMouseTracking(true);
    setMinimumSize(240, 180);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
  }
  void paintTo(QPainter& g, const QRect& area);
  QPoint worldToWidget(QPointF w) const { return transform(plotArea(rect())).map(w).toPoint(); }

 protected:
  void paintEvent(QPaintEvent*) override {
    QPainter g(this);
    paintTo(g, rect());
  }
  bool event(QEvent* e) override {
    if (e->type() == QEvent::ToolTip) {
      auto* he = static_cast<QHelpEvent*>(e);
      auto [kind, index] = hit(he->pos());
      QString text;
      if (kind == 0) text = p_->tooltipForRack(index);
      if (kind == 1) text = p_->tooltipForCdu(index);
      if (kind == 3) text = busTip(index);
      if (text.isEmpty())
        QToolTip::hideText();
      else
        QToolTip::showText(he->globalPos(), text, this);
      return true;
    }
    return QWidget::event(e);
  }
  void mousePressEvent(QMouseEvent* e) override {
    if (e->button() != Qt::LeftButton) return;
    auto [kind, index] = hit(e->position().toPoint());
    if (kind == 0) emit p_->rackClicked(index, e->modifiers());
    if (kind == 1) emit p_->cduClicked(index);
  }
  void mouseDoubleClickEvent(QMouseEvent* e) override {
    auto [kind, index] = hit(e->position().toPoint());
    if (kind == 0 && e->button() == Qt::LeftButton) emit p_->rackDoubleClicked(index);
  }
  void contextMenuEvent(QContextMenuEvent* e) override {
    auto [kind, index] = hit(e->pos());
    emit p_->contextMenuRequested(kind < 0 || kind > 1 ? 2 : kind, index, e->globalPos());
  }

 private:
  // world (m) -> widget
  QTransform transform(const QRect& area) const {
    const QRectF b = p_->layout_.bounds;
    QTransform t;
    if (b.isEmpty()) return t;
    const double s = std::min(area.width() / b.width(), area.height() / b.height());
    const double ox = area.x() + (area.width() - s * b.width()) / 2 - s * b.x();
    const double oy = area.y() + (area.height() - s * b.height()) / 2 - s * b.y();
    t.translate(ox, oy);
    t.scale(s, s);
    return t;
  }
  QRect plotArea(const QRect& area) const { return area.adjusted(8, 28, -110, -8); }
  // {kind, index}: 0 rack, 1 CDU, 3 busway; {-1, -1} nothing
  std::pair<int, int> hit(QPoint pos) const {
    const QTransform t = transform(plotArea(rect()));
    bool ok = false;
    const QPointF w = t.inverted(&ok).map(QPointF(pos));
    if (!ok) return {-1, -1};
    const FloorLayout& L = p_->layout_;
    for (int r = 0; r < int(L.rack.size()); ++r)
      if (L.rack[r].contains(w)) return {0, r};
    for (int c = 0; c < int(L.cdu.size()); ++c)
      if (L.cdu[c].contains(w)) return {1, c};
    for (int b = 0; b < int(L.busways.size()); ++b) {
      const auto& bw = L.busways[b];
      if (w.x() >= bw.a.x() && w.x() <= bw.b.x() && std::abs(w.y() - bw.a.y()) < 0.15)
        return {3, b};
    }
    return {-1, -1};
  }
  QString busTip(int b) const {
    const RunData* d = p_->run_;
    if (!d) return "";
    const auto& bw = p_->layout_.busways[b];
    const int row = d->rowAt(p_->t_);
    const double I = d->value(obsPath(Obs::BuswayI), row, bw.index);
    const double ratio = d->value(obsPath(Obs::BuswayLoadRatio), row, bw.index);
    const double brk = d->value(obsPath(Obs::BuswayBreakerState), row, bw.index);
    return QString("<b>busway %1</b><br>current %2 A (%3 % of rating)<br>breaker: %4")
        .arg(bw.name)
        .arg(I, 0, 'f', 0)
        .arg(100 * ratio, 0, 'f', 0)
        .arg(std::isnan(brk) ? "unknown" : (brk > 0.5 ? "TRIPPED" : "closed"));
  }

  FloorPlan* p_;
};

void FloorCanvas::paintTo(QPainter& g, const QRect& area) {
  g.setRenderHint(QPainter::Antialiasing, true);
  g.fillRect(area, QColor(250, 250, 252));
  const FloorPlan& P = *p_;
  const FloorLayout& L = P.layout_;
  if (!P.run_ || P.run_->empty()) {
    g.setPen(Qt::darkGray);
    g.drawText(area, Qt::AlignCenter, "Open a facility (File > Open, Ctrl+O)");
    return;
  }
  const RunData& d = *P.run_;
  const QRect pa = plotArea(area);
  const QTransform t = transform(pa);
  const double s = t.m11();
  // header line: title and time
  g.setPen(QColor(40, 40, 40));
  QFont f = g.font();
  f.setBold(true);
  g.setFont(f);
  g.drawText(QRect(area.x() + 8, area.y() + 4, area.width() - 120, 20), Qt::AlignLeft,
             QString("%1   t = %2")
                 .arg(P.title_.isEmpty() ? QString::fromStdString(d.facility_name) : P.title_,
                      formatTime(P.t_)));
  f.setBold(false);
  g.setFont(f);
  // the latest warning or critical event up to now, and how many there were
  {
    const EventRecord* last = nullptr;
    int alarms = 0;
    for (const EventRecord& e : d.events) {
      if (e.time > P.t_ + 1e-9) break;
      if (e.severity == "info") continue;
      ++alarms;
      last = &e;
    }
    if (last) {
      const bool crit = last->severity == "critical";
      const QString text =
          QString("%1 alarm(s) so far; latest %2: %3 at %4 (%5)")
              .arg(alarms)
              .arg(QString::fromStdString(last->kind), QString::fromStdString(last->component),
                   formatTime(last->time), QString::fromStdString(last->severity));
      const QRect banner(area.x() + 8, area.bottom() - 24, area.width() - 130, 20);
      g.fillRect(banner, crit ? QColor(255, 205, 210) : QColor(255, 236, 179));
      g.setPen(crit ? QColor(183, 28, 28) : QColor(130, 90, 0));
      g.drawText(banner.adjusted(6, 0, -6, 0), Qt::AlignLeft | Qt::AlignVCenter, text);
    }
  }
  const int row = d.rowAt(P.t_);
  // row labels
  for (std::size_t k = 0; k < L.row_label.size(); ++k) {
    const QPointF q = t.map(QPointF(L.bounds.left() + 0.1, L.row_y[k] + kRackDepth / 2));
    g.setPen(QColor(120, 120, 120));
    g.drawText(QRectF(q.x(), q.y() - 10, 60, 20), Qt::AlignLeft | Qt::AlignVCenter,
               "row " + L.row_label[k]);
  }
  // pipes: coloured by the rack's supply/return temperature or flow when that is the metric
  for (const auto& pipe : L.pipes) {
    QColor c = pipe.supply ? QColor(66, 133, 244) : QColor(219, 68, 55);
    const Metric m = P.metric_;
    const int r = pipe.rack;
    if (!P.base_ && (m == Metric::SupplyT || m == Metric::ReturnT || m == Metric::Flow)) {
      const Metric pm =
          m == Metric::Flow ? Metric::Flow : (pipe.supply ? Metric::SupplyT : Metric::ReturnT);
      c = sequentialColor(rackMetric(d, pm, r, row), P.lo_, P.hi_);
    }
    const double iso = d.value(obsPath(Obs::RackIsolation), row, r);
    QPen pen(c, std::max(2.0, 0.08 * s));
    if (!std::isnan(iso) && iso > 0.5) pen.setStyle(Qt::DotLine);  // valves shut
    g.setPen(pen);
    QPolygonF poly;
    for (const auto& q : pipe.path2d) poly << t.map(q);
    g.drawPolyline(poly);
  }
  // busways
  for (const auto& bw : L.busways) {
    const double ratio = d.value(obsPath(Obs::BuswayLoadRatio), row, bw.index);
    const double brk = d.value(obsPath(Obs::BuswayBreakerState), row, bw.index);
    QColor c = std::isnan(ratio) ? QColor(120, 90, 40) : sequentialColor(ratio, 0, 1);
    QPen pen(c, std::max(3.0, 0.12 * s));
    if (!std::isnan(brk) && brk > 0.5) pen = QPen(Qt::black, std::max(3.0, 0.12 * s), Qt::DashLine);
    g.setPen(pen);
    g.drawLine(t.map(bw.a), t.map(bw.b));
    g.setPen(QColor(90, 70, 30));
    const QPointF q = t.map(bw.a);
    g.drawText(QRectF(q.x(), q.y() + 3, 200, 16), Qt::AlignLeft, "busway " + bw.name);
  }
  // racks
  QFont rf = g.font();
  rf.setPixelSize(std::clamp(int(0.18 * s), 8, 14));
  g.setFont(rf);
  for (int r = 0; r < int(L.rack.size()); ++r) {
    const QRectF box = t.mapRect(L.rack[r]);
    const QColor fill = P.rack_colors_.size() > std::size_t(r) ? P.rack_colors_[r] : Qt::gray;
    g.setBrush(fill);
    g.setPen(QPen(QColor(30, 30, 30), 1));
    g.drawRect(box);
    if (P.marked_.count(r)) {
      g.setPen(QPen(QColor(0, 150, 136), 3, Qt::DashLine));
      g.setBrush(Qt::NoBrush);
      g.drawRect(box.adjusted(2, 2, -2, -2));
    }
    if (r == P.sel_rack_) {
      g.setPen(QPen(QColor(255, 193, 7), 4));
      g.setBrush(Qt::NoBrush);
      g.drawRect(box.adjusted(-3, -3, 3, 3));
    }
    g.setPen(fill.lightnessF() < 0.5 ? Qt::white : Qt::black);
    const double v = P.rack_values_.size() > std::size_t(r) ? P.rack_values_[r] : NAN;
    QString val = std::isnan(v) ? "–"
                  : (P.metric_ == Metric::LeakState && !P.base_)
                      ? leakStateName(v)
                      : QString::number(v, 'f', std::abs(v) < 10 ? 1 : 0);
    g.drawText(box, Qt::AlignCenter, QString::fromStdString(d.rack_name[r]) + "\n" + val);
  }
  // CDUs
  for (int c = 0; c < int(L.cdu.size()); ++c) {
    const QRectF box = t.mapRect(L.cdu[c]);
    g.setBrush(P.cdu_colors_.size() > std::size_t(c) ? P.cdu_colors_[c] : QColor(200, 200, 200));
    g.setPen(QPen(QColor(30, 30, 30), 1.5));
    g.drawRoundedRect(box, 4, 4);
    if (c == P.sel_cdu_) {
      g.setPen(QPen(QColor(255, 193, 7), 4));
      g.setBrush(Qt::NoBrush);
      g.drawRoundedRect(box.adjusted(-3, -3, 3, 3), 4, 4);
    }
    g.setPen(Qt::black);
    g.drawText(box, Qt::AlignCenter, "CDU\n" + QString::fromStdString(d.cdu_name[c]));
  }
  // legend
  const QRect lg(area.right() - 104, area.y() + 30, 96, std::min(260, area.height() - 40));
  g.setFont(f);
  g.setPen(QColor(40, 40, 40));
  g.drawText(QRect(lg.x(), lg.y() - 4, lg.width(), 30), Qt::AlignLeft | Qt::TextWordWrap,
             P.legendTitle());
  if (P.metric_ == Metric::LeakState && !P.base_) {
    for (int k = 0; k < 4; ++k) {
      const QRect sw(lg.x(), lg.y() + 36 + 24 * k, 18, 18);
      g.setBrush(leakStateColor(k));
      g.setPen(Qt::black);
      g.drawRect(sw);
      g.drawText(QRect(sw.right() + 6, sw.y(), 70, 18), Qt::AlignVCenter, leakStateName(k));
    }
  } else {
    const QRect bar(lg.x(), lg.y() + 36, 20, lg.height() - 50);
    for (int yy = 0; yy < bar.height(); ++yy) {
      const double x = 1.0 - double(yy) / std::max(1, bar.height() - 1);
      const QColor c = P.base_ ? divergingColor((2 * x - 1) * P.hi_, P.hi_)
                               : sequentialColor(P.lo_ + x * (P.hi_ - P.lo_), P.lo_, P.hi_);
      g.setPen(c);
      g.drawLine(bar.x(), bar.y() + yy, bar.right(), bar.y() + yy);
    }
    g.setPen(Qt::black);
    g.setBrush(Qt::NoBrush);
    g.drawRect(bar);
    const double lo = P.base_ ? -P.hi_ : P.lo_;
    for (int k = 0; k <= 4; ++k) {
      const double v = P.hi_ - k * (P.hi_ - lo) / 4;
      const int yy = bar.y() + k * (bar.height() - 1) / 4;
      g.drawLine(bar.right(), yy, bar.right() + 4, yy);
      g.drawText(QRect(bar.right() + 6, yy - 8, 70, 16), Qt::AlignVCenter | Qt::AlignLeft,
                 QString::number(v, 'f', std::abs(P.hi_ - lo) < 10 ? 1 : 0) + " " + P.legendUnit());
    }
  }
}

FloorPlan::FloorPlan(QWidget* parent) : QWidget(parent) {
  auto* v = new QVBoxLayout(this);
  v->setContentsMargins(2, 2, 2, 2);
  auto* bar = new QHBoxLayout;
  title_label_ = new QLabel(this);
  title_label_->setVisible(false);
  bar->addWidget(title_label_);
  bar->addWidget(new QLabel("Colour by:", this));
  combo_ = new QComboBox(this);
  combo_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  combo_->setMinimumContentsLength(14);
  combo_->setObjectName("metricCombo");
  for (int k = 0; k < int(Metric::Count); ++k) {
    const MetricInfo mi = metricInfo(Metric(k));
    combo_->addItem(mi.unit.isEmpty() ? mi.name : QString("%1 (%2)").arg(mi.name, mi.unit));
  }
  bar->addWidget(combo_);
  auto_range_ = new QCheckBox("Auto range", this);
  auto_range_->setToolTip("Fit the legend to the run's range of this metric");
  auto_range_->setChecked(true);
  bar->addWidget(auto_range_);
  bar->addStretch(1);
  v->addLayout(bar);
  canvas_ = new FloorCanvas(this);
  v->addWidget(canvas_, 1);
  connect(combo_, &QComboBox::currentIndexChanged, this, [this](int k) {
    metric_ = Metric(k);
    recompute();
    emit metricChanged(metric_);
  });
  connect(auto_range_, &QCheckBox::toggled, this, [this] { recompute(); });
}

void FloorPlan::setRun(const RunData* d) {
  run_ = d;
  layout_ = d ? computeFloorLayout(*d) : FloorLayout{};
  if (sel_rack_ >= (d ? d->nrack() : 0)) sel_rack_ = -1;
  if (sel_cdu_ >= (d ? d->ncdu() : 0)) sel_cdu_ = -1;
  recompute();
}

void FloorPlan::setBaseline(const RunData* base) {
  base_ = base;
  recompute();
}

void FloorPlan::setRunAndBaseline(const RunData* d, const RunData* base) {
  base_ = base;
  setRun(d);
}

void FloorPlan::dataChanged() {
  recompute();
}

void FloorPlan::setTime(double t) {
  t_ = t;
  recompute();
}

void FloorPlan::setMetric(Metric m) {
  if (combo_->currentIndex() != int(m))
    combo_->setCurrentIndex(int(m));
  else
    recompute();
}

void FloorPlan::setTitle(const QString& title) {
  title_ = title;
  canvas_->update();
}

void FloorPlan::setSelectedRack(int r) {
  sel_rack_ = r;
  sel_cdu_ = -1;
  canvas_->update();
}

void FloorPlan::setSelectedCdu(int c) {
  sel_cdu_ = c;
  sel_rack_ = -1;
  canvas_->update();
}

void FloorPlan::setMarked(const std::set<int>& racks) {
  marked_ = racks;
  canvas_->update();
}

QColor FloorPlan::rackColor(int r) const {
  return r >= 0 && r < int(rack_colors_.size()) ? rack_colors_[r] : QColor();
}

QColor FloorPlan::cduColor(int c) const {
  return c >= 0 && c < int(cdu_colors_.size()) ? cdu_colors_[c] : QColor();
}

double FloorPlan::rackValue(int r) const {
  return r >= 0 && r < int(rack_values_.size()) ? rack_values_[r] : NAN;
}

QString FloorPlan::legendTitle() const {
  const MetricInfo mi = metricInfo(metric_);
  return base_ ? "Δ " + mi.name + " (this − baseline)" : mi.name;
}

QString FloorPlan::legendUnit() const {
  const MetricInfo mi = metricInfo(metric_);
  if (metric_ == Metric::LeakState && base_) return "";
  return mi.unit == "°C" && base_ ? "K" : mi.unit;
}

double FloorPlan::valueAt(const RunData& d, int rack, double t) const {
  return rackMetric(d, metric_, rack, d.rowAt(t));
}

void FloorPlan::recompute() {
  const int nr = run_ ? run_->nrack() : 0, nc = run_ ? run_->ncdu() : 0;
  rack_values_.assign(nr, NAN);
  rack_colors_.assign(nr, sequentialColor(NAN, 0, 1));
  cdu_colors_.assign(nc, QColor(200, 200, 200));
  const MetricInfo mi = metricInfo(metric_);
  if (run_ && run_->rows() > 0) {
    const RunData& d = *run_;
    // the baseline's rack for each of ours (by name)
    std::vector<int> bmap(nr, -1);
    if (base_)
      for (int r = 0; r < nr; ++r) bmap[r] = base_->rackByName(d.rack_name[r]);
    auto diffAt = [&](int r, int row) {
      if (bmap[r] < 0) return double(NAN);
      const double t = d.time[row];
      return rackMetric(d, metric_, r, row) - rackMetric(*base_, metric_, bmap[r], base_->rowAt(t));
    };
    // legend range: the metric's default, or the run's range (every row) when auto
    lo_ = mi.lo;
    hi_ = mi.hi;
    if (base_) {
      double span = 0;
      for (int row = 0; row < d.rows(); ++row)
        for (int r = 0; r < nr; ++r)
          if (const double x = diffAt(r, row); !std::isnan(x)) span = std::max(span, std::abs(x));
      lo_ = -std::max(span, 0.1);
      hi_ = std::max(span, 0.1);
    } else if (auto_range_->isChecked() && !mi.categorical) {
      double a = 1e300, b = -1e300;
      const int step = std::max(1, d.rows() / 400);  // long runs: sample the rows
      for (int row = 0; row < d.rows(); row += step)
        for (int r = 0; r < nr; ++r) {
          const double x = rackMetric(d, metric_, r, row);
          if (!std::isnan(x)) a = std::min(a, x), b = std::max(b, x);
        }
      if (a <= b) {
        if (b - a < 1.0) a -= 0.5, b += 0.5;
        lo_ = std::floor(a);
        hi_ = std::ceil(b);
      }
    }
    const int row = d.rowAt(t_);
    for (int r = 0; r < nr; ++r) {
      double v = base_ ? diffAt(r, row) : rackMetric(d, metric_, r, row);
      rack_values_[r] = v;
      rack_colors_[r] = base_            ? divergingColor(v, hi_)
                        : mi.categorical ? leakStateColor(v)
                                         : sequentialColor(v, lo_, hi_);
    }
    for (int c = 0; c < nc; ++c) {
      const double v = cduMetric(d, metric_, c, row);
      if (std::isnan(v) || base_) continue;
      cdu_colors_[c] = mi.categorical ? (v > 0.5 ? leakStateColor(1) : leakStateColor(0))
                                      : sequentialColor(v, lo_, hi_);
    }
  }
  canvas_->update();
  emit colorsChanged();
}

QString FloorPlan::tooltipForRack(int r) const {
  if (!run_ || r < 0 || r >= run_->nrack()) return "";
  const RunData& d = *run_;
  const int row = d.rowAt(t_);
  auto num = [&](Metric m, int prec) {
    const double v = rackMetric(d, m, r, row);
    return std::isnan(v) ? QString("–") : QString::number(v, 'f', prec);
  };
  const int c = d.rack_cdu[r];
  QString s = QString("<b>rack %1</b> (row %2, position %3)<br>CDU %4<br>")
                  .arg(QString::fromStdString(d.rack_name[r]))
                  .arg(QString::fromStdString(d.rack_row[r]))
                  .arg(d.rack_index[r])
                  .arg(c >= 0 && c < d.ncdu() ? QString::fromStdString(d.cdu_name[c]) : "–");
  s += QString("supply %1 °C, return %2 °C<br>flow %3 L/min<br>power %4 kW<br>")
           .arg(num(Metric::SupplyT, 1), num(Metric::ReturnT, 1), num(Metric::Flow, 1),
                num(Metric::Power, 1));
  s += QString("max GPU junction %1 °C, max HBM %2 °C<br>mean clock %3 %, throttled %4 %<br>")
           .arg(num(Metric::JunctionMax, 1), num(Metric::HbmMax, 1), num(Metric::ClockMean, 0),
                num(Metric::ThrottleShare, 0));
  s += "state: " + leakStateName(rackMetric(d, Metric::LeakState, r, row));
  if (base_)
    s += QString("<br><i>Δ vs baseline: %1 %2</i>").arg(rackValue(r), 0, 'f', 2).arg(legendUnit());
  return s;
}

QString FloorPlan::tooltipForCdu(int c) const {
  if (!run_ || c < 0 || c >= run_->ncdu()) return "";
  const RunData& d = *run_;
  const int row = d.rowAt(t_);
  auto v = [&](const char* p, double scale, double off, int prec) {
    const double x = d.value(p, row, c);
    return std::isnan(x) ? QString("–") : QString::number(x * scale + off, 'f', prec);
  };
  return QString(
             "<b>CDU %1</b><br>secondary supply %2 °C, return %3 °C<br>secondary flow %4 L/min"
             "<br>pump speed %5 %, pump power %6 kW<br>facility water in %7 °C, flow %8 L/min"
             "<br>tank %9 kPa, level %10 %, coolant lost %11 L")
      .arg(QString::fromStdString(d.cdu_name[c]))
      .arg(v(obsPath(Obs::CduTSecSupply), 1, -273.15, 1),
           v(obsPath(Obs::CduTSecReturn), 1, -273.15, 1), v(obsPath(Obs::CduVFlowSec), 60000, 0, 0),
           v(obsPath(Obs::CduPumpSpeed), 100, 0, 0), v(obsPath(Obs::CduPPump), 1e-3, 0, 1),
           v(obsPath(Obs::CduTPrimSupply), 1, -273.15, 1),
           v(obsPath(Obs::CduVFlowPrim), 60000, 0, 0), v(obsPath(Obs::CduPTank), 1e-3, 0, 0),
           v(obsPath(Obs::CduTankLevel), 100, 0, 0))
      .arg(v(obsPath(Obs::CduCoolantLost), 1e3, 0, 1));
}

QWidget* FloorPlan::canvas() const {
  return canvas_;
}

QPoint FloorPlan::rackCenter(int r) const {
  return r >= 0 && r < int(layout_.rack.size()) ? canvas_->worldToWidget(layout_.rack[r].center())
                                                : QPoint();
}

QImage FloorPlan::renderImage(QSize size) {
  QImage img(size, QImage::Format_ARGB32);
  img.fill(Qt::white);
  QPainter g(&img);
  canvas_->paintTo(g, QRect(QPoint(0, 0), size));
  return img;
}

}  // namespace dctwin::gui
