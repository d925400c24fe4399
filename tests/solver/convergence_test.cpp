// convergence_test.cpp: observed order of accuracy of the schemes that are not CVODES' own
// (MFEM tests/unit/linalg/test_ode.cpp style: error against step size on a log-log, the slope
// asserted). Each section halves the step (or doubles the segments) repeatedly, measures the error
// against an analytic solution or a fine reference, and checks that the error falls at every
// refinement and that the observed order p = log2(e(h) / e(h/2)) stays in the band of the scheme:
//   (a) the GPU thermal nodes, backward Euler over gpu_dt (models/gpu.cpp gpuThermalStep), alone
//       against the matrix exponential and with the operating point (leakage) lagged one step,
//       as advanceGpuLayer() steps them, and the whole GPU layer in the engine: order 1 in gpu_dt;
//   (b) the coupling window (solver/engine/gpu_layer.cpp): the GPUs see the coolant inlet of the
//       window start and the coolant the window-mean heat (operator splitting): the junction
//       converges at order 1 in coupling_dt; the coolant at order 2 for windows of 0.8 s and
//       more (the window-mean heat dominates), at order 1 only below ~0.4 s;
//   (c) the finite-volume pipe (models/pipe.cpp, first-order upwind tanks in series): order 1 in
//       1/n on a smooth inlet profile; on a step, order 1/2 in the L1 norm (a discontinuity is
//       smeared over tau/sqrt(n)).
// The measured orders are in docs/models/gpu_layer.md, docs/models/pipe.md and
// docs/conventions.md ("Golden files and convergence tests").
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "models/gpu.h"
#include "models/pipe.h"
#include "solver/compile/compile.h"
#include "solver/engine/engine.h"
#include "solver/engine/integrator.h"
#include "solver/input/loader.h"

using namespace dctwin;

namespace {

// observed orders between successive refinements (each refinement halves h)
std::vector<double> observedOrders(const std::vector<double>& err) {
  std::vector<double> p;
  for (std::size_t k = 1; k < err.size(); ++k) p.push_back(std::log2(err[k - 1] / err[k]));
  return p;
}

// the errors fall at every refinement and every observed order lies in [lo, hi]
void requireOrder(const std::vector<double>& err, double lo, double hi) {
  const std::vector<double> p = observedOrders(err);
  for (std::size_t k = 0; k < p.size(); ++k) {
    INFO("refinement " << k + 1 << ": error " << err[k] << " -> " << err[k + 1] << ", order "
                       << p[k]);
    CHECK(err[k + 1] < err[k]);
    CHECK(p[k] >= lo);
    CHECK(p[k] <= hi);
  }
}

// one GB200 NVL72 rack serving inference at a constant load: every GPU's power is constant but
// for its leakage, so the transient after a cold start is smooth (no phases, no barriers)
std::string oneRack(const std::string& gpu_layer) {
  return R"(dctwin: 1
name: one_rack
site: {ambient_temperature: 25 degC}
facility_water: {supply_temperature: 32 degC, differential_pressure: 200 kPa}
cdus:
  - name: cdu1
    model: vertiv_xdu1350
    fluid: pg25
    control: {supply_temperature: 36 degC, flow_setpoint: 140 L/min}
    piping:
      supply: {length: 10 m, diameter: 80 mm, segments: 5}
      return: {length: 10 m, diameter: 80 mm, segments: 5}
gpu_layer: )" +
         gpu_layer +
         R"(
jobs:
  - {name: serve, kind: inference, racks: [A01], load: 1.0}
racks:
  - {name: A01, cdu: cdu1, type: gb200_nvl72, row: A, index: 1}
)";
}

// --- (a) helpers: the three thermal nodes as a linear system dT/dt = M T + c -----------------
using Vec3 = std::array<double, 3>;
using Mat3 = std::array<Vec3, 3>;

Mat3 mul(const Mat3& a, const Mat3& b) {
  Mat3 c{};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 3; ++k) c[i][j] += a[i][k] * b[k][j];
  return c;
}

