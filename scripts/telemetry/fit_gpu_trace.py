#!/usr/bin/env python3
"""Derive the H200 catalog numbers from the recorded NVML traces (data/telemetry/h200_sxm_2026-11-29).

Python standard library only. It replicates dctwin's GPU model (models/gpu.{h,cpp}, docs/models/gpu.md):

  P = P_static(T_j) + (P_clk + P_sm a_sm) (x v(x)^2 - x_idle v(x_idle)^2 [P_clk only]) + P_hbm a_hbm
  v(x) = max(v_floor, v0 + (1 - v0) x)

Calibration uses board 1's long phases only (idle, 40 s GEMM at 700/500/350 W, 40 s copy):
  * leakage: slope of the held-idle power against junction temperature (beta fixed at 0.02 1/K)
  * P_idle at 35 degC: the no-context idle reading (nvidia-smi -q before the run, 345 MHz)
  * P_clk: held-idle power (a process holds the GPU, clocks stay at 1980 MHz) minus P_static
  * a_sm of a GEMM: measured bf16 rate / (clock x 540,672 flop per clock, the dense BF16 tensor
    peak of 132 SMs x 4096 [989.4 TF at 1830 MHz]); a_hbm = util_mem x 4.283/4.8 (the copy's
    measured bandwidth share at util_mem = 100 %)
  * P_sm, v0, v_floor: the three capped GEMM points solved exactly (clock = the phase's mean)
  * a_sm of the copy: its power with P_hbm_max = 163 W (catalog assumption, no memory power field)
  * thermal: R_jc, C_die, R_cp, C_plate, R_hbm, C_hbm and the sink temperature by coordinate
    descent on the junction and memory temperatures of the long phases
Validation (printed, and repeated by tests/solver/gpu_telemetry_test.cpp in C++): the 10-cycle
GEMM/copy/idle alternation of board 1 and the whole trace of board 2 (another H200, hotter sink).
"""
import csv
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "..", "data", "telemetry", "h200_sxm_2026-11-29")
F_MAX, F_IDLE = 1980.0, 345.0
X_IDLE = F_IDLE / F_MAX
PEAK_PER_MHZ = 132 * 4096 * 1e6 / 1e12  # TFLOP/s per MHz, dense BF16
COPY_BW_SHARE = 4.283 / 4.8
BETA, L_LEAK = 0.02, 35.0
P_HBM_MAX = 163.0
# HBM activity of the GEMM phases: util_mem x the copy's bandwidth share (board 1, 700/500/350 W)
A_HBM_GEMM = {700.0: 0.247 * COPY_BW_SHARE, 500.0: 0.209 * COPY_BW_SHARE, 350.0: 0.137 * COPY_BW_SHARE}


def load(board):
    d = os.path.join(DATA, board)
    rows = list(csv.DictReader(open(os.path.join(d, "telemetry.csv"))))
    phases = list(csv.DictReader(open(os.path.join(d, "phases.csv"))))
    f = lambda x: float(x) if x not in ("", None) else float("nan")
    t = [f(r["t_s"]) for r in rows]
    cols = {k: [f(r[k]) for r in rows] for k in ("power_instant_W", "sm_MHz", "T_gpu_C", "T_mem_C", "util_mem")}
    ph = [(f(p["t_start_s"]), f(p["t_end_s"]), p["phase"], f(p["power_limit_W"]), f(p["rate"])) for p in phases]
    return t, cols, ph


def mean_over(t, col, t0, t1):
    v = [c for tt, c in zip(t, col) if t0 <= tt <= t1]
    return sum(v) / len(v)


class Model:
    def __init__(s, **k):
        s.__dict__.update(k)

    def v(s, x):
        return max(s.v_floor, s.v0 + (1 - s.v0) * x)

    def static(s, T):
        return s.P_idle - s.L + s.L * math.exp(BETA * (T - 35.0))

    def power(s, x, T, a_sm, a_hbm):
        g = x * s.v(x) ** 2 - X_IDLE * s.v(X_IDLE) ** 2
        return s.static(T) + s.P_clk * g + s.P_sm * a_sm * x * s.v(x) ** 2 + P_HBM_MAX * a_hbm

    def op(s, cap, T, a_sm, a_hbm):
        x = 1.0
        if s.power(x, T, a_sm, a_hbm) > cap:
            lo, hi = X_IDLE, 1.0
            for _ in range(60):
                m = 0.5 * (lo + hi)
                if s.power(m, T, a_sm, a_hbm) > cap:
                    hi = m
                else:
                    lo = m
            x = lo
        return x, s.power(x, T, a_sm, a_hbm)


