// view3d_test.cpp: QTest checks of the 3D hall view (gui/view3d) under a real X display (Xvfb)
//
// QOpenGLWidget segfaults under QT_QPA_PLATFORM=offscreen (docs/gui-3d-view.md), so the rendering
// tests need X: run_with_display.sh provides it, and without any display the binary exits 77
// (ctest: skipped). With QT_QPA_PLATFORM=offscreen it checks the view's fallback instead.
// The scene is 2 rows x 8 racks of 0.6 m x 1.2 m x 2.2 m plus one CDU, laid out like the
// ParaView export (solver/output/vtk/vtk_export.cpp). Writes view3d.png next to the test binary.
#include "gui/view3d/hall_view_3d.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QMouseEvent>
#include <QSignalSpy>
#include <QTest>
#include <QWheelEvent>

#include <cstdio>
#include <cstdlib>

using dctwin::gui::Box3D;
using dctwin::gui::HallView3D;
using dctwin::gui::Line3D;

namespace {

constexpr double kW = 0.6, kD = 1.2, kH = 2.2, kPitch = 3.6;  // as solver/output/vtk/vtk_export.h

Box3D rack(int row, int index) {
  const double x = index * kW, y = row * kPitch;
  return {x, y, 0, x + kW, y + kD, kH, QString("%1%2").arg(QChar('A' + row)).arg(index + 1), 0};
}

// 2 rows x 8 racks (boxes 0..15, row-major), then one CDU (box 16) before row A
std::vector<Box3D> smallHall() {
  std::vector<Box3D> boxes;
  for (int row = 0; row < 2; ++row)
    for (int i = 0; i < 8; ++i) boxes.push_back(rack(row, i));
  boxes.push_back({-1.2, 0, 0, -0.6, 1.2, 2.0, "cdu1", 1});
  return boxes;
}

// supply pipes from the CDU to each rack at 2.4 m, as in the ParaView export
std::vector<Line3D> smallPipes(const std::vector<Box3D>& boxes) {
  std::vector<Line3D> lines;
  for (int r = 0; r < 16; ++r) {
    const Box3D& b = boxes[r];
    const double xr = (b.x0 + b.x1) / 2, yr = (b.y0 + b.y1) / 2;
    lines.push_back({{-0.9, 0.6, 2.4, xr, 0.6, 2.4, xr, yr, 2.4}, QColor(40, 90, 220), 2});
  }
  return lines;
}

bool isRed(QRgb p) {
  return qRed(p) > 170 && qGreen(p) < 90 && qBlue(p) < 90;
}
bool isYellow(QRgb p) {
  return qRed(p) > 200 && qGreen(p) > 150 && qBlue(p) < 80;
}

int count(const QImage& img, bool (*pred)(QRgb)) {
  const QImage im = img.convertToFormat(QImage::Format_RGB32);
  int n = 0;
  for (int y = 0; y < im.height(); ++y) {
    const auto* line = reinterpret_cast<const QRgb*>(im.constScanLine(y));
    for (int x = 0; x < im.width(); ++x) n += pred(line[x]) ? 1 : 0;
  }
  return n;
}

QPoint topCentre(const HallView3D& v, const Box3D& b) {
  return v.projectToWidget((b.x0 + b.x1) / 2, (b.y0 + b.y1) / 2, b.z1).toPoint();
}

void sendMouse(QWidget* w, QEvent::Type type, QPoint pos, Qt::MouseButton button,
               Qt::MouseButtons buttons, Qt::KeyboardModifiers mod = Qt::NoModifier) {
  QMouseEvent e(type, QPointF(pos), w->mapToGlobal(QPointF(pos)), button, buttons, mod);
  QApplication::sendEvent(w, &e);
}

void sendWheel(QWidget* w, QPoint pos, int delta) {
  QWheelEvent e(QPointF(pos), w->mapToGlobal(QPointF(pos)), QPoint(), QPoint(0, delta),
                Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
  QApplication::sendEvent(w, &e);
}

}  // namespace

class View3DTest : public QObject {
  Q_OBJECT
  std::unique_ptr<HallView3D> view_;
  std::vector<Box3D> boxes_;

 private slots:
  void initTestCase() {
    view_ = std::make_unique<HallView3D>();
    view_->resize(800, 600);
    boxes_ = smallHall();
    view_->setScene(boxes_, smallPipes(boxes_));
    view_->show();
    QVERIFY(QTest::qWaitForWindowExposed(view_.get()));
    QCOMPARE(view_->boxCount(), 17);
  }