// exp(M t) by scaling and squaring with a 24-term Taylor series (M is 3 x 3, well conditioned)
Mat3 expm(const Mat3& M, double t) {
  double norm = 0;
  for (const Vec3& r : M) norm = std::max(norm, std::abs(r[0]) + std::abs(r[1]) + std::abs(r[2]));
  int s = std::max(0, int(std::ceil(std::log2(std::max(norm * t, 1e-300)))) + 1);
  const double scale = t / std::ldexp(1.0, s);
  Mat3 A{}, term{}, E{};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) A[i][j] = M[i][j] * scale;
  for (int i = 0; i < 3; ++i) term[i][i] = E[i][i] = 1.0;
  for (int k = 1; k <= 24; ++k) {
    term = mul(term, A);
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) term[i][j] /= k, E[i][j] += term[i][j];
  }
  for (int k = 0; k < s; ++k) E = mul(E, E);
  return E;
}

}  // namespace

TEST_CASE("GPU thermal nodes: backward Euler over the fast step is first order", "[convergence]") {
  // the catalog GB200 and its plate at the rack's design flow
  FacilityModel m =
      compileFacility(loadFacilityFromString(oneRack("{step: 50 ms, coupling: 5 s}"), "t.yaml"));
  REQUIRE(m.ngpu == 72);
  const GpuParams& p = m.gpu_types[0];
  const double V_path = 140.0 / 60000.0 / m.rack_paths[0];
  const GpuPlate plate{m.rack_coldplate[0].R(V_path) * m.gpu_R_factor[0], m.gpu_C_plate[0]};
  const double T_in = 309.15, T_end = 2.0;
  const double gj = 1 / p.R_jc, gh = 1 / p.R_hbm, gc = 1 / plate.R_cp;
  INFO("time constants: die C R_jc = " << p.C_die * p.R_jc << " s, HBM " << p.C_hbm * p.R_hbm
                                       << " s, plate C R_cp " << plate.C_plate * plate.R_cp
                                       << " s");

  SECTION("constant power: against the matrix exponential") {
    GpuOperatingPoint op;
    op.P = 1000.0, op.P_hbm = 120.0;
    // dT/dt = M (T - T*), T* the steady state
    const Mat3 M{{{-gj / p.C_die, 0, gj / p.C_die},
                  {0, -gh / p.C_hbm, gh / p.C_hbm},
                  {gj / plate.C_plate, gh / plate.C_plate, -(gj + gh + gc) / plate.C_plate}}};
    const double Tp = T_in + op.P / gc;
    const Vec3 Ts{Tp + (op.P - op.P_hbm) / gj, Tp + op.P_hbm / gh, Tp};
    const Mat3 E = expm(M, T_end);
    Vec3 exact{};
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) exact[i] += E[i][j] * (T_in - Ts[j]);
    for (int i = 0; i < 3; ++i) exact[i] += Ts[i];
    std::vector<double> err;
    for (double h = 0.2; h > 0.2 / 65; h /= 2) {  // 200 ms ... 3.1 ms (gpu_dt: 50 ms)
      GpuState s;
      s.T_j = s.T_hbm = s.T_plate = T_in;
      const int n = int(std::lround(T_end / h));
      for (int k = 0; k < n; ++k) gpuThermalStep(p, plate, T_in, op, h, s);
      err.push_back(std::max({std::abs(s.T_j - exact[0]), std::abs(s.T_hbm - exact[1]),
                              std::abs(s.T_plate - exact[2])}));
    }
    INFO("T_j exact at 2 s: " << exact[0] - 273.15 << " degC");
    requireOrder(err, 0.9, 1.1);
  }

  SECTION("with the operating point lagged one step (leakage feedback), as the GPU layer steps") {
    // below every limit and the cap: the power follows T_j through the leakage only
    GpuLoad load{0.6, 0.4, 0.2, false, false, true};
    int limited = 0;  // steps with a throttle reason
    auto run = [&](double h) {
      GpuState s;
      s.T_j = s.T_hbm = s.T_plate = T_in;
      const long n = std::lround(T_end / h);
      for (long k = 0; k < n; ++k) {
        const GpuOperatingPoint op = gpuOperatingPoint(p, 1e9, load, s);
        limited += op.reasons != 0u;
        gpuThermalStep(p, plate, T_in, op, h, s);
      }
      return s;
    };
    const GpuState ref = run(0.2 / 8192);
    std::vector<double> err;
    for (double h = 0.2; h > 0.2 / 65; h /= 2) {
      const GpuState s = run(h);
      err.push_back(std::max({std::abs(s.T_j - ref.T_j), std::abs(s.T_hbm - ref.T_hbm),
                              std::abs(s.T_plate - ref.T_plate)}));
    }
    CHECK(limited == 0);
    requireOrder(err, 0.9, 1.1);
  }
}

