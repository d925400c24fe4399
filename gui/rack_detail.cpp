// rack_detail.cpp: tray x GPU heatmap and loop tables of one rack (see rack_detail.h)
#include "gui/rack_detail.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QHelpEvent>
#include <QLabel>
#include <QMouseEvent>
#include <QPainter>
#include <QTableWidget>
#include <QToolTip>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

namespace dctwin::gui {

namespace {
struct Quantity {
  const char* name;
  Obs obs;  // the series (solver/output/observables.h)
  double scale, offset, lo, hi;
  const char* unit;
};
// a series in its display unit (its quantity's row of DCTWIN_UNITS), colours from lo to hi
Quantity shownQuantity(const char* name, Obs obs, double lo, double hi) {
  const UnitInfo& u = unitInfo(observable(obs).quantity);
  return {name, obs, u.scale, u.offset, lo, hi, u.display};
}
const Quantity kQuantities[] = {
    shownQuantity("Junction temperature", Obs::GpuTJunction, 30, 90),
    shownQuantity("HBM temperature", Obs::GpuTHbm, 30, 95),
    {"Board power", Obs::GpuP, 1, 0, 0, 1200, "W"},
    {"SM clock", Obs::GpuClockRatio, 100, 0, 0, 100, "%"},
    {"Throttle reasons", Obs::GpuThrottleReasons, 1, 0, 0, 1, ""},
};
}  // namespace

class GpuGrid : public QWidget {
  static constexpr double kLegendW = 78;

 public:
  explicit GpuGrid(RackDetail* d) : QWidget(d), d_(d) {
    setMouseTracking(true);
    setMinimumSize(260, 240);
  }