def loads(ph, a_gemm, a_copy):
    """(t_start, t_end, cap, a_sm, a_hbm, kind) per phase; idle = held at boost"""
    out = []
    for t0, t1, kind, lim, rate in ph:
        if kind == "idle":
            out.append((t0, t1, 1e9, 0.0, 0.0, kind))
        elif kind == "gemm":
            out.append((t0, t1, lim, a_gemm[lim], A_HBM_GEMM[lim], kind))
        else:
            out.append((t0, t1, lim, a_copy, COPY_BW_SHARE, kind))
    return out


def simulate(m, t, ld, T_sink, T0j, T0m):
    """backward Euler at the sample times; returns P, x, T_j, T_hbm per sample"""
    Tj, Th, Tp = T0j, T0m, T0j
    P_out, x_out, Tj_out, Th_out = [], [], [], []
    k = 0
    for i, tt in enumerate(t):
        while k + 1 < len(ld) and tt >= ld[k][1]:
            k += 1
        t0, t1, cap, a_sm, a_hbm, kind = ld[k]
        if not (t0 <= tt < t1):
            cap, a_sm, a_hbm = 1e9, 0.0, 0.0
        x, P = m.op(cap, Tj, a_sm, a_hbm)
        P_h = m.P_hbm_idle + P_HBM_MAX * a_hbm
        dt = t[i + 1] - tt if i + 1 < len(t) else 0.05
        gj, gh, gc = 1 / m.R_jc, 1 / m.R_hbm, 1 / m.R_cp
        cj, ch, cp = m.C_die / dt, m.C_hbm / dt, m.C_plate / dt
        aj, bj = (cj * Tj + P - P_h) / (cj + gj), gj / (cj + gj)
        ah, bh = (ch * Th + P_h) / (ch + gh), gh / (ch + gh)
        Tp = (cp * Tp + gj * aj + gh * ah + gc * T_sink) / (cp + gj * (1 - bj) + gh * (1 - bh) + gc)
        Tj, Th = aj + bj * Tp, ah + bh * Tp
        P_out.append(P), x_out.append(x), Tj_out.append(Tj), Th_out.append(Th)
    return P_out, x_out, Tj_out, Th_out