namespace {

// a run of oneRack() from a warm start (the loop at 30 degC under 72 GPUs at full inference
// load), recording every output: the coolant temperatures (CDU HX outlets and reservoir, headers,
// rack coolant and case; not the PI states) and the junction of the rack's GPU group. CVODES at
// rtol 1e-12: its own error (which grows with the number of windows, each a new stop time with a
// jump of the rack heat) stays below 1e-5 K even with 65,536 windows
struct Trace : OutputSink {
  std::vector<std::vector<double>> T;
  std::vector<double> Tj;
  void sample(const FacilityModel& m, const State& st, const double* y, double,
              const EnergyTotals&) override {
    std::vector<double> row;
    for (int i = 0; i < 3; ++i) row.push_back(y[m.stateAdr(0, i)]);
    for (int i = m.supSegAdr(0); i < m.retSegAdr(0) + m.cdu_nseg_ret[0]; ++i) row.push_back(y[i]);
    T.push_back(row);
    Tj.push_back(st.gl.grp.T_j[0]);
  }
};

Trace runOneRack(const std::string& step, const std::string& coupling) {
  FacilityModel m = compileFacility(loadFacilityFromString(
      oneRack("{step: " + step + ", coupling: " + coupling + "}"), "t.yaml"));
  m.options.rtol = 1e-12;
  m.options.atol_T = 1e-9;
  m.options.atol_ctrl = 1e-11;
  m.options.output_interval = 12.8;  // a multiple of every window below
  State st = makeState(m, 303.15);
  Trace tr;
  RunOptions ro;
  ro.duration = 204.8;
  REQUIRE(simulate(m, st, ro, &tr).ok);
  return tr;
}

// largest deviation over every output row: coolant temperatures, junction (K)
std::pair<double, double> maxDeviation(const Trace& a, const Trace& ref) {
  REQUIRE(a.T.size() == ref.T.size());
  double eT = 0, ej = 0;
  for (std::size_t k = 0; k < a.T.size(); ++k) {
    for (std::size_t i = 0; i < a.T[k].size(); ++i)
      eT = std::max(eT, std::abs(a.T[k][i] - ref.T[k][i]));
    ej = std::max(ej, std::abs(a.Tj[k] - ref.Tj[k]));
  }
  return {eT, ej};
}

}  // namespace

TEST_CASE("coupling window: the split of GPU layer and coolant converges in coupling_dt",
          "[convergence]") {
  // windows 6.4 s ... 50 ms at a GPU step of 3.125 ms, against windows of one GPU step
  const Trace ref = runOneRack("3.125 ms", "3.125 ms");
  std::vector<double> err_T, err_j;
  for (const char* c : {"6.4 s", "3.2 s", "1.6 s", "0.8 s", "0.4 s", "0.2 s", "0.1 s", "0.05 s"}) {
    const auto [eT, ej] = maxDeviation(runOneRack("3.125 ms", c), ref);
    err_T.push_back(eT);
    err_j.push_back(ej);
  }
  SECTION("GPU junction: first order (the GPUs see the inlet of the window start)") {
    requireOrder(err_j, 0.9, 1.25);
  }
  SECTION("coolant: second order at practical windows, first order as the window shrinks") {
    // the coolant receives the window's exact plate heat, so the lagged inlet only enters through
    // the heat the GPU nodes store (first order, small); the heat given as a constant window mean
    // is second order and dominates from 0.8 s up (the default window is 5 s)
    requireOrder(std::vector<double>(err_T.begin(), err_T.begin() + 4), 1.7, 2.4);
    requireOrder(std::vector<double>(err_T.begin() + 4, err_T.end()), 0.6, 1.2);
    CHECK(err_T[3] < err_T[2]);
    CHECK(err_T[4] < err_T[3]);
  }
}

TEST_CASE("GPU layer in the engine: the fast step converges at first order in gpu_dt",
          "[convergence]") {
  // the whole GPU layer (jobs, operating points, thermal nodes) over 6.4 s windows, steps
  // 200 ms ... 6.25 ms against 0.39 ms: the junction error, the coolant's (through the heat)
  const Trace ref = runOneRack("0.390625 ms", "6.4 s");
  std::vector<double> err_T, err_j;
  for (const char* h : {"200 ms", "100 ms", "50 ms", "25 ms", "12.5 ms", "6.25 ms"}) {
    const auto [eT, ej] = maxDeviation(runOneRack(h, "6.4 s"), ref);
    err_T.push_back(eT);
    err_j.push_back(ej);
  }
  SECTION("GPU junction") {
    requireOrder(err_j, 0.9, 1.15);
  }
  SECTION("coolant") {
    requireOrder(err_T, 0.9, 1.15);
  }
}

