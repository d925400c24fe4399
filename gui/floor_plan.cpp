// floor_plan.cpp: 2D floor plan with metric colouring, legend, tooltips and selection
// (see floor_plan.h)
#include "gui/floor_plan.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCompleter>
#include <QContextMenuEvent>
#include <QHBoxLayout>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QRegularExpression>
#include <QToolButton>
#include <QToolTip>
#include <QVBoxLayout>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>
#include <map>

namespace dctwin::gui {

// the drawing surface; all state lives in the FloorPlan
class FloorCanvas : public QWidget {
 public:
  explicit FloorCanvas(FloorPlan* plan) : QWidget(plan), p_(plan) {
    setMouseTracking(true);
    setMinimumSize(240, 180);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
    setFocusPolicy(Qt::StrongFocus);
  }
  void paintTo(QPainter& g, const QRect& area);
  QPoint worldToWidget(QPointF w) const { return transform(plotArea(rect())).map(w).toPoint(); }
  QPointF widgetToWorld(QPointF pos) const {
    bool ok = false;
    const QPointF w = transform(plotArea(rect())).inverted(&ok).map(pos);
    return ok ? w : QPointF();
  }
  double fitScale(const QRect& area) const {
    const QRectF b = p_->layout_.bounds;
    if (b.isEmpty()) return 1.0;
    return std::min(area.width() / b.width(), area.height() / b.height());
  }
  QRect plotArea(const QRect& area) const { return area.adjusted(8, 28, -140, -30); }
  // world (m) -> widget: the fit scale times the zoom, the view centre at the area's centre
  QTransform transform(const QRect& area) const {
    const QRectF b = p_->layout_.bounds;
    QTransform t;
    if (b.isEmpty()) return t;
    const double s = fitScale(area) * p_->zoom_;
    const QPointF c = p_->has_center_ ? p_->center_ : b.center();
    t.translate(area.center().x() - s * c.x(), area.center().y() - s * c.y());
    t.scale(s, s);
    return t;
  }

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
      if (kind == 4) text = p_->tooltipForAirRack(index);
      if (text.isEmpty())
        QToolTip::hideText();
      else
        QToolTip::showText(he->globalPos(), text, this);
      return true;
    }
    return QWidget::event(e);
  }
  void wheelEvent(QWheelEvent* e) override {
    const double steps = e->angleDelta().y() / 120.0;
    if (steps != 0) p_->zoomBy(std::pow(1.25, steps), e->position());
    e->accept();
  }
  void keyPressEvent(QKeyEvent* e) override {
    if (e->key() == Qt::Key_Home || e->key() == Qt::Key_0) return p_->resetView();
    if (e->key() == Qt::Key_Plus || e->key() == Qt::Key_Equal) return p_->zoomBy(1.5);
    if (e->key() == Qt::Key_Minus) return p_->zoomBy(1 / 1.5);
    QWidget::keyPressEvent(e);
  }
  void mousePressEvent(QMouseEvent* e) override {
    press_ = e->position();
    dragging_ = false;
    if (e->button() != Qt::LeftButton) return;
    auto [kind, index] = hit(e->position().toPoint());
    if (kind == 0) emit p_->rackClicked(index, e->modifiers());
    if (kind == 1) emit p_->cduClicked(index);
  }
  void mouseMoveEvent(QMouseEvent* e) override {
    if (!(e->buttons() & (Qt::LeftButton | Qt::MiddleButton))) return;
    const QPointF d = e->position() - press_;
    if (!dragging_ && std::hypot(d.x(), d.y()) < 5) return;
    dragging_ = true;
    // pan: the world point under the press stays under the cursor
    const double s = transform(plotArea(rect())).m11();
    if (s <= 0) return;
    const QPointF c = p_->has_center_ ? p_->center_ : p_->layout_.bounds.center();
    p_->center_ = c - d / s;
    p_->has_center_ = true;
    press_ = e->position();
    update();
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
  // {kind, index}: 0 rack, 1 CDU, 3 busway, 4 air-cooled rack; {-1, -1} nothing
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
    for (int k = 0; k < int(L.air.size()); ++k)
      if (L.air[k].contains(w)) return {4, k};
    const double tol = std::max(0.15, 4.0 / std::max(1e-9, t.m11()));
    for (int b = 0; b < int(L.busways.size()); ++b) {
      const auto& bw = L.busways[b];
      if (w.x() >= bw.a.x() && w.x() <= bw.b.x() && std::abs(w.y() - bw.a.y()) < tol) return {3, b};
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
        .arg(bw.name, formatNumber(I, 0), formatNumber(100 * ratio, 0),
             std::isnan(brk) ? "unknown" : (brk > 0.5 ? "TRIPPED" : "closed"));
  }
  // text at box if it fits inside `within` and overlaps no label placed before; records it
  bool label(QPainter& g, const QRectF& box, int flags, const QString& text, const QRect& within,
             std::vector<QRect>& placed, bool must_fit_box = true) {
    const QFontMetrics fm(g.font());
    const QRect need = fm.boundingRect(box.toAlignedRect(), flags, text);
    if (must_fit_box && (need.width() > box.width() || need.height() > box.height())) return false;
    if (!within.contains(need)) return false;
    for (const QRect& q : placed)
      if (q.intersects(need)) return false;
    placed.push_back(need);
    g.drawText(box, flags, text);
    p_->drawn_.push_back({text, need});
    return true;
  }

  FloorPlan* p_;
  QPointF press_;
  bool dragging_ = false;
};

