#include "solver/engine/integrator.h"

#include <cvodes/cvodes.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>
#include <sunlinsol/sunlinsol_klu.h>
#include <sunmatrix/sunmatrix_sparse.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <memory>
#include <sstream>

#include "solver/common/parallel.h"
#include "solver/common/units.h"
#include "solver/engine/annual.h"

namespace dctwin {

namespace {

struct Context {
  const FacilityModel* m;
  State* st;
  std::vector<int> color_adr, color_cols;  // columns grouped by color
  std::vector<double> ydot;                // work vector for the signals at output rows
  std::string last_error;
};

// the energy integrals ride at the end of CVODES's vector, after the model's nstate states (their
// rates are signals of the right-hand side just evaluated, so they cost no evaluation of their
// own, where CVODES's quadratures would call the right-hand side once more per step): heat in,
// heat to the facility water, losses, room air in and removed, pump electric, air-cooled racks
// , air-handler fans and chiller
constexpr int kEnergyIntegrals = 9;

void energyRates(const State& st, double* qd) {
  qd[0] = st.sig.heat_in;
  qd[1] = st.sig.heat_out_fws;
  qd[2] = st.sig.heat_loss;
  qd[3] = st.sig.air_in;
  qd[4] = st.sig.air_removed;
  qd[5] = 0;
  for (double P : st.sig.P_pump) qd[5] += P;
  // air-cooled racks' IT + fan power: their IT energy with or without a power chain
  qd[6] = 0;
  for (std::size_t k = 0; k < st.sig.air_P.size(); ++k)
    qd[6] += st.sig.air_P[k] + st.sig.air_P_fan[k];
  qd[7] = st.sig.ah_P_fan;
  qd[8] = st.sig.ah_P_chiller;
}

int rhsFn(sunrealtype t, N_Vector y, N_Vector ydot, void* user) {
  auto* ctx = static_cast<Context*>(user);
  double* fd = N_VGetArrayPointer(ydot);
  const int flag = evalRhs(*ctx->m, *ctx->st, t, N_VGetArrayPointer(y), fd);
  energyRates(*ctx->st, fd + ctx->m->nstate);
  return flag;
}

// difference-quotient jacobian, one rhs evaluation per column color
int jacFn(sunrealtype t, N_Vector y, N_Vector fy, SUNMatrix J, void* user, N_Vector, N_Vector,
          N_Vector) {
  auto* ctx = static_cast<Context*>(user);
  const FacilityModel& m = *ctx->m;
  State& st = *ctx->st;
  const double* yd = N_VGetArrayPointer(y);
  const double* fd = N_VGetArrayPointer(fy);
  sunindextype* colptr = SUNSparseMatrix_IndexPointers(J);
  sunindextype* rowind = SUNSparseMatrix_IndexValues(J);
  double* data = SUNSparseMatrix_Data(J);
  for (int j = 0; j <= m.nstate; ++j) colptr[j] = m.jac_colptr[j];
  for (std::size_t k = 0; k < m.jac_rowind.size(); ++k) rowind[k] = m.jac_rowind[k];
  // the energy integrals' columns: no rate depends on an integral (zero), an explicit diagonal
  // so that CVODES's I - gamma J keeps the pattern; their rows (the rates' slopes) are left out,
  // and the modified Newton iteration takes each integral to its BDF value in one step
  const sunindextype nnz0 = sunindextype(m.jac_rowind.size());
  for (int k = 0; k < kEnergyIntegrals; ++k) {
    rowind[nnz0 + k] = m.nstate + k;
    data[nnz0 + k] = 0.0;
    colptr[m.nstate + k + 1] = nnz0 + k + 1;
  }
  const double sq = std::sqrt(std::numeric_limits<double>::epsilon());
  std::copy(yd, yd + m.nstate, st.scratch.begin());
  for (int color = 0; color < m.jac_ncolor; ++color) {
    for (int k = ctx->color_adr[color]; k < ctx->color_adr[color + 1]; ++k) {
      int j = ctx->color_cols[k];
      st.scratch[j] = yd[j] + sq * std::max(std::abs(yd[j]), 1.0);
    }
    int flag = evalRhs(m, st, t, st.scratch.data(), st.fscratch.data());
    if (flag != 0) return flag;
    for (int k = ctx->color_adr[color]; k < ctx->color_adr[color + 1]; ++k) {
      int j = ctx->color_cols[k];
      double h = st.scratch[j] - yd[j];
      for (long long p = m.jac_colptr[j]; p < m.jac_colptr[j + 1]; ++p) {
        int i = int(m.jac_rowind[p]);
        data[p] = (st.fscratch[i] - fd[i]) / h;
      }
      st.scratch[j] = yd[j];
    }
  }
  return 0;
}

void errHandler(int code, const char* module, const char* function, char* msg, void* user) {
  auto* ctx = static_cast<Context*>(user);
  std::ostringstream os;
  os << module << "::" << function << " (" << code << "): " << msg;
  ctx->last_error = os.str();
}

struct CvodeDeleter {
  void operator()(void* p) const { CVodeFree(&p); }
};
struct NVectorDeleter {
  void operator()(_generic_N_Vector* v) const { N_VDestroy(v); }
};
struct MatrixDeleter {
  void operator()(_generic_SUNMatrix* A) const { SUNMatDestroy(A); }
};
struct LinSolDeleter {
  void operator()(_generic_SUNLinearSolver* S) const { SUNLinSolFree(S); }
};

void fastTrampoline(void* user, const FacilityModel& m, const State& st, double t) {
  static_cast<OutputSink*>(user)->fast(m, st, t);
}

// adds the counters of the current CVODES integration to s
void addStats(void* mem, SolverStats& s) {
  long v;
  CVodeGetNumSteps(mem, &v), s.steps += v;
  CVodeGetNumRhsEvals(mem, &v), s.rhs_evals += v;
  CVodeGetNumJacEvals(mem, &v), s.jac_evals += v;
  CVodeGetNumLinSolvSetups(mem, &v), s.lin_setups += v;
  CVodeGetNumNonlinSolvIters(mem, &v), s.nonlin_iters += v;
  CVodeGetNumNonlinSolvConvFails(mem, &v), s.nonlin_conv_fails += v;
  CVodeGetNumErrTestFails(mem, &v), s.err_test_fails += v;
  CVodeGetLastStep(mem, &s.last_step);
}

}  // namespace

//---------------------------------------------------------------------------------------------
std::string describeState(const FacilityModel& m, int i) {
  for (int c = 0; c < m.ncdu; ++c) {
    int o = m.cdu_stateadr[c];
    if (i < o || i >= o + m.cdu_statenum[c]) continue;
    const std::string cdu = "CDU '" + m.cdu_name[c] + "' ";
    switch (i - o) {
      case kTHexSec:
        return cdu + "supply temperature (heat-exchanger secondary outlet)";
      case kTHexPrim:
        return cdu + "facility-water return temperature (heat-exchanger primary outlet)";
      case kTRes:
        return cdu + "reservoir temperature";
      case kXTemp:
        return cdu + "supply-temperature controller";
      case kYValve:
        return cdu + "primary valve position";
      case kXPump:
        return cdu + "pump controller";
      case kNPump:
        return cdu + "pump speed";
      case kVLost:
        return cdu + "coolant lost through leaks";
      case kVAir:
        return cdu + "air in the loop";
      default:
        break;
    }
    if (i == m.cdu_sensT_adr[c]) return cdu + "supply-temperature sensor";
    if (i == m.cdu_sensP_adr[c]) return cdu + "pump-control sensor (flow or dp)";
    int s = i - m.supSegAdr(c);
    if (s >= 0 && s < m.cdu_nseg_sup[c])
      return cdu + "supply header segment " + std::to_string(s + 1);
    int rr = i - m.retSegAdr(c);
    if (rr >= 0) return cdu + "return header segment " + std::to_string(rr + 1);
    for (int k = 0; k < m.cdu_racknum[c]; ++k) {
      int r = m.cdu_rackadr[c] + k, a = m.rackAdr(r);
      if (i == a) return "rack '" + m.rack_name[r] + "' coolant temperature";
      if (i == a + 1) return "rack '" + m.rack_name[r] + "' cold-plate case temperature";
    }
  }
  if (i == m.room_state) return "room air temperature";
  if (i == m.ah_state) return "air handlers' fan-speed controller";
  return "state " + std::to_string(i);
}

//---------------------------------------------------------------------------------------------
namespace {

void check(int flag, const char* what) {
  if (flag < 0)
    throw std::runtime_error(std::string(what) + " failed with flag " + std::to_string(flag));
}

// the first input discontinuity after `after`; infinity if none
double nextBreak(const FacilityModel& m, double after) {
  auto it = std::upper_bound(m.breakpoints.begin(), m.breakpoints.end(), after + 1e-9);
  return it == m.breakpoints.end() ? std::numeric_limits<double>::infinity() : *it;
}

// one run of simulate(): the CVODES objects (freed in reverse order of creation) and what the
// steps share; the steps run in the order of simulate()
struct Run {
  const FacilityModel& m;
  State& st;
  const RunOptions& opt;
  OutputSink* sink;
  RunResult& res;
  SUNContext sunctx;
  Context ctx;
  std::unique_ptr<_generic_N_Vector, NVectorDeleter> y, atol;
  std::unique_ptr<void, CvodeDeleter> cv;
  std::unique_ptr<_generic_SUNMatrix, MatrixDeleter> J;
  std::unique_ptr<_generic_SUNLinearSolver, LinSolDeleter> LS;
  double* yd = nullptr;  // y's data: the model's nstate states, then the energy integrals
  void* mem = nullptr;   // the CVODES integrator
  double t = 0;          // where the integrator is
  bool annual = false;   // the multi-rate annual mode (solver/engine/annual.h)

