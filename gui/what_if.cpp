// what_if.cpp: scenario panel (see what_if.h)
#include "gui/what_if.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <vector>

#include "solver/input/loader.h"
#include "solver/run/run.h"

namespace dctwin::gui {

namespace {

// the form's entries: the fault table's kinds, then the facility-water temperature step (a
// profile step, not a fault)
struct Entry {
  const FaultInfo* fault;  // nullptr: the supply step
  const char* label;
  FaultTarget target;
  const char* unit;
  double def, lo, hi;  // in the form's unit
};
std::vector<Entry> formEntries() {
  std::vector<Entry> out;
  for (const FaultInfo& f : kFaultTable) {
    if (!*f.form.label) continue;
    const FaultForm& g = f.form;
    // the table's range in the form's unit (an open end is the spin box's end: the library
    // refuses the value when the event is added)
    double lo = f.value.lo * g.scale + g.offset, hi = f.value.hi * g.scale + g.offset;
    if (f.value.type == FaultValue::Flag || f.value.type == FaultValue::Choice) lo = hi = 0;
    out.push_back({&f, g.label, f.target, *g.unit || lo != hi ? g.unit : "", g.def,
                   std::max(lo, -1e6), std::min(hi, 1e6)});
  }
  out.push_back(
      {nullptr, "Facility-water supply temperature", FaultTarget::Facility, "°C", 40, 5, 60});
  return out;
}
const std::vector<Entry>& entries() {
  static const std::vector<Entry> e = formEntries();
  return e;
}
int entryOf(FaultKind kind) {
  for (std::size_t i = 0; i < entries().size(); ++i)
    if (entries()[i].fault && entries()[i].fault->id == kind) return int(i);
  return -1;
}
bool hasValue(const Entry& k) {
  return !(k.fault &&
           (k.fault->value.type == FaultValue::Flag || k.fault->value.type == FaultValue::Choice));
}

// top-level YAML keys the form owns; everything else is kept as "further settings"
bool formKey(const QString& key) {
  return key == "dctwin_scenario" || key == "name" || key == "duration" ||
         key == "output_interval" || key == "events";
}

QString num(double v) {
  return QString::number(v, 'g', 10);
}

}  // namespace

std::vector<FaultKind> formFaultKinds() {
  std::vector<FaultKind> out;
  for (const Entry& e : entries())
    if (e.fault) out.push_back(e.fault->id);
  return out;
}

WhatIfPanel::WhatIfPanel(QWidget* parent) : QWidget(parent) {
  auto* v = new QVBoxLayout(this);
  v->setContentsMargins(4, 4, 4, 4);
  // the run
  auto* run_box = new QGroupBox("Scenario", this);
  auto* form = new QFormLayout(run_box);
  name_ = new QLineEdit("what_if", run_box);
  form->addRow("Name", name_);
  duration_ = new QDoubleSpinBox(run_box);
  duration_->setObjectName("durationMin");
  duration_->setRange(0.1, 60 * 24 * 7);
  duration_->setDecimals(1);
  duration_->setSuffix(" min");
  form->addRow("Duration", duration_);
  interval_ = new QDoubleSpinBox(run_box);
  interval_->setRange(0.5, 3600);
  interval_->setDecimals(1);
  interval_->setSuffix(" s");
  form->addRow("Output every", interval_);
  v->addWidget(run_box);
  // the form for a new event
  auto* add_box = new QGroupBox("Inject a fault or change", this);
  auto* af = new QFormLayout(add_box);
  kind_ = new QComboBox(add_box);
  kind_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  kind_->setMinimumContentsLength(14);
  kind_->setObjectName("faultKind");
  for (const Entry& k : entries()) kind_->addItem(k.label);
  af->addRow("Event", kind_);
  target_ = new QComboBox(add_box);
  target_->setObjectName("faultTarget");
  af->addRow("Where", target_);
  at_ = new QDoubleSpinBox(add_box);
  at_->setRange(0, 60 * 24 * 366);
  at_->setDecimals(2);
  at_->setSuffix(" min");
  at_->setValue(1);
  af->addRow("At", at_);
  value_ = new QDoubleSpinBox(add_box);
  value_->setDecimals(2);
  value_label_ = new QLabel("Value", add_box);
  af->addRow(value_label_, value_);
  auto* add = new QPushButton("Add event", add_box);
  add->setObjectName("addEvent");
  af->addRow(add);
  v->addWidget(add_box);
  // the events
  table_ = new QTableWidget(0, 4, this);
  table_->setObjectName("eventTable");
  table_->setHorizontalHeaderLabels({"At", "Event", "Where", "Value"});
  table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  table_->horizontalHeader()->setStretchLastSection(true);
  table_->verticalHeader()->setVisible(false);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table_->setMinimumHeight(110);
  v->addWidget(table_, 1);
  auto* rm = new QPushButton("Remove selected event", this);
  v->addWidget(rm);
  // further settings
  v->addWidget(
      new QLabel("Further settings (YAML: detection, initial_temperature, solver):", this));
  extra_ = new QPlainTextEdit(this);
  extra_->setObjectName("extraYaml");
  extra_->setMaximumHeight(90);
  extra_->setPlaceholderText("detection:\n  isolation_valve_stroke: 30 s");
  v->addWidget(extra_);
  auto* files = new QHBoxLayout;
  auto* load = new QPushButton("Load scenario…", this);
  auto* save = new QPushButton("Save scenario…", this);
  files->addWidget(load);
  files->addWidget(save);
  v->addLayout(files);
  // run
  auto* rb = new QHBoxLayout;
  run_button_ = new QPushButton("Run (F5)", this);
  run_button_->setObjectName("runButton");
  cancel_button_ = new QPushButton("Cancel (Esc)", this);
  cancel_button_->setObjectName("cancelButton");
  cancel_button_->setEnabled(false);
  rb->addWidget(run_button_);
  rb->addWidget(cancel_button_);
  v->addLayout(rb);
  progress_ = new QProgressBar(this);
  progress_->setObjectName("runProgress");
  progress_->setRange(0, 1000);
  progress_->setValue(0);
  progress_->setFormat("idle");
  v->addWidget(progress_);
  status_ = new QLabel(this);
  status_->setWordWrap(true);
  v->addWidget(status_);

  connect(kind_, &QComboBox::currentIndexChanged, this, [this] { refreshForm(); });
  connect(add, &QPushButton::clicked, this, [this] {
    QString err;
    const Entry& k = entries()[std::clamp(kind_->currentIndex(), 0, int(entries().size()) - 1)];
    const QString item = k.fault ? addFault(k.fault->id, target_->currentText(), at_->value() * 60,
                                            value_->value(), &err)
                                 : addSupplyStep(at_->value() * 60, value_->value(), &err);
    if (item.isEmpty()) setStatus("<font color='#b71c1c'>" + err.toHtmlEscaped() + "</font>");
  });
  connect(rm, &QPushButton::clicked, this, [this] {
    const int r = table_->currentRow();
    if (r >= 0) removeEvent(r);
  });
  connect(load, &QPushButton::clicked, this, &WhatIfPanel::loadRequested);
  connect(save, &QPushButton::clicked, this, &WhatIfPanel::saveRequested);
  connect(run_button_, &QPushButton::clicked, this, &WhatIfPanel::runRequested);
  connect(cancel_button_, &QPushButton::clicked, this, &WhatIfPanel::cancelRequested);
  resetScenario();
  refreshForm();
}

void WhatIfPanel::setRun(const RunData* d) {
  run_ = d;
  refreshForm();
}

void WhatIfPanel::refreshForm() {
  const Entry& k = entries()[std::clamp(kind_->currentIndex(), 0, int(entries().size()) - 1)];
  const QString keep = target_->currentText();
  target_->clear();
  if (run_) {
    using T = FaultTarget;
    std::vector<std::string> names;
    if (k.target == T::Rack || k.target == T::RackOrCdu || k.target == T::RackOrSwitchRack)
      names = run_->rack_name;
    if (k.target == T::Cdu || k.target == T::RackOrCdu)
      names.insert(names.end(), run_->cdu_name.begin(), run_->cdu_name.end());
    if (k.target == T::Job) names = run_->job_name;
    for (const auto& n : names) target_->addItem(QString::fromStdString(n));
  }
  target_->setEnabled(k.target != FaultTarget::Facility);
  if (const int i = target_->findText(keep); i >= 0) target_->setCurrentIndex(i);
  value_->setEnabled(hasValue(k));
  value_->setRange(k.lo, k.hi);
  value_->setValue(k.def);
  value_->setSuffix(k.unit[0] ? QString(" ") + k.unit : QString());
  value_label_->setText(hasValue(k) ? "Value" : "");
}

void WhatIfPanel::presetFault(FaultKind kind, const QString& target) {
  if (const int e = entryOf(kind); e >= 0) kind_->setCurrentIndex(e);
  refreshForm();
  if (const int i = target_->findText(target); i >= 0) target_->setCurrentIndex(i);
}

void WhatIfPanel::presetSupplyStep() {
  kind_->setCurrentIndex(int(entries().size()) - 1);
  refreshForm();
}

QString WhatIfPanel::scenarioName() const {
  const QString n = name_->text().trimmed();
  return n.isEmpty() ? "what_if" : n;
}

QString WhatIfPanel::scenarioText() const {
  QString s = "# dctwin scenario written by dctwin-gui\ndctwin_scenario: 1\n";
  s += "name: " + scenarioName() + "\n";
  s += "duration: " + num(duration_->value() * 60) + " s\n";
  s += "output_interval: " + num(interval_->value()) + " s\n";
  const QString extra = extra_->toPlainText().trimmed();
  if (!extra.isEmpty()) s += extra + "\n";
  if (!events_.isEmpty()) {
    s += "events:\n";
    for (const QString& e : events_) {
      const QStringList lines = e.split('\n');
      s += "  - " + lines[0] + "\n";
      for (int i = 1; i < lines.size(); ++i) s += "    " + lines[i] + "\n";
    }
  }
  return s;
}

void WhatIfPanel::resetScenario() {
  name_->setText("what_if");
  duration_->setValue(20);
  interval_->setValue(5);
  extra_->clear();
  events_.clear();
  refreshTable();
}

bool WhatIfPanel::setScenarioText(const QString& text, const QString& name, QString* error) {
  Scenario sc;
  try {
    sc = loadScenarioFromString(text.toStdString(), name.toStdString());
  } catch (const std::exception& e) {
    if (error) *error = e.what();
    return false;
  }
  // split into top-level blocks: a key at column 0 and the lines under it
  QStringList extra, items;
  QString key;
  const QStringList lines = text.split('\n');
  int item_indent = -1;
  QString scenario_name;
  for (const QString& line : lines) {
    const QString trimmed = line.trimmed();
    if (trimmed.isEmpty()) continue;
    const bool top = !line.at(0).isSpace() && !trimmed.startsWith('-');
    if (trimmed.startsWith('#') && top) continue;
    if (top) {
      key = trimmed.section(':', 0, 0).trimmed();
      if (key == "name") scenario_name = trimmed.section(':', 1).trimmed();
      if (key == "events") {
        item_indent = -1;
        const QString rest = trimmed.section(':', 1).trimmed();
        if (!rest.isEmpty() && !rest.startsWith('#')) extra << line;  // flow-style list: keep
        continue;
      }
      if (!formKey(key)) extra << line;
      continue;
    }
    if (key == "events") {
      const int indent = int(line.indexOf(QRegularExpression("\\S")));
      if (trimmed.startsWith("- ") && (item_indent < 0 || indent <= item_indent)) {
        item_indent = indent;
        items << trimmed.mid(2);
      } else if (!items.isEmpty() && !trimmed.startsWith('#')) {
        items.last() += "\n" + line.mid(std::min<int>(indent, item_indent + 2));
      }
    } else if (!formKey(key)) {
      extra << line;
    }
  }
  name_->setText(scenario_name.isEmpty() ? QString::fromStdString(sc.file) : scenario_name);
  duration_->setValue(sc.duration / 60.0);
  interval_->setValue(sc.output_interval);
  extra_->setPlainText(extra.join('\n'));
  events_ = items;
  refreshTable();
  return true;
}

QString WhatIfPanel::addFault(FaultKind kind, const QString& target, double time, double value,
                              QString* error) {
  const FaultInfo& f = faultInfo(kind);
  if (!*f.form.label) {
    if (error) *error = QString("'%1' is not an event of the form").arg(f.key);
    return "";
  }
  if (f.target != FaultTarget::Facility && target.trimmed().isEmpty()) {
    if (error) *error = "choose where the event happens (open a facility first)";
    return "";
  }
  // the target's key: a leak names a CDU when the target is one, else a rack
  using T = FaultTarget;
  bool cdu = f.target == T::Cdu;
  if (f.target == T::RackOrCdu && run_)
    cdu = std::find(run_->cdu_name.begin(), run_->cdu_name.end(), target.toStdString()) !=
          run_->cdu_name.end();
  const QString where = f.target == T::Facility ? ""
                        : f.target == T::Job    ? ", job: " + target
                        : cdu                   ? ", cdu: " + target
                                                : ", rack: " + target;
  // %1: the value in the form's unit; %2: the SI value (fractions: % in the form)
  const double si = (value - f.form.offset) / f.form.scale;
  const bool whole = f.value.type == FaultValue::Integer;
  QString action = f.form.yaml;
  action.replace("%1", whole ? QString::number(std::lround(value)) : num(value));
  action.replace("%2", num(si));
  const QString item = "{time: " + num(time) + " s" + where + ", " + action + "}";
  return addEventYaml(item, error) ? item : QString();
}

QString WhatIfPanel::addSupplyStep(double time, double degC, QString* error) {
  const QString item =
      QString("{time: %1 s, facility_water_temperature: %2 degC}").arg(num(time), num(degC));
  return addEventYaml(item, error) ? item : QString();
}

QString WhatIfPanel::describe(const QString& item, QString* error) const {
  try {
    const Scenario sc = loadScenarioFromString(
        "duration: 366 d\nevents:\n  - " + QString(item).replace("\n", "\n    ").toStdString(),
        "event");
    if (sc.events.empty()) return "";
    const ScenarioEvent& e = sc.events.front();
    return QString::fromStdString(e.kind);
  } catch (const std::exception& e) {
    if (error) *error = e.what();
    return "";
  }
}

bool WhatIfPanel::addEventYaml(const QString& item, QString* error) {
  QString err;
  if (describe(item, &err).isEmpty()) {
    if (error) *error = err.isEmpty() ? "not an event: " + item : err;
    return false;
  }
  events_ << item;
  refreshTable();
  setStatus("Added: " + item.toHtmlEscaped());
  return true;
}

void WhatIfPanel::removeEvent(int k) {
  if (k < 0 || k >= events_.size()) return;
  events_.removeAt(k);
  refreshTable();
}

double WhatIfPanel::duration() const {
  return duration_->value() * 60;
}
double WhatIfPanel::eventTime() const {
  return at_->value() * 60;
}

void WhatIfPanel::setDuration(double seconds) {
  duration_->setValue(seconds / 60.0);
}
void WhatIfPanel::setOutputInterval(double seconds) {
  interval_->setValue(seconds);
}

void WhatIfPanel::refreshTable() {
  table_->setRowCount(0);
  for (const QString& item : events_) {
    const int row = table_->rowCount();
    table_->insertRow(row);
    QString at, kind, where, value;
    try {
      const Scenario sc = loadScenarioFromString(
          "duration: 366 d\nevents:\n  - " + QString(item).replace("\n", "\n    ").toStdString(),
          "event");
      const ScenarioEvent& e = sc.events.at(0);
      at = formatTime(e.time);
      kind = QString::fromStdString(e.kind);
      where = QString::fromStdString(e.target);
      if (e.kind == "leak") {
        value = e.area > 0 ? QString("%1 mm² (Ø %2 mm)")
                                 .arg(e.area * 1e6, 0, 'f', 2)
                                 .arg(std::sqrt(4 * e.area / M_PI) * 1e3, 0, 'f', 1)
                           : "";
        if (e.area_final > e.area)
          value += QString(" → Ø %1 mm over %2")
                       .arg(std::sqrt(4 * e.area_final / M_PI) * 1e3, 0, 'f', 1)
                       .arg(formatTime(e.growth_time));
      } else if (e.kind == "facility_water_temperature")
        value = QString("%1 °C").arg(toDisplay(Unit::K, e.value), 0, 'f', 1);
      else if (e.kind == "heat_load")
        value = QString("%1 kW").arg(e.value / 1e3, 0, 'f', 1);
      else if (const FaultInfo* f = faultByKey(e.kind);
               f && *f->form.unit &&
               (f->id != FaultKind::Setpoint || e.setpoint == SetpointKind::SupplyTemperature) &&
               !(f->id == FaultKind::ValveStuck && e.value < 0))
        value = QString("%1 %2")  // in the fault table's form unit
                    .arg(e.value * f->form.scale + f->form.offset, 0, 'g', 4)
                    .arg(f->form.unit);
      else
        value = QString::number(e.value);
    } catch (const std::exception&) {
      kind = "(invalid)";
    }
    table_->setItem(row, 0, new QTableWidgetItem(at));
    table_->setItem(row, 1, new QTableWidgetItem(kind));
    table_->setItem(row, 2, new QTableWidgetItem(where));
    table_->setItem(row, 3, new QTableWidgetItem(value));
    for (int c = 0; c < 4; ++c) table_->item(row, c)->setToolTip(item);
  }
}

void WhatIfPanel::setRunning(bool running) {
  run_button_->setEnabled(!running);
  cancel_button_->setEnabled(running);
  if (running) {
    progress_->setValue(0);
    progress_->setFormat("starting…");
  }
}

void WhatIfPanel::setProgress(double fraction, double t, double duration) {
  progress_->setValue(int(std::lround(1000 * std::clamp(fraction, 0.0, 1.0))));
  progress_->setFormat(QString("%1 / %2 (%p%)").arg(formatTime(t), formatTime(duration)));
}

void WhatIfPanel::setStatus(const QString& text) {
  status_->setText(text);
}

}  // namespace dctwin::gui
