// annual.h: the multi-rate annual mode (docs/models/annual.md)
//
// a year at full resolution is 6.3e8 GPU steps of 50 ms; the plant and the coolant loops change on
// minutes to hours. The annual mode alternates short full-resolution windows (GPU layer, jobs,
// power chain, coolant: exactly the normal run) with slow segments in which the GPU layer is
// replaced by its periodic mean over the last window: every quantity the fast layers accumulate per
// fast step (energies, GPU-seconds throttled, iterations, the bottleneck map, interval sums) moves
// on at the window's mean rate, the coolant sees each rack's window-mean heat and the plant the
// window-mean IT power, and the jobs' clocks are shifted so they resume where they left off. The
// integrator (solver/engine/integrator.cpp) calls these between its steps.
#pragma once

#include "solver/engine/engine.h"

namespace dctwin {

// the registry of accumulators and the job times; called once by simulate() on the final state
void annualInit(const FacilityModel& m, State& st);
// a new full-resolution window from t: it ends after annual.window or at the next job start/stop
void annualBeginWindow(const FacilityModel& m, State& st, double t);
// around every GPU-layer call of a window: its increments are summed (covering [t0, t1])
void annualBeforeGpu(State& st);
void annualAfterGpu(const FacilityModel& m, State& st, double t0, double t1);
// the window's means become the slow segment's inputs (coolant heat, IT power, instants) at t
void annualBeginSlow(const FacilityModel& m, State& st, double t, const double* y);
// a slow step over [t0, t1]: every accumulator moves on at the window's rate
void annualSlowAdvance(const FacilityModel& m, State& st, double t0, double t1);
// in a slow segment: whether a new window is due at t (the period, the facility supply or the wet
// bulb moved past their thresholds, a job starts or stops, an input breakpoint was crossed)
bool annualRefreshDue(const FacilityModel& m, const State& st, double t, bool at_break);
// the next time the integrator has to stop for the annual mode (window end, period, job time)
double annualNextStop(const FacilityModel& m, const State& st, double t);
// in a slow segment after an output row: the interval maxima of the die and HBM temperatures
// are the window's, moved by the change of their rack's inlet since (a die follows its inlet)
void annualHoldMaxima(const FacilityModel& m, State& st, const double* y);
// the facility plant's step in a slow segment (s)
double annualPlantStep(const FacilityModel& m, const State& st);

}  // namespace dctwin