  Run(const FacilityModel& m_, State& st_, const RunOptions& opt_, OutputSink* sink_,
      RunResult& res_, SUNContext sunctx_)
      : m(m_),
        st(st_),
        opt(opt_),
        sink(sink_),
        res(res_),
        sunctx(sunctx_),
        ctx{&m_, &st_, {}, {}, std::vector<double>(m_.nstate), {}} {}

  // columns grouped by color (each group is perturbed together in jacFn)
  void groupColumnsByColor() {
    ctx.color_adr.assign(m.jac_ncolor + 1, 0);
    for (int j = 0; j < m.nstate; ++j) ++ctx.color_adr[m.jac_color[j] + 1];
    for (int k = 0; k < m.jac_ncolor; ++k) ctx.color_adr[k + 1] += ctx.color_adr[k];
    ctx.color_cols.resize(m.nstate);
    std::vector<int> fill(ctx.color_adr.begin(), ctx.color_adr.end() - 1);
    for (int j = 0; j < m.nstate; ++j) ctx.color_cols[fill[m.jac_color[j]]++] = j;
  }

  // 1. vectors and initial values: y from the state, absolute tolerances by kind of state, the
  // energy integrals from 0 (after the states, outside the error test: their weight is 0)
  void makeVectors() {
    const SolverOptions& so = m.options;
    const int n = m.nstate + kEnergyIntegrals;
    y.reset(N_VNew_Serial(n, sunctx));
    atol.reset(N_VNew_Serial(n, sunctx));
    yd = N_VGetArrayPointer(y.get());
    std::copy(st.y.begin(), st.y.end(), yd);
    std::fill(yd + m.nstate, yd + n, 0.0);
    double* ad = N_VGetArrayPointer(atol.get());
    for (int c = 0; c < m.ncdu; ++c)
      for (int i = m.cdu_stateadr[c]; i < m.cdu_stateadr[c] + m.cdu_statenum[c]; ++i) {
        int off = i - m.cdu_stateadr[c];
        bool ctrl = off == kYValve || off == kNPump || off == kXPump;
        ad[i] = ctrl ? so.atol_ctrl : so.atol_T;
        if (off == kXTemp) ad[i] = so.atol_T * 10.0;        // K s
        if (off == kVLost || off == kVAir) ad[i] = 1e-9;    // m3 (1 mL = 1e-6)
        if (i == m.cdu_sensP_adr[c]) ad[i] = so.atol_ctrl;  // relative measurement (1)
      }
    if (m.room_state >= 0) ad[m.room_state] = so.atol_T;
    if (m.ah_state >= 0) ad[m.ah_state] = so.atol_T * 10.0;  // K s, as a CDU's PI
    // CVODES's norms are weighted RMS over all n entries: the states' tolerances scaled by
    // sqrt(nstate / n) keep every norm what it is over the states alone, and the integrals'
    // weights 1 / (rtol |q| + 1e300) vanish in it
    const double f = std::sqrt(double(m.nstate) / n);
    for (int i = 0; i < m.nstate; ++i) ad[i] *= f;
    std::fill(ad + m.nstate, ad + n, 1e300);
  }

