// gui_3d_test.cpp: the main window with its VTK 3D tab under a real X display (Xvfb): open the
// default pod, run a short leak scenario, check that the 3D boxes follow the floor plan's colours
// and that clicking a box selects its rack; save screenshots of the main window and the 3D view
// in the build folder (DCTWIN_GUI_ARTIFACT_DIR). Runs through tests/gui/view3d/run_with_display.sh
// (skipped with exit 77 when there is no display and no xvfb-run).
#include <QApplication>
#include <QTabWidget>
#include <QtTest>

#include "gui/floor_plan.h"
#include "gui/main_window.h"
#include "gui/timeline.h"
#include "gui/view3d/hall_view_3d.h"
#include "gui/what_if.h"

using namespace dctwin::gui;

class Gui3dTest : public QObject {
  Q_OBJECT

 private slots:
  void mainWindowWith3dView() {
    QStringList errors;
    ErrorHook old = setErrorHook([&](const QString&, const QString& m) { errors << m; });
    MainWindowOptions o;
    o.with_3d = true;
    o.restore_settings = false;
    MainWindow w(o);
    w.resize(1280, 800);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    auto* view = qobject_cast<HallView3D*>(w.view3d());
    QVERIFY(view);
    QVERIFY(w.openFacility(QString(DCTWIN_SOURCE_DIR) + "/data/facilities/pod_gb200.yaml"));
    QCOMPARE(view->boxCount(), 9);  // 8 racks and the CDU
    w.views()->setCurrentWidget(view);
    QTest::qWait(200);
    w.whatIf()->resetScenario();
    w.whatIf()->setDuration(150);
    w.injectFault(FaultKind::Leak, "A03");
    QVERIFY(w.startRun());
    QTRY_VERIFY_WITH_TIMEOUT(!w.isRunning(), 120000);
    QVERIFY2(errors.isEmpty(), qPrintable(errors.join("\n")));
    w.floorPlan()->setMetric(Metric::LeakState);
    w.timeline()->toEnd();
    w.selectRack(2);
    QTest::qWait(200);
    QCOMPARE(view->selected(), 2);
    const QImage img = view->renderImage();
    QVERIFY(!img.isNull());
    // A03's box: its projected centre has the floor plan's "isolated" colour
    const QPointF c = view->projectToWidget(1.3, 1.05, 2.2) * img.devicePixelRatio();
    const QColor px = img.pixelColor(c.toPoint());
    const QColor want = leakStateColor(3);
    qInfo("A03 top in 3D: %s (want about %s)", qPrintable(px.name()), qPrintable(want.name()));
    QVERIFY(px.hue() >= 0 && std::abs(px.hue() - want.hue()) < 25);
    // clicking a box selects that rack everywhere
    emit view->boxClicked(5);
    QCOMPARE(w.floorPlan()->selectedRack(), 5);
    const QString dir = DCTWIN_GUI_ARTIFACT_DIR;
    QVERIFY(img.save(dir + "/gui_view_3d.png", "PNG"));
    QVERIFY(w.grab().save(dir + "/gui_main_window_3d.png", "PNG"));
    setErrorHook(old);
  }
};

int main(int argc, char** argv) {
  HallView3D::setDefaultSurfaceFormat();
  QApplication app(argc, argv);
  Gui3dTest t;
  return QTest::qExec(&t, argc, argv);
}

#include "gui_3d_test.moc"