void FloorCanvas::paintTo(QPainter& g, const QRect& area) {
  p_->drawn_.clear();
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
  std::vector<QRect> placed;  // labels so far: none may overlap
  // header line: title and time (elided to the width left of the legend)
  g.setPen(QColor(40, 40, 40));
  QFont f = g.font();
  f.setBold(true);
  g.setFont(f);
  {
    const QRect hr(area.x() + 8, area.y() + 4, area.width() - 150, 20);
    const QString head =
        QString("%1   t = %2")
            .arg(P.title_.isEmpty() ? QString::fromStdString(d.facility_name) : P.title_,
                 formatTime(P.t_));
    const QString el = QFontMetrics(f).elidedText(head, Qt::ElideRight, hr.width());
    g.drawText(hr, Qt::AlignLeft | Qt::AlignVCenter, el);
    p_->drawn_.push_back({el, QFontMetrics(f).boundingRect(hr, Qt::AlignLeft, el)});
  }
  f.setBold(false);
  g.setFont(f);
  const int row = d.rowAt(P.t_);
  g.save();
  g.setClipRect(pa.adjusted(-6, -6, 6, 6));
  // levels of detail by the pixels a rack gets
  const double rack_px = kRackWidth * s;
  const bool fine = rack_px >= 6;  // pipes per rack, outlines
  // the campus level: each hall a block with its name above it (one hall: no block)
  const bool campus = L.halls.size() > 1;
  if (campus) {
    g.setPen(QPen(QColor(120, 120, 120), 1.5));
    g.setBrush(QColor(245, 245, 240));
    for (const auto& h : L.halls) g.drawRect(t.mapRect(h.rect));
  }
  // pipes: coloured by the rack's supply/return temperature or flow when that is the metric
  if (fine) {
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
      QPen pen(c, std::clamp(0.08 * s, 1.0, 6.0));
      if (!std::isnan(iso) && iso > 0.5) pen.setStyle(Qt::DotLine);  // valves shut
      g.setPen(pen);
      QPolygonF poly;
      for (const auto& q : pipe.path2d) poly << t.map(q);
      g.drawPolyline(poly);
    }
  }
  // busways
  for (const auto& bw : L.busways) {
    const double ratio = d.value(obsPath(Obs::BuswayLoadRatio), row, bw.index);
    const double brk = d.value(obsPath(Obs::BuswayBreakerState), row, bw.index);
    QColor c = std::isnan(ratio) ? QColor(120, 90, 40) : sequentialColor(ratio, 0, 1);
    const double wpx = std::clamp(0.12 * s, 1.0, 8.0);
    QPen pen(c, wpx);
    if (!std::isnan(brk) && brk > 0.5) pen = QPen(Qt::black, wpx, Qt::DashLine);
    g.setPen(pen);
    g.drawLine(t.map(bw.a), t.map(bw.b));
  }
  // racks: cells at hall scale, outlined boxes closer, trays and GPUs inside when there is room
  QFont rf = g.font();
  rf.setPixelSize(std::clamp(int(0.18 * s), 8, 13));
  const std::string& tj_path = obsPath(Obs::GpuTJunction);
  const RunData::Series* tj = d.find(tj_path);
  // trays when the metric is the junction, each tray gets 6 px and racks show their own colour
  auto trays_shown = [&](int r, const QRectF& box) {
    const int n = r < int(d.rack_trays.size()) ? d.rack_trays[r] : 0;
    return tj && n > 0 && box.height() / n >= 6 && !P.base_ && P.metric_ == Metric::JunctionMax &&
           P.agg_ == FloorPlan::Aggregate::None;
  };
  for (int r = 0; r < int(L.rack.size()); ++r) {
    const QRectF box = t.mapRect(L.rack[r]);
    if (!box.intersects(pa)) continue;
    const QColor fill = P.rack_colors_.size() > std::size_t(r) ? P.rack_colors_[r] : Qt::gray;
    g.setBrush(fill);
    g.setPen(fine ? QPen(QColor(30, 30, 30), 1) : QPen(Qt::NoPen));
    g.drawRect(box);
    // trays (and GPUs) of the rack when each tray gets 6 px or more: the hottest GPU junction
    const int trays = r < int(d.rack_trays.size()) ? d.rack_trays[r] : 0;
    if (trays_shown(r, box)) {
      const double th = box.height() / trays;
      const int g0 = d.rack_gpuadr[r], gn = d.rack_gpunum[r];
      const int per_tray = std::max(1, (gn + trays - 1) / trays);
      const bool gpus = box.width() / per_tray >= 6 && th >= 6;
      std::vector<double> tray_max(trays, NAN);
      for (int i = g0; i < g0 + gn; ++i) {
        const double v = shown(Obs::GpuTJunction, d.value(tj_path, row, i));
        const int k = d.gpu_tray[i];
        if (k < 0 || k >= trays || std::isnan(v)) continue;
        if (gpus) {
          const int slot = (i - g0) - k * per_tray;
          const double gw = box.width() / per_tray;
          g.setBrush(sequentialColor(v, P.lo_, P.hi_));
          g.setPen(QPen(QColor(60, 60, 60), 0.5));
          g.drawRect(QRectF(box.x() + slot * gw, box.y() + k * th, gw, th));
        }
        tray_max[k] = std::isnan(tray_max[k]) ? v : std::max(tray_max[k], v);
      }
      if (!gpus)
        for (int k = 0; k < trays; ++k) {
          g.setBrush(sequentialColor(tray_max[k], P.lo_, P.hi_));
          g.setPen(QPen(QColor(60, 60, 60), 0.5));
          g.drawRect(QRectF(box.x(), box.y() + k * th, box.width(), th));
        }
      g.setFont(rf);
      g.setPen(Qt::black);
      for (int k = 0; k < trays && th >= 14; ++k)
        label(g, QRectF(box.x() + 2, box.y() + k * th, box.width() - 4, th),
              Qt::AlignLeft | Qt::AlignVCenter, QString("tray %1").arg(k), pa, placed);
    }
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
  }
  // rack labels where they fit: name and value, else the name (the trays' labels first)
  g.setFont(rf);
  for (int r = 0; r < int(L.rack.size()) && rack_px >= 20; ++r) {
    const QRectF box = t.mapRect(L.rack[r]);
    if (!box.intersects(pa)) continue;
    const QColor fill = P.rack_colors_.size() > std::size_t(r) ? P.rack_colors_[r] : Qt::gray;
    const double v = P.rack_values_.size() > std::size_t(r) ? P.rack_values_[r] : NAN;
    const QString val = std::isnan(v) ? "–"
                        : (P.metric_ == Metric::LeakState && !P.base_)
                            ? leakStateName(v)
                            : formatNumber(v, std::abs(v) < 10 ? 1 : 0);
    const QString name = QString::fromStdString(d.rack_name[r]);
    const bool trays_drawn = trays_shown(r, box);
    const double lh = QFontMetrics(rf).height() + 2;  // one line above the trays
    const QRectF lb = trays_drawn ? QRectF(box.x() - 4, box.y() - lh, box.width() + 8, lh) : box;
    g.setPen(trays_drawn || fill.lightnessF() >= 0.5 ? Qt::black : Qt::white);
    if (!label(g, lb, Qt::AlignCenter, name + (trays_drawn ? "  " : "\n") + val, pa, placed))
      label(g, lb, Qt::AlignCenter, name, pa, placed);
  }
  // air-cooled racks: a box with a fan mark (no pipes), its name where it fits
  for (int k = 0; k < int(L.air.size()); ++k) {
    const QRectF box = t.mapRect(L.air[k]);
    if (!box.intersects(pa)) continue;
    const QColor fill = P.airRackColor(k).isValid() ? P.airRackColor(k) : QColor(128, 128, 128);
    g.setBrush(fill);
    g.setPen(fine ? QPen(QColor(30, 30, 30), 1, Qt::DashLine) : QPen(Qt::NoPen));
    g.drawRect(box);
    if (fine) {
      const double rr = 0.3 * std::min(box.width(), box.height());
      g.setBrush(Qt::NoBrush);
      g.setPen(QPen(QColor(30, 30, 30), 1));
      g.drawEllipse(box.center(), rr, rr);
      g.drawLine(box.center() - QPointF(rr, 0), box.center() + QPointF(rr, 0));
      g.drawLine(box.center() - QPointF(0, rr), box.center() + QPointF(0, rr));
    }
    if (rack_px >= 20) {
      g.setFont(rf);
      g.setPen(fill.lightnessF() >= 0.5 ? Qt::black : Qt::white);
      label(g, box.adjusted(0, 0, 0, -box.height() * 0.6), Qt::AlignCenter,
            QString::fromStdString(d.air_name[k]), pa, placed);
    }
  }
  // CDUs
  for (int c = 0; c < int(L.cdu.size()); ++c) {
    const QRectF box = t.mapRect(L.cdu[c]);
    if (!box.intersects(pa)) continue;
    g.setBrush(P.cdu_colors_.size() > std::size_t(c) ? P.cdu_colors_[c] : QColor(200, 200, 200));
    g.setPen(fine ? QPen(QColor(30, 30, 30), 1.5) : QPen(Qt::NoPen));
    g.drawRoundedRect(box, std::min(4.0, box.width() / 4), std::min(4.0, box.width() / 4));
    if (c == P.sel_cdu_) {
      g.setPen(QPen(QColor(255, 193, 7), 4));
      g.setBrush(Qt::NoBrush);
      g.drawRoundedRect(box.adjusted(-3, -3, 3, 3), 4, 4);
    }
    g.setPen(Qt::black);
    label(g, box, Qt::AlignCenter, "CDU\n" + QString::fromStdString(d.cdu_name[c]), pa, placed);
  }
  // busway labels under their line, where the line is long enough and nothing else is there
  g.setPen(QColor(90, 70, 30));
  for (const auto& bw : L.busways) {
    const QPointF a = t.map(bw.a), b = t.map(bw.b);
    label(g, QRectF(a.x(), a.y() + 2, b.x() - a.x(), 16), Qt::AlignLeft | Qt::AlignTop,
          "busway " + bw.name, pa, placed);
  }
  // hall names above their blocks first: at campus scale they are what must be read
  if (campus) {
    QFont hf = g.font();
    hf.setBold(true);
    hf.setPixelSize(14);
    g.setFont(hf);
    g.setPen(QColor(50, 50, 50));
    for (const auto& h : L.halls) {
      // inside the block's top-left corner on a light plate: readable at any zoom
      const QRectF hb = t.mapRect(h.rect);
      const QString txt = "hall " + h.name;
      const QFontMetrics hm(hf);
      const QRectF tb(std::max<double>(hb.x(), pa.x()) + 4, std::max<double>(hb.y(), pa.y()) + 4,
                      hm.horizontalAdvance(txt) + 8, hm.height() + 4);
      if (!tb.intersects(hb)) continue;
      bool free = pa.contains(tb.toAlignedRect());
      for (const QRect& q : placed) free = free && !q.intersects(tb.toAlignedRect());
      if (!free) continue;
      g.fillRect(tb, QColor(255, 255, 255, 220));
      label(g, tb, Qt::AlignCenter, txt, pa, placed);
    }
    g.setFont(f);
  }
  // row labels left of their row's CDUs (never overlapping: at hall scale every few rows)
  g.setPen(QColor(90, 90, 90));
  for (std::size_t k = 0; k < L.row_label.size(); ++k) {
    const QPointF q = t.map(QPointF(L.row_x[k], L.row_y[k] + kRackDepth / 2));
    const QString txt = "row " + L.row_label[k];
    const int w = QFontMetrics(g.font()).horizontalAdvance(txt) + 2;
    const bool first_block = k == 0 || L.row_x[k] <= L.row_x[0] + 1e-9 ||
                             (k < L.row_hall.size() && L.row_hall[k] != L.row_hall[k - 1]);
    if (!first_block && w > 3.6 * s) continue;  // not in the aisle
    label(g, QRectF(q.x() - w, q.y() - 8, w, 16), Qt::AlignRight | Qt::AlignVCenter, txt, pa,
          placed, false);
  }
  g.restore();
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
      const QRect tb = banner.adjusted(6, 0, -6, 0);
      const QString el = QFontMetrics(g.font()).elidedText(text, Qt::ElideRight, tb.width());
      g.drawText(tb, Qt::AlignLeft | Qt::AlignVCenter, el);
      p_->drawn_.push_back({el, QFontMetrics(g.font()).boundingRect(tb, Qt::AlignLeft, el)});
    }
  }
  // legend (right margin): categories with every colour used, or the scale with round ticks
  const QRect lg(area.right() - 134, area.y() + 30, 128, std::min(300, area.height() - 64));
  g.setFont(f);
  g.setPen(QColor(40, 40, 40));
  const QRect tr = QFontMetrics(f).boundingRect(QRect(lg.x(), lg.y() - 4, lg.width(), 200),
                                                Qt::AlignLeft | Qt::TextWordWrap, P.legendTitle());
  g.drawText(tr, Qt::AlignLeft | Qt::TextWordWrap, P.legendTitle());
  p_->drawn_.push_back({P.legendTitle(), tr});
  const int top = tr.bottom() + 12;  // the first entry (or the bar's top tick label) below it
  if (P.metric_ == Metric::LeakState && !P.base_) {
    const auto entries = P.legendEntries();
    for (int k = 0; k < int(entries.size()); ++k) {
      const QRect sw(lg.x(), top + 22 * k, 16, 16);
      g.setBrush(entries[k].second);
      g.setPen(Qt::black);
      g.drawRect(sw);
      const QRect tb(sw.right() + 5, sw.y() - 2, lg.right() - sw.right() - 5, 20);
      const QString el =
          QFontMetrics(g.font()).elidedText(entries[k].first, Qt::ElideRight, tb.width());
      g.drawText(tb, Qt::AlignVCenter | Qt::AlignLeft, el);
      p_->drawn_.push_back({el, QFontMetrics(g.font()).boundingRect(tb, Qt::AlignLeft, el)});
    }
  } else {
    const QRect bar(lg.x(), top, 18, std::max(40, lg.bottom() - top - 10));
    const double lo = P.lo_, hi = P.hi_;
    for (int yy = 0; yy < bar.height(); ++yy) {
      const double x = 1.0 - double(yy) / std::max(1, bar.height() - 1);
      const double v = lo + x * (hi - lo);
      g.setPen(P.base_ ? divergingColor(v, hi) : sequentialColor(v, lo, hi));
      g.drawLine(bar.x(), bar.y() + yy, bar.right(), bar.y() + yy);
    }
    g.setPen(Qt::black);
    g.setBrush(Qt::NoBrush);
    g.drawRect(bar);
    const auto& ticks = P.ticks_;
    const int dec = ticks.size() > 1 ? tickDecimals(ticks[1] - ticks[0]) : 0;
    for (double v : ticks) {
      if (hi <= lo) break;
      const int yy = bar.y() + int(std::lround((hi - v) / (hi - lo) * (bar.height() - 1)));
      g.drawLine(bar.right(), yy, bar.right() + 4, yy);
      const QRect tb(bar.right() + 6, yy - 8, lg.right() - bar.right() - 6, 16);
      const QString txt = formatNumber(v, dec) + " " + P.legendUnit();
      g.drawText(tb, Qt::AlignVCenter | Qt::AlignLeft, txt);
      p_->drawn_.push_back(
          {txt, QFontMetrics(g.font()).boundingRect(tb, Qt::AlignVCenter | Qt::AlignLeft, txt)});
    }
  }
}

