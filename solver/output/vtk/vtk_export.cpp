// vtk_export.cpp: ParaView export with VTK's XML writers (see vtk_export.h)
//
// One vtkUnstructuredGrid per output time. Cells:
//   racks: hexahedra, 0.6 m x 1.2 m x 2.2 m, rack `index` along x in its row, rows along y
//   CDUs:  hexahedra at the start of their first rack's row (x < 0)
//   pipes: lines from the CDU to each rack: supply header at 2.4 m, return header at 2.6 m
// Cell data, as people read them: temperatures in degC, power in kW, flows in L/min, pressures in
// kPa; every array is defined on every cell (NaN where it does not apply), so ParaView can colour
// the whole facility by any of them.
#include "solver/output/vtk/vtk_export.h"

#include <vtkCellData.h>
#include <vtkDoubleArray.h>
#include <vtkIntArray.h>
#include <vtkNew.h>
#include <vtkPoints.h>
#include <vtkSmartPointer.h>
#include <vtkUnstructuredGrid.h>
#include <vtkXMLUnstructuredGridWriter.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <regex>
#include <vector>

#include "solver/common/bounded_file.h"
#include "solver/output/results.h"

namespace dctwin {

namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

enum Kind { kRack = 0, kCdu = 1, kSupplyPipe = 2, kReturnPipe = 3 };

const char* const kArrays[] = {"T_inlet_degC", "T_outlet_degC",  "T_junction_max_degC",
                               "P_kW",         "Q_liquid_kW",    "flow_Lpm",
                               "pump_speed",   "valve_position", "p_tank_kPa",
                               "isolation",    "powered",        "coolant_lost_L"};
constexpr int kNumArrays = sizeof(kArrays) / sizeof(kArrays[0]);
}  // namespace

struct VtkSink::Impl {
  std::string dir;
  vtkSmartPointer<vtkPoints> points;
  std::vector<int> cell_type;  // VTK cell type
  std::vector<std::vector<vtkIdType>> cells;
  std::vector<int> kind, owner;                       // Kind, and the rack or CDU index
  std::vector<std::pair<double, std::string>> steps;  // time, file
  bool finished = false;

  vtkIdType addPoint(double x, double y, double z) { return points->InsertNextPoint(x, y, z); }
  void addBox(double x0, double y0, double dx, double dy, double dz, int k, int who) {
    std::vector<vtkIdType> ids;
    for (double z : {0.0, dz})
      for (auto [x, y] : {std::pair{x0, y0}, {x0 + dx, y0}, {x0 + dx, y0 + dy}, {x0, y0 + dy}})
        ids.push_back(addPoint(x, y, z));
    cell_type.push_back(VTK_HEXAHEDRON);
    cells.push_back(ids);
    kind.push_back(k);
    owner.push_back(who);
  }
  void addLine(double x0, double y0, double x1, double y1, double z, int k, int who) {
    cell_type.push_back(VTK_POLY_LINE);
    cells.push_back({addPoint(x0, y0, z), addPoint(x1, y0, z), addPoint(x1, y1, z)});
    kind.push_back(k);
    owner.push_back(who);
  }
};

void checkVtkOutput(const std::string& dir, const std::vector<std::string>& inputs) {
  namespace fs = std::filesystem;
  // the names the sink writes (row and finish below)
  static const std::regex kName(R"(facility(_[0-9]{6,}\.vtu|\.pvd))");
  for (const std::string& in : inputs) {
    if (in.empty() || dir.empty()) continue;
    const fs::path p(in);
    if (!std::regex_match(p.filename().string(), kName)) continue;
    const std::string parent = p.parent_path().empty() ? "." : p.parent_path().string();
    if (sameFile(parent, dir))
      throw ResultsError("--vtk folder '" + dir + "' would replace '" + in +
                         "' (the ParaView export writes facility.pvd and facility_NNNNNN.vtu "
                         "there); refusing to overwrite it (choose another folder)");
  }
}

VtkSink::VtkSink(std::string dir) : impl_(std::make_unique<Impl>()) {
  impl_->dir = std::move(dir);
}

void VtkSink::begin(const RunLayout& m, const FrameLayout&) {
  Impl& I = *impl_;
  std::filesystem::create_directories(I.dir);
  I.points = vtkSmartPointer<vtkPoints>::New();
  // rows in alphabetical order along y
  std::map<std::string, int> row_of;
  for (int r = 0; r < m.nrack; ++r) row_of[m.rack_row[r]] = 0;
  int k = 0;
  for (auto& [name, y] : row_of) y = k++;
  std::vector<double> rack_x(m.nrack), rack_y(m.nrack);
  for (int r = 0; r < m.nrack; ++r) {
    rack_x[r] = (m.rack_index[r] - 1) * kVtkRackWidth;
    rack_y[r] = row_of[m.rack_row[r]] * kVtkRowPitch;
    I.addBox(rack_x[r], rack_y[r], kVtkRackWidth, kVtkRackDepth, kVtkRackHeight, kRack, r);
  }
  // CDUs at the start of their first rack's row; several in a row step back along x
  std::map<int, int> cdus_in_row;
  for (int c = 0; c < m.ncdu; ++c) {
    // the racks of a CDU are consecutive (model order)
    const int r0 = int(std::find(m.rack_cdu.begin(), m.rack_cdu.end(), c) - m.rack_cdu.begin());
    const int nr = int(std::count(m.rack_cdu.begin(), m.rack_cdu.end(), c));
    const double y = nr > 0 ? rack_y[r0] : 0.0;
    const int n = cdus_in_row[static_cast<int>(y)]++;
    const double x = -1.2 - 0.8 * n;
    I.addBox(x, y, kVtkRackWidth, kVtkRackDepth, 2.0, kCdu, c);
    for (int q = 0; q < nr; ++q) {
      const int r = r0 + q;
      const double xr = rack_x[r] + 0.5 * kVtkRackWidth, yr = rack_y[r] + 0.5 * kVtkRackDepth;
      I.addLine(x + 0.3, y + 0.4, xr, yr, 2.4, kSupplyPipe, r);
      I.addLine(x + 0.3, y + 0.8, xr, yr, 2.6, kReturnPipe, r);
    }
  }
}