  void rendersSomething() {
    const QImage img = view_->renderImage();
    QVERIFY(!img.isNull());
    QCOMPARE(img.size(), view_->size() * view_->devicePixelRatio());
    // not blank: the boxes, edges and floor give many distinct colours, and not all black
    QSet<QRgb> colours;
    int black = 0;
    const QImage im = img.convertToFormat(QImage::Format_RGB32);
    for (int y = 0; y < im.height(); y += 2)
      for (int x = 0; x < im.width(); x += 2) {
        const QRgb p = im.pixel(x, y);
        colours.insert(p);
        black += (qRed(p) + qGreen(p) + qBlue(p) < 30) ? 1 : 0;
      }
    qInfo("distinct colours %lld, near-black pixels %d of %d",
          static_cast<long long>(colours.size()), black, (im.width() / 2) * (im.height() / 2));
    QVERIFY(colours.size() > 50);
    QVERIFY(black < (im.width() / 2) * (im.height() / 2) / 10);
    // the boxes cover a good part of the frame: compare with the empty scene (background, floor)
    view_->setScene({}, {});
    const QImage empty = view_->renderImage().convertToFormat(QImage::Format_RGB32);
    view_->setScene(boxes_, smallPipes(boxes_));
    int differ = 0;
    for (int y = 0; y < im.height(); ++y)
      for (int x = 0; x < im.width(); ++x) {
        const QRgb a = im.pixel(x, y), b = empty.pixel(x, y);
        differ += std::abs(qRed(a) - qRed(b)) + std::abs(qGreen(a) - qGreen(b)) +
                              std::abs(qBlue(a) - qBlue(b)) >
                          40
                      ? 1
                      : 0;
      }
    qInfo("pixels that differ from the empty scene: %d of %d", differ, im.width() * im.height());
    QVERIFY(differ > im.width() * im.height() / 5);
  }

  void colorsShow() {
    const int red0 = count(view_->renderImage(), isRed);
    std::vector<QColor> colors(boxes_.size(), QColor(30, 60, 230));
    colors[3] = QColor(230, 20, 20);
    view_->setColors(colors);
    const QImage img = view_->renderImage();
    const int red1 = count(img, isRed);
    qInfo("red pixels before %d, after %d", red0, red1);
    QVERIFY(red1 > 200);
    QVERIFY(red1 > red0 + 200);
    // the red rack is where box 3 projects
    const QPoint c = topCentre(*view_, boxes_[3]) * view_->devicePixelRatio();
    const QRgb p = img.convertToFormat(QImage::Format_RGB32).pixel(c + QPoint(0, 3));
    QVERIFY2(qRed(p) > qBlue(p), "the pixel just below box 3's top centre is not red");
    // all red again: far more red
    view_->setColors(std::vector<QColor>(boxes_.size(), QColor(230, 20, 20)));
    QVERIFY(count(view_->renderImage(), isRed) > 4 * red1);
    view_->setColors(colors);
  }

  void clickPicksBox() {
    QSignalSpy clicked(view_.get(), &HallView3D::boxClicked);
    for (int b : {3, 12, 16}) {
      const QPoint p = topCentre(*view_, boxes_[b]);
      QVERIFY(view_->rect().contains(p));
      QCOMPARE(view_->pickAt(p), b);
      QTest::mouseClick(view_.get(), Qt::LeftButton, Qt::NoModifier, p);
      QCOMPARE(clicked.count(), 1);
      QCOMPARE(clicked.takeFirst().at(0).toInt(), b);
    }
    // the top-left corner is sky: -1
    QTest::mouseClick(view_.get(), Qt::LeftButton, Qt::NoModifier, QPoint(5, 5));
    QCOMPARE(clicked.count(), 1);
    QCOMPARE(clicked.takeFirst().at(0).toInt(), -1);
  }

