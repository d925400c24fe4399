// distributions.cpp: histograms, per-row spread and the hottest GPUs and racks with their cause
// (see distributions.h)
#include "gui/distributions.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPainter>
#include <QSpinBox>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>

#include "gui/floor_layout.h"

namespace dctwin::gui {

namespace {

double median(std::vector<double> v) {
  v.erase(std::remove_if(v.begin(), v.end(), [](double x) { return std::isnan(x); }), v.end());
  if (v.empty()) return NAN;
  const std::size_t k = v.size() / 2;
  std::nth_element(v.begin(), v.begin() + long(k), v.end());
  return v[k];
}

double percentile(std::vector<double> v, double p) {
  v.erase(std::remove_if(v.begin(), v.end(), [](double x) { return std::isnan(x); }), v.end());
  if (v.empty()) return NAN;
  std::sort(v.begin(), v.end());
  const double x = p / 100.0 * double(v.size() - 1);
  const std::size_t i = std::size_t(x);
  return i + 1 < v.size() ? v[i] + (x - double(i)) * (v[i + 1] - v[i]) : v[i];
}

std::vector<double> column(const RunData& d, const std::string& path, int row, int n) {
  std::vector<double> v(n, NAN);
  const RunData::Series* s = d.find(path);
  if (!s || s->width < n) return v;
  const std::size_t base = std::size_t(row) * s->width;
  for (int k = 0; k < n && base + k < s->data.size(); ++k) v[k] = s->data[base + k];
  return v;
}

}  // namespace

QString hotCause(const RunData& d, int gpu, int rack, int row) {
  const int nr = d.nrack(), ng = d.ngpu();
  if (gpu < 0 && (rack < 0 || rack >= nr)) return "";
  const std::string& tjp = obsPath(Obs::GpuTJunction);
  if (gpu < 0 && d.find(tjp)) {  // the rack's hottest GPU
    double best = -1e300;
    for (int q = 0; q < d.rack_gpunum[rack]; ++q) {
      const int i = d.rack_gpuadr[rack] + q;
      const double v = d.value(tjp, row, i);
      if (!std::isnan(v) && v > best) best = v, gpu = i;
    }
  }
  if (gpu >= 0 && gpu < ng) rack = d.gpu_rack[gpu];
  // a rack's state comes first: an isolated or leaking rack is hot for that reason
  const double iso = d.value(obsPath(Obs::RackIsolation), row, rack);
  if (!std::isnan(iso) && iso > 0.5) return "rack isolated (leak response)";
  const double leak = d.value(obsPath(Obs::RackLeakFlow), row, rack);
  const QString leaking = !std::isnan(leak) && leak > 1e-9 ? "rack leaking; " : "";
  // how far the GPU stands out from the median, by the library's four causes (0 inlet, 1 flow or
  // plate, 2 silicon, 3 TIM or seating): the size in words where the output table has it
  QString detail[4];
  double weight[4] = {0, 0, 0, 0};
  const auto tin = column(d, obsPath(Obs::RackTSupply), row, nr);
  if (const double dt = tin[rack] - median(tin); dt > 0.5)
    detail[0] = QString("+%1 K vs median rack").arg(dt, 0, 'f', 1), weight[0] = dt / 2;
  const auto flow = column(d, obsPath(Obs::RackVFlow), row, nr);
  if (const double m = median(flow); m > 0 && flow[rack] / m < 0.9)
    detail[1] = QString("rack flow %1 % of median").arg(100 * flow[rack] / m, 0, 'f', 0),
    weight[1] = (1 - flow[rack] / m) * 10;
  QString throttle;
  if (gpu >= 0 && d.find(obsPath(Obs::GpuP))) {
    const auto P = column(d, obsPath(Obs::GpuP), row, ng);
    if (const double m = median(P); m > 0 && P[gpu] / m > 1.03)
      detail[2] = QString("power %1 % above median").arg(100 * (P[gpu] / m - 1), 0, 'f', 0),
      weight[2] = (P[gpu] / m - 1) * 10;
    if (d.find(tjp)) {  // junction rise over the inlet per watt: TIM, seating, plate, flow share
      const auto tj = column(d, tjp, row, ng);
      std::vector<double> rth(ng, NAN);
      for (int i = 0; i < ng; ++i)
        if (P[i] > 1) rth[i] = (tj[i] - tin[d.gpu_rack[i]]) / P[i];
      if (const double m = median(rth); m > 0 && rth[gpu] / m > 1.05)
        detail[3] = QString("thermal resistance %1 % above median")
                        .arg(100 * (rth[gpu] / m - 1), 0, 'f', 0),
        weight[3] = (rth[gpu] / m - 1) * 10;
    }
    const double bits = d.value(obsPath(Obs::GpuThrottleReasons), row, gpu);
    if (!std::isnan(bits) && (unsigned(bits) & 0x60u)) throttle = "; thermal throttling";
    if (!std::isnan(bits) && (unsigned(bits) & 0x80u)) throttle += "; power brake";
  }
  static const char* const kCause[] = {"hot coolant inlet", "low flow or a poor cold plate",
                                       "silicon: high power (leakage, V-f curve)",
                                       "TIM or seating (high R_jc)"};
  // the library's cause (/gpu/hot_cause: the largest of the four terms raising the junction,
  // docs/models/gpu_variation.md) wherever the run has it; the estimate only for older files
  const double c = gpu >= 0 ? d.value(obsPath(Obs::GpuHotCause), row, gpu) : NAN;
  if (!std::isnan(c) && c >= 0 && c < 4) {
    const int k = int(c);
    return leaking + kCause[k] + (detail[k].isEmpty() ? QString() : " (" + detail[k] + ")") +
           throttle;
  }
  const int k = int(std::max_element(weight, weight + 4) - weight);
  if (weight[k] <= 0) return leaking + "none stands out (within the fleet's spread)" + throttle;
  return leaking + kCause[k] + " (" + detail[k] + "; estimated from the output table)" + throttle;
}

Histogram makeHistogram(std::vector<double> v, int max_bins) {
  Histogram h;
  v.erase(std::remove_if(v.begin(), v.end(), [](double x) { return std::isnan(x); }), v.end());
  h.n = int(v.size());
  if (v.empty()) return h;
  const auto [a, b] = std::minmax_element(v.begin(), v.end());
  const int want = std::clamp(int(std::sqrt(double(v.size()))), 5, max_bins);
  std::vector<double> t = niceTicks(*a, *b, want + 1);
  h.edges = t;
  h.counts.assign(t.size() - 1, 0);
  const double lo = t.front(), step = t[1] - t[0];
  for (double x : v) ++h.counts[std::clamp(int((x - lo) / step), 0, int(h.counts.size()) - 1)];
  h.p99 = percentile(v, 99);
  return h;
}

// one histogram, painted: bars on round bins, round ticks, the p99 marked
class HistogramPlot : public QWidget {
 public:
  HistogramPlot(const QString& title, const QString& unit, QWidget* parent)
      : QWidget(parent), title_(title), unit_(unit) {
    setMinimumSize(200, 150);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
  }
  void set(const Histogram& h) {
    h_ = h;
    update();
  }

