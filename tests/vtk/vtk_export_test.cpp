// vtk_export_test.cpp: the ParaView export read back with VTK's own readers
#include <catch2/catch.hpp>

#include <vtkCellData.h>
#include <vtkDataArray.h>
#include <vtkNew.h>
#include <vtkUnstructuredGrid.h>
#include <vtkXMLUnstructuredGridReader.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "solver/compile/compile.h"
#include "solver/engine/integrator.h"
#include "solver/input/loader.h"
#include "solver/output/observe.h"
#include "solver/output/vtk/vtk_export.h"
#include "solver/run/run.h"

using namespace dctwin;

TEST_CASE("ParaView export: geometry, fields and the time collection read back with VTK",
          "[vtk][results]") {
  const std::string dir = (std::filesystem::temp_directory_path() / "dctwin_vtk_test").string();
  std::filesystem::remove_all(dir);
  FacilitySpec spec =
      loadFacility(std::string(DCTWIN_SOURCE_DIR) + "/data/facilities/two_cdu_mixed.yaml");
  FacilityModel m = compileFacility(spec);
  m.options.output_interval = 60;
  State st = makeState(m, m.fws_T.eval(0.0));
  SummarySink summary;
  int steps = 0;
  {
    VtkSink vtk(dir);
    FrameFeed tee(m, {&vtk, &summary});
    RunOptions ro;
    ro.duration = 300;
    RunResult r = simulate(m, st, ro, &tee);
    REQUIRE(r.ok);
    steps = 6;  // t = 0, 60, ..., 300
  }             // the destructor writes the .pvd
  // the collection lists every step with its time
  std::ifstream pvd(dir + "/facility.pvd");
  REQUIRE(pvd.good());
  std::stringstream ss;
  ss << pvd.rdbuf();
  const std::string text = ss.str();
  CHECK_THAT(text, Catch::Contains("timestep=\"300\"") && Catch::Contains("facility_000005.vtu"));
  CHECK_FALSE(std::filesystem::exists(dir + "/facility_000006.vtu"));
  // the last step: racks, CDUs and two header branches per rack
  vtkNew<vtkXMLUnstructuredGridReader> reader;
  reader->SetFileName((dir + "/facility_000005.vtu").c_str());
  reader->Update();
  vtkUnstructuredGrid* g = reader->GetOutput();
  REQUIRE(g != nullptr);
  CHECK(g->GetNumberOfCells() == m.nrack + m.ncdu + 2 * m.nrack);
  vtkCellData* cd = g->GetCellData();
  for (const char* name : {"kind", "index", "T_inlet_degC", "T_outlet_degC", "P_kW", "flow_Lpm",
                           "pump_speed", "valve_position", "p_tank_kPa", "isolation", "powered"}) {
    INFO(name);
    REQUIRE(cd->GetArray(name) != nullptr);
  }
  // rack values match the model's at the last output (SI -> kW, L/min, degC)
  vtkDataArray* P = cd->GetArray("P_kW");
  vtkDataArray* V = cd->GetArray("flow_Lpm");
  vtkDataArray* Tout = cd->GetArray("T_outlet_degC");
  vtkDataArray* kind = cd->GetArray("kind");
  for (int r = 0; r < m.nrack; ++r) {
    CHECK(kind->GetTuple1(r) == 0);
    CHECK(P->GetTuple1(r) == Approx(st.sig.P_rack[r] / 1e3).epsilon(1e-9));
    const double rho = m.fluids[m.cdu_fluid[m.rack_cdu[r]]].rho_ref();
    CHECK(V->GetTuple1(r) == Approx(st.sig.m_rack[r] / rho * 60000).epsilon(1e-9));
    CHECK(Tout->GetTuple1(r) == Approx(st.y[m.rackAdr(r)] - 273.15).epsilon(1e-9));
  }
  CHECK(kind->GetTuple1(m.nrack) == 1);  // the first CDU follows the racks
  // geometry: rack A01 (index 1, the first row) spans x 0 .. 0.6 m, height 2.2 m
  double b[6];
  g->GetCell(0)->GetBounds(b);
  CHECK(b[0] == Approx(0.0));
  CHECK(b[1] == Approx(kVtkRackWidth));
  CHECK(b[5] == Approx(kVtkRackHeight));
  CHECK(steps == 6);
  // ParaView itself, where Debian's paraview package is installed
  if (std::system("command -v pvpython > /dev/null 2>&1") == 0) {
    const std::string script = dir + "/load.py";
    std::ofstream py(script);
    py << "from paraview.simple import *\n"
       << "r = PVDReader(FileName='" << dir << "/facility.pvd')\n"
       << "r.UpdatePipeline(300.0)\n"
       << "assert len(r.TimestepValues) == 6\n"
       << "assert 'P_kW' in r.CellData.keys()\n";
    py.close();
    CHECK(std::system(("pvpython " + script + " > /dev/null 2>&1").c_str()) == 0);
  } else {
    WARN("pvpython (Debian's paraview) not installed: the export was read back with VTK only");
  }
  std::filesystem::remove_all(dir);
}

TEST_CASE("ParaView export never replaces an input: a file named as its output in its folder",
          "[vtk][bounded]") {
  namespace fs = std::filesystem;
  const std::string dir = (fs::temp_directory_path() / "dctwin_vtk_inputs").string();
  fs::remove_all(dir);
  fs::create_directories(dir + "/sub");
  std::ofstream(dir + "/facility.pvd") << "name: not a collection\n";
  std::ofstream(dir + "/facility_000003.vtu") << "x\n";
  fs::create_symlink(dir, dir + "/sub/link");
  // the same folder through a link or another spelling: refused, naming the file
  for (const std::string& out : {dir, dir + "/sub/link", dir + "/sub/.."}) {
    INFO(out);
    CHECK_THROWS_WITH(checkVtkOutput(out, {dir + "/facility.pvd"}),
                      Catch::Contains("would replace") && Catch::Contains("facility.pvd"));
    CHECK_THROWS_WITH(checkVtkOutput(out, {"", dir + "/facility_000003.vtu"}),
                      Catch::Contains("facility_000003.vtu"));
  }
  // another folder, or a name the export does not write: nothing to refuse
  CHECK_NOTHROW(checkVtkOutput(dir + "/sub", {dir + "/facility.pvd"}));
  CHECK_NOTHROW(checkVtkOutput(dir, {dir + "/facility.yaml", dir + "/facility_3.vtu"}));
  fs::remove_all(dir);
}
