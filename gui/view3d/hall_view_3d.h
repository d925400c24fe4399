// hall_view_3d.h: the 3D hall view of dctwin-gui, racks and CDUs as coloured boxes rendered by VTK
//
// A QWidget hosting VTK 9.1 through a private QOpenGLWidget (Debian's VTK Qt modules are Qt5-only,
// see docs/gui-3d-view.md). The interface is plain geometry and colours, no VTK and no solver
// types: the GUI maps its model onto boxes and lines and pushes colours as results arrive.
//
//   dctwin::gui::HallView3D::setDefaultSurfaceFormat();  // before the QApplication
//   QApplication app(argc, argv);
//   HallView3D view;
//   view.setScene(boxes, lines);                          // geometry, once per facility
//   view.setColors(colors);                               // per output step, cheap
#pragma once
#include <QColor>
#include <QImage>
#include <QPointF>
#include <QString>
#include <QWidget>
#include <memory>
#include <vector>

namespace dctwin::gui {

// one rack or CDU, axis-aligned, metres, floor plan x/y, z up
struct Box3D {
  double x0, y0, z0, x1, y1, z1;
  QString label;  // "A03", "cdu1" (tooltips / picking)
  int kind = 0;   // 0 rack, 1 CDU, 2 other
};

// pipes, busways: polyline points x,y,z,...; width in pixels
struct Line3D {
  std::vector<double> xyz;
  QColor color;
  double width = 2;
};

class HallView3D : public QWidget {
  Q_OBJECT
 public:
  explicit HallView3D(QWidget* parent = nullptr);
  ~HallView3D() override;

  // Sets the OpenGL 3.2 core profile with a depth buffer as the application default. VTK needs it:
  // call once before constructing the QApplication.
  static void setDefaultSurfaceFormat();
  // Whether this platform can render the view (not QT_QPA_PLATFORM=offscreen or minimal, where
  // QOpenGLWidget crashes or has no GL). Where it cannot, the widget shows a notice, renderImage()
  // returns a null image, and everything else (scene, picking, camera) still works. Call after
  // the QApplication exists.
  static bool isAvailable();

  // The blue -> red ramp of the legend: v in [lo, hi] (clamped; NaN gives grey), so that box
  // colours and the scalar bar agree.
  static QColor rampColor(double v, double lo, double hi);

  // Replaces the scene and resets the camera. Boxes start in a neutral colour per kind; lines keep
  // their own colours. Selection is cleared.
  void setScene(const std::vector<Box3D>& boxes, const std::vector<Line3D>& lines);
  // One colour per box, in setScene order (extra entries ignored, missing ones keep their colour);
  // alpha is ignored. Updates a colour array only: cheap, may be called many times per second.
  void setColors(const std::vector<QColor>& colors);
  // Outlines one box; -1 for none.
  void setSelected(int box);
  int selected() const;
  // Scalar bar with the rampColor() ramp; clearLegend() hides it. `labels` labels from lo to hi
  // with `decimals` places (round ticks when lo and hi are ticks `labels - 1` steps apart)
  void setLegend(const QString& title, double lo, double hi, const QString& unit, int labels = 5,
                 int decimals = 1);
  // Categorical legend instead of the bar: one swatch per (name, colour), e.g. the leak states
  void setCategories(const QString& title, const std::vector<std::pair<QString, QColor>>& entries);
  int categoryCount() const;
  void clearLegend();
  // Looks at the scene from the front-left, above the floor, with the boxes filling the view
  // (left of the legend). Until the user moves the camera, resizes and the legend refit it.
  void resetCamera();
  // Renders the current frame and returns it (device pixels; size() * devicePixelRatio); works
  // before the widget is first shown too. Null where !isAvailable().
  QImage renderImage();

  int boxCount() const;
  // The box under a widget position (logical pixels), -1 on empty space.
  int pickAt(const QPoint& pos);
  // Widget position (logical pixels) of a world point with the current camera.
  QPointF projectToWidget(double x, double y, double z) const;
  // Distance from the camera to its focal point, metres (for tests and zoom displays).
  double cameraDistance() const;

 signals:
  void boxClicked(int box);  // left click without drag picks a box, -1 on empty space
  void boxHovered(int box);  // box under the mouse changed, -1 when none

 protected:
  void mousePressEvent(QMouseEvent* e) override;
  void mouseMoveEvent(QMouseEvent* e) override;
  void mouseReleaseEvent(QMouseEvent* e) override;
  void wheelEvent(QWheelEvent* e) override;
  void leaveEvent(QEvent* e) override;
  void resizeEvent(QResizeEvent* e) override;
  void paintEvent(QPaintEvent* e) override;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace dctwin::gui
