// floor_layout.h: where racks, CDUs, pipes and busways sit on the hall floor, in metres
//
// as solver/output/vtk/vtk_export.cpp: racks are 0.6 m x 1.2 m x 2.2 m boxes with their `index`
// along x in their row (x = (index - 1) 0.6 m), rows 3.6 m apart along y; each CDU is a
// 0.6 m x 1.2 m x 2.0 m box at the start of its first rack's row (x < 0), several in a row stepping
// back 0.8 m. Unlike the export, rows go in floor order (A … Z, AA …) and a hall of many rows is
// drawn as blocks of rows side by side (about 2:1, a screen's shape) rather than one thin column:
// the facility file gives rows and positions, not coordinates. On a campus (racks[].hall, the
// run layout's rack_hall) each hall is laid out so on its own and the halls stand on a grid, 10 m
// apart: campus -> hall -> row -> rack. The 2D floor plan and the 3D view both draw from this.
#pragma once

#include <QPointF>
#include <QRectF>
#include <QString>
#include <vector>

#include "gui/run_data.h"

namespace dctwin::gui {

constexpr double kRackWidth = 0.6, kRackDepth = 1.2, kRackHeight = 2.2, kCduHeight = 2.0;
constexpr double kRowPitch = 3.6;

struct FloorLayout {
  std::vector<QRectF> rack, cdu;  // footprints (m)
  // air-cooled racks: in their rows of the first hall like racks, by row and index
  std::vector<QRectF> air;
  std::vector<QString> row_label;  // one per row, with its y
  std::vector<double> row_y;
  std::vector<double> row_x;  // where the row's label ends (left of its CDUs)
  std::vector<int> row_hall;  // the hall of each row (index into halls)
  std::vector<int> rack_row;  // each rack's row (index into row_label: rows are named per hall)
  std::vector<int> rack_hall, cdu_hall;  // index into halls
  // the halls of a campus in their natural order (one, named "", without racks[].hall)
  struct Hall {
    QString name;
    QRectF rect;  // its racks, CDUs and aisles with a margin (m)
  };
  std::vector<Hall> halls;
  // 2D pipes in the aisles: the supply header in front of the row (cold side), the return header
  // behind it, one branch per rack; 3D pipes over the racks as in the ParaView export
  struct Pipe {
    int rack = -1;
    bool supply = true;
    std::vector<QPointF> path2d;  // header run from the CDU plus the drop to the rack (m)
    std::vector<double> xyz3d;    // polyline (m)
  };
  std::vector<Pipe> pipes;
  // busways: a line along the racks each one feeds, behind the return header
  struct Busway {
    int index = -1;
    QString name;
    QPointF a, b;  // (m)
  };
  std::vector<Busway> busways;
  QRectF bounds;  // everything, with a margin (m)
};

FloorLayout computeFloorLayout(const RunData& d);

}  // namespace dctwin::gui
