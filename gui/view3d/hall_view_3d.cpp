// hall_view_3d.cpp: HallView3D, VTK 9.1 rendering inside a Qt6 QOpenGLWidget (see hall_view_3d.h)
//
//   HallView3D (QWidget)        mouse and wheel events -> vtkGenericRenderWindowInteractor, picking
//     GLView (QOpenGLWidget)    owns the GL context; transparent for mouse events
//       vtkGenericOpenGLRenderWindow renders into its own FBOs inside that context, only from
//       paintGL; paintGL then blits VTK's display framebuffer into the widget's framebuffer
//       (the scheme of VTK's Qt5 QVTKOpenGLNativeWidget; docs/gui-3d-view.md).
//
// Scene: one vtkPolyData for all boxes (8 points and 6 quads per box, per-cell RGB colours; no
// normals, so the mapper shades each face flat), one for their edges, one per line width for the
// lines, a floor plane, an outline for the selected box and a scalar bar. setColors() rewrites
// the colour array only.
#include "gui/view3d/hall_view_3d.h"

#include <QApplication>
#include <QMouseEvent>
#include <QOpenGLContext>
#include <QOpenGLExtraFunctions>
#include <QOpenGLWidget>
#include <QPainter>
#include <QSurfaceFormat>
#include <QWheelEvent>

#include <vtkActor.h>
#include <vtkCallbackCommand.h>
#include <vtkCamera.h>
#include <vtkCellArray.h>
#include <vtkCellData.h>
#include <vtkCellPicker.h>
#include <vtkCommand.h>
#include <vtkCoordinate.h>
#include <vtkGenericOpenGLRenderWindow.h>
#include <vtkGenericRenderWindowInteractor.h>
#include <vtkInteractorStyleTrackballCamera.h>
#include <vtkLegendBoxActor.h>
#include <vtkLightKit.h>
#include <vtkLookupTable.h>
#include <vtkNew.h>
#include <vtkOpenGLState.h>
#include <vtkPlaneSource.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>
#include <vtkRenderer.h>
#include <vtkScalarBarActor.h>
#include <vtkSmartPointer.h>
#include <vtkStaticCellLocator.h>
#include <vtkTextProperty.h>
#include <vtkUnsignedCharArray.h>

#include <algorithm>
#include <cmath>
#include <map>