 protected:
  void paintEvent(QPaintEvent*) override {
    QPainter g(this);
    g.fillRect(rect(), Qt::white);
    const QFontMetrics fm(font());
    g.setPen(Qt::black);
    g.drawText(
        QRect(4, 2, width() - 8, fm.height()), Qt::AlignLeft,
        fm.elidedText(QString("%1 (%2 GPUs)").arg(title_).arg(h_.n), Qt::ElideRight, width() - 8));
    const QRect pa(44, fm.height() + 8, width() - 56, height() - 2 * fm.height() - 22);
    if (h_.counts.empty() || pa.width() < 20 || pa.height() < 20) {
      g.setPen(Qt::darkGray);
      g.drawText(pa, Qt::AlignCenter | Qt::TextWordWrap, "no per-GPU values at this time");
      return;
    }
    const int cmax = *std::max_element(h_.counts.begin(), h_.counts.end());
    const auto yt = niceTicks(0, std::max(1, cmax), 4);
    const double lo = h_.edges.front(), hi = h_.edges.back();
    auto X = [&](double v) { return pa.x() + (v - lo) / (hi - lo) * pa.width(); };
    auto Y = [&](double c) { return pa.bottom() - c / yt.back() * pa.height(); };
    g.setPen(QColor(230, 230, 230));
    for (double c : yt) g.drawLine(QPointF(pa.x(), Y(c)), QPointF(pa.right(), Y(c)));
    for (std::size_t k = 0; k < h_.counts.size(); ++k) {
      const double mid = 0.5 * (h_.edges[k] + h_.edges[k + 1]);
      g.setBrush(sequentialColor(mid, lo, hi));
      g.setPen(QPen(QColor(60, 60, 60), 0.5));
      g.drawRect(
          QRectF(QPointF(X(h_.edges[k]), Y(h_.counts[k])), QPointF(X(h_.edges[k + 1]), Y(0))));
    }
    g.setPen(QPen(QColor(198, 40, 40), 1.5, Qt::DashLine));
    g.drawLine(QPointF(X(h_.p99), pa.top()), QPointF(X(h_.p99), pa.bottom()));
    g.setPen(Qt::black);
    g.setBrush(Qt::NoBrush);
    g.drawRect(pa);
    const int ydec = tickDecimals(yt[1] - yt[0]);
    for (double c : yt)
      g.drawText(QRectF(0, Y(c) - 8, pa.x() - 4, 16), Qt::AlignRight | Qt::AlignVCenter,
                 formatNumber(c, ydec));
    // x ticks: every k-th edge so that the labels do not touch
    const int dec = tickDecimals(h_.edges[1] - h_.edges[0]);
    const int label_w = fm.horizontalAdvance(formatNumber(hi, dec)) + 10;
    const int every =
        std::max(1, int(std::ceil(label_w / std::max(1.0, pa.width() / double(h_.counts.size())))));
    for (std::size_t k = 0; k < h_.edges.size(); k += every)
      g.drawText(QRectF(X(h_.edges[k]) - 30, pa.bottom() + 2, 60, fm.height()), Qt::AlignHCenter,
                 formatNumber(h_.edges[k], dec));
    g.drawText(QRect(pa.x(), height() - fm.height() - 2, pa.width(), fm.height()), Qt::AlignRight,
               fm.elidedText(QString("%1   p99 %2 %1").arg(unit_, formatNumber(h_.p99, 1)),
                             Qt::ElideLeft, pa.width()));
  }