  // 2. cvode: BDF, sparse jacobian by difference quotients, KLU
  void setupCvode() {
    const SolverOptions& so = m.options;
    cv.reset(CVodeCreate(CV_BDF, sunctx));
    mem = cv.get();
    CVodeSetErrHandlerFn(mem, errHandler, &ctx);
    t = st.time;
    check(CVodeInit(mem, rhsFn, t, y.get()), "CVodeInit");
    check(CVodeSetUserData(mem, &ctx), "CVodeSetUserData");
    const double f = std::sqrt(double(m.nstate) / (m.nstate + kEnergyIntegrals));
    check(CVodeSVtolerances(mem, so.rtol * f, atol.get()), "CVodeSVtolerances");
    const long long nnz = static_cast<long long>(m.jac_rowind.size()) + kEnergyIntegrals;
    const int n = m.nstate + kEnergyIntegrals;
    J.reset(SUNSparseMatrix(n, n, nnz, CSC_MAT, sunctx));
    LS.reset(SUNLinSol_KLU(y.get(), J.get(), sunctx));
    check(CVodeSetLinearSolver(mem, LS.get(), J.get()), "CVodeSetLinearSolver");
    check(CVodeSetJacFn(mem, jacFn), "CVodeSetJacFn");
    check(CVodeSetMaxStep(mem, so.max_step), "CVodeSetMaxStep");
    check(CVodeSetMaxNumSteps(mem, 200000), "CVodeSetMaxNumSteps");
  }