  void dragOrbitsWithoutClick() {
    QSignalSpy clicked(view_.get(), &HallView3D::boxClicked);
    const QPoint p = topCentre(*view_, boxes_[5]);
    const QPointF before = view_->projectToWidget(0, 0, 0);
    sendMouse(view_.get(), QEvent::MouseButtonPress, p, Qt::LeftButton, Qt::LeftButton);
    for (int k = 1; k <= 8; ++k)
      sendMouse(view_.get(), QEvent::MouseMove, p + QPoint(8 * k, 3 * k), Qt::NoButton,
                Qt::LeftButton);
    sendMouse(view_.get(), QEvent::MouseButtonRelease, p + QPoint(64, 24), Qt::LeftButton,
              Qt::NoButton);
    const QPointF after = view_->projectToWidget(0, 0, 0);
    qInfo("origin on screen before (%.1f, %.1f), after orbit (%.1f, %.1f)", before.x(), before.y(),
          after.x(), after.y());
    QCOMPARE(clicked.count(), 0);
    QVERIFY((after - before).manhattanLength() > 5);
    QVERIFY(!view_->renderImage().isNull());
    view_->resetCamera();
    QCOMPARE(view_->projectToWidget(0, 0, 0), before);
  }

  void wheelZooms() {
    const QPoint mid = view_->rect().center();
    const double d0 = view_->cameraDistance();
    sendWheel(view_.get(), mid, 120);
    const double d1 = view_->cameraDistance();
    sendWheel(view_.get(), mid, -240);
    const double d2 = view_->cameraDistance();
    qInfo("camera distance %.3f -> wheel in %.3f -> wheel out %.3f m", d0, d1, d2);
    QVERIFY(d1 < 0.99 * d0);
    QVERIFY(d2 > 1.01 * d1 && d2 > d0);
    view_->resetCamera();
    QCOMPARE(view_->cameraDistance(), d0);
  }

  void hoverReportsBox() {
    QSignalSpy hovered(view_.get(), &HallView3D::boxHovered);
    sendMouse(view_.get(), QEvent::MouseMove, topCentre(*view_, boxes_[9]), Qt::NoButton,
              Qt::NoButton);
    QCOMPARE(hovered.count(), 1);
    QCOMPARE(hovered.takeFirst().at(0).toInt(), 9);
    QCOMPARE(view_->toolTip(), QString("B2"));
    sendMouse(view_.get(), QEvent::MouseMove, QPoint(5, 5), Qt::NoButton, Qt::NoButton);
    QCOMPARE(hovered.count(), 1);
    QCOMPARE(hovered.takeFirst().at(0).toInt(), -1);
  }

  void selectionOutlines() {
    const int y0 = count(view_->renderImage(), isYellow);
    view_->setSelected(5);
    QCOMPARE(view_->selected(), 5);
    const int y1 = count(view_->renderImage(), isYellow);
    qInfo("yellow pixels before %d, with box 5 selected %d", y0, y1);
    QVERIFY(y1 > y0 + 100);
    view_->setSelected(-1);
    QCOMPARE(count(view_->renderImage(), isYellow), y0);
    view_->setSelected(99);  // out of range: none
    QCOMPARE(view_->selected(), -1);
  }

  void legendAndPng() {
    view_->setLegend("T_outlet", 25, 45, QString::fromUtf8("\u00b0C"));
    std::vector<QColor> colors;
    for (std::size_t b = 0; b < boxes_.size(); ++b)
      colors.push_back(HallView3D::rampColor(25 + 20.0 * b / (boxes_.size() - 1), 25, 45));
    view_->setColors(colors);
    view_->setSelected(3);
    const QImage img = view_->renderImage();
    // the scalar bar sits at the right (its labels right of it): saturated blue and red both
    // appear in the right fifth
    const QImage right = img.copy(img.width() * 4 / 5, 0, img.width() / 5, img.height());
    QVERIFY(count(right, isRed) > 50);
    QVERIFY(count(right, [](QRgb p) { return qBlue(p) > 200 && qRed(p) < 60 && qGreen(p) < 60; }) >
            50);
    QVERIFY(img.save(DCTWIN_VIEW3D_PNG));
    qInfo("wrote %s", DCTWIN_VIEW3D_PNG);
    view_->clearLegend();
    QVERIFY(
        count(view_->renderImage().copy(img.width() * 9 / 10, 0, img.width() / 10, img.height()),
              isRed) < 10);
    // categories (the leak states) instead of the bar: every entry drawn with its swatch
    view_->setCategories("Leak / isolation state", {{"normal", QColor(76, 175, 80)},
                                                    {"CDU coolant lost", QColor(216, 27, 96)}});
    QCOMPARE(view_->categoryCount(), 2);
    const QImage cat = view_->renderImage();
    const QImage side = cat.copy(cat.width() * 3 / 4, 0, cat.width() / 4, cat.height());
    QVERIFY(count(side, [](QRgb p) {
              return std::abs(qRed(p) - 216) < 30 && qGreen(p) < 70 && std::abs(qBlue(p) - 96) < 40;
            }) > 10);
    view_->clearLegend();
    QCOMPARE(view_->categoryCount(), 0);
  }