namespace {
Fluid constantFluid() {
  FluidData d;
  d.name = "const";
  d.T = {250, 400};
  d.rho = {1000, 1000};
  d.cp = {4000, 4000};
  d.mu = {1e-3, 1e-3};
  d.k = {0.6, 0.6};
  d.T_min = 250;
  d.T_max = 400;
  return Fluid(d);
}

// the outlet of n segments (V = 0.5 m3, 10 L/s: tau = 50 s) for an inlet T_in(t), by RK4 with a
// step far below the segment residence time; returns outlet samples every dt_out up to t_end
template <class Inlet>
std::vector<double> pipeOutlet(int n, Inlet T_in, double t_end, double dt_out) {
  const Fluid f = constantFluid();
  const double V = 0.5, Vdot = 0.01, rho = 1000;
  const double m = rho * Vdot, M_seg = rho * V / n;
  // a step that divides dt_out and stays below 1/20 of the segment residence time M_seg/m
  const double dt = dt_out / std::ceil(dt_out / std::min(0.02, 0.05 * M_seg / m));
  std::vector<double> T(n, 300.0), k1(n), k2(n), k3(n), k4(n), tmp(n), out{T[n - 1]};
  auto rhs = [&](double t, const std::vector<double>& x, std::vector<double>& d) {
    pipeSegmentsRhs(f, m, M_seg, 0.0, 298.15, T_in(t), x.data(), d.data(), n);
  };
  const long nstep = std::lround(t_end / dt), every = std::lround(dt_out / dt);
  for (long s = 0; s < nstep; ++s) {
    const double t = s * dt;
    rhs(t, T, k1);
    for (int i = 0; i < n; ++i) tmp[i] = T[i] + 0.5 * dt * k1[i];
    rhs(t + 0.5 * dt, tmp, k2);
    for (int i = 0; i < n; ++i) tmp[i] = T[i] + 0.5 * dt * k2[i];
    rhs(t + 0.5 * dt, tmp, k3);
    for (int i = 0; i < n; ++i) tmp[i] = T[i] + dt * k3[i];
    rhs(t + dt, tmp, k4);
    for (int i = 0; i < n; ++i) T[i] += dt / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
    if ((s + 1) % every == 0) out.push_back(T[n - 1]);
  }
  return out;
}
}  // namespace

TEST_CASE("pipe segments: upwind transport converges at order 1 on smooth profiles, 1/2 on a step",
          "[convergence]") {
  const double tau = 50.0, t_end = 250.0, dt_out = 0.1;
  const std::vector<int> segments{20, 40, 80, 160, 320};

  SECTION("smooth pulse: max error against the plug-flow delay, order 1 in 1/n") {
    // a 10 K Gaussian pulse (sigma 20 s) centred at 80 s; plug flow: T_out(t) = T_in(t - tau)
    auto T_in = [](double t) { return 300.0 + 10.0 * std::exp(-0.5 * std::pow((t - 80) / 20, 2)); };
    std::vector<double> err;
    for (int n : segments) {
      const std::vector<double> out = pipeOutlet(n, T_in, t_end, dt_out);
      double e = 0;
      for (std::size_t k = 0; k < out.size(); ++k) {
        const double t = k * dt_out;
        e = std::max(e, std::abs(out[k] - (t < tau ? 300.0 : T_in(t - tau))));
      }
      err.push_back(e);
    }
    requireOrder(err, 0.8, 1.2);
  }

  SECTION("step: L1 error against the delayed step, order 1/2 (a front smeared over tau/sqrt(n))") {
    auto T_in = [](double t) { return t > 0 ? 310.0 : 300.0; };
    std::vector<double> err;
    for (int n : segments) {
      const std::vector<double> out = pipeOutlet(n, T_in, t_end, dt_out);
      double e = 0;
      for (std::size_t k = 0; k < out.size(); ++k) {
        const double t = k * dt_out;
        e += std::abs(out[k] - (t < tau ? 300.0 : 310.0)) * dt_out;
      }
      err.push_back(e);
    }
    requireOrder(err, 0.4, 0.6);
  }
}