  // 3a. an output row at tt (y holds the energy integrals at tt): energy integrals, signals, sink;
  // the GPU layer's interval statistics restart with every row
  void emit(double tt) {
    const double* qd = yd + m.nstate;
    evalRhs(m, st, tt, yd, ctx.ydot.data());
    res.energy.heat_in = qd[0];
    res.energy.heat_out_fws = qd[1];
    res.energy.heat_loss = qd[2];
    res.energy.air_in = qd[3];
    res.energy.air_removed = qd[4];
    res.energy.pump_electric = qd[5];
    res.energy.air_racks = qd[6];
    res.energy.ah_fans = qd[7];
    res.energy.ah_chiller = qd[8];
    res.energy.air_stored =
        m.room_state >= 0 ? m.room_C * (yd[m.room_state] - st.y0[m.room_state]) : 0.0;
    res.energy.stored = storedEnergy(m, yd, st.y0.data());
    res.energy.gpu_electric = st.gl.E_electric;
    res.energy.gpu_to_coolant = st.gl.E_to_coolant;
    res.energy.gpu_stored = gpuLayerEnergy(m, st, 0.0) - st.gl.E_stored0;
    if (sink) {
      syncGpuView(m, st);
      // the statistics so far (the results file writes them at its flushes)
      st.stats = res.stats;
      addStats(mem, st.stats);
      st.stats.rhs_evals_jac = st.stats.jac_evals * m.jac_ncolor;
      st.stats.hydraulic_failures = st.sig.hydraulic_failures;
      sink->sample(m, st, yd, tt, res.energy);
    }
    resetGpuInterval(m, st);
    if (annual && st.annual.slow) annualHoldMaxima(m, st, yd);
    st.pl.t_row = tt;
    st.pl.E_pump_row = res.energy.pump_electric + res.energy.ah_fans + res.energy.ah_chiller;
  }

  // 3b. the GPU layer first, over the coupling window, with the coolant state at its start
  void gpuLayerWindow(double t_stop, WorkerPool& pool) {
    const auto g0 = std::chrono::steady_clock::now();
    evalRhs(m, st, t, yd, ctx.ydot.data());
    advanceGpuLayer(m, st, yd, t, t_stop, sink ? &fastTrampoline : nullptr, sink, &pool);
    res.stats.gpu_layer_seconds +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - g0).count();
  }