  void rampEnds() {
    QCOMPARE(HallView3D::rampColor(0, 0, 1).blue(), 255);
    QCOMPARE(HallView3D::rampColor(1, 0, 1).red(), 255);
    QCOMPARE(HallView3D::rampColor(2, 0, 1), HallView3D::rampColor(1, 0, 1));
    QCOMPARE(HallView3D::rampColor(std::nan(""), 0, 1), QColor(128, 128, 128));
  }

  void hiddenViewIsSafe() {
    // everything before the widget is ever shown (no GL context yet), then destroyed unshown
    HallView3D v;
    v.resize(400, 300);
    v.setScene(boxes_, {});
    v.setColors(std::vector<QColor>(boxes_.size(), Qt::red));
    v.setSelected(2);
    v.setLegend("P", 0, 1, "kW");
    v.resetCamera();
    QVERIFY(v.cameraDistance() > 0);
    const int b = v.pickAt(QPoint(200, 150));
    QVERIFY(b >= -1 && b < v.boxCount());
    const QImage img = v.renderImage();  // a frame where the platform can render unshown, else null
    QVERIFY(img.isNull() || img.size() == QSize(400, 300) * v.devicePixelRatio());
    qInfo("renderImage of a never-shown view: %s %dx%d", img.isNull() ? "null" : "a frame",
          img.width(), img.height());
    if (!img.isNull()) QVERIFY(count(img, isRed) > 1000);
  }

  void survivesNewContext() {
    // moving the view into another top-level window gives it a new GL context: VTK must
    // release its resources on the old one and start again on the new one
    std::vector<QColor> colors(boxes_.size(), QColor(30, 60, 230));
    colors[3] = QColor(230, 20, 20);
    view_->setColors(colors);
    const int red0 = count(view_->renderImage(), isRed);
    QWidget other;
    other.resize(800, 600);
    view_->setParent(&other);
    view_->resize(800, 600);
    other.show();
    QVERIFY(QTest::qWaitForWindowExposed(&other));
    const int red1 = count(view_->renderImage(), isRed);
    qInfo("red pixels in the first window %d, after moving to another %d", red0, red1);
    QVERIFY(red1 > 200);
    QVERIFY(std::abs(red1 - red0) < red0 / 10 + 20);
    // and a second view alongside, with its own context
    HallView3D second(&other);
    second.setScene({boxes_[3]}, {});
    second.setColors({QColor(230, 20, 20)});
    second.setGeometry(0, 0, 300, 200);
    second.show();
    QVERIFY(count(second.renderImage(), isRed) > 1000);
    QVERIFY(count(view_->renderImage(), isRed) > 200);
    // back to a top-level of its own
    view_->setParent(nullptr);
    view_->resize(800, 600);
    view_->show();
    QVERIFY(QTest::qWaitForWindowExposed(view_.get()));
    QVERIFY(count(view_->renderImage(), isRed) > 200);
  }

