// vtk_export.h: ParaView export of a run: the facility's geometry (racks and CDUs as boxes placed
// by row and position, supply and return headers as lines) with time-varying fields, as VTK XML
// unstructured grids (.vtu) and a .pvd time collection (docs/results.md "ParaView export").
// Built only where VTK is found (dctwin_vtk library); no VTK type in this header.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "solver/output/sinks.h"

namespace dctwin {

// a sink of the run path (solver/run/run.h): the fields come from the output table
class VtkSink : public RunSink {
 public:
  // writes DIR/facility_NNNNNN.vtu at every output and DIR/facility.pvd when finished
  explicit VtkSink(std::string dir);
  ~VtkSink() override;
  void begin(const RunLayout& L, const FrameLayout& F) override;
  void row(const OutputFrame& f) override;
  void end(const RunResult& r) override;  // finish()
  void finish();  // writes the .pvd collection (also done by the destructor)

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// throws ResultsError when a file the sink would write in `dir` (facility.pvd,
// facility_NNNNNN.vtu) is one of `inputs` (the same folder through any link or spelling)
void checkVtkOutput(const std::string& dir, const std::vector<std::string>& inputs);

// the geometry's conventions (a): rack footprint and row pitch (m)
constexpr double kVtkRackWidth = 0.6, kVtkRackDepth = 1.2, kVtkRackHeight = 2.2;
constexpr double kVtkRowPitch = 3.6;

}  // namespace dctwin
