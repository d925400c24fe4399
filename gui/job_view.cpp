// job_view.cpp: the Jobs tab, bottleneck maps as stacked bars (see job_view.h)
#include "gui/job_view.h"

#include <QHeaderView>
#include <QLabel>
#include <QPainter>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

namespace dctwin::gui {

const std::vector<BottleneckPart>& bottleneckParts() {
  static const std::vector<BottleneckPart> parts = [] {
    // a qualitative palette (Tableau 20): neighbouring parts stay apart
    static const QColor kPalette[] = {
        {31, 119, 180},  {174, 199, 232}, {255, 127, 14},  {255, 187, 120}, {44, 160, 44},
        {152, 223, 138}, {214, 39, 40},   {255, 152, 150}, {148, 103, 189}, {197, 176, 213},
        {140, 86, 75},   {196, 156, 148}, {227, 119, 194}, {247, 182, 210}, {127, 127, 127},
        {199, 199, 199}, {188, 189, 34},  {219, 219, 141}, {23, 190, 207},  {158, 218, 229}};
    const std::string prefix = "/job/time/";
    std::vector<BottleneckPart> v;
    for (const ObservableInfo& o : observableTable()) {
      const std::string p = o.path;
      if (o.shape != Shape::Job || p.rfind(prefix, 0) != 0) continue;
      QString name = QString::fromStdString(p.substr(prefix.size())).replace('_', ' ');
      QString desc = QString::fromUtf8(o.description);
      desc.remove("bottleneck map: ");
      v.push_back({p, name, desc, kPalette[v.size() % std::size(kPalette)]});
    }
    return v;
  }();
  return parts;
}

namespace {
// the time unit for a span: s, min or h, whichever keeps the numbers short
std::pair<QString, double> timeUnit(double seconds) {
  if (seconds < 600) return {"s", 1.0};
  if (seconds < 36000) return {"min", 60.0};
  return {"h", 3600.0};
}
}  // namespace

// one stacked bar per job on a shared time axis, shares written where they fit, a legend
class BottleneckPlot : public QWidget {
 public:
  explicit BottleneckPlot(JobView* v, QWidget* parent) : QWidget(parent), v_(v) {
    setObjectName("bottleneckPlot");
    setMinimumSize(300, 160);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
  }
  std::vector<JobView::DrawnLabel> drawn;
  std::vector<std::pair<QString, QColor>> legend;
  std::vector<QString> names;

