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
  auto hallOf = [&](int r) { return r < int(d.rack_hall.size()) ? d.rack_hall[r] : std::string(); };
  // the campus level: halls in their natural order (H1, H2 … H10), each one's rows in floor order
  std::vector<std::string> halls;
  for (int r = 0; r < nr; ++r) halls.push_back(hallOf(r));
  std::sort(halls.begin(), halls.end(), rowBefore);
  halls.erase(std::unique(halls.begin(), halls.end()), halls.end());
  if (halls.empty()) halls.push_back("");
  std::map<std::string, int> hall_of;
  for (int h = 0; h < int(halls.size()); ++h) hall_of[halls[h]] = h;
  const int nh = int(halls.size());
  // rows are named within their hall: two halls may both have a row A
  std::vector<std::vector<std::string>> rows(nh);
  for (int r = 0; r < nr; ++r) rows[hall_of[hallOf(r)]].push_back(d.rack_row[r]);
  const int na = d.nair();  // air-cooled racks: in the first hall (they name no hall)
  for (int k = 0; k < na; ++k) rows[0].push_back(d.air_row[k]);
  std::vector<std::map<std::string, int>> row_of(nh);  // hall -> row name -> row in the hall
  for (int h = 0; h < nh; ++h) {
    std::sort(rows[h].begin(), rows[h].end(), rowBefore);
    rows[h].erase(std::unique(rows[h].begin(), rows[h].end()), rows[h].end());
    for (int k = 0; k < int(rows[h].size()); ++k) row_of[h][rows[h][k]] = k;
  }
  L.rack_hall.resize(nr);
  std::vector<int> rack_row_k(nr);
  for (int r = 0; r < nr; ++r) {
    L.rack_hall[r] = hall_of[hallOf(r)];
    rack_row_k[r] = row_of[L.rack_hall[r]][d.rack_row[r]];
  }
  // a hall of many long rows is drawn as blocks of rows side by side, so that the floor fills a
  // screen (about 2:1) instead of a thin column: K blocks of ceil(rows / K) rows
  struct HallShape {
    double cdu_room = 1.2, block_w = 1, w = 1, h = 1;
    int per_block = 1;
  };
  std::vector<HallShape> shape(nh);
  for (int h = 0; h < nh; ++h) {
    int max_index = 1;
    for (int r = 0; r < nr; ++r)
      if (L.rack_hall[r] == h) max_index = std::max(max_index, d.rack_index[r]);
    for (int k = 0; k < na && h == 0; ++k) max_index = std::max(max_index, d.air_index[k]);
    std::map<int, int> cdus_per_row;
    for (int c = 0; c < nc; ++c)
      for (int r = 0; r < nr; ++r)
        if (d.rack_cdu[r] == c) {
          if (L.rack_hall[r] == h) ++cdus_per_row[rack_row_k[r]];
          break;
        }
    int most_cdus = 1;
    for (const auto& [k, n] : cdus_per_row) most_cdus = std::max(most_cdus, n);
    HallShape& S = shape[h];
    S.cdu_room = 1.2 + 0.8 * (most_cdus - 1);
    S.block_w = S.cdu_room + max_index * kRackWidth + 4.0;  // 4 m aisle with row labels
    const int n_rows = std::max(1, int(rows[h].size()));
    int blocks = 1;
    double best = 1e300;
    for (int k = 1; k <= n_rows; ++k) {
      const double w = k * S.block_w, hh = std::ceil(double(n_rows) / k) * kRowPitch;
      const double score = std::abs(std::log(w / hh / 2.0));
      if (score < best - 1e-9) best = score, blocks = k;
    }
    S.per_block = (n_rows + blocks - 1) / blocks;
    S.w = blocks * S.block_w;
    S.h = S.per_block * kRowPitch;
  }
  // halls on the campus: a grid of equal cells, about 2:1 as well, 10 m apart (hall 0 at the
  // origin: a facility of one hall is drawn as before)
  double cell_w = 0, cell_h = 0;
  for (const auto& S : shape) cell_w = std::max(cell_w, S.w), cell_h = std::max(cell_h, S.h);
  constexpr double kHallGap = 10.0;
  cell_w += kHallGap, cell_h += kHallGap;
  int hall_cols = 1;
  {
    double best = 1e300;
    for (int k = 1; k <= nh; ++k) {
      const double w = k * cell_w, hh = std::ceil(double(nh) / k) * cell_h;
      const double score = std::abs(std::log(w / hh / 2.0));
      if (score < best - 1e-9) best = score, hall_cols = k;
    }
  }
  auto hallX = [&](int h) { return (h % hall_cols) * cell_w; };
  auto hallY = [&](int h) { return (h / hall_cols) * cell_h; };
  auto rowX = [&](int h, int k) { return hallX(h) + (k / shape[h].per_block) * shape[h].block_w; };
  auto rowY = [&](int h, int k) { return hallY(h) + (k % shape[h].per_block) * kRowPitch; };
  std::vector<std::vector<int>> row_id(nh);  // hall, row in hall -> index into row_label
  for (int h = 0; h < nh; ++h)
    for (int k = 0; k < int(rows[h].size()); ++k) {
      row_id[h].push_back(int(L.row_label.size()));
      L.row_label.push_back(QString::fromStdString(rows[h][k]));
      L.row_y.push_back(rowY(h, k));
      L.row_x.push_back(rowX(h, k) - shape[h].cdu_room - 0.2);
      L.row_hall.push_back(h);
    }
  L.rack.resize(nr);
  L.rack_row.resize(nr);
  for (int r = 0; r < nr; ++r) {
    const int h = L.rack_hall[r], k = rack_row_k[r];
    L.rack_row[r] = row_id[h][k];
    L.rack[r] =
        QRectF(rowX(h, k) + (d.rack_index[r] - 1) * kRackWidth, rowY(h, k), kRackWidth, kRackDepth);
  }
  L.air.resize(na);
  for (int k = 0; k < na; ++k) {
    const int rk = row_of[0][d.air_row[k]];
    L.air[k] = QRectF(rowX(0, rk) + (d.air_index[k] - 1) * kRackWidth, rowY(0, rk), kRackWidth,
                      kRackDepth);
  }
  // CDUs at the start of the row of their first rack (racks in model order, grouped by CDU)
  std::map<std::pair<int, int>, int> cdus_in_row;
  L.cdu.resize(nc);
  L.cdu_hall.assign(nc, 0);
  for (int c = 0; c < nc; ++c) {
    int r0 = -1;
    for (int r = 0; r < nr && r0 < 0; ++r)
      if (d.rack_cdu[r] == c) r0 = r;
    const int h = r0 >= 0 ? L.rack_hall[r0] : 0, k = r0 >= 0 ? rack_row_k[r0] : 0;
    const int n = cdus_in_row[{h, k}]++;
    L.cdu_hall[c] = h;
    L.cdu[c] = QRectF(rowX(h, k) - 1.2 - 0.8 * n, rowY(h, k), kRackWidth, kRackDepth);
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
  // each hall's outline: its racks, CDUs and aisles with a margin (drawn above one hall only)
  for (int h = 0; h < nh; ++h) {
    QRectF box;
    for (int r = 0; r < nr; ++r)
      if (L.rack_hall[r] == h) box = box.united(L.rack[r]);
    for (int c = 0; c < nc; ++c)
      if (L.cdu_hall[c] == h) box = box.united(L.cdu[c]);
    for (int k = 0; k < na && h == 0; ++k) box = box.united(L.air[k]);
    L.halls.push_back({QString::fromStdString(halls[h]), box.adjusted(-2.5, -2.5, 2.5, 2.5)});
  }
  QRectF all;
  for (const auto& r : L.rack) all = all.united(r);
  if (nh > 1)
    for (const auto& h : L.halls) all = all.united(h.rect);
  for (const auto& r : L.cdu) all = all.united(r);
  for (const auto& r : L.air) all = all.united(r);
  for (const auto& p : L.pipes)
    for (const auto& q : p.path2d) all = all.united(QRectF(q, QSizeF(0.01, 0.01)));
  for (const auto& b : L.busways) all = all.united(QRectF(b.a, b.b).normalized());
  L.bounds = all.adjusted(-0.8, -0.8, 0.8, 0.8);
  return L;
}

}  // namespace dctwin::gui
