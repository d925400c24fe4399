// timeline.cpp: play/pause/scrub/speed over a run's output times (see timeline.h)
#include "gui/timeline.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDateTime>
#include <QHBoxLayout>
#include <QLabel>
#include <QSlider>
#include <QStyle>
#include <QTimer>
#include <QToolButton>
#include <algorithm>

#include "gui/run_data.h"
#include "models/weather.h"

namespace dctwin::gui {

namespace {
const double kSpeeds[] = {1, 10, 30, 60, 120, 300, 600, 1200};
}

Timeline::Timeline(QWidget* parent) : QWidget(parent) {
  auto* h = new QHBoxLayout(this);
  h->setContentsMargins(4, 2, 4, 2);
  auto button = [&](QStyle::StandardPixmap icon, const QString& tip, auto slot) {
    auto* b = new QToolButton(this);
    b->setIcon(style()->standardIcon(icon));
    b->setToolTip(tip);
    connect(b, &QToolButton::clicked, this, slot);
    h->addWidget(b);
    return b;
  };
  button(QStyle::SP_MediaSkipBackward, "To the start (Home)", &Timeline::toStart);
  button(QStyle::SP_MediaSeekBackward, "One output step back (Left)", &Timeline::stepBack);
  play_ = button(QStyle::SP_MediaPlay, "Play / pause (Space)", &Timeline::togglePlay);
  play_->setObjectName("playButton");
  button(QStyle::SP_MediaSeekForward, "One output step forward (Right)", &Timeline::stepForward);
  button(QStyle::SP_MediaSkipForward, "To the end (End)", &Timeline::toEnd);
  slider_ = new QSlider(Qt::Horizontal, this);
  slider_->setObjectName("timeSlider");
  slider_->setRange(0, 0);
  h->addWidget(slider_, 1);
  label_ = new QLabel("t = 00:00:00 / 00:00:00", this);
  label_->setObjectName("timeLabel");
  label_->setMinimumWidth(170);
  h->addWidget(label_);
  h->addWidget(new QLabel("Speed:", this));
  speed_ = new QComboBox(this);
  for (double s : kSpeeds) speed_->addItem(QString("%1×").arg(s));
  speed_->setCurrentIndex(3);
  speed_->setToolTip("Simulated seconds per real second");
  h->addWidget(speed_);
  follow_ = new QCheckBox("Follow run", this);
  follow_->setToolTip("Stay at the newest results while a simulation runs");
  follow_->setChecked(true);
  h->addWidget(follow_);
  timer_ = new QTimer(this);
  timer_->setInterval(40);
  connect(timer_, &QTimer::timeout, this, &Timeline::tick);
  connect(slider_, &QSlider::valueChanged, this, [this](int k) { setRow(k, true); });
}

void Timeline::setTimes(const std::vector<double>& times) {
  const bool at_end = times_.empty() || row_ >= int(times_.size()) - 1;
  times_ = times;
  const int n = int(times_.size());
  {
    QSignalBlocker block(slider_);
    slider_->setRange(0, std::max(0, n - 1));
  }
  if (n == 0) {
    row_ = 0;
    t_ = 0;
    label_->setText("t = 00:00:00 / 00:00:00");
    emit timeChanged(0);
    return;
  }
  if (following() && at_end)
    setRow(n - 1, false);
  else
    setRow(std::clamp(
               int(std::upper_bound(times_.begin(), times_.end(), t_ + 1e-9) - times_.begin()) - 1,
               0, n - 1),
           false);
}

bool Timeline::playing() const {
  return timer_->isActive();
}
bool Timeline::following() const {
  return follow_->isChecked();
}
void Timeline::setFollowing(bool on) {
  follow_->setChecked(on);
}
double Timeline::speed() const {
  return kSpeeds[std::clamp(speed_->currentIndex(), 0, 7)];
}
void Timeline::setSpeedIndex(int k) {
  speed_->setCurrentIndex(std::clamp(k, 0, 7));
}
int Timeline::speedIndex() const {
  return speed_->currentIndex();
}

void Timeline::setCalendar(const RunData* d) {
  has_calendar_ = d && d->has_calendar;
  year_start_ = d ? d->year_start : 0;
  utc_offset_ = d ? d->utc_offset : 0;
  updateLabel();
}

void Timeline::updateLabel() {
  if (times_.empty()) return;
  QString text = QString("t = %1 / %2").arg(formatTime(t_), formatTime(times_.back()));
  if (has_calendar_)  // the date in the weather's local standard time
    text += QString("   %1 %2")
                .arg(QString::fromStdString(calendarText(year_start_ + t_)),
                     QString::fromStdString(utcOffsetText(utc_offset_)));
  label_->setText(text);
}

void Timeline::seek(double t) {
  if (times_.empty()) return;
  const int k = int(std::upper_bound(times_.begin(), times_.end(), t + 1e-9) - times_.begin()) - 1;
  setRow(std::clamp(k, 0, int(times_.size()) - 1), false);
}

void Timeline::setRow(int k, bool from_slider) {
  if (times_.empty()) return;
  k = std::clamp(k, 0, int(times_.size()) - 1);
  // scrubbing away from the end stops following a live run
  if (from_slider && k < int(times_.size()) - 1 && !playing()) follow_->setChecked(false);
  row_ = k;
  t_ = times_[k];
  play_t_ = t_;
  if (!from_slider) {
    QSignalBlocker block(slider_);
    slider_->setValue(k);
  }
  updateLabel();
  emit timeChanged(t_);
}

void Timeline::play() {
  if (times_.empty()) return;
  if (row_ >= int(times_.size()) - 1) setRow(0, false);
  last_tick_ms_ = QDateTime::currentMSecsSinceEpoch();
  play_t_ = t_;
  timer_->start();
  play_->setIcon(style()->standardIcon(QStyle::SP_MediaPause));
}

void Timeline::pause() {
  timer_->stop();
  play_->setIcon(style()->standardIcon(QStyle::SP_MediaPlay));
}

void Timeline::togglePlay() {
  playing() ? pause() : play();
}
void Timeline::stepForward() {
  setRow(row_ + 1, false);
}
void Timeline::stepBack() {
  setRow(row_ - 1, false);
}
void Timeline::toStart() {
  setRow(0, false);
}
void Timeline::toEnd() {
  setRow(int(times_.size()) - 1, false);
}

void Timeline::tick() {
  const qint64 now = QDateTime::currentMSecsSinceEpoch();
  const double dt = (now - last_tick_ms_) / 1000.0 * speed();
  last_tick_ms_ = now;
  if (times_.empty()) return pause();
  play_t_ += dt;
  const double target = play_t_;
  int k = int(std::upper_bound(times_.begin(), times_.end(), target + 1e-9) - times_.begin()) - 1;
  k = std::clamp(k, row_, int(times_.size()) - 1);
  if (k != row_) {
    const double keep = play_t_;
    setRow(k, false);
    play_t_ = keep;
  }
  if (row_ >= int(times_.size()) - 1) pause();
}

}  // namespace dctwin::gui