 protected:
  void paintEvent(QPaintEvent*) override {
    drawn.clear();
    legend.clear();
    QPainter g(this);
    g.setRenderHint(QPainter::Antialiasing, true);
    g.fillRect(rect(), Qt::white);
    const QFontMetrics fm(font());
    auto text = [&](const QRect& box, int flags, const QString& s) {
      const QString el = fm.elidedText(s, Qt::ElideRight, box.width());
      g.drawText(box, flags, el);
      drawn.push_back({el, fm.boundingRect(box, flags, el)});
    };
    g.setPen(Qt::black);
    text(QRect(6, 4, width() - 12, fm.height()), Qt::AlignLeft | Qt::AlignVCenter,
         "Where each job's time went (bottleneck map, mean over its GPUs)");
    const auto& all = bottleneckParts();
    const int nj = v_->jobCount();
    if (nj == 0 || v_->parts().empty()) {
      g.setPen(Qt::darkGray);
      g.drawText(rect(), Qt::AlignCenter | Qt::TextWordWrap,
                 "no bottleneck map in this run (training jobs write /job/time/*)");
      return;
    }
    // legend: the parts with time in any job, in rows under the bars
    std::vector<int> shown;
    for (int k = 0; k < int(v_->parts().size()); ++k)
      for (int j = 0; j < nj; ++j)
        if (v_->partSeconds(j, k) > 1e-9) {
          shown.push_back(k);
          break;
        }
    const int sw = 14, gap = 14;
    std::vector<std::pair<QRect, int>> items;
    int x = 6, rows = 1;
    for (int k : shown) {
      const QString s = all[v_->parts()[k]].name;
      const int w = sw + 8 + fm.horizontalAdvance(s);  // room to spare: never elided
      if (x + w > width() - 6 && x > 6) x = 6, ++rows;
      items.push_back({QRect(x, rows - 1, w, 0), k});
      x += w + gap;
    }
    const int legend_h = rows * (fm.height() + 4);
    const int name_w = std::min(std::max(90, width() / 6), 200);
    const QRect pa(name_w + 10, fm.height() + 14, width() - name_w - 24,
                   height() - fm.height() - 14 - legend_h - fm.height() - 16);
    if (pa.height() < 10 || pa.width() < 40) return;
    double tmax = 0;
    for (int j = 0; j < nj; ++j) tmax = std::max(tmax, v_->totalSeconds(j));
    const auto [unit, scale] = timeUnit(tmax);
    const auto ticks = niceTicks(0, std::max(tmax / scale, 1e-6), 6);
    const double span = ticks.back();
    auto X = [&](double sec) { return pa.x() + sec / scale / span * pa.width(); };
    const double bh = std::min(48.0, pa.height() / double(nj));
    g.setPen(QColor(230, 230, 230));
    for (double tk : ticks)
      g.drawLine(QPointF(X(tk * scale), pa.top()), QPointF(X(tk * scale), pa.bottom()));
    for (int j = 0; j < nj; ++j) {
      const double y0 = pa.y() + j * bh + 0.15 * bh, h = 0.7 * bh;
      double acc = 0;
      for (int k = 0; k < int(v_->parts().size()); ++k) {
        const double sec = v_->partSeconds(j, k);
        if (!(sec > 0)) continue;
        const BottleneckPart& P = all[v_->parts()[k]];
        const QRectF seg(QPointF(X(acc), y0), QPointF(X(acc + sec), y0 + h));
        g.setPen(QPen(Qt::white, 0.5));
        g.setBrush(P.color);
        g.drawRect(seg);
        const double share = sec / std::max(1e-12, v_->totalSeconds(j));
        const QString lab = QString("%1 %2 %").arg(P.name, formatNumber(100 * share, 0));
        if (fm.horizontalAdvance(lab) + 6 < seg.width() && fm.height() < seg.height()) {
          g.setPen(P.color.lightnessF() > 0.55 ? Qt::black : Qt::white);
          text(seg.toAlignedRect(), Qt::AlignCenter, lab);
        }
        acc += sec;
      }
      g.setPen(Qt::black);
      const double gp = v_->goodput(j);
      const QString head = j < int(names.size()) ? names[j] : QString("job %1").arg(j);
      text(QRect(4, int(y0), name_w, int(h / 2)), Qt::AlignRight | Qt::AlignVCenter, head);
      text(QRect(4, int(y0 + h / 2), name_w, int(h / 2)), Qt::AlignRight | Qt::AlignVCenter,
           std::isnan(gp) ? QString("%1 %2").arg(formatNumber(acc / scale, 1), unit)
                          : QString("goodput %1 %").arg(formatNumber(100 * gp, 1)));
    }
    g.setPen(Qt::black);
    g.setBrush(Qt::NoBrush);
    g.drawLine(pa.bottomLeft(), pa.bottomRight());
    const int dec = tickDecimals(ticks.size() > 1 ? ticks[1] - ticks[0] : 1);
    for (std::size_t i = 0; i < ticks.size(); ++i) {
      const double xx = X(ticks[i] * scale);
      const QString s = formatNumber(ticks[i], dec) + (i + 1 == ticks.size() ? " " + unit : "");
      const int w = fm.horizontalAdvance(s) + 4;
      const int left = std::clamp(int(xx - w / 2), 0, width() - w);
      text(QRect(left, pa.bottom() + 3, w, fm.height()), Qt::AlignCenter, s);
    }
    const int ly = height() - legend_h - 2;
    for (const auto& [box, k] : items) {
      const BottleneckPart& P = all[v_->parts()[k]];
      const QRect s(box.x(), ly + box.y() * (fm.height() + 4) + 2, sw, sw);
      g.setPen(Qt::black);
      g.setBrush(P.color);
      g.drawRect(s);
      text(QRect(s.right() + 4, s.y() - 1, box.width() - sw - 4, fm.height()),
           Qt::AlignLeft | Qt::AlignVCenter, P.name);
      legend.push_back({P.name, P.color});
    }
  }

