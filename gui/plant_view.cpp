// plant_view.cpp: the Plant tab, the plant and its weather from the output table (see
// plant_view.h)
#include "gui/plant_view.h"

#include <QHeaderView>
#include <QLabel>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollArea>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <map>

namespace dctwin::gui {

QString plantModeName(double mode) {
  if (std::isnan(mode)) return "–";
  const int m = int(std::lround(mode));
  return m == 0 ? "free cooling" : m == 1 ? "partial mechanical" : "full mechanical";
}

namespace {

// the display unit of an SI unit for values up to `peak` (abs): people read degC, kW or MW, MWh
struct Display {
  QString unit;
  double scale = 1, offset = 0;
};
Display displayOf(Unit q, const std::string& si, double peak) {
  if (q == Unit::K || q == Unit::dK) {  // degC, or K for a difference (DCTWIN_UNITS)
    const UnitInfo& u = unitInfo(q);
    return {QString::fromUtf8(u.display), u.scale, u.offset};
  }
  if (si == "W") return peak >= 10e6 ? Display{"MW", 1e-6} : Display{"kW", 1e-3};
  if (si == "J") return peak >= 3.6e9 ? Display{"MWh", 1 / 3.6e9} : Display{"kWh", 1 / 3.6e6};
  if (si == "s") return peak >= 7200 ? Display{"h", 1 / 3600.0} : Display{"min", 1 / 60.0};
  if (si == "kg") return peak >= 1e4 ? Display{"t", 1e-3} : Display{"kg", 1};
  if (si == "1") return {"", 1};
  return {QString::fromStdString(si), 1};
}

// "/plant/T_supply" -> {"plant", "T_supply"}
std::pair<std::string, std::string> splitPath(const std::string& p) {
  const auto k = p.find('/', 1);
  return k == std::string::npos ? std::pair{p.substr(1), p.substr(1)}
                                : std::pair{p.substr(1, k - 1), p.substr(k + 1)};
}

// a few kinds of quantity within a group by their unit, so a panel holds like with like
QString kindOf(const std::string& si, Basis b, const std::string& group) {
  if (si == "K") return group == "weather" ? "outdoor air" : "temperatures";
  if (si == "W") return "power and heat";
  if (si == "J") return "energy";
  if (si == "s") return "time in mode";
  if (si == "kg/s") return "water rate";
  if (si == "kg") return "cumulative";
  if (si == "L/kWh") return "WUE";
  if (si == "1" && b == Basis::RunMean) return "PUE since t = 0";
  if (si == "1" && b == Basis::Cumulative) return "cost";
  if (si == "1") return "mode, chillers, fan speed";
  return QString::fromStdString(si);
}

}  // namespace

// every panel on a grid, one line per series, the time cursor, round ticks
class PlantPlot : public QWidget {
 public:
  explicit PlantPlot(PlantView* v, QWidget* parent) : QWidget(parent), v_(v) {
    setObjectName("plantPlot");
    setMinimumSize(300, 200);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
  }
  std::vector<PlantView::DrawnLabel> drawn;

