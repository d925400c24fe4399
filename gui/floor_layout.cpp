// floor_layout.cpp: hall floor layout shared by the 2D floor plan and the 3D view
// (see floor_layout.h)
#include "gui/floor_layout.h"

#include <algorithm>
#include <map>

namespace dctwin::gui {

FloorLayout computeFloorLayout(const RunData& d) {
  FloorLayout L;
  const int nr = d.nrack(), nc = d.ncdu();
  std::map<std::string, int> row_of;
  for (int r = 0; r < nr; ++r) row_of[d.rack_row[r]] = 0;
  int k = 0;
  for (auto& [name, y] : row_of) {
    y = k++;
    L.row_label.push_back(QString::fromStdString(name));
    L.row_y.push_back(y * kRowPitch);
  }
  L.rack.resize(nr);
  for (int r = 0; r < nr; ++r)
    L.rack[r] = QRectF((d.rack_index[r] - 1) * kRackWidth, row_of[d.rack_row[r]] * kRowPitch,
                       kRackWidth, kRackDepth);
  // CDUs at the start of the row of their first rack (racks in model order, grouped by CDU)
  std::map<int, int> cdus_in_row;
  L.cdu.resize(nc);
  for (int c = 0; c < nc; ++c) {
    int r0 = -1;
    for (int r = 0; r < nr && r0 < 0; ++r)
      if (d.rack_cdu[r] == c) r0 = r;
    const double y = r0 >= 0 ? L.rack[r0].y() : 0.0;
    const int n = cdus_in_row[int(y * 10)]++;
    L.cdu[c] = QRectF(-1.2 - 0.8 * n, y, kRackWidth, kRackDepth);
  }
  for (int r = 0; r < nr; ++r) {
    const int c = d.rack_cdu[r];
    if (c < 0 || c >= nc) continue;
    const QRectF& cr = L.cdu[c];
    const QRectF& rr = L.rack[r];
    const double xr = rr.center().x();
    for (bool supply : {true, false}) {
      FloorLayout::Pipe p;
      p.rack = r;
      p.supply = supply;
      // 2D: header along the aisle, then a short drop to the rack's face
      const double yh = supply ? rr.top() - 0.35 : rr.bottom() + 0.35;
      const double yc = supply ? cr.top() : cr.bottom();
      p.path2d = {QPointF(cr.center().x(), yc), QPointF(cr.center().x(), yh), QPointF(xr, yh),
                  QPointF(xr, supply ? rr.top() : rr.bottom())};
      // 3D: as the ParaView export (x0+0.3, y0+0.4|0.8) -> (xr, y0) -> (xr, yr) at 2.4|2.6 m
      const double z = supply ? 2.4 : 2.6;
      const double x0 = cr.x() + 0.3, y0 = cr.y() + (supply ? 0.4 : 0.8);
      p.xyz3d = {x0, y0, z, xr, y0, z, xr, rr.center().y(), z};
      L.pipes.push_back(std::move(p));
    }
  }
  // busways: from the first to the last rack they feed
  for (int b = 0; b < int(d.busway_name.size()); ++b) {
    double x0 = 1e300, x1 = -1e300, y = 0;
    for (int r = 0; r < nr; ++r)
      if (r < int(d.rack_busway.size()) && d.rack_busway[r] == b) {
        x0 = std::min(x0, L.rack[r].left() + 0.05);
        x1 = std::max(x1, L.rack[r].right() - 0.05);
        y = L.rack[r].bottom() + 0.75;
      }
    if (x0 > x1) continue;
    L.busways.push_back(
        {b, QString::fromStdString(d.busway_name[b]), QPointF(x0, y), QPointF(x1, y)});
  }
  QRectF all;
  for (const auto& r : L.rack) all = all.united(r);
  for (const auto& r : L.cdu) all = all.united(r);
  for (const auto& p : L.pipes)
    for (const auto& q : p.path2d) all = all.united(QRectF(q, QSizeF(0.01, 0.01)));
  for (const auto& b : L.busways) all = all.united(QRectF(b.a, b.b).normalized());
  L.bounds = all.adjusted(-0.8, -0.8, 0.8, 0.8);
  return L;
}

}  // namespace dctwin::gui