 private:
  QString title_, unit_;
  Histogram h_;
};

// the racks' hottest junction row by row: the min-max band, the mean, the p99
class RowSpreadPlot : public QWidget {
 public:
  explicit RowSpreadPlot(QWidget* parent) : QWidget(parent) {
    setMinimumSize(240, 150);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
  }
  void set(const std::vector<DistributionView::RowSpread>& s) {
    s_ = s;
    update();
  }

 protected:
  void paintEvent(QPaintEvent*) override {
    QPainter g(this);
    g.fillRect(rect(), Qt::white);
    const QFontMetrics fm(font());
    g.setPen(Qt::black);
    g.drawText(QRect(4, 2, width() - 8, fm.height()), Qt::AlignLeft,
               fm.elidedText("Hottest GPU junction of the racks, by row (°C): min–max, mean, p99",
                             Qt::ElideRight, width() - 8));
    const QRect pa(44, fm.height() + 8, width() - 56, height() - 2 * fm.height() - 16);
    if (s_.empty() || pa.width() < 20 || pa.height() < 20) return;
    double lo = 1e300, hi = -1e300;
    for (const auto& r : s_)
      if (!std::isnan(r.min)) lo = std::min(lo, r.min), hi = std::max(hi, r.max);
    if (lo > hi) return;
    const auto yt = niceTicks(lo, hi, 5);
    const double n = double(s_.size());
    auto X = [&](double k) { return pa.x() + (k + 0.5) / n * pa.width(); };
    auto Y = [&](double v) {
      return pa.bottom() - (v - yt.front()) / (yt.back() - yt.front()) * pa.height();
    };
    g.setPen(QColor(230, 230, 230));
    for (double v : yt) g.drawLine(QPointF(pa.x(), Y(v)), QPointF(pa.right(), Y(v)));
    const double bw = std::max(2.0, 0.6 * pa.width() / n);
    for (std::size_t k = 0; k < s_.size(); ++k) {
      const auto& r = s_[k];
      if (std::isnan(r.min)) continue;
      g.setPen(Qt::NoPen);
      g.setBrush(QColor(255, 183, 77, 160));
      g.drawRect(QRectF(QPointF(X(k) - bw / 2, Y(r.max)), QPointF(X(k) + bw / 2, Y(r.min))));
      g.setPen(QPen(QColor(21, 101, 192), 2));
      g.drawLine(QPointF(X(k) - bw / 2, Y(r.mean)), QPointF(X(k) + bw / 2, Y(r.mean)));
      g.setPen(QPen(QColor(198, 40, 40), 2));
      g.drawLine(QPointF(X(k) - bw / 2, Y(r.p99)), QPointF(X(k) + bw / 2, Y(r.p99)));
    }
    g.setPen(Qt::black);
    g.setBrush(Qt::NoBrush);
    g.drawRect(pa);
    const int dec = tickDecimals(yt[1] - yt[0]);
    for (double v : yt)
      g.drawText(QRectF(0, Y(v) - 8, pa.x() - 4, 16), Qt::AlignRight | Qt::AlignVCenter,
                 formatNumber(v, dec));
    const int every =
        std::max(1, int(std::ceil(fm.horizontalAdvance("WW") * 1.6 / (pa.width() / n))));
    for (std::size_t k = 0; k < s_.size(); k += every)
      g.drawText(QRectF(X(k) - 20, pa.bottom() + 2, 40, fm.height()), Qt::AlignHCenter, s_[k].row);
  }