 private:
  JobView* v_;
};

JobView::JobView(QWidget* parent) : QWidget(parent) {
  auto* v = new QVBoxLayout(this);
  v->setContentsMargins(2, 2, 2, 2);
  note_ = new QLabel(this);
  note_->setObjectName("jobNote");
  note_->setWordWrap(true);
  note_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
  v->addWidget(note_);
  auto* split = new QSplitter(Qt::Vertical, this);
  plot_ = new BottleneckPlot(this, split);
  table_ = new QTableWidget(0, 0, split);
  table_->setObjectName("bottleneckTable");
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  table_->horizontalHeader()->setStretchLastSection(true);
  gpu_table_ = new QTableWidget(0, 6, split);
  gpu_table_->setObjectName("slowGpuTable");
  gpu_table_->setHorizontalHeaderLabels(
      {"GPU / rack", "rack", "tray", "slot", "throttled s", "waiting s"});
  gpu_table_->verticalHeader()->setVisible(false);
  gpu_table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  gpu_table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  gpu_table_->horizontalHeader()->setStretchLastSection(true);
  gpu_table_->setToolTip(
      "What the outputs have per GPU: the GPUs that throttled longest (/gpu/throttled_time) and "
      "how long each waited at barriers (/gpu/wait_time); then the racks by their GPUs' mean");
  model_table_ = new QTableWidget(0, int(modelColumns().size()), split);
  model_table_->setObjectName("stepModelTable");
  model_table_->setHorizontalHeaderLabels(modelColumns());
  model_table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  model_table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  model_table_->horizontalHeader()->setStretchLastSection(true);
  model_table_->setToolTip(
      "The step model of each described training job (docs/models/job.md): nominal at the "
      "reference clocks (/job/model/*) and achieved in the run by the timeline's time "
      "(/job/iteration_time, /job/tokens_per_second, /job/mfu); MFU counts 6 N T plus causal "
      "attention on the dense BF16 peak");
  model_table_->hide();
  auto* tables = new QSplitter(Qt::Horizontal, split);
  tables->addWidget(table_);
  tables->addWidget(gpu_table_);
  split->addWidget(plot_);
  split->addWidget(model_table_);
  split->addWidget(tables);
  split->setStretchFactor(0, 3);
  split->setStretchFactor(1, 2);
  v->addWidget(split, 1);
}

QWidget* JobView::plot() const {
  return plot_;
}

const std::vector<JobView::DrawnLabel>& JobView::drawnLabels() const {
  return plot_->drawn;
}

std::vector<std::pair<QString, QColor>> JobView::legendEntries() const {
  return plot_->legend;
}

double JobView::totalSeconds(int job) const {
  double s = 0;
  for (double x : value_[job])
    if (!std::isnan(x)) s += x;
  return s;
}

void JobView::setRun(const RunData* d) {
  run_ = d;
  recompute();
}

void JobView::dataChanged() {
  recompute();
}

void JobView::setTime(double t) {
  t_ = t;
  if (isVisible()) recompute();
}

void JobView::recompute() {
  parts_.clear();
  value_.clear();
  goodput_.clear();
  progress_.clear();
  const auto& all = bottleneckParts();
  const RunData* d = run_;
  const int nj = d ? int(d->job_name.size()) : 0;
  if (d)
    for (int k = 0; k < int(all.size()); ++k)
      if (const RunData::Series* s = d->find(all[k].path); s && s->width >= nj && nj > 0)
        parts_.push_back(k);
  const int row = d ? d->rowAt(t_) : 0;
  value_.assign(nj, std::vector<double>(parts_.size(), 0.0));
  for (int j = 0; j < nj; ++j) {
    for (int k = 0; k < int(parts_.size()); ++k)
      value_[j][k] = d->value(all[parts_[k]].path, row, j);
    goodput_.push_back(d->value(obsPath(Obs::JobGoodput), row, j));
    progress_.push_back(d->value(obsPath(Obs::JobProgressRatio), row, j));
  }
  plot_->names.clear();
  for (int j = 0; j < nj; ++j) plot_->names.push_back(QString::fromStdString(d->job_name[j]));
  // the table: a row per part, a column per job (seconds and share), goodput last
  table_->clear();
  table_->setColumnCount(nj);
  table_->setRowCount(int(parts_.size()) + 3);
  QStringList head, rows;
  for (int j = 0; j < nj; ++j) head << QString::fromStdString(d->job_name[j]);
  for (int k : parts_) rows << all[k].name;
  rows << "total (wall time since start)"
       << "goodput"
       << "progress";
  table_->setHorizontalHeaderLabels(head);
  table_->setVerticalHeaderLabels(rows);
  for (int k = 0; k < int(parts_.size()); ++k)
    if (auto* it = table_->verticalHeaderItem(k)) it->setToolTip(all[parts_[k]].description);
  for (int j = 0; j < nj; ++j) {
    const double tot = totalSeconds(j);
    for (int k = 0; k < int(parts_.size()); ++k) {
      const double s = value_[j][k];
      table_->setItem(k, j,
                      new QTableWidgetItem(QString("%1 s (%2 %)")
                                               .arg(formatNumber(s, 1),
                                                    formatNumber(tot > 0 ? 100 * s / tot : 0, 1))));
    }
    const int n = int(parts_.size());
    table_->setItem(n, j, new QTableWidgetItem(formatNumber(tot, 1) + " s"));
    table_->setItem(n + 1, j, new QTableWidgetItem(formatNumber(100 * goodput_[j], 1) + " %"));
    table_->setItem(n + 2, j, new QTableWidgetItem(formatNumber(100 * progress_[j], 1) + " %"));
  }
  fillSlowest(row);
  fillModel(row);
  if (nj == 0)
    note_->setText("This run has no jobs.");
  else if (parts_.empty())
    note_->setText("This run's jobs write no bottleneck map (/job/time/*).");
  else
    note_->setText(QString("%1 job(s) at t = %2. Each bar is the job's wall time since its start, "
                           "split by what held it back (the mean over its GPUs, "
                           "docs/models/job.md); hover a row of the table for what a part means.")
                       .arg(nj)
                       .arg(formatTime(t_)));
  plot_->update();
}

QStringList JobView::modelColumns() {
  return {"step nominal (s)", "step achieved (s)", "Mtokens/s nominal", "Mtokens/s achieved",
          "MFU nominal (%)",  "MFU achieved (%)",  "memory/GPU (GB)",   "of HBM (GB)",
          "weights (GB)",     "gradients (GB)",    "optimizer (GB)",    "activations (GB)",
          "micro-batches",    "recompute"};
}

// the step model's values of each described job and what the run achieved by `row`
void JobView::fillModel(int row) {
  model_table_->setRowCount(0);
  const RunData* d = run_;
  const int nj = d ? int(d->job_name.size()) : 0;
  std::vector<int> jobs;
  for (int j = 0; j < nj; ++j)
    if (d->jobModel(j, JobCol::StepTime) > 0) jobs.push_back(j);
  model_table_->setVisible(!jobs.empty());
  if (jobs.empty()) return;
  model_table_->setRowCount(int(jobs.size()));
  QStringList names;
  for (int k = 0; k < int(jobs.size()); ++k) {
    const int j = jobs[k];
    names << QString::fromStdString(d->job_name[j]);
    auto v = [&](JobCol c) { return d->jobModel(j, c); };
    auto put = [&](int c, const QString& text) {
      model_table_->setItem(k, c, new QTableWidgetItem(text));
    };
    const double T = d->value(obsPath(Obs::JobIterationTime), row, j);
    put(0, formatNumber(v(JobCol::StepTime), 3));
    put(1, formatNumber(T > 0 ? T : std::nan(""), 3));
    put(2, formatNumber(v(JobCol::TokensPerSecond) / 1e6, 3));
    put(3, formatNumber(d->value(obsPath(Obs::JobTokensPerSecond), row, j) / 1e6, 3));
    put(4, formatNumber(100 * v(JobCol::Mfu), 1));
    put(5, formatNumber(100 * d->value(obsPath(Obs::JobMfu), row, j), 1));
    put(6, formatNumber(v(JobCol::MemoryPerGpu) / 1e9, 1));
    put(7, formatNumber(v(JobCol::HbmCapacity) / 1e9, 1));
    put(8, formatNumber(v(JobCol::MemoryWeights) / 1e9, 1));
    put(9, formatNumber(v(JobCol::MemoryGradients) / 1e9, 1));
    put(10, formatNumber(v(JobCol::MemoryOptimizer) / 1e9, 1));
    put(11, formatNumber(v(JobCol::MemoryActivations) / 1e9, 1));
    put(12, formatNumber(v(JobCol::MicroBatches), 0));
    put(13, QString::fromUtf8(jobRecomputeName(v(JobCol::Recompute))));
  }
  model_table_->setVerticalHeaderLabels(names);
}

// per GPU where the outputs have it: the 10 GPUs that throttled longest, the 5 racks whose GPUs
// throttled longest on average
void JobView::fillSlowest(int row) {
  slow_gpu_.clear();
  slow_rack_.clear();
  gpu_table_->setRowCount(0);
  const RunData* d = run_;
  const std::string& thp = obsPath(Obs::GpuThrottledTime);
  const RunData::Series* th = d ? d->find(thp) : nullptr;
  if (!d || !th || th->width < d->ngpu() || d->ngpu() == 0) return;
  const int ng = d->ngpu(), nr = d->nrack();
  std::vector<double> v(ng);
  for (int i = 0; i < ng; ++i) v[i] = d->value(thp, row, i);
  std::vector<int> idx(ng);
  for (int i = 0; i < ng; ++i) idx[i] = i;
  const int n = std::min(10, ng);
  std::partial_sort(idx.begin(), idx.begin() + n, idx.end(), [&](int a, int b) {
    return (std::isnan(v[a]) ? -1 : v[a]) > (std::isnan(v[b]) ? -1 : v[b]);
  });
  for (int k = 0; k < n; ++k)
    if (v[idx[k]] > 0) slow_gpu_.push_back(idx[k]);
  std::vector<double> rack_mean(nr, 0.0);
  for (int r = 0; r < nr; ++r) {
    double s = 0;
    int c = 0;
    for (int q = 0; q < d->rack_gpunum[r]; ++q)
      if (const double x = v[d->rack_gpuadr[r] + q]; !std::isnan(x)) s += x, ++c;
    rack_mean[r] = c ? s / c : 0;
  }
  std::vector<int> ridx(nr);
  for (int r = 0; r < nr; ++r) ridx[r] = r;
  const int nrk = std::min(5, nr);
  std::partial_sort(ridx.begin(), ridx.begin() + nrk, ridx.end(),
                    [&](int a, int b) { return rack_mean[a] > rack_mean[b]; });
  for (int k = 0; k < nrk; ++k)
    if (rack_mean[ridx[k]] > 0) slow_rack_.push_back(ridx[k]);
  if (slow_gpu_.empty()) {  // say so rather than an empty table
    gpu_table_->setRowCount(1);
    gpu_table_->setItem(0, 0, new QTableWidgetItem("no GPU throttled so far"));
    return;
  }
  gpu_table_->setRowCount(int(slow_gpu_.size() + slow_rack_.size()));
  int k = 0;
  auto put = [&](int c, const QString& s) { gpu_table_->setItem(k, c, new QTableWidgetItem(s)); };
  for (int g : slow_gpu_) {
    const int r = d->gpu_rack[g];
    put(0, QString("GPU %1").arg(g));
    put(1, QString::fromStdString(d->rack_name[r]));
    put(2, QString::number(d->gpu_tray[g]));
    put(3, QString::number(d->gpu_slot[g]));
    put(4, formatNumber(v[g], 1));
    put(5, formatNumber(d->value(obsPath(Obs::GpuWaitTime), row, g), 1));
    ++k;
  }
  for (int r : slow_rack_) {
    put(0, "rack (mean of its GPUs)");
    put(1, QString::fromStdString(d->rack_name[r]));
    put(2, "–");
    put(3, "–");
    put(4, formatNumber(rack_mean[r], 1));
    put(5, "–");
    ++k;
  }
}

}  // namespace dctwin::gui