namespace dctwin::gui {

namespace {

constexpr int kFacesPerBox = 6;
constexpr double kHueBlue = 0.667;  // rampColor: hue from blue (lo) to red (hi)

// corner c (bits: x, y, z) of a box
void corner(const Box3D& b, int c, double p[3]) {
  p[0] = (c & 1) ? b.x1 : b.x0;
  p[1] = (c & 2) ? b.y1 : b.y0;
  p[2] = (c & 4) ? b.z1 : b.z0;
}

// the six faces and twelve edges of a box, as corner numbers
constexpr vtkIdType kFaces[6][4] = {{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4},
                                    {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}};
constexpr vtkIdType kEdges[12][2] = {{0, 1}, {2, 3}, {4, 5}, {6, 7}, {0, 2}, {1, 3},
                                     {4, 6}, {5, 7}, {0, 4}, {1, 5}, {2, 6}, {3, 7}};

QColor kindColor(int kind) {
  switch (kind) {
    case 0:
      return QColor(184, 194, 209);  // rack: light steel
    case 1:
      return QColor(90, 158, 178);  // CDU: teal
    default:
      return QColor(150, 150, 150);
  }
}

// 12 edges of each box (ids into pts, 8 per box) as lines
vtkSmartPointer<vtkCellArray> boxEdges(vtkIdType nbox) {
  auto lines = vtkSmartPointer<vtkCellArray>::New();
  lines->AllocateExact(nbox * 12, nbox * 24);
  for (vtkIdType b = 0; b < nbox; ++b)
    for (const auto& e : kEdges) {
      const vtkIdType ids[2] = {8 * b + e[0], 8 * b + e[1]};
      lines->InsertNextCell(2, ids);
    }
  return lines;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// GLView: the QOpenGLWidget that hosts the vtkGenericOpenGLRenderWindow

class GLView : public QOpenGLWidget {
 public:
  GLView(vtkGenericOpenGLRenderWindow* rw, vtkGenericRenderWindowInteractor* iren, QWidget* parent)
      : QOpenGLWidget(parent), rw_(rw), iren_(iren) {
    setAttribute(Qt::WA_TransparentForMouseEvents);  // HallView3D handles the mouse
    setFocusPolicy(Qt::NoFocus);
    // works without setDefaultSurfaceFormat() too, where the platform allows per-widget formats
    const QSurfaceFormat def = QSurfaceFormat::defaultFormat();
    if (def.profile() != QSurfaceFormat::CoreProfile || def.version() < qMakePair(3, 2))
      setFormat(surfaceFormat());

    // VTK asks through these events to make its context current, whether it is, and tells when
    // a frame is done
    observer_->SetClientData(this);
    observer_->SetCallback([](vtkObject*, unsigned long id, void* self, void* data) {
      static_cast<GLView*>(self)->onVtkEvent(id, data);
    });
    for (unsigned long id : {vtkCommand::WindowMakeCurrentEvent, vtkCommand::WindowIsCurrentEvent,
                             vtkCommand::WindowFrameEvent, vtkCommand::WindowSupportsOpenGLEvent,
                             vtkCommand::WindowIsDirectEvent})
      tags_.push_back(rw_->AddObserver(id, observer_));
  }

  ~GLView() override {
    // release VTK's GL resources while the context still exists; ~QOpenGLWidget then destroys
    // the context, whose aboutToBeDestroyed must no longer reach this half-destroyed object
    QObject::disconnect(about_to_die_);
    releaseVtk();
    for (unsigned long t : tags_) rw_->RemoveObserver(t);
  }

  static QSurfaceFormat surfaceFormat() {
    QSurfaceFormat fmt;
    fmt.setRenderableType(QSurfaceFormat::OpenGL);
    fmt.setVersion(3, 2);
    fmt.setProfile(QSurfaceFormat::CoreProfile);
    fmt.setSwapBehavior(QSurfaceFormat::DoubleBuffer);
    fmt.setRedBufferSize(8);
    fmt.setGreenBufferSize(8);
    fmt.setBlueBufferSize(8);
    fmt.setAlphaBufferSize(8);
    fmt.setDepthBufferSize(24);
    fmt.setStencilBufferSize(0);
    fmt.setSamples(0);  // VTK's own FBOs do any multisampling
    return fmt;
  }

  // render window size in device pixels, following the widget
  void syncSize() {
    const double dpr = devicePixelRatioF();
    const int w = std::max(1, static_cast<int>(std::lround(width() * dpr)));
    const int h = std::max(1, static_cast<int>(std::lround(height() * dpr)));
    const int* s = rw_->GetSize();
    if (s[0] != w || s[1] != h) iren_->UpdateSize(w, h);
  }

 protected:
  void initializeGL() override {
    // a new context (first show, or the widget moved to another window): VTK starts afresh
    QObject::disconnect(about_to_die_);
    about_to_die_ =
        connect(context(), &QOpenGLContext::aboutToBeDestroyed, this, [this] { releaseVtk(); });
    rw_->SetOwnContext(0);
    rw_->SetFrameBlitModeToNoBlit();
    rw_->SetReadyForRendering(true);
    rw_->SetMapped(1);
    rw_->OpenGLInitContext();
    syncSize();
    ready_ = true;
  }

  void resizeGL(int, int) override { syncSize(); }

  void resizeEvent(QResizeEvent* e) override {
    QOpenGLWidget::resizeEvent(e);
    syncSize();
  }

  void paintGL() override {
    QOpenGLExtraFunctions* f = context()->extraFunctions();
    if (!ready_) {
      f->glClearColor(0, 0, 0, 1);
      f->glClear(GL_COLOR_BUFFER_BIT);
      return;
    }
    syncSize();
    in_paint_ = true;
    rw_->Render();
    in_paint_ = false;
    // blit VTK's display framebuffer into ours (VTK's render may have left another FBO bound)
    makeCurrent();
    f->glBindFramebuffer(GL_DRAW_FRAMEBUFFER, defaultFramebufferObject());
    const GLenum buf = GL_COLOR_ATTACHMENT0;
    f->glDrawBuffers(1, &buf);
    const bool scissor = f->glIsEnabled(GL_SCISSOR_TEST) == GL_TRUE;
    if (scissor) {
      rw_->GetState()->vtkglDisable(GL_SCISSOR_TEST);
      f->glDisable(GL_SCISSOR_TEST);
    }
    const int* s = rw_->GetSize();
    rw_->BlitDisplayFramebuffer(0, 0, 0, s[0], s[1], 0, 0, s[0], s[1], GL_COLOR_BUFFER_BIT,
                                GL_LINEAR);
    // opaque alpha, else Mesa composes the view with what lies behind the window
    GLboolean mask[4];
    f->glGetBooleanv(GL_COLOR_WRITEMASK, mask);
    GLfloat clear[4];
    f->glGetFloatv(GL_COLOR_CLEAR_VALUE, clear);
    f->glColorMask(GL_FALSE, GL_FALSE, GL_FALSE, GL_TRUE);
    f->glClearColor(0, 0, 0, 1);
    f->glViewport(0, 0, s[0], s[1]);
    f->glClear(GL_COLOR_BUFFER_BIT);
    f->glColorMask(mask[0], mask[1], mask[2], mask[3]);
    f->glClearColor(clear[0], clear[1], clear[2], clear[3]);
    if (scissor) {
      rw_->GetState()->vtkglEnable(GL_SCISSOR_TEST);
      f->glEnable(GL_SCISSOR_TEST);
    }
  }

 private:
  void onVtkEvent(unsigned long id, void* data) {
    switch (id) {
      case vtkCommand::WindowMakeCurrentEvent:
        // the context's own makeCurrent: QOpenGLWidget::makeCurrent() would rebind Qt's FBO
        // behind vtkOpenGLState's back (docs/gui-3d-view.md)
        if (context()) context()->makeCurrent(context()->surface());
        break;
      case vtkCommand::WindowIsCurrentEvent: {
        QOpenGLContext* cur = QOpenGLContext::currentContext();
        *static_cast<bool*>(data) =
            cur && cur == context() && cur->surface() == context()->surface();
        break;
      }
      case vtkCommand::WindowFrameEvent:
        if (!in_paint_) update();  // a render outside paintGL: show it
        break;
      case vtkCommand::WindowSupportsOpenGLEvent:
      case vtkCommand::WindowIsDirectEvent:
        *static_cast<int*>(data) = 1;
        break;
      default:
        break;
    }
  }

  void releaseVtk() {
    if (!ready_) return;
    makeCurrent();
    rw_->Finalize();  // releases the renderers' GL resources
    rw_->SetReadyForRendering(false);
    doneCurrent();
    ready_ = false;
  }

  vtkGenericOpenGLRenderWindow* rw_;
  vtkGenericRenderWindowInteractor* iren_;
  vtkNew<vtkCallbackCommand> observer_;
  std::vector<unsigned long> tags_;
  QMetaObject::Connection about_to_die_;
  bool ready_ = false;
  bool in_paint_ = false;
};

// ---------------------------------------------------------------------------------------------
// Impl: the VTK pipeline

struct HallView3D::Impl {
  vtkNew<vtkGenericOpenGLRenderWindow> rw;
  vtkNew<vtkGenericRenderWindowInteractor> iren;
  vtkNew<vtkInteractorStyleTrackballCamera> style;
  vtkNew<vtkRenderer> ren;
  QWidget* host = nullptr;
  GLView* gl = nullptr;  // null where the platform cannot host OpenGL widgets (offscreen)

  // boxes
  std::vector<Box3D> boxes;
  vtkNew<vtkPolyData> box_pd;
  vtkNew<vtkUnsignedCharArray> box_rgb;  // 3 x kFacesPerBox per box
  vtkNew<vtkActor> box_actor;
  vtkNew<vtkPolyData> edge_pd;
  vtkNew<vtkActor> edge_actor;
  vtkNew<vtkStaticCellLocator> locator;
  vtkNew<vtkCellPicker> picker;
  // lines, one actor per width
  std::vector<vtkSmartPointer<vtkActor>> line_actors;
  // floor, selection, legend
  vtkNew<vtkPlaneSource> floor_src;
  vtkNew<vtkActor> floor_actor;
  vtkNew<vtkPolyData> sel_pd;
  vtkNew<vtkActor> sel_actor;
  int selected = -1;
  vtkNew<vtkLookupTable> lut;
  vtkNew<vtkScalarBarActor> bar;
  vtkNew<vtkLegendBoxActor> cats;  // categorical legend (leak states, CDU states)
  vtkNew<vtkPolyData> swatch;      // the square each category entry shows

  // mouse
  QPoint press_pos;
  bool left_down = false;
  bool dragged = false;
  int hovered = -1;
  int wheel_accum = 0;
  bool auto_fit = true;  // camera as resetCamera() left it: refit when the widget resizes

  double dpr() const { return host->devicePixelRatioF(); }
  int heightDevice() const { return rw->GetSize()[1]; }
  void redraw() {
    if (gl) gl->update();
  }
  // GL widget and render window sizes follow the host widget
  void sync() {
    if (gl) {
      if (gl->size() != host->size()) gl->setGeometry(host->rect());
      gl->syncSize();
      return;
    }
    const int w = std::max(1, static_cast<int>(std::lround(host->width() * dpr())));
    const int h = std::max(1, static_cast<int>(std::lround(host->height() * dpr())));
    const int* s = rw->GetSize();
    if (s[0] != w || s[1] != h) iren->UpdateSize(w, h);
  }
};

// ---------------------------------------------------------------------------------------------

HallView3D::HallView3D(QWidget* parent) : QWidget(parent), impl_(std::make_unique<Impl>()) {
  Impl& I = *impl_;
  I.rw->SetReadyForRendering(false);  // until the GL context exists (GLView::initializeGL)
  I.rw->SetMultiSamples(0);
  // core profiles need not draw wide lines: wider than 1 pixel goes through VTK's geometry shader
  I.rw->SetForceMaximumHardwareLineWidth(1);
  I.rw->AddRenderer(I.ren);
  I.iren->SetRenderWindow(I.rw);
  I.iren->SetInteractorStyle(I.style);
  I.iren->EnableRenderOff();  // renders happen in paintGL only; events just ask for an update()
  I.iren->Initialize();

  // look: light gradient background, soft key/fill/head lights, FXAA for the box edges
  I.ren->GradientBackgroundOn();
  I.ren->SetBackground(0.78, 0.82, 0.88);   // bottom
  I.ren->SetBackground2(0.96, 0.97, 0.98);  // top
  I.ren->UseFXAAOn();
  I.ren->RemoveAllLights();
  vtkNew<vtkLightKit> lights;
  lights->SetKeyLightIntensity(0.85);
  lights->AddLightsToRenderer(I.ren);

  // boxes: geometry in setScene, colours in setColors
  I.box_rgb->SetNumberOfComponents(3);
  I.box_rgb->SetName("color");
  vtkNew<vtkPolyDataMapper> box_mapper;
  box_mapper->SetInputData(I.box_pd);
  box_mapper->SetScalarModeToUseCellData();
  box_mapper->SetColorModeToDirectScalars();
  box_mapper->ScalarVisibilityOn();
  I.box_actor->SetMapper(box_mapper);
  I.box_actor->GetProperty()->SetAmbient(0.25);
  I.box_actor->GetProperty()->SetDiffuse(0.8);
  I.box_actor->GetProperty()->SetSpecular(0.05);
  I.ren->AddActor(I.box_actor);

  vtkNew<vtkPolyDataMapper> edge_mapper;
  edge_mapper->SetInputData(I.edge_pd);
  edge_mapper->ScalarVisibilityOff();
  I.edge_actor->SetMapper(edge_mapper);
  I.edge_actor->GetProperty()->SetColor(0.22, 0.24, 0.28);
  I.edge_actor->GetProperty()->LightingOff();
  I.edge_actor->PickableOff();
  I.ren->AddActor(I.edge_actor);

  vtkNew<vtkPolyDataMapper> floor_mapper;
  floor_mapper->SetInputConnection(I.floor_src->GetOutputPort());
  I.floor_actor->SetMapper(floor_mapper);
  I.floor_actor->GetProperty()->SetColor(0.68, 0.70, 0.73);
  I.floor_actor->GetProperty()->SetAmbient(0.3);
  I.floor_actor->PickableOff();
  I.ren->AddActor(I.floor_actor);

  vtkNew<vtkPolyDataMapper> sel_mapper;
  sel_mapper->SetInputData(I.sel_pd);
  sel_mapper->ScalarVisibilityOff();
  I.sel_actor->SetMapper(sel_mapper);
  I.sel_actor->GetProperty()->SetColor(1.0, 0.8, 0.0);
  I.sel_actor->GetProperty()->SetLineWidth(4);
  I.sel_actor->GetProperty()->LightingOff();
  I.sel_actor->PickableOff();
  I.sel_actor->VisibilityOff();
  I.ren->AddActor(I.sel_actor);

  I.lut->SetHueRange(kHueBlue, 0.0);
  I.lut->SetSaturationRange(1, 1);
  I.lut->SetValueRange(1, 1);
  I.lut->SetNumberOfTableValues(256);
  I.lut->Build();
  I.bar->SetLookupTable(I.lut);
  I.bar->SetNumberOfLabels(5);
  // room for the labels right of the bar and a two-line title: nothing clipped at the edge
  I.bar->SetPosition(0.84, 0.08);
  I.bar->SetWidth(0.15);
  I.bar->SetHeight(0.8);
  I.bar->SetMaximumWidthInPixels(130);
  I.bar->SetBarRatio(0.3);
  I.bar->UnconstrainedFontSizeOn();  // fixed point sizes, not scaled with the bar
  I.bar->GetTitleTextProperty()->SetFontSize(14);
  I.bar->GetLabelTextProperty()->SetFontSize(12);
  for (vtkTextProperty* t : {I.bar->GetTitleTextProperty(), I.bar->GetLabelTextProperty()}) {
    t->SetColor(0.15, 0.15, 0.18);
    t->ShadowOff();
    t->ItalicOff();
    t->BoldOff();
  }
  I.bar->VisibilityOff();
  I.ren->AddViewProp(I.bar);
  {  // a unit square for the category swatches
    vtkNew<vtkPoints> pts;
    for (auto [x, y] : {std::pair{0.0, 0.0}, {1.0, 0.0}, {1.0, 1.0}, {0.0, 1.0}})
      pts->InsertNextPoint(x, y, 0);
    vtkNew<vtkCellArray> poly;
    const vtkIdType q[4] = {0, 1, 2, 3};
    poly->InsertNextCell(4, q);
    I.swatch->SetPoints(pts);
    I.swatch->SetPolys(poly);
  }
  I.cats->GetPositionCoordinate()->SetCoordinateSystemToNormalizedViewport();
  I.cats->GetPositionCoordinate()->SetValue(0.78, 0.45);
  I.cats->GetPosition2Coordinate()->SetCoordinateSystemToNormalizedViewport();
  I.cats->GetPosition2Coordinate()->SetValue(0.21, 0.45);
  I.cats->BorderOff();
  I.cats->GetEntryTextProperty()->SetColor(0.15, 0.15, 0.18);
  I.cats->GetEntryTextProperty()->ShadowOff();
  I.cats->GetEntryTextProperty()->SetFontSize(12);
  I.cats->VisibilityOff();
  I.ren->AddViewProp(I.cats);

  // picking: boxes only, through a cell locator built once per scene
  I.picker->SetTolerance(0.0);
  I.picker->PickFromListOn();
  I.picker->AddPickList(I.box_actor);
  I.picker->AddLocator(I.locator);

  // the GL widget fills this one (resizeEvent; no layout, so that it also does while hidden)
  I.host = this;
  if (isAvailable()) {
    I.gl = new GLView(I.rw, I.iren, this);
    I.gl->setGeometry(rect());
  }
  setMouseTracking(true);
  setMinimumSize(200, 150);

  setScene({}, {});
}

HallView3D::~HallView3D() {
  // the GL widget releases VTK's GL resources (it needs its context) before the pipeline goes
  delete impl_->gl;
  impl_->gl = nullptr;
}

bool HallView3D::isAvailable() {
  // QOpenGLWidget crashes on the offscreen platform (Qt 6.4, docs/gui-3d-view.md) and the minimal
  // one has no GL at all
  const QString p = QGuiApplication::platformName();
  return !(p == QLatin1String("offscreen") || p == QLatin1String("minimal"));
}

void HallView3D::paintEvent(QPaintEvent* e) {
  if (impl_->gl) return QWidget::paintEvent(e);
  QPainter painter(this);
  painter.fillRect(rect(), QColor(200, 205, 212));
  painter.setPen(QColor(60, 60, 70));
  painter.drawText(rect(), Qt::AlignCenter,
                   tr("3D view unavailable: the %1 platform has no OpenGL widgets")
                       .arg(QGuiApplication::platformName()));
}

void HallView3D::setDefaultSurfaceFormat() {
  QSurfaceFormat::setDefaultFormat(GLView::surfaceFormat());
  // lets the view move between top-level windows (docking) without losing its context
  QCoreApplication::setAttribute(Qt::AA_ShareOpenGLContexts);
}

QColor HallView3D::rampColor(double v, double lo, double hi) {
  if (std::isnan(v)) return QColor(128, 128, 128);
  const double t = hi > lo ? std::clamp((v - lo) / (hi - lo), 0.0, 1.0) : 0.5;
  return QColor::fromHsvF(static_cast<float>(kHueBlue * (1.0 - t)), 1.0f, 1.0f);
}

void HallView3D::setScene(const std::vector<Box3D>& boxes, const std::vector<Line3D>& lines) {
  Impl& I = *impl_;
  I.boxes = boxes;
  const auto nbox = static_cast<vtkIdType>(boxes.size());

  // boxes: 8 corners and 6 quads each, faces coloured by kind until setColors
  vtkNew<vtkPoints> pts;
  pts->SetDataTypeToDouble();
  pts->SetNumberOfPoints(8 * nbox);
  vtkNew<vtkCellArray> quads;
  quads->AllocateExact(nbox * kFacesPerBox, nbox * kFacesPerBox * 4);
  I.box_rgb->SetNumberOfTuples(nbox * kFacesPerBox);
  unsigned char* rgb = I.box_rgb->GetPointer(0);
  for (vtkIdType b = 0; b < nbox; ++b) {
    for (int c = 0; c < 8; ++c) {
      double p[3];
      corner(boxes[b], c, p);
      pts->SetPoint(8 * b + c, p);
    }
    const QColor col = kindColor(boxes[b].kind);
    for (const auto& f : kFaces) {
      const vtkIdType ids[4] = {8 * b + f[0], 8 * b + f[1], 8 * b + f[2], 8 * b + f[3]};
      quads->InsertNextCell(4, ids);
      *rgb++ = static_cast<unsigned char>(col.red());
      *rgb++ = static_cast<unsigned char>(col.green());
      *rgb++ = static_cast<unsigned char>(col.blue());
    }
  }
  I.box_pd->Initialize();
  I.box_pd->SetPoints(pts);
  I.box_pd->SetPolys(quads);
  I.box_pd->GetCellData()->SetScalars(I.box_rgb);
  I.box_rgb->Modified();
  I.edge_pd->Initialize();
  I.edge_pd->SetPoints(pts);
  I.edge_pd->SetLines(boxEdges(nbox));
  I.locator->SetDataSet(I.box_pd);
  if (nbox > 0) I.locator->BuildLocator();

  // lines grouped by width: one actor per width, colour per polyline
  for (auto& a : I.line_actors) I.ren->RemoveActor(a);
  I.line_actors.clear();
  std::map<double, std::vector<const Line3D*>> by_width;
  for (const Line3D& l : lines)
    if (l.xyz.size() >= 6) by_width[l.width].push_back(&l);
  for (const auto& [width, group] : by_width) {
    vtkNew<vtkPoints> lp;
    vtkNew<vtkCellArray> cells;
    vtkNew<vtkUnsignedCharArray> lrgb;
    lrgb->SetNumberOfComponents(3);
    for (const Line3D* l : group) {
      const auto n = static_cast<vtkIdType>(l->xyz.size() / 3);
      cells->InsertNextCell(n);
      for (vtkIdType k = 0; k < n; ++k)
        cells->InsertCellPoint(
            lp->InsertNextPoint(l->xyz[3 * k], l->xyz[3 * k + 1], l->xyz[3 * k + 2]));
      const unsigned char c[3] = {static_cast<unsigned char>(l->color.red()),
                                  static_cast<unsigned char>(l->color.green()),
                                  static_cast<unsigned char>(l->color.blue())};
      lrgb->InsertNextTypedTuple(c);
    }
    vtkNew<vtkPolyData> pd;
    pd->SetPoints(lp);
    pd->SetLines(cells);
    pd->GetCellData()->SetScalars(lrgb);
    vtkNew<vtkPolyDataMapper> m;
    m->SetInputData(pd);
    m->SetScalarModeToUseCellData();
    m->SetColorModeToDirectScalars();
    auto actor = vtkSmartPointer<vtkActor>::New();
    actor->SetMapper(m);
    actor->GetProperty()->SetLineWidth(static_cast<float>(width));
    actor->GetProperty()->LightingOff();
    actor->PickableOff();
    I.ren->AddActor(actor);
    I.line_actors.push_back(actor);
  }

  // floor under everything, 2 m beyond the scene
  double bb[6] = {-1, 1, -1, 1, 0, 2};
  if (nbox > 0) pts->GetBounds(bb);
  for (const Line3D& l : lines)
    for (std::size_t k = 0; k + 2 < l.xyz.size(); k += 3)
      for (int d = 0; d < 3; ++d) {
        bb[2 * d] = std::min(bb[2 * d], l.xyz[k + d]);
        bb[2 * d + 1] = std::max(bb[2 * d + 1], l.xyz[k + d]);
      }
  const double zf = std::min(0.0, bb[4]) - 0.005;
  I.floor_src->SetOrigin(bb[0] - 2, bb[2] - 2, zf);
  I.floor_src->SetPoint1(bb[1] + 2, bb[2] - 2, zf);
  I.floor_src->SetPoint2(bb[0] - 2, bb[3] + 2, zf);

  I.hovered = -1;
  setSelected(-1);
  resetCamera();
}

void HallView3D::setColors(const std::vector<QColor>& colors) {
  Impl& I = *impl_;
  const std::size_t n = std::min(colors.size(), I.boxes.size());
  unsigned char* rgb = I.box_rgb->GetPointer(0);
  for (std::size_t b = 0; b < n; ++b) {
    const auto r = static_cast<unsigned char>(colors[b].red());
    const auto g = static_cast<unsigned char>(colors[b].green());
    const auto bl = static_cast<unsigned char>(colors[b].blue());
    unsigned char* p = rgb + 3 * kFacesPerBox * b;
    for (int f = 0; f < kFacesPerBox; ++f, p += 3) {
      p[0] = r;
      p[1] = g;
      p[2] = bl;
    }
  }
  I.box_rgb->Modified();
  I.redraw();
}

void HallView3D::setSelected(int box) {
  Impl& I = *impl_;
  if (box < 0 || box >= static_cast<int>(I.boxes.size())) box = -1;
  I.selected = box;
  if (box < 0) {
    I.sel_actor->VisibilityOff();
  } else {
    Box3D b = I.boxes[box];
    const double m = 0.03;  // just outside the box's own edges
    b.x0 -= m, b.y0 -= m, b.z0 -= m, b.x1 += m, b.y1 += m, b.z1 += m;
    vtkNew<vtkPoints> pts;
    for (int c = 0; c < 8; ++c) {
      double p[3];
      corner(b, c, p);
      pts->InsertNextPoint(p);
    }
    I.sel_pd->Initialize();
    I.sel_pd->SetPoints(pts);
    I.sel_pd->SetLines(boxEdges(1));
    I.sel_actor->VisibilityOn();
  }
  I.redraw();
}

int HallView3D::selected() const {
  return impl_->selected;
}

void HallView3D::setLegend(const QString& title, double lo, double hi, const QString& unit,
                           int labels, int decimals) {
  Impl& I = *impl_;
  if (!(hi > lo)) hi = lo + 1;
  I.lut->SetTableRange(lo, hi);
  I.cats->VisibilityOff();
  // the title in lines of about 18 characters, the unit on its own: the bar stays narrow
  QString wrapped, line;
  for (const QString& w : title.split(' ')) {
    if (!line.isEmpty() && line.size() + w.size() > 18) wrapped += line + "\n", line.clear();
    line += (line.isEmpty() ? "" : " ") + w;
  }
  wrapped += line;
  const QString t = unit.isEmpty() ? wrapped : QStringLiteral("%1\n(%2)").arg(wrapped, unit);
  I.bar->SetTitle(t.toUtf8().constData());
  I.bar->SetNumberOfLabels(std::max(2, labels));
  I.bar->SetLabelFormat(
      QStringLiteral("%.%1f").arg(std::clamp(decimals, 0, 6)).toUtf8().constData());
  const bool was_visible = I.bar->GetVisibility();
  I.bar->VisibilityOn();
  if (!was_visible && I.auto_fit) resetCamera();  // make room for the bar
  I.redraw();
}

void HallView3D::setCategories(const QString& title,
                               const std::vector<std::pair<QString, QColor>>& entries) {
  Impl& I = *impl_;
  I.bar->VisibilityOff();
  I.cats->SetNumberOfEntries(int(entries.size()) + 1);
  double none[3] = {0.15, 0.15, 0.18};  // the title: dark text, no swatch
  I.cats->SetEntry(0, static_cast<vtkPolyData*>(nullptr), title.toUtf8().constData(), none);
  for (int k = 0; k < int(entries.size()); ++k) {
    double rgb[3] = {entries[k].second.redF(), entries[k].second.greenF(),
                     entries[k].second.blueF()};
    I.cats->SetEntry(k + 1, I.swatch, entries[k].first.toUtf8().constData(), rgb);
  }
  I.cats->VisibilityOn();
  I.redraw();
}

int HallView3D::categoryCount() const {
  return impl_->cats->GetVisibility() ? impl_->cats->GetNumberOfEntries() - 1 : 0;
}

void HallView3D::clearLegend() {
  impl_->cats->VisibilityOff();
  impl_->bar->VisibilityOff();
  impl_->redraw();
}

void HallView3D::resetCamera() {
  Impl& I = *impl_;
  double bb[6];
  I.ren->ComputeVisiblePropBounds(bb);
  // the floor pads the bounds by 2 m; frame the boxes and lines, not the floor
  if (I.box_pd->GetNumberOfPoints() > 0) I.box_pd->GetBounds(bb);
  const double c[3] = {(bb[0] + bb[1]) / 2, (bb[2] + bb[3]) / 2, (bb[4] + bb[5]) / 2};
  // from the front-left, above: along -y and -x, looking down at about 35 degrees
  const double d[3] = {-0.45, -1.0, 0.85};
  vtkCamera* cam = I.ren->GetActiveCamera();
  cam->SetFocalPoint(c);
  cam->SetPosition(c[0] + d[0], c[1] + d[1], c[2] + d[2]);
  cam->SetViewUp(0, 0, 1);
  I.sync();
  I.ren->ResetCamera(bb);  // fits the bounding sphere: loose for a flat hall seen from above
  // then pan and dolly until the corners of the bounds fill the view (left of the legend when
  // it is shown); a few steps, as perspective makes near corners grow faster
  const double xlo = -0.92, xhi = I.bar->GetVisibility() || I.cats->GetVisibility() ? 0.56 : 0.92,
               yhi = 0.88;
  for (int step = 0; step < 6; ++step) {
    double lo[2] = {1e300, 1e300}, hi[2] = {-1e300, -1e300};
    for (int k = 0; k < 8; ++k) {
      I.ren->SetWorldPoint(bb[k & 1], bb[2 + ((k >> 1) & 1)], bb[4 + ((k >> 2) & 1)], 1.0);
      I.ren->WorldToView();
      const double* v = I.ren->GetViewPoint();
      for (int a = 0; a < 2; ++a) lo[a] = std::min(lo[a], v[a]), hi[a] = std::max(hi[a], v[a]);
    }
    const double ex = (hi[0] - lo[0]) / (xhi - xlo), ey = (hi[1] - lo[1]) / (2 * yhi);
    const double extent = std::max(ex, ey);
    if (!(extent > 0) || !std::isfinite(extent)) break;
    // pan: the middle of the projected bounds to the middle of the target area
    double f[3], p[3];
    cam->GetFocalPoint(f);
    cam->GetPosition(p);
    I.ren->SetWorldPoint(f[0], f[1], f[2], 1.0);
    I.ren->WorldToView();
    const double fz = I.ren->GetViewPoint()[2];
    I.ren->SetViewPoint((lo[0] + hi[0]) / 2 - (xlo + xhi) / 2 * extent, (lo[1] + hi[1]) / 2, fz);
    I.ren->ViewToWorld();
    const double* w = I.ren->GetWorldPoint();
    const double d[3] = {w[0] / w[3] - f[0], w[1] / w[3] - f[1], w[2] / w[3] - f[2]};
    cam->SetFocalPoint(f[0] + d[0], f[1] + d[1], f[2] + d[2]);
    cam->SetPosition(p[0] + d[0], p[1] + d[1], p[2] + d[2]);
    cam->Dolly(std::clamp(1.0 / extent, 0.5, 4.0));
  }
  I.ren->ResetCameraClippingRange();
  I.auto_fit = true;
  I.redraw();
}

QImage HallView3D::renderImage() {
  Impl& I = *impl_;
  if (!I.gl) return QImage();
  I.sync();  // also sizes the GL widget: a hidden widget gets resize events only when shown
  return I.gl->grabFramebuffer();  // runs paintGL: renders and blits
}

int HallView3D::boxCount() const {
  return static_cast<int>(impl_->boxes.size());
}

int HallView3D::pickAt(const QPoint& pos) {
  Impl& I = *impl_;
  if (I.boxes.empty()) return -1;
  I.sync();
  I.ren->ResetCameraClippingRange();
  const double dpr = I.dpr();
  const double x = pos.x() * dpr, y = I.heightDevice() - 1 - pos.y() * dpr;
  if (!I.picker->Pick(x, y, 0, I.ren)) return -1;
  const vtkIdType cell = I.picker->GetCellId();
  if (cell < 0 || I.picker->GetActor() != I.box_actor) return -1;
  return static_cast<int>(cell / kFacesPerBox);
}

QPointF HallView3D::projectToWidget(double x, double y, double z) const {
  Impl& I = *impl_;
  I.sync();
  I.ren->SetWorldPoint(x, y, z, 1.0);
  I.ren->WorldToDisplay();
  const double* d = I.ren->GetDisplayPoint();
  const double dpr = I.dpr();
  return QPointF(d[0] / dpr, (I.heightDevice() - 1 - d[1]) / dpr);
}

double HallView3D::cameraDistance() const {
  return impl_->ren->GetActiveCamera()->GetDistance();
}

// ---------------------------------------------------------------------------------------------
// mouse: forwarded to the interactor (orbit left, pan middle or shift-left, zoom wheel); a left
// press and release closer than the drag distance is a click and picks

namespace {
void forward(vtkGenericRenderWindowInteractor* iren, const QMouseEvent* e, double dpr,
             unsigned long event) {
  const QPointF p = e->position() * dpr;
  const Qt::KeyboardModifiers mod = e->modifiers();
  iren->SetEventInformationFlipY(static_cast<int>(p.x()), static_cast<int>(p.y()),
                                 (mod & Qt::ControlModifier) ? 1 : 0,
                                 (mod & Qt::ShiftModifier) ? 1 : 0);
  iren->InvokeEvent(event, nullptr);
}
}  // namespace

void HallView3D::mousePressEvent(QMouseEvent* e) {
  Impl& I = *impl_;
  I.sync();
  switch (e->button()) {
    case Qt::LeftButton:
      I.auto_fit = false;
      I.left_down = true;
      I.dragged = false;
      I.press_pos = e->position().toPoint();
      forward(I.iren, e, I.dpr(), vtkCommand::LeftButtonPressEvent);
      break;
    case Qt::MiddleButton:
      I.auto_fit = false;
      forward(I.iren, e, I.dpr(), vtkCommand::MiddleButtonPressEvent);
      break;
    case Qt::RightButton:
      I.auto_fit = false;
      forward(I.iren, e, I.dpr(), vtkCommand::RightButtonPressEvent);
      break;
    default:
      break;
  }
  e->accept();
}

void HallView3D::mouseMoveEvent(QMouseEvent* e) {
  Impl& I = *impl_;
  if (I.left_down && (e->position().toPoint() - I.press_pos).manhattanLength() >=
                         QApplication::startDragDistance())
    I.dragged = true;
  forward(I.iren, e, I.dpr(), vtkCommand::MouseMoveEvent);
  if (e->buttons() != Qt::NoButton) {
    I.redraw();
  } else {
    const int b = pickAt(e->position().toPoint());
    if (b != I.hovered) {
      I.hovered = b;
      setToolTip(b >= 0 ? I.boxes[b].label : QString());
      emit boxHovered(b);
    }
  }
  e->accept();
}

void HallView3D::mouseReleaseEvent(QMouseEvent* e) {
  Impl& I = *impl_;
  switch (e->button()) {
    case Qt::LeftButton: {
      forward(I.iren, e, I.dpr(), vtkCommand::LeftButtonReleaseEvent);
      const bool click = I.left_down && !I.dragged;
      I.left_down = false;
      if (click) emit boxClicked(pickAt(e->position().toPoint()));
      break;
    }
    case Qt::MiddleButton:
      forward(I.iren, e, I.dpr(), vtkCommand::MiddleButtonReleaseEvent);
      break;
    case Qt::RightButton:
      forward(I.iren, e, I.dpr(), vtkCommand::RightButtonReleaseEvent);
      break;
    default:
      break;
  }
  I.redraw();
  e->accept();
}

void HallView3D::wheelEvent(QWheelEvent* e) {
  Impl& I = *impl_;
  I.sync();
  const QPointF p = e->position() * I.dpr();
  I.iren->SetEventInformationFlipY(static_cast<int>(p.x()), static_cast<int>(p.y()),
                                   (e->modifiers() & Qt::ControlModifier) ? 1 : 0,
                                   (e->modifiers() & Qt::ShiftModifier) ? 1 : 0);
  I.auto_fit = false;
  // one VTK wheel step per 120 units (a mouse notch); touchpads accumulate
  I.wheel_accum += e->angleDelta().y();
  while (I.wheel_accum >= 120) {
    I.iren->InvokeEvent(vtkCommand::MouseWheelForwardEvent, nullptr);
    I.wheel_accum -= 120;
  }
  while (I.wheel_accum <= -120) {
    I.iren->InvokeEvent(vtkCommand::MouseWheelBackwardEvent, nullptr);
    I.wheel_accum += 120;
  }
  I.redraw();
  e->accept();
}

void HallView3D::leaveEvent(QEvent* e) {
  Impl& I = *impl_;
  if (I.hovered != -1) {
    I.hovered = -1;
    emit boxHovered(-1);
  }
  QWidget::leaveEvent(e);
}

void HallView3D::resizeEvent(QResizeEvent* e) {
  QWidget::resizeEvent(e);
  if (impl_->gl) impl_->gl->setGeometry(rect());
  // a scene set before the widget had its size (or a resized window) stays framed until the
  // user moves the camera
  if (impl_->auto_fit) resetCamera();
}

}  // namespace dctwin::gui