 protected:
  void mousePressEvent(QMouseEvent* e) override {
    for (const auto& [pa, t0, t1] : areas_)
      if (pa.contains(e->pos()) && pa.width() > 0)
        emit v_->timeClicked(t0 + (e->position().x() - pa.x()) / pa.width() * (t1 - t0));
  }
  void paintEvent(QPaintEvent*) override {
    drawn.clear();
    areas_.clear();
    QPainter g(this);
    g.setRenderHint(QPainter::Antialiasing, true);
    g.fillRect(rect(), Qt::white);
    const QFontMetrics fm(font());
    auto text = [&](const QRect& box, int flags, const QString& s) {
      const QString el = fm.elidedText(s, Qt::ElideRight, std::max(0, box.width()));
      if (el.isEmpty()) return;
      g.drawText(box, flags, el);
      drawn.push_back({el, fm.boundingRect(box, flags, el)});
    };
    const RunData* d = v_->run_;
    const auto& panels = v_->panels_;
    if (!d || panels.empty() || d->time.empty()) {
      g.setPen(Qt::darkGray);
      g.drawText(rect(), Qt::AlignCenter | Qt::TextWordWrap,
                 !d || d->empty() ? "Open a facility (File > Open, Ctrl+O)"
                 : panels.empty() ? "This facility has no plant: section (docs/models/plant.md)"
                                  : "Run it to see the plant and its weather");
      return;
    }
    const int n = int(panels.size());
    const int cols = width() >= 960 ? 4 : width() >= 700 ? 3 : 2;
    const int rows = (n + cols - 1) / cols;
    const double cw = double(width()) / cols, ch = double(height()) / std::max(1, rows);
    const double t0 = d->time.front(), t1 = std::max(d->time.back(), t0 + 1e-9);
    const bool hours = t1 - t0 > 7200;
    const auto xt = niceTicks(t0 / (hours ? 3600 : 60), t1 / (hours ? 3600 : 60), 4);
    const auto dates = dateTicks(*d, t0, t1, 5);
    static const QColor kLine[] = {{31, 119, 180},  {214, 39, 40}, {44, 160, 44},  {255, 127, 14},
                                   {148, 103, 189}, {140, 86, 75}, {227, 119, 194}};
    for (int p = 0; p < n; ++p) {
      const auto& P = panels[p];
      const QRect cell(int((p % cols) * cw), int((p / cols) * ch), int(cw), int(ch));
      g.setPen(Qt::black);
      QFont bf = font();
      bf.setBold(true);
      g.setFont(bf);
      const QFontMetrics bm(bf);
      const int title_w = std::min(cell.width() - 12, bm.horizontalAdvance(P.title) + 4);
      {
        const QRect tb(cell.x() + 6, cell.y() + 2, title_w, bm.height());
        const QString el = bm.elidedText(P.title, Qt::ElideRight, tb.width());
        g.drawText(tb, Qt::AlignLeft | Qt::AlignVCenter, el);
        drawn.push_back({el, bm.boundingRect(tb, Qt::AlignLeft | Qt::AlignVCenter, el)});
      }
      g.setFont(font());
      // legend: the series names in their colours, after the title where they fit, then on as
      // many lines under it as they need (every series named)
      int lx = cell.x() + 6 + title_w + 12;
      int ly = cell.y() + 2;
      for (std::size_t k = 0; k < P.paths.size(); ++k) {
        const int w = fm.horizontalAdvance(P.names[k]) + 16;
        if (lx + w > cell.right() - 4) lx = cell.x() + 6, ly += fm.height() + 1;
        g.fillRect(QRect(lx, ly + fm.height() / 2 - 1, 10, 3), kLine[k % std::size(kLine)]);
        g.setPen(QColor(40, 40, 40));
        text(QRect(lx + 12, ly, w - 12, fm.height()), Qt::AlignLeft | Qt::AlignVCenter, P.names[k]);
        lx += w + 4;
      }
      // the top tick's label reaches half a line above the plot: keep it off the legend
      const int top = ly + fm.height() + 4 + fm.height() / 2;
      const QRect pa(cell.x() + 50, top, cell.width() - 62, cell.bottom() - top - fm.height() - 8);
      if (pa.width() < 30 || pa.height() < 20) continue;
      areas_.push_back({pa, t0, t1});
      double lo = 1e300, hi = -1e300;
      for (const auto& path : P.paths)
        for (int r = 0; r < d->rows(); ++r) {
          const double v = d->value(path, r) * P.scale + P.offset;
          if (std::isfinite(v)) lo = std::min(lo, v), hi = std::max(hi, v);
        }
      if (lo > hi) lo = 0, hi = 1;
      if (hi - lo < 1e-9 * std::max(1.0, std::abs(hi))) lo -= 0.5, hi += 0.5;
      const auto yt = niceTicks(lo, hi, std::clamp(pa.height() / 30, 2, 5));
      auto X = [&](double t) { return pa.x() + (t - t0) / (t1 - t0) * pa.width(); };
      auto Y = [&](double v) {
        return pa.bottom() - (v - yt.front()) / (yt.back() - yt.front()) * pa.height();
      };
      g.setPen(QColor(232, 232, 232));
      for (double v : yt) g.drawLine(QPointF(pa.x(), Y(v)), QPointF(pa.right(), Y(v)));
      for (std::size_t k = 0; k < P.paths.size(); ++k) {
        QPolygonF line;
        for (int r = 0; r < d->rows(); ++r) {
          const double v = d->value(P.paths[k], r) * P.scale + P.offset;
          if (std::isfinite(v)) line << QPointF(X(d->time[r]), Y(v));
        }
        g.setPen(QPen(kLine[k % std::size(kLine)], 1.6));
        g.drawPolyline(line);
      }
      g.setPen(QPen(QColor(120, 120, 120), 1, Qt::DashLine));
      g.drawLine(QPointF(X(v_->t_), pa.top()), QPointF(X(v_->t_), pa.bottom()));
      g.setPen(Qt::black);
      g.setBrush(Qt::NoBrush);
      g.drawRect(pa);
      const int dec = tickDecimals(yt.size() > 1 ? yt[1] - yt[0] : 1);
      for (double v : yt)
        text(QRect(cell.x() + 2, int(Y(v)) - fm.height() / 2, 46, fm.height()),
             Qt::AlignRight | Qt::AlignVCenter, formatNumber(v, dec));
      const int xdec = tickDecimals(xt.size() > 1 ? xt[1] - xt[0] : 1);
      int last_right = -1000;
      if (!dates.empty()) {  // a long run with a calendar: its dates (month starts or days)
        for (const auto& [tt, s] : dates) {
          const int w = fm.horizontalAdvance(s) + 4;
          const int left = std::clamp(int(X(tt) - w / 2.0), pa.x(), cell.right() - w);
          if (left < last_right + 4) continue;
          text(QRect(left, pa.bottom() + 2, w, fm.height()), Qt::AlignCenter, s);
          last_right = left + w;
        }
        continue;
      }
      std::size_t last_in = 0;  // the last tick inside the run gets the unit
      for (std::size_t i = 0; i < xt.size(); ++i)
        if (xt[i] * (hours ? 3600 : 60) <= t1 + 1e-9) last_in = i;
      for (std::size_t i = 0; i < xt.size(); ++i) {
        const double tt = xt[i] * (hours ? 3600 : 60);
        if (tt < t0 - 1e-9 || tt > t1 + 1e-9) continue;
        const QString s = formatNumber(xt[i], xdec) + (i == last_in ? (hours ? " h" : " min") : "");
        const int w = fm.horizontalAdvance(s) + 4;
        const int left =
            std::clamp(int(X(tt) - w / 2.0), pa.x(), cell.right() - w);  // off the y labels
        if (left < last_right + 4) continue;
        text(QRect(left, pa.bottom() + 2, w, fm.height()), Qt::AlignCenter, s);
        last_right = left + w;
      }
    }
  }