FloorPlan::FloorPlan(QWidget* parent) : QWidget(parent) {
  auto* v = new QVBoxLayout(this);
  v->setContentsMargins(2, 2, 2, 2);
  bar_ = new QWidget(this);
  auto* bar = new QHBoxLayout(bar_);
  bar->setContentsMargins(0, 0, 0, 0);
  title_label_ = new QLabel(this);
  title_label_->setVisible(false);
  bar->addWidget(title_label_);
  colour_by_ = new QLabel("Colour by:", this);
  bar->addWidget(colour_by_);
  combo_ = new QComboBox(this);
  combo_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  combo_->setMinimumContentsLength(8);
  combo_->setObjectName("metricCombo");
  for (int k = 0; k < int(Metric::Count); ++k) {
    const MetricInfo mi = metricInfo(Metric(k));
    combo_->addItem(mi.unit.isEmpty() ? mi.name : QString("%1 (%2)").arg(mi.name, mi.unit));
  }
  bar->addWidget(combo_, 2);
  agg_combo_ = new QComboBox(this);
  agg_combo_->setObjectName("aggregateCombo");
  agg_combo_->setToolTip("Colour each rack by the worst rack of its group");
  agg_combo_->addItems({"Each rack", "By row", "By CDU loop", "By busway", "By hall"});
  agg_combo_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  agg_combo_->setMinimumContentsLength(5);
  bar->addWidget(agg_combo_, 1);
  auto_range_ = new QCheckBox("Auto range", this);
  auto_range_->setToolTip("Fit the legend to the run's range of this metric");
  auto_range_->setChecked(true);
  bar->addWidget(auto_range_);
  search_ = new QLineEdit(this);
  search_->setObjectName("searchBox");
  search_->setPlaceholderText("Find rack, CDU, GPU…");
  search_->setClearButtonEnabled(true);
  search_->setMinimumWidth(70);
  search_->setMaximumWidth(200);
  bar->addWidget(search_, 1);
  auto* fit = new QToolButton(this);
  fit->setObjectName("fitButton");
  fit->setText("Fit");
  fit->setToolTip("Show the whole floor (Home); the wheel zooms, a drag pans");
  bar->addWidget(fit);
  fit_ = fit;
  v->addWidget(bar_);
  canvas_ = new FloorCanvas(this);
  v->addWidget(canvas_, 1);
  connect(combo_, &QComboBox::currentIndexChanged, this, [this](int k) {
    metric_ = Metric(k);
    recompute();
    emit metricChanged(metric_);
  });
  connect(agg_combo_, &QComboBox::currentIndexChanged, this, [this](int k) {
    agg_ = Aggregate(k);
    recompute();
  });
  connect(auto_range_, &QCheckBox::toggled, this, [this] { recompute(); });
  connect(search_, &QLineEdit::returnPressed, this, [this] { find(search_->text()); });
  connect(search_, &QLineEdit::textEdited, this, [this] { search_->setStyleSheet(""); });
  connect(fit, &QToolButton::clicked, this, &FloorPlan::resetView);
}