 private:
  std::vector<DistributionView::RowSpread> s_;
};

DistributionView::DistributionView(QWidget* parent) : QWidget(parent) {
  auto* v = new QVBoxLayout(this);
  v->setContentsMargins(2, 2, 2, 2);
  auto* bar = new QHBoxLayout;
  note_ = new QLabel(this);
  note_->setObjectName("distributionNote");
  note_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
  bar->addWidget(note_, 1);
  bar->addWidget(new QLabel("Hottest:", this));
  auto* top = new QSpinBox(this);
  top->setObjectName("topN");
  top->setRange(3, 100);
  top->setValue(top_n_);
  bar->addWidget(top);
  v->addLayout(bar);
  auto* split = new QSplitter(Qt::Vertical, this);
  auto* plots = new QWidget(split);
  auto* ph = new QHBoxLayout(plots);
  ph->setContentsMargins(0, 0, 0, 0);
  plots_[0] = new HistogramPlot("GPU junction", "°C", plots);
  plots_[1] = new HistogramPlot("HBM", "°C", plots);
  plots_[2] = new HistogramPlot("SM clock", "%", plots);
  for (auto* p : plots_) ph->addWidget(p);
  spread_plot_ = new RowSpreadPlot(split);
  auto* tables = new QWidget(split);
  auto* th = new QHBoxLayout(tables);
  th->setContentsMargins(0, 0, 0, 0);
  auto table = [&](const QString& name, const QStringList& head) {
    auto* t = new QTableWidget(0, int(head.size()), tables);
    t->setObjectName(name);
    t->setHorizontalHeaderLabels(head);
    t->verticalHeader()->setVisible(false);
    t->setEditTriggers(QAbstractItemView::NoEditTriggers);
    t->setSelectionBehavior(QAbstractItemView::SelectRows);
    t->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    t->horizontalHeader()->setStretchLastSection(true);
    t->setWordWrap(false);
    th->addWidget(t, 1);
    return t;
  };
  gpu_table_ = table("topGpuTable", {"GPU", "rack", "tray", "slot", "junction °C", "likely cause"});
  rack_table_ = table("topRackTable", {"rack", "row", "max junction °C", "likely cause"});
  split->addWidget(plots);
  split->addWidget(spread_plot_);
  split->addWidget(tables);
  split->setStretchFactor(0, 3);
  split->setStretchFactor(1, 2);
  split->setStretchFactor(2, 3);
  v->addWidget(split, 1);
  connect(top, &QSpinBox::valueChanged, this, &DistributionView::setTopN);
  connect(gpu_table_, &QTableWidget::cellClicked, this, [this](int row, int) {
    if (row >= 0 && row < int(top_gpu_.size())) emit gpuActivated(top_gpu_[row]);
  });
  connect(rack_table_, &QTableWidget::cellClicked, this, [this](int row, int) {
    if (row >= 0 && row < int(top_rack_.size())) emit rackActivated(top_rack_[row]);
  });
}

void DistributionView::setRun(const RunData* d) {
  run_ = d;
  recompute();
}

void DistributionView::dataChanged() {
  recompute();
}

void DistributionView::setTime(double t) {
  t_ = t;
  if (isVisible()) recompute();  // hidden: on show (a hall's 55,296 GPUs at every tick is waste)
}

void DistributionView::setTopN(int n) {
  top_n_ = n;
  recompute();
}

int DistributionView::topGpuCount() const {
  return int(top_gpu_.size());
}
int DistributionView::topGpu(int k) const {
  return k >= 0 && k < int(top_gpu_.size()) ? top_gpu_[k] : -1;
}
QString DistributionView::topGpuCause(int k) const {
  return k >= 0 && k < gpu_table_->rowCount() ? gpu_table_->item(k, 5)->text() : QString();
}
int DistributionView::topRack(int k) const {
  return k >= 0 && k < int(top_rack_.size()) ? top_rack_[k] : -1;
}

void DistributionView::recompute() {
  for (auto& h : hist_) h = Histogram{};
  spread_.clear();
  top_gpu_.clear();
  top_rack_.clear();
  gpu_table_->setRowCount(0);
  rack_table_->setRowCount(0);
  if (!run_ || run_->rows() == 0) {
    note_->setText(run_ ? "Run the facility to see its distributions." : "Open a facility.");
    for (int k = 0; k < 3; ++k) plots_[k]->set(hist_[k]);
    spread_plot_->set(spread_);
    return;
  }
  const RunData& d = *run_;
  const int row = d.rowAt(t_), ng = d.ngpu(), nr = d.nrack();
  const Obs obs[3] = {Obs::GpuTJunction, Obs::GpuTHbm, Obs::GpuClockRatio};
  for (int k = 0; k < 3; ++k) {
    auto v = column(d, obsPath(obs[k]), row, ng);
    for (double& x : v) x = k < 2 ? toDisplay(Unit::K, x) : 100 * x;
    hist_[k] = makeHistogram(std::move(v));
    plots_[k]->set(hist_[k]);
  }
  // per-row spread of the racks' hottest junction, rows in floor order
  const FloorLayout L = computeFloorLayout(d);
  std::map<QString, std::vector<double>> by_row;
  std::vector<double> rack_tj(nr);
  for (int r = 0; r < nr; ++r) {
    rack_tj[r] = rackMetric(d, Metric::JunctionMax, r, row);
    by_row[QString::fromStdString(d.rack_row[r])].push_back(rack_tj[r]);
  }
  for (const QString& rn : L.row_label) {
    const auto& v = by_row[rn];
    RowSpread s{rn, NAN, NAN, NAN, NAN};
    std::vector<double> ok;
    for (double x : v)
      if (!std::isnan(x)) ok.push_back(x);
    if (!ok.empty()) {
      s.min = *std::min_element(ok.begin(), ok.end());
      s.max = *std::max_element(ok.begin(), ok.end());
      s.mean = std::accumulate(ok.begin(), ok.end(), 0.0) / double(ok.size());
      s.p99 = percentile(ok, 99);
    }
    spread_.push_back(s);
  }
  spread_plot_->set(spread_);
  // the hottest GPUs and racks
  const auto tj = column(d, obsPath(Obs::GpuTJunction), row, ng);
  std::vector<int> order(ng);
  std::iota(order.begin(), order.end(), 0);
  auto hotter = [](const std::vector<double>& v) {
    return [&v](int a, int b) {
      const double x = std::isnan(v[a]) ? -1e300 : v[a], y = std::isnan(v[b]) ? -1e300 : v[b];
      return x != y ? x > y : a < b;
    };
  };
  const int ngt = std::min(top_n_, ng);
  std::partial_sort(order.begin(), order.begin() + ngt, order.end(), hotter(tj));
  for (int k = 0; k < ngt && !std::isnan(tj[order[k]]); ++k) {
    const int i = order[k];
    top_gpu_.push_back(i);
    const int trow = gpu_table_->rowCount();
    gpu_table_->insertRow(trow);
    const QStringList cells = {QString::number(i),
                               QString::fromStdString(d.rack_name[d.gpu_rack[i]]),
                               QString::number(d.gpu_tray[i]),
                               QString::number(d.gpu_slot[i]),
                               formatNumber(toDisplay(Unit::K, tj[i]), 1),
                               hotCause(d, i, -1, row)};
    for (int c = 0; c < cells.size(); ++c) {
      auto* it = new QTableWidgetItem(cells[c]);
      it->setToolTip(cells[c]);
      gpu_table_->setItem(trow, c, it);
    }
  }
  std::vector<int> rorder(nr);
  std::iota(rorder.begin(), rorder.end(), 0);
  const int nrt = std::min(top_n_, nr);
  std::partial_sort(rorder.begin(), rorder.begin() + nrt, rorder.end(), hotter(rack_tj));
  for (int k = 0; k < nrt && !std::isnan(rack_tj[rorder[k]]); ++k) {
    const int r = rorder[k];
    top_rack_.push_back(r);
    const int trow = rack_table_->rowCount();
    rack_table_->insertRow(trow);
    const QStringList cells = {QString::fromStdString(d.rack_name[r]),
                               QString::fromStdString(d.rack_row[r]), formatNumber(rack_tj[r], 1),
                               hotCause(d, -1, r, row)};
    for (int c = 0; c < cells.size(); ++c) {
      auto* it = new QTableWidgetItem(cells[c]);
      it->setToolTip(cells[c]);
      rack_table_->setItem(trow, c, it);
    }
  }
  note_->setText(QString("At %1: %2 GPUs in %3 racks, %4 rows%5")
                     .arg(formatTime(d.time[row]))
                     .arg(ng)
                     .arg(nr)
                     .arg(L.row_label.size())
                     .arg(hist_[0].n == 0 ? "; per-GPU series not recorded: racks only" : ""));
}

}  // namespace dctwin::gui
