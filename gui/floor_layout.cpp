// floor_layout.cpp: hall floor layout shared by the 2D floor plan and the 3D view
// (see floor_layout.h)
#include "gui/floor_layout.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace dctwin::gui {

namespace {
// rows in floor order: A … Z, AA, AB … (shorter names first), as people count them
bool rowBefore(const std::string& a, const std::string& b) {
  return a.size() != b.size() ? a.size() < b.size() : a < b;
}
}  // namespace

FloorLayout computeFloorLayout(const RunData& d) {
  FloorLayout L;
  const int nr = d.nrack(), nc = d.ncdu();
  std::vector<std::string> rows;
  for (int r = 0; r < nr; ++r) rows.push_back(d.rack_row[r]);
  std::sort(rows.begin(), rows.end(), rowBefore);
  rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
  std::map<std::string, int> row_of;
  for (int k = 0; k < int(rows.size()); ++k) row_of[rows[k]] = k;
  // a hall of many long rows is drawn as blocks of rows side by side, so that the floor fills a
  // screen (about 2:1) instead of a thin column: K blocks of ceil(rows / K) rows
  int max_index = 1;
  for (int r = 0; r < nr; ++r) max_index = std::max(max_index, d.rack_index[r]);
  std::map<int, int> cdus_per_row;
  for (int c = 0; c < nc; ++c)
    for (int r = 0; r < nr; ++r)
      if (d.rack_cdu[r] == c) {
        ++cdus_per_row[row_of[d.rack_row[r]]];
        break;
      }
  int most_cdus = 1;
  for (const auto& [k, n] : cdus_per_row) most_cdus = std::max(most_cdus, n);
  const double cdu_room = 1.2 + 0.8 * (most_cdus - 1);
  const double block_w = cdu_room + max_index * kRackWidth + 4.0;  // 4 m aisle with row labels
  const int n_rows = std::max(1, int(rows.size()));
  int blocks = 1;
  double best = 1e300;
  for (int k = 1; k <= n_rows; ++k) {
    const double w = k * block_w, h = std::ceil(double(n_rows) / k) * kRowPitch;
    const double score = std::abs(std::log(w / h / 2.0));
    if (score < best - 1e-9) best = score, blocks = k;
  }
  const int per_block = (n_rows + blocks - 1) / blocks;
  auto rowX = [&](int k) { return (k / per_block) * block_w; };
  auto rowY = [&](int k) { return (k % per_block) * kRowPitch; };
  for (int k = 0; k < int(rows.size()); ++k) {
    L.row_label.push_back(QString::fromStdString(rows[k]));
    L.row_y.push_back(rowY(k));
    L.row_x.push_back(rowX(k) - cdu_room - 0.2);
  }
  L.rack.resize(nr);
  for (int r = 0; r < nr; ++r) {
    const int k = row_of[d.rack_row[r]];
    L.rack[r] =
        QRectF(rowX(k) + (d.rack_index[r] - 1) * kRackWidth, rowY(k), kRackWidth, kRackDepth);
  }
  // CDUs at the start of the row of their first rack (racks in model order, grouped by CDU)
  std::map<int, int> cdus_in_row;
  L.cdu.resize(nc);
  for (int c = 0; c < nc; ++c) {
    int r0 = -1;
    for (int r = 0; r < nr && r0 < 0; ++r)
      if (d.rack_cdu[r] == c) r0 = r;
    const int k = r0 >= 0 ? row_of[d.rack_row[r0]] : 0;
    const int n = cdus_in_row[k]++;
    L.cdu[c] = QRectF(rowX(k) - 1.2 - 0.8 * n, rowY(k), kRackWidth, kRackDepth);
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