VtkSink::~VtkSink() {
  try {
    finish();
  } catch (...) {
  }
}

void VtkSink::row(const OutputFrame& f) {
  Impl& I = *impl_;
  const double t = f.t;
  vtkNew<vtkUnstructuredGrid> grid;
  grid->SetPoints(I.points);
  for (std::size_t c = 0; c < I.cells.size(); ++c)
    grid->InsertNextCell(I.cell_type[c], static_cast<vtkIdType>(I.cells[c].size()),
                         I.cells[c].data());
  vtkNew<vtkIntArray> kind, owner;
  kind->SetName("kind");  // 0 rack, 1 CDU, 2 supply pipe, 3 return pipe
  owner->SetName("index");
  std::vector<vtkSmartPointer<vtkDoubleArray>> a(kNumArrays);
  for (int k = 0; k < kNumArrays; ++k) {
    a[k] = vtkSmartPointer<vtkDoubleArray>::New();
    a[k]->SetName(kArrays[k]);
  }
  // a column of the frame, NaN where the run does not have it
  auto at = [&](Obs id, int i) {
    const auto v = f.get(id);
    return std::size_t(i) < v.size() ? v[i] : kNaN;
  };
  for (std::size_t c = 0; c < I.cells.size(); ++c) {
    double v[kNumArrays];
    std::fill(v, v + kNumArrays, kNaN);
    const int who = I.owner[c];
    kind->InsertNextValue(I.kind[c]);
    owner->InsertNextValue(who);
    if (I.kind[c] == kCdu) {
      v[0] = shown(Obs::CduTSecReturn, at(Obs::CduTSecReturn, who));  // return into the CDU
      v[1] = shown(Obs::CduTSecSupply, at(Obs::CduTSecSupply, who));  // its supply
      v[5] = shown(Obs::CduVFlowSec, at(Obs::CduVFlowSec, who));
      v[6] = at(Obs::CduPumpSpeed, who);
      v[7] = at(Obs::CduValvePosition, who);
      v[8] = shown(Obs::CduPTank, at(Obs::CduPTank, who));
      v[11] = shown(Obs::CduCoolantLost, at(Obs::CduCoolantLost, who));
    } else {
      const int r = who;
      const double T_in = shown(Obs::RackTSupply, at(Obs::RackTSupply, r));
      const double T_out = shown(Obs::RackTReturn, at(Obs::RackTReturn, r));
      const double V = shown(Obs::RackVFlow, at(Obs::RackVFlow, r));
      if (I.kind[c] == kRack) {
        v[0] = T_in;
        v[1] = T_out;
        v[2] = shown(Obs::RackGpuTJunctionMax, at(Obs::RackGpuTJunctionMax, r));
        v[3] = shown(Obs::RackP, at(Obs::RackP, r));
        v[4] = shown(Obs::RackQLiquid, at(Obs::RackQLiquid, r));
        v[5] = V;
        v[9] = at(Obs::RackIsolation, r);
        v[10] = at(Obs::RackPowered, r);
      } else {  // the header branch to this rack: its temperature and the rack's flow
        v[0] = v[1] = I.kind[c] == kSupplyPipe ? T_in : T_out;
        v[5] = V;
      }
    }
    for (int k = 0; k < kNumArrays; ++k) a[k]->InsertNextValue(v[k]);
  }
  grid->GetCellData()->AddArray(kind);
  grid->GetCellData()->AddArray(owner);
  for (auto& arr : a) grid->GetCellData()->AddArray(arr);
  char name[64];
  std::snprintf(name, sizeof name, "facility_%06zu.vtu", I.steps.size());
  vtkNew<vtkXMLUnstructuredGridWriter> w;
  w->SetFileName((std::filesystem::path(I.dir) / name).string().c_str());
  w->SetInputData(grid);
  w->SetDataModeToBinary();
  w->SetCompressorTypeToZLib();
  if (w->Write() != 1) throw std::runtime_error("cannot write " + std::string(name));
  I.steps.emplace_back(t, name);
  I.finished = false;
}

void VtkSink::end(const RunResult&) {
  finish();
}

void VtkSink::finish() {
  Impl& I = *impl_;
  if (I.finished) return;
  std::ofstream out(std::filesystem::path(I.dir) / "facility.pvd");
  out << "<?xml version=\"1.0\"?>\n"
      << "<VTKFile type=\"Collection\" version=\"0.1\" byte_order=\"LittleEndian\">\n"
      << "  <Collection>\n";
  for (const auto& [t, file] : I.steps)
    out << "    <DataSet timestep=\"" << t << "\" group=\"\" part=\"0\" file=\"" << file
        << "\"/>\n";
  out << "  </Collection>\n</VTKFile>\n";
  I.finished = true;
}

}  // namespace dctwin