def main():
    t, c, ph = load("board1")
    long = [p for p in ph if p[1] - p[0] > 10]
    steady = lambda p, k: mean_over(t, c[k], 0.5 * (p[0] + p[1]), p[1])
    # 1. leakage and held idle
    idle_noctx, T_noctx = 81.34, 31.0  # board1/device.txt, before the run
    P_idle35 = idle_noctx + L_LEAK * (1 - math.exp(BETA * (T_noctx - 35.0)))
    m = Model(P_idle=P_idle35, L=L_LEAK, P_hbm_idle=30.2, v0=0.65, v_floor=0.0, P_sm=0.0, P_clk=0.0)
    held = [(steady(p, "T_gpu_C"), steady(p, "power_instant_W")) for p in long if p[2] == "idle"]
    Ph = sum(P - m.static(T) for T, P in held) / len(held)
    # 2. GEMM points
    gem = [(p[3], steady(p, "sm_MHz") / F_MAX, steady(p, "T_gpu_C"), steady(p, "power_instant_W"), p[4]) for p in long if p[2] == "gemm"]
    a_gemm = {lim: rate / (x * F_MAX * PEAK_PER_MHZ) for lim, x, T, P, rate in gem}
    a_hbm_gemm = A_HBM_GEMM
    best = None
    for i in range(301):
        vf = 0.5 + 0.4 * i / 300
        for j in range(301):
            v0 = 0.0 + 0.8 * j / 300
            m.v0, m.v_floor = v0, vf
            m.P_clk = Ph / (1 * m.v(1.0) ** 2 - X_IDLE * m.v(X_IDLE) ** 2)
            num = den = 0.0
            for lim, x, T, P, rate in gem:
                g = a_gemm[lim] * x * m.v(x) ** 2
                r = P - m.static(T) - m.P_clk * (x * m.v(x) ** 2 - X_IDLE * m.v(X_IDLE) ** 2) - P_HBM_MAX * a_hbm_gemm[lim]
                num += r * g
                den += g * g
            Psm = num / den
            err = 0.0
            for lim, x, T, P, rate in gem:
                err += (P - m.static(T) - m.P_clk * (x * m.v(x) ** 2 - X_IDLE * m.v(X_IDLE) ** 2) - P_HBM_MAX * a_hbm_gemm[lim] - Psm * a_gemm[lim] * x * m.v(x) ** 2) ** 2
            if best is None or err < best[0]:
                best = (err, v0, vf, Psm, m.P_clk)
    err, m.v0, m.v_floor, m.P_sm, m.P_clk = best
    copy = [p for p in long if p[2] == "copy"][0]
    Tc, Pc = steady(copy, "T_gpu_C"), steady(copy, "power_instant_W")
    a_copy = (Pc - m.static(Tc) - m.P_clk * (1 - X_IDLE * m.v(X_IDLE) ** 2) - P_HBM_MAX * COPY_BW_SHARE) / (m.P_sm)
    print(f"P_idle(35 degC) {m.P_idle:.1f} W, leakage {m.L:.0f} W, held-idle excess {Ph:.1f} W -> P_clk {m.P_clk:.1f} W")
    print(f"v0 {m.v0:.3f}, v_floor {m.v_floor:.3f}, P_sm {m.P_sm:.0f} W (rms {math.sqrt(err / 3):.2f} W)")
    print("a_sm GEMM", {k: round(v, 3) for k, v in a_gemm.items()}, f"a_sm copy {a_copy:.3f}")
    for lim, x, T, P, rate in gem:
        xm, Pm = m.op(lim, T, a_gemm[lim], a_hbm_gemm[lim])
        print(f"  GEMM cap {lim:.0f} W: clock {x * F_MAX:.0f} -> model {xm * F_MAX:.0f} MHz, P {P:.1f} -> {Pm:.1f} W")

    # 3. thermal: coordinate descent on the long phases of board 1
    ld = loads(ph, a_gemm, a_copy)
    t_cal = long[4][1]  # end of the idle after the copy
    th = dict(R_jc=0.04, C_die=2.0, R_cp=0.01, C_plate=100.0, R_hbm=0.1, C_hbm=20.0, T_sink=29.0)

    def cost(p, t_end, tt, cc, ldd):
        for k, v in p.items():
            setattr(m, k, v)
        P, x, Tj, Th = simulate(m, tt, ldd, p["T_sink"], cc["T_gpu_C"][0], cc["T_mem_C"][0])
        e = n = 0
        for i, ti in enumerate(tt):
            if ti <= t_end:
                e += (Tj[i] - cc["T_gpu_C"][i]) ** 2 + (Th[i] - cc["T_mem_C"][i]) ** 2
                n += 2
        return math.sqrt(e / n)

    cur = cost(th, t_cal, t, c, ld)
    for sweep in range(6):
        for k in list(th):
            for fac in (0.5, 0.8, 0.9, 1.1, 1.25, 2.0) if k != "T_sink" else (-2, -0.5, -0.1, 0.1, 0.5, 2):
                trial = dict(th)
                trial[k] = th[k] + fac if k == "T_sink" else th[k] * fac
                e = cost(trial, t_cal, t, c, ld)
                if e < cur:
                    cur, th = e, trial
    print("thermal fit (long phases, board 1):", {k: round(v, 4) for k, v in th.items()}, f"rms {cur:.2f} K")

    # 4. validation
    def report(name, tt, cc, pph, t0, t1, T_sink):
        p = dict(th, T_sink=T_sink)
        for k, v in p.items():
            setattr(m, k, v)
        ldd = loads(pph, a_gemm, a_copy)
        P, x, Tj, Th = simulate(m, tt, ldd, T_sink, cc["T_gpu_C"][0], cc["T_mem_C"][0])
        idx = [i for i, ti in enumerate(tt) if t0 <= ti <= t1]
        rms = lambda a, b: math.sqrt(sum((a[i] - b[i]) ** 2 for i in idx) / len(idx))
        mp = sum(P[i] for i in idx) / len(idx)
        mm = sum(cc["power_instant_W"][i] for i in idx) / len(idx)
        print(f"{name}: mean P measured {mm:.1f} W model {mp:.1f} W ({100 * (mp - mm) / mm:+.1f} %), "
              f"rms T_j {rms(Tj, cc['T_gpu_C']):.2f} K, rms T_mem {rms(Th, cc['T_mem_C']):.2f} K, "
              f"rms P {rms(P, cc['power_instant_W']):.1f} W")

    alt = [p for p in ph if p[1] - p[0] < 10]
    report("board 1, alternation", t, c, ph, alt[0][0], alt[-1][1], th["T_sink"])
    t2, c2, ph2 = load("board2")
    # board 2's sink temperature from its first idle (same thermal resistances)
    long2 = [p for p in ph2 if p[1] - p[0] > 10]
    T_idle2 = mean_over(t2, c2["T_gpu_C"], long2[0][0], long2[0][1])
    T_idle1 = mean_over(t, c["T_gpu_C"], long[0][0], long[0][1])
    T_sink2 = th["T_sink"] + (T_idle2 - T_idle1)
    report("board 2, whole trace", t2, c2, ph2, t2[0], t2[-1], T_sink2)
    print(f"board 2 sink {T_sink2:.1f} degC")


if __name__ == "__main__":
    sys.exit(main())