 protected:
  int trays() const {
    const RunData* r = d_->run_;
    return r && d_->rack_ >= 0 ? std::max(1, r->rack_trays[d_->rack_]) : 1;
  }
  int perTray() const {
    const RunData* r = d_->run_;
    if (!r || d_->rack_ < 0) return 1;
    return std::max(1, (r->rack_gpunum[d_->rack_] + trays() - 1) / trays());
  }
  QRectF cell(int tray, int k) const {
    // 50 px of tray labels on the left, the colour legend (kLegendW) on the right
    const double w = (width() - 60.0 - kLegendW) / perTray(), h = (height() - 24.0) / trays();
    return QRectF(50 + k * w, 20 + tray * h, w - 2, h - 2);
  }
  int hit(QPoint p) const {
    const RunData* r = d_->run_;
    if (!r || d_->rack_ < 0) return -1;
    for (int q = 0; q < r->rack_gpunum[d_->rack_]; ++q) {
      const int i = r->rack_gpuadr[d_->rack_] + q;
      const int tray = r->gpu_tray[i];
      const int k = q - tray * perTray();
      if (cell(tray, std::clamp(k, 0, perTray() - 1)).contains(p)) return q;
    }
    return -1;
  }
  void paintEvent(QPaintEvent*) override {
    QPainter g(this);
    g.fillRect(rect(), QColor(250, 250, 252));
    const RunData* r = d_->run_;
    if (!r || d_->rack_ < 0 || r->rack_gpunum[d_->rack_] == 0) {
      g.setPen(Qt::darkGray);
      g.drawText(rect(), Qt::AlignCenter,
                 r && d_->rack_ >= 0 ? "This rack has no resolved GPUs"
                                     : "Click a rack on the floor plan");
      return;
    }
    const Quantity& Q = kQuantities[d_->quantity_];
    if (!r->find(observable(Q.obs).path)) {
      g.setPen(Qt::darkGray);
      g.drawText(rect().adjusted(20, 20, -20, -20), Qt::AlignCenter | Qt::TextWordWrap,
                 QString("Per-GPU values were not kept for a run this large (%1 GPUs): the "
                         "rack's GPU maxima and means are on the floor plan and in the charts.")
                     .arg(r->ngpu()));
      return;
    }
    // the colour range from the data: this rack's GPUs at this time, on round ticks (so GPUs
    // that differ by a kelvin look different)
    double qlo = 1e300, qhi = -1e300;
    for (int q = 0; q < r->rack_gpunum[d_->rack_]; ++q)
      if (const double v = d_->cellValue(q); !std::isnan(v))
        qlo = std::min(qlo, v), qhi = std::max(qhi, v);
    if (qlo > qhi) qlo = Q.lo, qhi = Q.hi;
    if (qhi - qlo < 2.0) qlo -= 1.0, qhi += 1.0;
    const auto ticks = niceTicks(qlo, qhi, 5);
    qlo = ticks.front();
    qhi = ticks.back();
    QFont f = g.font();
    f.setPixelSize(10);
    g.setFont(f);
    for (int c = 0; c < perTray(); ++c)
      g.drawText(cell(0, c).translated(0, -18).toRect(), Qt::AlignCenter, QString("GPU %1").arg(c));
    for (int t = 0; t < trays(); ++t)
      g.drawText(QRectF(0, cell(t, 0).y(), 46, cell(t, 0).height()),
                 Qt::AlignRight | Qt::AlignVCenter,
                 QString("tray %1").arg(t));  // 0-based as /gpu/tray
    const int row = r->rowAt(d_->t_);
    for (int q = 0; q < r->rack_gpunum[d_->rack_]; ++q) {
      const int i = r->rack_gpuadr[d_->rack_] + q;
      const int tray = r->gpu_tray[i];
      const int k = std::clamp(q - tray * perTray(), 0, perTray() - 1);
      const double v = d_->cellValue(q);
      QColor c;
      if (d_->quantity_ == 4) {
        const unsigned bits = std::isnan(v) ? 0 : unsigned(v);
        c = std::isnan(v)   ? QColor(150, 150, 150)
            : (bits & 0x80) ? QColor(120, 0, 160)
            : (bits & 0x60) ? QColor(229, 57, 53)
            : (bits & 0x4)  ? QColor(251, 140, 0)
                            : QColor(76, 175, 80);
      } else {
        c = sequentialColor(v, qlo, qhi);
      }
      const QRectF box = cell(tray, k);
      g.fillRect(box, c);
      if (box.height() > 14) {
        g.setPen(c.lightnessF() < 0.5 ? Qt::white : Qt::black);
        g.drawText(box, Qt::AlignCenter,
                   d_->quantity_ == 4 ? QString("0x%1").arg(std::isnan(v) ? 0 : int(v), 0, 16)
                                      : formatNumber(v, 0));
      }
    }
    (void)row;
    drawLegend(g, qlo, qhi, Q.unit);
  }
  // the colour key of the grid: the categories of the throttle reasons, else a bar with round ticks
  void drawLegend(QPainter& g, double qlo, double qhi, const QString& unit) {
    const QRect lg(int(width() - kLegendW + 4), 20, int(kLegendW) - 6, height() - 30);
    g.setPen(Qt::black);
    if (d_->quantity_ == 4) {
      const std::pair<const char*, QColor> cats[] = {{"none", QColor(76, 175, 80)},
                                                     {"power cap", QColor(251, 140, 0)},
                                                     {"thermal", QColor(229, 57, 53)},
                                                     {"power brake", QColor(120, 0, 160)},
                                                     {"unknown", QColor(150, 150, 150)}};
      int y = lg.y();
      for (const auto& [name, c] : cats) {
        g.fillRect(QRect(lg.x(), y, 12, 12), c);
        g.drawText(QRect(lg.x() + 16, y - 2, lg.width() - 16, 16), Qt::AlignLeft | Qt::AlignVCenter,
                   name);
        y += 18;
      }
      return;
    }
    const auto ticks = niceTicks(qlo, qhi, 5);
    const double lo = ticks.front(), hi = ticks.back();
    const QRect bar(lg.x(), lg.y() + 16, 14, std::max(40, lg.height() - 24));
    g.drawText(QRect(lg.x(), lg.y() - 2, lg.width(), 16), Qt::AlignLeft, unit);
    for (int yy = 0; yy < bar.height(); ++yy) {
      const double x = 1.0 - double(yy) / std::max(1, bar.height() - 1);
      g.setPen(sequentialColor(lo + x * (hi - lo), lo, hi));
      g.drawLine(bar.x(), bar.y() + yy, bar.right(), bar.y() + yy);
    }
    g.setPen(Qt::black);
    g.drawRect(bar);
    const int dec = ticks.size() > 1 ? tickDecimals(ticks[1] - ticks[0]) : 0;
    for (double v : ticks) {
      const int yy = bar.y() + int(std::lround((hi - v) / (hi - lo) * (bar.height() - 1)));
      g.drawLine(bar.right(), yy, bar.right() + 3, yy);
      g.drawText(QRect(bar.right() + 5, yy - 8, lg.right() - bar.right() - 5, 16),
                 Qt::AlignLeft | Qt::AlignVCenter, formatNumber(v, dec));
    }
  }
  bool event(QEvent* e) override {
    if (e->type() == QEvent::ToolTip) {
      auto* he = static_cast<QHelpEvent*>(e);
      const int q = hit(he->pos());
      const RunData* r = d_->run_;
      if (q < 0 || !r) {
        QToolTip::hideText();
        return true;
      }
      const int i = r->rack_gpuadr[d_->rack_] + q;
      const int row = r->rowAt(d_->t_);
      // shown: in its display unit (DCTWIN_UNITS), else x * s + o
      auto v = [&](Obs p, double s, double o, bool as_shown = false) {
        const double x = r->value(observable(p).path, row, i);
        return std::isnan(x) ? QString("–") : formatNumber(as_shown ? shown(p, x) : x * s + o, 1);
      };
      QToolTip::showText(
          he->globalPos(),
          QString("<b>rack %1, tray %2, GPU %3</b> (#%4)<br>junction %5 °C, HBM %6 °C<br>"
                  "power %7 W, clock %8 %<br>throttle reasons 0x%9")
              .arg(QString::fromStdString(r->rack_name[d_->rack_]))
              .arg(r->gpu_tray[i])
              .arg(r->gpu_slot[i])
              .arg(i)
              .arg(v(Obs::GpuTJunction, 1, 0, true), v(Obs::GpuTHbm, 1, 0, true),
                   v(Obs::GpuP, 1, 0), v(Obs::GpuClockRatio, 100, 0))
              .arg(int(std::isnan(r->value(observable(Obs::GpuThrottleReasons).path, row, i))
                           ? 0
                           : r->value(observable(Obs::GpuThrottleReasons).path, row, i)),
                   0, 16),
          this);
      return true;
    }
    return QWidget::event(e);
  }
  void mousePressEvent(QMouseEvent* e) override {
    const int q = hit(e->position().toPoint());
    if (q >= 0) emit d_->gpuClicked(d_->run_->rack_gpuadr[d_->rack_] + q);
  }

