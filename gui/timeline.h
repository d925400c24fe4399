// timeline.h: the run's time axis: play/pause, scrub (slider over the output rows), step, speed
// (simulated seconds per real second), and "follow" (stay at the newest row while a run streams)
#pragma once

#include <QWidget>
#include <vector>

class QComboBox;
class QCheckBox;
class QLabel;
class QSlider;
class QTimer;
class QToolButton;

namespace dctwin::gui {

struct RunData;

class Timeline : public QWidget {
  Q_OBJECT
 public:
  explicit Timeline(QWidget* parent = nullptr);
  // the output times (s); keeps the current time where possible, or the end when following
  void setTimes(const std::vector<double>& times);
  // the run whose calendar the label shows beside the run time (its date and time zone when it
  // has one: a plant's weather); nullptr: run time only. Only the calendar is kept.
  void setCalendar(const RunData* d);
  double time() const { return t_; }
  bool playing() const;
  bool following() const;
  void setFollowing(bool on);
  double speed() const;  // simulated s per real s
  void setSpeedIndex(int k);
  int speedIndex() const;

 public slots:
  void seek(double t);  // to the last row at or before t
  void play();
  void pause();
  void togglePlay();
  void stepForward();
  void stepBack();
  void toStart();
  void toEnd();

 signals:
  void timeChanged(double t);

 private:
  void setRow(int k, bool from_slider);
  void updateLabel();
  void tick();

  std::vector<double> times_;
  bool has_calendar_ = false;
  double year_start_ = 0, utc_offset_ = 0;
  double t_ = 0;
  int row_ = 0;
  QToolButton* play_ = nullptr;
  QSlider* slider_ = nullptr;
  QLabel* label_ = nullptr;
  QComboBox* speed_ = nullptr;
  QCheckBox* follow_ = nullptr;
  QTimer* timer_ = nullptr;
  qint64 last_tick_ms_ = 0;
  double play_t_ = 0;  // playback clock, between output rows
};

}  // namespace dctwin::gui