  // 3c. a solver failure: names the state with the largest weighted local error, and the state
  // furthest outside its fluid's range
  void recordFailure() {
    const int n = m.nstate + kEnergyIntegrals;
    std::unique_ptr<_generic_N_Vector, NVectorDeleter> w(N_VNew_Serial(n, sunctx));
    std::unique_ptr<_generic_N_Vector, NVectorDeleter> e(N_VNew_Serial(n, sunctx));
    CVodeGetErrWeights(mem, w.get());
    CVodeGetEstLocalErrors(mem, e.get());
    int worst = 0;
    double wmax = -1;
    for (int i = 0; i < m.nstate; ++i) {
      double v = std::abs(N_VGetArrayPointer(e.get())[i] * N_VGetArrayPointer(w.get())[i]);
      if (v > wmax) wmax = v, worst = i;
    }
    std::ostringstream os;
    os << "solver failure at t = " << t << " s: " << ctx.last_error
       << " (largest local error: " << describeState(m, worst) << ")";
    if (st.sig.range_state >= 0)
      os << "; outside the fluid's range: " << describeState(m, st.sig.range_state) << " at "
         << toCelsius(st.sig.range_value) << " degC";
    res.ok = false;
    res.error = os.str();
  }

  // 3d. restart past a discontinuity of the inputs (fresh BDF history; the energy integrals go
  // on from their values in y)
  void restart() {
    addStats(mem, res.stats);
    CVodeReInit(mem, t, y.get());
  }

  // 3e. the annual mode between its windows and slow segments: true when it switched (the
  // coolant's inputs step: the integrator restarts)
  bool annualSwitch(bool at_break) {
    AnnualState& a = st.annual;
    const AnnualParams& p = m.options.annual;
    // a failure or repair inside a window (docs/models/failures.md): a new window from it, which
    // lets the restart settle before its means are taken
    if (!a.slow && t > a.window_start + 1e-6 && nextFailureEvent(m, st) <= t + 1e-9) {
      annualBeginWindow(m, st, t);
      return true;
    }
    if (!a.slow && t >= a.window_end - 1e-9) {
      if (a.window_end < a.measure_from + p.window - 1e-9) {
        annualBeginWindow(m, st, t);  // cut at a job's start or stop: a new window from there
      } else {
        annualBeginSlow(m, st, t, yd);
        check(CVodeSetMaxStep(mem, std::max(m.options.max_step, p.slow_step)), "CVodeSetMaxStep");
      }
      return true;
    }
    if (a.slow && annualRefreshDue(m, st, t, at_break)) {
      annualBeginWindow(m, st, t);
      check(CVodeSetMaxStep(mem, m.options.max_step), "CVodeSetMaxStep");
      return true;
    }
    return false;
  }