 private:
  RackDetail* d_;
};

RackDetail::RackDetail(QWidget* parent) : QWidget(parent) {
  auto* v = new QVBoxLayout(this);
  auto* bar = new QHBoxLayout;
  title_ = new QLabel("No rack selected", this);
  QFont f = title_->font();
  f.setBold(true);
  f.setPointSizeF(f.pointSizeF() * 1.2);
  title_->setFont(f);
  bar->addWidget(title_, 1);
  bar->addWidget(new QLabel("GPU heatmap:", this));
  combo_ = new QComboBox(this);
  combo_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  combo_->setMinimumContentsLength(14);
  for (const auto& q : kQuantities)
    combo_->addItem(q.unit[0] ? QString("%1 (%2)").arg(q.name, q.unit) : QString(q.name));
  bar->addWidget(combo_);
  v->addLayout(bar);
  auto* h = new QHBoxLayout;
  grid_ = new GpuGrid(this);
  h->addWidget(grid_, 3);
  auto* tables = new QVBoxLayout;
  auto makeTable = [&](const QString& caption) {
    tables->addWidget(new QLabel(caption, this));
    auto* t = new QTableWidget(0, 2, this);
    t->horizontalHeader()->setVisible(false);
    t->verticalHeader()->setVisible(false);
    t->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    t->horizontalHeader()->setStretchLastSection(true);
    t->setEditTriggers(QAbstractItemView::NoEditTriggers);
    tables->addWidget(t);
    return t;
  };
  loop_ = makeTable("<b>Rack loop</b>");
  cdu_ = makeTable("<b>Its CDU</b>");
  h->addLayout(tables, 2);
  v->addLayout(h, 1);
  connect(combo_, &QComboBox::currentIndexChanged, this, [this](int k) {
    quantity_ = k;
    refresh();
  });
}

void RackDetail::setRun(const RunData* d) {
  run_ = d;
  if (!d || rack_ >= d->nrack()) rack_ = -1;
  refresh();
}

void RackDetail::setRack(int r) {
  rack_ = r;
  refresh();
}

void RackDetail::setTime(double t) {
  t_ = t;
  refresh();
}

void RackDetail::dataChanged() {
  refresh();
}

void RackDetail::setQuantity(int q) {
  combo_->setCurrentIndex(q);
}

double RackDetail::cellValue(int k) const {
  if (!run_ || rack_ < 0 || k < 0 || k >= run_->rack_gpunum[rack_]) return NAN;
  const Quantity& Q = kQuantities[quantity_];
  const double x =
      run_->value(observable(Q.obs).path, run_->rowAt(t_), run_->rack_gpuadr[rack_] + k);
  return x * Q.scale + Q.offset;
}

void RackDetail::refresh() {
  grid_->update();
  auto fill = [](QTableWidget* t, const std::vector<std::pair<QString, QString>>& rows) {
    t->setRowCount(int(rows.size()));
    for (int i = 0; i < int(rows.size()); ++i) {
      t->setItem(i, 0, new QTableWidgetItem(rows[i].first));
      t->setItem(i, 1, new QTableWidgetItem(rows[i].second));
    }
  };
  if (!run_ || rack_ < 0 || rack_ >= run_->nrack()) {
    title_->setText("No rack selected: click a rack on the floor plan");
    fill(loop_, {});
    fill(cdu_, {});
    return;
  }
  const RunData& d = *run_;
  const int row = d.rowAt(t_);
  const int r = rack_;
  title_->setText(
      QString("Rack %1  (row %2, position %3, %4)  at %5")
          .arg(QString::fromStdString(d.rack_name[r]), QString::fromStdString(d.rack_row[r]))
          .arg(d.rack_index[r])
          .arg(r < int(d.rack_type.size()) ? QString::fromStdString(d.rack_type[r]) : QString())
          .arg(formatTime(t_)));
  auto num = [](double v, int prec, const QString& unit) {
    return std::isnan(v) ? QString("–") : QString::number(v, 'f', prec) + " " + unit;
  };
  auto rv = [&](Obs p, double s, double o) { return d.value(observable(p).path, row, r) * s + o; };
  // a series in its display unit (its quantity's row of DCTWIN_UNITS, solver/output/observables.h)
  auto rs = [&](Obs p, int prec) { return num(shown(p, rv(p, 1, 0)), prec, shownUnit(p)); };
  fill(loop_, {{"Supply temperature", rs(Obs::RackTSupply, 2)},
               {"Return temperature", rs(Obs::RackTReturn, 2)},
               {"Flow", rs(Obs::RackVFlow, 1)},
               {"Pressure drop", rs(Obs::RackDp, 1)},
               {"Heat to liquid", rs(Obs::RackQLiquid, 1)},
               {"Power", rs(Obs::RackP, 1)},
               {"Max GPU junction", num(rackMetric(d, Metric::JunctionMax, r, row), 1, "°C")},
               {"Max HBM", num(rackMetric(d, Metric::HbmMax, r, row), 1, "°C")},
               {"GPUs throttled", num(rackMetric(d, Metric::ThrottleShare, r, row), 0, "%")},
               {"Isolation valves", num(rv(Obs::RackIsolation, 100, 0), 0, "% closed")},
               {"Leak flow", rs(Obs::RackLeakFlow, 2)},
               {"State", leakStateName(rackMetric(d, Metric::LeakState, r, row))}});
  const int c = d.rack_cdu[r];
  auto cv = [&](Obs p, double s, double o) { return d.value(observable(p).path, row, c) * s + o; };
  auto cs = [&](Obs p, int prec) { return num(shown(p, cv(p, 1, 0)), prec, shownUnit(p)); };
  if (c < 0 || c >= d.ncdu()) {
    fill(cdu_, {});
    return;
  }
  fill(cdu_, {{"CDU", QString::fromStdString(d.cdu_name[c])},
              {"Secondary supply", cs(Obs::CduTSecSupply, 2)},
              {"Secondary return", cs(Obs::CduTSecReturn, 2)},
              {"Secondary flow", cs(Obs::CduVFlowSec, 0)},
              {"Pump speed", num(cv(Obs::CduPumpSpeed, 100, 0), 0, "%")},
              {"Pump power", cs(Obs::CduPPump, 2)},
              {"Facility water in", cs(Obs::CduTPrimSupply, 2)},
              {"Facility water flow", cs(Obs::CduVFlowPrim, 0)},
              {"Valve position", num(cv(Obs::CduValvePosition, 100, 0), 0, "%")},
              {"Tank pressure", cs(Obs::CduPTank, 1)},
              {"Tank level", num(cv(Obs::CduTankLevel, 100, 0), 0, "%")},
              {"Coolant lost", num(cv(Obs::CduCoolantLost, 1e3, 0), 2, "L")}});
}

}  // namespace dctwin::gui