  void campusScale() {
    // 4 halls x 40 rows x (24 racks + 1 CDU) = 4,000 boxes, about a campus
    std::vector<Box3D> boxes;
    for (int hall = 0; hall < 4; ++hall)
      for (int row = 0; row < 40; ++row) {
        for (int i = 0; i < 24; ++i) {
          Box3D b = rack(row, i);
          b.x0 += hall * 20, b.x1 += hall * 20;
          boxes.push_back(b);
        }
        const double x = hall * 20 - 1.2, y = row * kPitch;
        boxes.push_back({x, y, 0, x + kW, y + kD, 2.0, "cdu", 1});
      }
    QElapsedTimer t;
    t.start();
    view_->setScene(boxes, {});
    const double t_scene = t.nsecsElapsed() / 1e6;
    t.restart();
    QImage img = view_->renderImage();
    const double t_first = t.nsecsElapsed() / 1e6;
    QVERIFY(!img.isNull());
    std::vector<QColor> colors(boxes.size());
    t.restart();
    for (int k = 0; k < 100; ++k) {
      for (std::size_t b = 0; b < boxes.size(); ++b)
        colors[b] = HallView3D::rampColor(static_cast<double>((b + k) % 100), 0, 99);
      view_->setColors(colors);
    }
    const double t_colors = t.nsecsElapsed() / 1e6;
    t.restart();
    const int frames = 20;
    for (int k = 0; k < frames; ++k) {
      for (std::size_t b = 0; b < boxes.size(); ++b)
        colors[b] = HallView3D::rampColor(static_cast<double>((b + 7 * k) % 100), 0, 99);
      view_->setColors(colors);
      img = view_->renderImage();
    }
    const double t_frames = t.nsecsElapsed() / 1e6;
    t.restart();
    for (int k = 0; k < frames; ++k) img = view_->renderImage();
    const double t_render = t.nsecsElapsed() / 1e6;
    // hover picks on every mouse move: a sweep across the view
    t.restart();
    int hits = 0;
    for (int k = 0; k < 100; ++k)
      hits += view_->pickAt(QPoint(8 * k % view_->width(), view_->height() / 2)) >= 0 ? 1 : 0;
    const double t_pick = t.nsecsElapsed() / 1e6;
    QVERIFY(hits > 0);
    std::printf(
        "campus: %zu boxes: setScene %.1f ms, first render %.1f ms, 100 x setColors %.1f ms "
        "(%.3f ms each), setColors + render %.1f ms per frame, render alone %.1f ms, pick %.3f "
        "ms\n",
        boxes.size(), t_scene, t_first, t_colors, t_colors / 100, t_frames / frames,
        t_render / frames, t_pick / 100);
    std::fflush(stdout);
    QCOMPARE(view_->boxCount(), 4000);
    QVERIFY(!img.isNull());
    QVERIFY(img.save(DCTWIN_VIEW3D_CAMPUS_PNG));
  }

  void cleanupTestCase() { view_.reset(); }
};

// Under QT_QPA_PLATFORM=offscreen (how the other GUI tests run) the view must not crash: it
// shows a notice instead of a QOpenGLWidget, and its scene, camera and picking still work.
class View3DOffscreenTest : public QObject {
  Q_OBJECT
 private slots:
  void fallsBackWithoutGl() {
    QVERIFY(!HallView3D::isAvailable());
    HallView3D v;
    v.resize(800, 600);
    const std::vector<Box3D> boxes = smallHall();
    v.setScene(boxes, smallPipes(boxes));
    v.setColors(std::vector<QColor>(boxes.size(), Qt::red));
    v.setLegend("T", 0, 1, "K");
    v.setSelected(3);
    v.show();
    QVERIFY(QTest::qWaitForWindowExposed(&v));
    QVERIFY(v.renderImage().isNull());
    // the notice is painted, not black
    const QImage shot = v.grab().toImage().convertToFormat(QImage::Format_RGB32);
    QCOMPARE(shot.size(), v.size() * v.devicePixelRatio());
    QVERIFY(qGray(shot.pixel(5, 5)) > 150);
    // picking and clicks work from the camera alone
    QSignalSpy clicked(&v, &HallView3D::boxClicked);
    const QPoint p = topCentre(v, boxes[12]);
    QCOMPARE(v.pickAt(p), 12);
    QTest::mouseClick(&v, Qt::LeftButton, Qt::NoModifier, p);
    QCOMPARE(clicked.count(), 1);
    QCOMPARE(clicked.takeFirst().at(0).toInt(), 12);
    const double d0 = v.cameraDistance();
    sendWheel(&v, v.rect().center(), 120);
    QVERIFY(v.cameraDistance() < d0);
  }
};

int main(int argc, char** argv) {
  // QOpenGLWidget needs a real display; the offscreen platform crashes (docs/gui-3d-view.md), so
  // there only the fallback is tested
  const QByteArray qpa = qgetenv("QT_QPA_PLATFORM");
  if (qpa.startsWith("offscreen")) {
    QApplication app(argc, argv);
    View3DOffscreenTest t;
    return QTest::qExec(&t, argc, argv);
  }
  if ((qEnvironmentVariableIsEmpty("DISPLAY") && qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY")) ||
      qpa.startsWith("minimal")) {
    std::printf("view3d_tests: SKIP: no display (set DISPLAY or run under xvfb-run)\n");
    return 77;
  }
  HallView3D::setDefaultSurfaceFormat();
  QApplication app(argc, argv);
  View3DTest t;
  return QTest::qExec(&t, argc, argv);
}

#include "view3d_test.moc"