  // 3. advance: to each output time, stopping exactly at input discontinuities, at the GPU
  // layer's coupling windows and at the detectors' polls
  void advance() {
    const SolverOptions& so = m.options;
    const double t_end = st.time + opt.duration;
    const double dt_out = so.output_interval;
    st.gl.E_stored0 = gpuLayerEnergy(m, st, 0.0);
    // worker threads for the racks of the fast layers; a chunk of fewer than 16 racks costs more
    // in hand-offs than it saves
    WorkerPool pool(std::clamp(so.threads, 1, std::max(1, m.nrack / 16)));
    // the right-hand side runs the CDU loops on it too, for as long as this run lasts
    struct PoolScope {
      State& s;
      ~PoolScope() { s.pool = nullptr; }
    } pool_scope{st};
    st.pool = &pool;
    // faults due at the start act before the first output; detectors poll on their own clock
    // when the scenario has faults (else at every window and output)
    applyFaults(m, st, t, yd);
    const bool polling = !m.fault_events.empty();
    double t_poll = t + m.detection.poll_interval;
    if (m.has_plant) {  // the plant's first step, on the initial state (before any history)
      evalRhs(m, st, t, yd, ctx.ydot.data());
      plantLayerStep(m, st, t, yd);
    }
    // the multi-rate annual mode: a full-resolution window first (docs/models/annual.md)
    annual = m.options.annual.enabled && (m.ngpu > 0 || m.has_power);
    initFailureProcess(m, st, t);  // (docs/models/failures.md; nothing without `failures:`)
    if (annual) {
      annualInit(m, st);
      annualBeginWindow(m, st, t);
    }
    emit(t);
    long k_out = 1;
    double t_break = nextBreak(m, t);
    while (t < t_end - 1e-9) {
      if (opt.cancel && opt.cancel->load(std::memory_order_relaxed)) {
        res.cancelled = true;
        break;
      }
      // the failure process's failures and repairs due now (docs/models/failures.md); its next
      // one is a stop of the GPU layer's window (in the annual mode, of the slow segment too)
      if (!(annual && st.annual.slow)) {
        if (m.failures.enabled) stepFailureProcess(m, st, t);
        if (m.stragglers.enabled) stepStragglers(m, st, t);
      }
      double t_out = std::min(st.time + k_out * dt_out, t_end);
      double t_stop = std::min(t_out, t_break);
      if (polling) t_stop = std::min(t_stop, t_poll);
      if (m.has_plant) t_stop = std::min(t_stop, st.plant.next);
      if (annual) t_stop = std::min(t_stop, annualNextStop(m, st, t));
      const bool slow = annual && st.annual.slow;
      if (!slow && (m.ngpu > 0 || m.has_power)) {
        if (m.failures.enabled) t_stop = std::min(t_stop, nextFailureEvent(m, st));
        if (m.stragglers.enabled) t_stop = std::min(t_stop, nextStragglerStop(m, st, t));
        t_stop = std::min(t_stop, t + m.coupling_dt);
        if (annual) annualBeforeGpu(st);
        gpuLayerWindow(t_stop, pool);
        if (annual) annualAfterGpu(m, st, t, t_stop);
      }
      const double t_prev = t;
      CVodeSetStopTime(mem, t_stop);
      int flag = CVode(mem, t_stop, y.get(), &t, CV_NORMAL);
      if (flag < 0) {
        recordFailure();
        break;
      }
      if (slow) annualSlowAdvance(m, st, t_prev, t);
      if (polling && t >= t_poll - 1e-9) t_poll += m.detection.poll_interval;
      const bool at_break = t >= t_break - 1e-9;
      if (at_break) applyFaults(m, st, t, yd);
      evalRhs(m, st, t, yd, ctx.ydot.data());  // signals at t, not at a jacobian perturbation
      pollDetectors(m, st, t, yd);
      // the plant on its own clock: a new supply temperature or dp is an input step
      bool plant_changed = false;
      if (m.has_plant && t >= st.plant.next - 1e-9) plant_changed = plantLayerStep(m, st, t, yd);
      const bool mode_changed = annual && annualSwitch(at_break);
      if (at_break || st.faults.changed || plant_changed || mode_changed) {
        st.faults.changed = false;
        restart();
        t_break = nextBreak(m, t);
      }
      if (t >= t_out - 1e-9) {
        emit(t);
        ++k_out;
      }
    }
  }

  // 4. statistics (CVodeReInit restarts the counters: they are summed over restarts); the final
  // state back into st
  void finish() {
    addStats(mem, res.stats);
    res.stats.rhs_evals_jac = res.stats.jac_evals * m.jac_ncolor;
    res.stats.hydraulic_failures = st.sig.hydraulic_failures;
    if (annual) {
      res.stats.annual_windows = st.annual.windows;
      res.stats.annual_window_time = st.annual.window_seconds;
      res.stats.annual_slow_time = st.annual.slow_seconds;
    }
    res.t_end = t;
    res.events = st.events;
    syncGpuView(m, st);
    std::copy(yd, yd + m.nstate, st.y.begin());
    st.time = t;
  }
};

}  // namespace

RunResult simulate(const FacilityModel& m, State& st, const RunOptions& opt, OutputSink* sink) {
  auto wall0 = std::chrono::steady_clock::now();
  RunResult res;
  sundials::Context sunctx;
  Run run(m, st, opt, sink, res, sunctx);
  run.groupColumnsByColor();
  // 1. vectors and initial values
  run.makeVectors();
  // 2. cvode: BDF, sparse jacobian by difference quotients, KLU
  run.setupCvode();
  // 3. advance: to each output time, stopping exactly at input discontinuities
  run.advance();
  // 4. statistics
  run.finish();
  res.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
  return res;
}

}  // namespace dctwin