void FloorPlan::setRun(const RunData* d) {
  const bool same_floor = d && run_ && d->rack_name == run_->rack_name;
  run_ = d;
  layout_ = d ? computeFloorLayout(*d) : FloorLayout{};
  if (!same_floor) {  // another facility: show all of it
    zoom_ = 1.0;
    has_center_ = false;
  }
  if (d) {  // the search box completes names
    QStringList names;
    for (const auto& n : d->rack_name) names << QString::fromStdString(n);
    for (const auto& n : d->cdu_name) names << QString::fromStdString(n);
    for (const auto& n : d->air_name) names << QString::fromStdString(n);
    for (const auto& n : d->busway_name) names << "busway " + QString::fromStdString(n);
    if (layout_.halls.size() > 1)
      for (const auto& h : layout_.halls) names << "hall " + h.name;
    auto* c = new QCompleter(names, search_);
    c->setCaseSensitivity(Qt::CaseInsensitive);
    c->setFilterMode(Qt::MatchContains);
    search_->setCompleter(c);
  }
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

void FloorPlan::setControlsVisible(bool on) {
  bar_->setVisible(on);
}

void FloorPlan::setSearchVisible(bool on) {
  search_->setVisible(on);
  fit_->setVisible(on);
  colour_by_->setVisible(on);
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

QColor FloorPlan::airRackColor(int k) const {
  return k >= 0 && k < int(air_colors_.size()) ? air_colors_[k] : QColor();
}

QPoint FloorPlan::airRackCenter(int k) const {
  return k >= 0 && k < int(layout_.air.size()) ? canvas_->worldToWidget(layout_.air[k].center())
                                               : QPoint();
}

QString FloorPlan::tooltipForAirRack(int k) const {
  if (!run_ || k < 0 || k >= run_->nair()) return "";
  const RunData& d = *run_;
  const int row = d.rowAt(t_);
  auto v = [&](Obs id, double scale, double off, int prec) {
    const double x = d.value(obsPath(id), row, k);
    return std::isnan(x) ? QString("–") : formatNumber(x * scale + off, prec);
  };
  // in its display unit (DCTWIN_UNITS, solver/output/observables.h)
  auto vs = [&](Obs id, int prec) {
    const double x = d.value(obsPath(id), row, k);
    return std::isnan(x) ? QString("–") : formatNumber(shown(id, x), prec);
  };
  const double on = d.value(obsPath(Obs::AirRackPowered), row, k);
  return QString(
             "<b>air-cooled rack %1</b> (row %2, position %3)<br>IT %4 kW, fans %5 kW at %6 %"
             "<br>airflow %7 m³/s<br>air in %8 °C, out %9 °C<br>state: %10")
      .arg(QString::fromStdString(d.air_name[k]), QString::fromStdString(d.air_row[k]))
      .arg(d.air_index[k])
      .arg(v(Obs::AirRackP, 1e-3, 0, 1), v(Obs::AirRackPFan, 1e-3, 0, 2),
           v(Obs::AirRackFanSpeed, 100, 0, 0), v(Obs::AirRackVAir, 1, 0, 2), vs(Obs::AirRackTIn, 1),
           vs(Obs::AirRackTOut, 1))
      .arg(std::isnan(on) ? QString("–")
           : on > 0.5     ? QString("running")
                          : QString("off (power feed lost)"));
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

int FloorPlan::groupOf(int r) const {
  if (!run_) return r;
  switch (agg_) {
    case Aggregate::Row:  // rows are named within their hall
      return r < int(layout_.rack_row.size()) ? layout_.rack_row[r] : r;
    case Aggregate::Hall:
      return r < int(layout_.rack_hall.size()) ? layout_.rack_hall[r] : 0;
    case Aggregate::CduLoop:
      return run_->rack_cdu[r];
    case Aggregate::Busway:
      return r < int(run_->rack_busway.size()) && run_->rack_busway[r] >= 0 ? run_->rack_busway[r]
                                                                            : -1 - r;
    case Aggregate::None:
      break;
  }
  return r;
}

void FloorPlan::recompute() {
  const int nr = run_ ? run_->nrack() : 0, nc = run_ ? run_->ncdu() : 0;
  rack_values_.assign(nr, NAN);
  rack_colors_.assign(nr, sequentialColor(NAN, 0, 1));
  cdu_colors_.assign(nc, QColor(200, 200, 200));
  const MetricInfo mi = metricInfo(metric_);
  lo_ = mi.lo;
  hi_ = mi.hi;
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
    // legend range: the metric's default, or the run's range (every row; with the partner run
    // of a compare) when auto, widened to round ticks
    if (base_) {
      double span = 0;
      for (int row = 0; row < d.rows(); ++row)
        for (int r = 0; r < nr; ++r)
          if (const double x = diffAt(r, row); !std::isnan(x)) span = std::max(span, std::abs(x));
      const auto tk = niceTicks(0, std::max(span, 0.1), 3);
      hi_ = tk.back();
      lo_ = -hi_;
    } else if (auto_range_->isChecked() && !mi.categorical) {
      double a = 1e300, b = -1e300;
      for (const RunData* x : {run_, range_with_}) {
        if (!x) continue;
        const int step = std::max(1, x->rows() / 400);  // long runs: sample the rows
        for (int row = 0; row < x->rows(); row += step) {
          for (int r = 0; r < x->nrack(); ++r) {
            const double v = rackMetric(*x, metric_, r, row);
            if (!std::isnan(v)) a = std::min(a, v), b = std::max(b, v);
          }
          for (int k = 0; k < x->nair(); ++k) {  // air-cooled racks: on the same scale
            const double v = airRackMetric(*x, metric_, k, row);
            if (!std::isnan(v)) a = std::min(a, v), b = std::max(b, v);
          }
        }
      }
      if (a <= b) {
        if (b - a < 1.0) a -= 0.5, b += 0.5;
        lo_ = a;
        hi_ = b;
      }
    }
    const int row = d.rowAt(t_);
    for (int r = 0; r < nr; ++r)
      rack_values_[r] = base_ ? diffAt(r, row) : rackMetric(d, metric_, r, row);
    if (agg_ != Aggregate::None) {  // each rack shows its group's worst rack
      std::map<int, double> worst;
      const bool low_is_bad = metric_ == Metric::ClockMean;
      for (int r = 0; r < nr; ++r) {
        const double v = rack_values_[r];
        if (std::isnan(v)) continue;
        auto [it, fresh] = worst.emplace(groupOf(r), v);
        if (!fresh) {
          const bool worse = base_ ? std::abs(v) > std::abs(it->second)
                                   : (low_is_bad ? v < it->second : v > it->second);
          if (worse) it->second = v;
        }
      }
      for (int r = 0; r < nr; ++r)
        if (auto it = worst.find(groupOf(r)); it != worst.end()) rack_values_[r] = it->second;
    }
    for (int r = 0; r < nr; ++r) {
      const double v = rack_values_[r];
      rack_colors_[r] = base_            ? divergingColor(v, hi_)
                        : mi.categorical ? leakStateColor(v)
                                         : sequentialColor(v, lo_, hi_);
      if (mi.categorical && !base_ && std::isnan(v)) rack_colors_[r] = leakStateColor(NAN);
    }
    for (int c = 0; c < nc; ++c) {
      const double v = cduMetric(d, metric_, c, row);
      if (std::isnan(v) || base_) continue;
      cdu_colors_[c] = mi.categorical ? cduStateColor(v) : sequentialColor(v, lo_, hi_);
    }
  }
  if (!mi.categorical || base_) {
    ticks_ = base_ ? niceTicks(lo_, hi_, 5) : niceTicks(lo_, hi_, 6);
    lo_ = ticks_.front();
    hi_ = ticks_.back();
    if (run_ && run_->rows() > 0)  // colours on the final (round) range
      for (int r = 0; r < nr; ++r)
        rack_colors_[r] = base_ ? divergingColor(rack_values_[r], hi_)
                                : sequentialColor(rack_values_[r], lo_, hi_);
    if (run_ && run_->rows() > 0 && !base_)
      for (int c = 0; c < nc; ++c) {
        const double v = cduMetric(*run_, metric_, c, run_->rowAt(t_));
        if (!std::isnan(v)) cdu_colors_[c] = sequentialColor(v, lo_, hi_);
      }
  } else {
    ticks_.clear();
  }
  // air-cooled racks on the racks' scale where the metric applies to them (not in compare mode)
  air_colors_.assign(run_ ? run_->nair() : 0, QColor(128, 128, 128));
  if (run_ && run_->rows() > 0 && !base_)
    for (int k = 0; k < run_->nair(); ++k) {
      const double v = airRackMetric(*run_, metric_, k, run_->rowAt(t_));
      if (!std::isnan(v))
        air_colors_[k] = mi.categorical ? leakStateColor(v) : sequentialColor(v, lo_, hi_);
    }
  canvas_->update();
  emit colorsChanged();
}

void FloorPlan::setRangeWith(const RunData* other) {
  range_with_ = other;  // read at the next recompute (setRun, setTime, ...)
}

void FloorPlan::setAggregate(Aggregate a) {
  if (agg_combo_->currentIndex() != int(a))
    agg_combo_->setCurrentIndex(int(a));
  else
    recompute();
}

std::vector<std::pair<QString, QColor>> FloorPlan::legendEntries() const {
  std::vector<std::pair<QString, QColor>> e;
  if (metric_ == Metric::LeakState && !base_) {
    for (int k = 0; k < 4; ++k) e.push_back({leakStateName(k), leakStateColor(k)});
    e.push_back({cduStateName(1), cduStateColor(1)});
    e.push_back({"unknown", leakStateColor(NAN)});
    return e;
  }
  const int dec = ticks_.size() > 1 ? tickDecimals(ticks_[1] - ticks_[0]) : 0;
  for (double v : ticks_)
    e.push_back({formatNumber(v, dec) + " " + legendUnit(),
                 base_ ? divergingColor(v, hi_) : sequentialColor(v, lo_, hi_)});
  return e;
}

double FloorPlan::pixelsPerMetre() const {
  const QRect pa = canvas_->plotArea(canvas_->rect());
  return canvas_->fitScale(pa) * zoom_;
}

void FloorPlan::zoomBy(double factor, QPointF anchor) {
  if (layout_.bounds.isEmpty()) return;
  const QRect pa = canvas_->plotArea(canvas_->rect());
  if (anchor.x() < 0) anchor = pa.center();
  const QPointF w = canvas_->widgetToWorld(anchor);
  // from all of the floor to a rack filling the view: GPU cells then get tens of pixels
  const double max_zoom = std::max(4.0, layout_.bounds.width() / kRackWidth * 2);
  zoom_ = std::clamp(zoom_ * factor, 1.0, max_zoom);
  const double s = canvas_->fitScale(pa) * zoom_;
  center_ = w - (anchor - QPointF(pa.center())) / s;  // the world point stays under the anchor
  has_center_ = zoom_ > 1.0 + 1e-9;
  canvas_->update();
}

void FloorPlan::zoomToRack(int r, double rack_px) {
  if (r < 0 || r >= int(layout_.rack.size())) return;
  const QRect pa = canvas_->plotArea(canvas_->rect());
  const double fit = canvas_->fitScale(pa);
  zoom_ = std::max(1.0, rack_px / kRackWidth / std::max(1e-9, fit));
  center_ = layout_.rack[r].center();
  has_center_ = true;
  canvas_->update();
}

void FloorPlan::resetView() {
  zoom_ = 1.0;
  has_center_ = false;
  canvas_->update();
}

bool FloorPlan::find(const QString& text) {
  if (!run_) return false;
  const RunData& d = *run_;
  QString q = text.trimmed();
  const QRegularExpression gpu_re("^gpu\\s*#?(\\d+)$", QRegularExpression::CaseInsensitiveOption);
  bool ok = false;
  if (auto m = gpu_re.match(q); m.hasMatch()) {
    const int g = m.captured(1).toInt(&ok);
    if (ok && g >= 0 && g < d.ngpu()) {
      const int r = d.gpu_rack[g];
      emit rackClicked(r, {});
      zoomToRack(r, 220);
      emit gpuFound(g);
      search_->setStyleSheet("");
      return true;
    }
  }
  for (QString s : {q, q.section(' ', -1)}) {
    for (int r = 0; r < d.nrack(); ++r)
      if (QString::fromStdString(d.rack_name[r]).compare(s, Qt::CaseInsensitive) == 0) {
        emit rackClicked(r, {});
        zoomToRack(r);
        search_->setStyleSheet("");
        return true;
      }
    for (int c = 0; c < d.ncdu(); ++c)
      if (QString::fromStdString(d.cdu_name[c]).compare(s, Qt::CaseInsensitive) == 0) {
        emit cduClicked(c);
        setSelectedCdu(c);
        center_ = layout_.cdu[c].center();
        has_center_ = true;
        zoom_ = std::max(zoom_,
                         90 / kRackWidth /
                             std::max(1e-9, canvas_->fitScale(canvas_->plotArea(canvas_->rect()))));
        canvas_->update();
        search_->setStyleSheet("");
        return true;
      }
    for (int k = 0; k < d.nair() && k < int(layout_.air.size()); ++k)  // air-cooled racks
      if (QString::fromStdString(d.air_name[k]).compare(s, Qt::CaseInsensitive) == 0) {
        center_ = layout_.air[k].center();
        has_center_ = true;
        zoom_ = std::max(zoom_,
                         90 / kRackWidth /
                             std::max(1e-9, canvas_->fitScale(canvas_->plotArea(canvas_->rect()))));
        canvas_->update();
        search_->setStyleSheet("");
        return true;
      }
    for (const auto& h : layout_.halls)  // "hall H2" or "H2": the whole hall
      if (layout_.halls.size() > 1 && h.name.compare(s, Qt::CaseInsensitive) == 0) {
        center_ = h.rect.center();
        has_center_ = true;
        const QRect pa = canvas_->plotArea(canvas_->rect());
        const double fs = canvas_->fitScale(pa);
        zoom_ = std::max(1.0, 0.9 * std::min(pa.width() / std::max(1e-9, h.rect.width() * fs),
                                             pa.height() / std::max(1e-9, h.rect.height() * fs)));
        canvas_->update();
        search_->setStyleSheet("");
        return true;
      }
    for (const auto& bw : layout_.busways)
      if (bw.name.compare(s, Qt::CaseInsensitive) == 0) {
        center_ = (bw.a + bw.b) / 2;
        has_center_ = true;
        const double len_px =
            (bw.b.x() - bw.a.x() + 1.0) * canvas_->fitScale(canvas_->plotArea(canvas_->rect()));
        zoom_ =
            std::max(1.0, 0.8 * canvas_->plotArea(canvas_->rect()).width() / std::max(1.0, len_px));
        canvas_->update();
        search_->setStyleSheet("");
        return true;
      }
  }
  search_->setStyleSheet("QLineEdit { background: #ffcdd2; }");
  return false;
}

QString FloorPlan::tooltipForRack(int r) const {
  if (!run_ || r < 0 || r >= run_->nrack()) return "";
  const RunData& d = *run_;
  const int row = d.rowAt(t_);
  auto num = [&](Metric m, int prec) {
    const double v = rackMetric(d, m, r, row);
    return formatNumber(v, prec);
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
    s +=
        QString("<br><i>Δ vs baseline: %1 %2</i>").arg(formatNumber(rackValue(r), 2), legendUnit());
  return s;
}

QString FloorPlan::tooltipForCdu(int c) const {
  if (!run_ || c < 0 || c >= run_->ncdu()) return "";
  const RunData& d = *run_;
  const int row = d.rowAt(t_);
  auto v = [&](const char* p, double scale, double off, int prec) {
    const double x = d.value(p, row, c);
    return std::isnan(x) ? QString("–") : formatNumber(x * scale + off, prec);
  };
  auto vs = [&](Obs id, int prec) {  // in its display unit (DCTWIN_UNITS)
    const double x = d.value(obsPath(id), row, c);
    return std::isnan(x) ? QString("–") : formatNumber(shown(id, x), prec);
  };
  return QString(
             "<b>CDU %1</b><br>secondary supply %2 °C, return %3 °C<br>secondary flow %4 L/min"
             "<br>pump speed %5 %, pump power %6 kW<br>facility water in %7 °C, flow %8 L/min"
             "<br>tank %9 kPa, level %10 %, coolant lost %11 L")
      .arg(QString::fromStdString(d.cdu_name[c]))
      .arg(vs(Obs::CduTSecSupply, 1), vs(Obs::CduTSecReturn, 1), vs(Obs::CduVFlowSec, 0),
           v(obsPath(Obs::CduPumpSpeed), 100, 0, 0), vs(Obs::CduPPump, 1),
           vs(Obs::CduTPrimSupply, 1), vs(Obs::CduVFlowPrim, 0), vs(Obs::CduPTank, 0),
           v(obsPath(Obs::CduTankLevel), 100, 0, 0))
      .arg(vs(Obs::CduCoolantLost, 1));
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