 private:
  PlantView* v_;
  std::vector<std::tuple<QRect, double, double>> areas_;
};

PlantView::PlantView(QWidget* parent) : QWidget(parent) {
  auto* v = new QVBoxLayout(this);
  v->setContentsMargins(2, 2, 2, 2);
  note_ = new QLabel(this);
  note_->setObjectName("plantNote");
  note_->setWordWrap(true);
  note_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
  v->addWidget(note_);
  auto* split = new QSplitter(Qt::Vertical, this);
  // the panels keep a readable height: a short window scrolls them
  auto* scroll = new QScrollArea(split);
  scroll->setObjectName("plantScroll");
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  plot_ = new PlantPlot(this, scroll);
  scroll->setWidget(plot_);
  table_ = new QTableWidget(0, 4, split);
  table_->setObjectName("plantTable");
  table_->setHorizontalHeaderLabels({"series", "value", "unit", "what it is"});
  table_->verticalHeader()->setVisible(false);
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  table_->horizontalHeader()->setStretchLastSection(true);
  table_->setWordWrap(false);
  split->addWidget(scroll);
  split->addWidget(table_);
  split->setStretchFactor(0, 4);
  split->setStretchFactor(1, 1);
  split->setSizes({640, 160});
  v->addWidget(split, 1);
}

QWidget* PlantView::plot() const {
  return plot_;
}

const std::vector<PlantView::DrawnLabel>& PlantView::drawnLabels() const {
  return plot_->drawn;
}

std::vector<std::string> PlantView::paths() const {
  std::vector<std::string> v;
  for (const auto& p : panels_) v.insert(v.end(), p.paths.begin(), p.paths.end());
  return v;
}

double PlantView::displayValue(const std::string& path) const {
  if (!run_) return NAN;
  for (const auto& p : panels_)
    for (const auto& q : p.paths)
      if (q == path) return run_->value(path, run_->rowAt(t_)) * p.scale + p.offset;
  return NAN;
}

void PlantView::setRun(const RunData* d) {
  run_ = d;
  rebuild();
}

void PlantView::dataChanged() {
  rebuild();
}

void PlantView::setTime(double t) {
  t_ = t;
  if (!isVisible()) return;
  rebuild();  // the series may have arrived while another tab was shown
}

void PlantView::rebuild() {
  panels_.clear();
  const RunData* d = run_;
  if (d) {
    // panels in the output table's order of their first series
    std::map<QString, int> index;
    std::vector<double> peaks;     // per panel
    std::vector<Unit> quantities;  // per panel: what its series measure
    for (const ObservableInfo& o : observableTable()) {
      if (o.needs != Needs::Plant || o.shape != Shape::Facility || o.rate != Rate::Output) continue;
      const RunData::Series* s = d->find(o.path);
      if (!s || s->width < 1) continue;
      const auto [group, name] = splitPath(o.path);
      const QString kind = kindOf(o.unit, o.basis, group);
      // (an absolute temperature and a difference, both K, in panels of their own)
      const QString key =
          QString::fromStdString(group) + "|" + kind + "|" + unitInfo(o.quantity).what;
      double peak = 0;
      for (double x : s->data)
        if (std::isfinite(x)) peak = std::max(peak, std::abs(x));
      auto [it, fresh] = index.try_emplace(key, int(panels_.size()));
      if (fresh) {
        Panel p;
        p.title = QString::fromStdString(group) + ": " + kind;
        p.unit = QString::fromStdString(o.unit);  // SI until the display unit is chosen below
        panels_.push_back(p);
        peaks.push_back(0);
        quantities.push_back(o.quantity);
      }
      Panel& p = panels_[it->second];
      p.paths.push_back(o.path);
      p.names.push_back(QString::fromStdString(name));
      peaks[it->second] = std::max(peaks[it->second], peak);
    }
    // one display unit per panel, for its largest value (70 MW rejected beside 4 kW of pumps: MW)
    for (std::size_t k = 0; k < panels_.size(); ++k) {
      Panel& p = panels_[k];
      const Display disp = displayOf(quantities[k], p.unit.toStdString(), peaks[k]);
      p.unit = disp.unit;
      p.scale = disp.scale;
      p.offset = disp.offset;
      if (!p.unit.isEmpty()) p.title += " (" + p.unit + ")";
    }
  }
  // 4 panels a row at 1280 px, each at least 160 px high (the scroll area scrolls the rest)
  plot_->setMinimumHeight(panels_.empty() ? 200 : int((panels_.size() + 3) / 4) * 160);
  fillTable();
  plot_->update();
}

void PlantView::fillTable() {
  const RunData* d = run_;
  const auto all = paths();
  table_->setRowCount(int(all.size()));
  int k = 0;
  for (const auto& p : panels_)
    for (const auto& path : p.paths) {
      const ObservableInfo* o = findObservable(path);
      const double v = displayValue(path);
      const QString val = path == obsPath(Obs::PlantMode)
                              ? QString("%1 (%2)").arg(formatNumber(v, 0), plantModeName(v))
                              : formatNumber(v, std::abs(v) >= 100 ? 0
                                                : std::abs(v) >= 1 ? 2
                                                                   : 3);
      QString unit = p.unit;
      if (path == obsPath(Obs::PlantCost))
        unit = d && !d->currency.empty() ? QString::fromStdString(d->currency) : "currency";
      table_->setItem(k, 0, new QTableWidgetItem(QString::fromStdString(path)));
      table_->setItem(k, 1, new QTableWidgetItem(val));
      table_->setItem(k, 2, new QTableWidgetItem(unit));
      auto* desc = new QTableWidgetItem(o ? QString::fromUtf8(o->description) : QString());
      desc->setToolTip(desc->text());
      table_->setItem(k, 3, desc);
      ++k;
    }
  if (!d || d->empty())
    note_->setText("");
  else if (panels_.empty())
    note_->setText(
        "This facility has no plant: section, so there is no plant or weather to show "
        "(docs/models/plant.md).");
  else {
    QString s = QString("t = %1").arg(formatMoment(run_, t_));
    auto add = [&](Obs id, const QString& label, int dec) {
      const double v = displayValue(obsPath(id));
      if (!std::isnan(v)) s += QString("   %1 %2").arg(label, formatNumber(v, dec));
    };
    if (const double m = displayValue(obsPath(Obs::PlantMode)); !std::isnan(m))
      s += "   mode: " + plantModeName(m);
    add(Obs::WeatherTDryBulb, "dry bulb °C", 1);
    add(Obs::WeatherTWetBulb, "wet bulb °C", 1);
    add(Obs::PlantPUE, "PUE", 3);
    add(Obs::PlantWUE, "WUE L/kWh", 3);
    note_->setText(s);
  }
}

}  // namespace dctwin::gui
