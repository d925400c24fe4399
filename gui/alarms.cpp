// alarms.cpp: the event log as a filterable table (see alarms.h)
#include "gui/alarms.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

namespace dctwin::gui {

namespace {
int severityRank(const std::string& s) {
  return s == "critical" ? 2 : (s == "warning" ? 1 : 0);
}
}  // namespace

AlarmPanel::AlarmPanel(QWidget* parent) : QWidget(parent) {
  auto* v = new QVBoxLayout(this);
  v->setContentsMargins(2, 2, 2, 2);
  auto* bar = new QHBoxLayout;
  bar->addWidget(new QLabel("Show:", this));
  severity_ = new QComboBox(this);
  severity_->addItems({"all", "warning and critical", "critical only"});
  bar->addWidget(severity_);
  filter_ = new QLineEdit(this);
  filter_->setPlaceholderText("Filter (component, kind, text)");
  filter_->setClearButtonEnabled(true);
  bar->addWidget(filter_, 1);
  v->addLayout(bar);
  table_ = new QTableWidget(0, 5, this);
  table_->setObjectName("alarmTable");
  table_->setHorizontalHeaderLabels({"Time", "Severity", "Component", "Event", "Message"});
  // time and severity as wide as their text; component and event resizable; the message takes the
  // rest and wraps, and the selected event's full text shows under the table (a narrow dock at
  // 1280 x 800 must not hide it)
  table_->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
  table_->horizontalHeader()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
  table_->horizontalHeader()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
  table_->horizontalHeader()->setStretchLastSection(true);
  table_->horizontalHeader()->setMinimumSectionSize(40);
  table_->setWordWrap(true);
  table_->setTextElideMode(Qt::ElideMiddle);
  table_->verticalHeader()->setVisible(false);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setSelectionMode(QAbstractItemView::SingleSelection);
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table_->setToolTip("Click an event to move the timeline there and select its component");
  v->addWidget(table_, 1);
  detail_ = new QLabel(this);
  detail_->setObjectName("alarmDetail");
  detail_->setWordWrap(true);
  detail_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  detail_->setMinimumHeight(QFontMetrics(font()).height() * 2 + 6);
  detail_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
  detail_->setFrameShape(QFrame::StyledPanel);
  v->addWidget(detail_);
  connect(table_, &QTableWidget::currentCellChanged, this, [this](int row, int, int, int) {
    const EventRecord* e = eventAt(row);
    detail_->setText(e ? QString("<b>%1</b> %2 — %3: %4")
                             .arg(formatMoment(run_, e->time), QString::fromStdString(e->component),
                                  QString::fromStdString(e->kind),
                                  QString::fromStdString(e->message).toHtmlEscaped())
                       : QString());
  });
  connect(severity_, &QComboBox::currentIndexChanged, this, [this] { refill(); });
  connect(filter_, &QLineEdit::textChanged, this, [this] { refill(); });
  connect(table_, &QTableWidget::cellClicked, this, [this](int row, int) { activateRow(row); });
  connect(table_, &QTableWidget::cellActivated, this, [this](int row, int) { activateRow(row); });
}

void AlarmPanel::setRun(const RunData* d) {
  run_ = d;
  refill();
}

void AlarmPanel::dataChanged() {
  if (!run_ || run_->events.size() != shown_events_) refill();
}

int AlarmPanel::rowCount() const {
  return table_->rowCount();
}

const EventRecord* AlarmPanel::eventAt(int k) const {
  if (!run_ || k < 0 || k >= int(rows_.size())) return nullptr;
  return &run_->events[rows_[k]];
}

int AlarmPanel::find(const std::string& kind, const std::string& component) const {
  for (int k = 0; k < int(rows_.size()); ++k) {
    const EventRecord& e = run_->events[rows_[k]];
    if (e.kind == kind && (component.empty() || e.component == component)) return k;
  }
  return -1;
}

void AlarmPanel::activateRow(int k) {
  const EventRecord* e = eventAt(k);
  if (!e) return;
  table_->selectRow(k);
  emit eventActivated(e->time, QString::fromStdString(e->component));
}

QString AlarmPanel::csvText() const {
  auto quote = [](const std::string& v) {
    QString q = QString::fromStdString(v);
    q.replace('"', "\"\"");
    return "\"" + q + "\"";
  };
  QString out = "time_s,severity,component,kind,message\n";
  for (int k = 0; k < int(rows_.size()); ++k) {
    const EventRecord& e = run_->events[rows_[k]];
    out += QString::number(e.time, 'g', 10) + "," + quote(e.severity) + "," + quote(e.component) +
           "," + quote(e.kind) + "," + quote(e.message) + "\n";
  }
  return out;
}

void AlarmPanel::refill() {
  const int min_rank = severity_->currentIndex();
  const QString needle = filter_->text().trimmed();
  rows_.clear();
  table_->setRowCount(0);
  shown_events_ = run_ ? run_->events.size() : 0;
  if (!run_) return;
  for (int i = 0; i < int(run_->events.size()); ++i) {
    const EventRecord& e = run_->events[i];
    if (severityRank(e.severity) < min_rank) continue;
    const QString comp = QString::fromStdString(e.component), kind = QString::fromStdString(e.kind),
                  msg = QString::fromStdString(e.message);
    if (!needle.isEmpty() && !comp.contains(needle, Qt::CaseInsensitive) &&
        !kind.contains(needle, Qt::CaseInsensitive) && !msg.contains(needle, Qt::CaseInsensitive))
      continue;
    const int row = table_->rowCount();
    table_->insertRow(row);
    QString when = formatTime(e.time);
    if (e.time != std::floor(e.time)) when += QString(" (%1 s)").arg(e.time, 0, 'f', 1);
    if (const QString date = run_->dateAt(e.time); !date.isEmpty()) when += "  " + date;
    auto* sev = new QTableWidgetItem(QString::fromStdString(e.severity));
    const QColor bg = e.severity == "critical"  ? QColor(255, 205, 210)
                      : e.severity == "warning" ? QColor(255, 236, 179)
                                                : QColor(225, 245, 254);
    table_->setItem(row, 0, new QTableWidgetItem(when));
    table_->setItem(row, 1, sev);
    table_->setItem(row, 2, new QTableWidgetItem(comp));
    table_->setItem(row, 3, new QTableWidgetItem(kind));
    table_->setItem(row, 4, new QTableWidgetItem(msg));
    for (int c = 0; c < 5; ++c) {
      table_->item(row, c)->setBackground(bg);
      table_->item(row, c)->setToolTip(msg);
    }
    rows_.push_back(i);
  }
  // component and event columns fit their text up to a third of the table each
  const int cap = std::max(80, table_->viewport()->width() / 3);
  for (int c : {2, 3}) {
    table_->resizeColumnToContents(c);
    table_->setColumnWidth(c, std::min(table_->columnWidth(c), cap));
  }
  table_->resizeRowsToContents();
  if (table_->rowCount() > 0 && table_->currentRow() < 0) {
    const EventRecord* e = eventAt(table_->rowCount() - 1);
    detail_->setText(QString("latest: <b>%1</b> %2 — %3: %4")
                         .arg(formatMoment(run_, e->time), QString::fromStdString(e->component),
                              QString::fromStdString(e->kind),
                              QString::fromStdString(e->message).toHtmlEscaped()));
  } else if (table_->rowCount() == 0) {
    detail_->setText(run_->events.empty() ? "No events." : "No event matches the filter.");
  }
}

}  // namespace dctwin::gui
