#!/usr/bin/env python3
"""Reproduce the fitted / derived numbers used in data/catalog/{coldplates,cdus,racks}/*.yaml.

Prints every derived value together with the inputs it came from; the YAML files quote these
numbers (rounded). Needs numpy (python3-numpy). Run from anywhere:
    python3 scripts/catalog/derive_catalog_numbers.py
"""
import math
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import melinder_pg as pg  # noqa: E402

PSI = 6894.757  # Pa


def fit_r_inf_power(V, R, b_grid):
    """Least squares on relative error for R = R_inf + a*V^-b (linear in R_inf, a for fixed b)."""
    V = np.asarray(V, float)
    R = np.asarray(R, float)
    best = None
    for b in b_grid:
        A = np.c_[np.ones_like(V), V ** -b] / R[:, None]
        c, *_ = np.linalg.lstsq(A, np.ones_like(V), rcond=None)
        e = A @ c - 1.0
        s = float((e ** 2).sum())
        if best is None or s < best[0]:
            best = (s, c[0], c[1], b)
    return best[1:]


def rel_err(V, R, r_inf, a, b):
    V = np.asarray(V, float)
    R = np.asarray(R, float)
    return (r_inf + a * V ** -b) / R - 1.0


def coldplate():
    print("== cold plate ocp_1kw_oam [K39, K40] ==")
    Vp = [0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0, 2.2, 2.4]
    Rp = [0.0389, 0.0325, 0.0300, 0.0280, 0.0265, 0.0255, 0.0245, 0.0230, 0.0220, 0.0214,
          0.0209, 0.0204, 0.0200, 0.0197]
    e = rel_err(Vp, Rp, 0.0179, 0.00653, 1.23)
    print("PG25 kept fit R = 0.0179 + 0.00653 V^-1.23: max |rel err| = %.2f %%" % (100 * abs(e).max()))
    r, a, b = fit_r_inf_power(Vp, Rp, np.arange(0.5, 3.0, 0.0005))
    e = rel_err(Vp, Rp, r, a, b)
    print("PG25 free LS-on-relative-error fit: R_inf %.5f a %.5f b %.4f max %.2f %% (for comparison)" %
          (r, a, b, 100 * abs(e).max()))
    Vw = [2.0, 3.0, 4.0, 5.0]
    Rw = [0.0172, 0.0160, 0.0154, 0.0151]
    r, a, b = fit_r_inf_power(Vw, Rw, np.arange(0.5, 3.0, 0.0005))
    print("water LS-on-relative-error fit (unrounded): R_inf %.6f a %.6f b %.4f" % (r, a, b))
    r, a, b = round(r, 4), round(a, 5), round(b, 2)
    e = rel_err(Vw, Rw, r, a, b)
    print("water fit (rounded, as in YAML): R_inf %.4f K/W a %.5f b %.2f max |rel err| = %.2f %%  errs %s"
          % (r, a, b, 100 * abs(e).max(), np.round(100 * e, 2)))
    print("water fit extrapolated to 0.4 / 1.0 L/min: %.4f / %.4f K/W (PG25 data 0.0389 / 0.0245)"
          % (r + a * 0.4 ** -b, r + a * 1.0 ** -b))


def rack():
    print("== racks ==")
    Q = np.array([59, 71, 89, 119, 177.0])
    dp = np.array([2.3, 3.2, 4.9, 8.5, 18.4]) * PSI / 1e3
    A = np.c_[np.ones(5), np.log(Q / 59)]
    c, *_ = np.linalg.lstsq(A, np.log(dp), rcond=None)
    print("Lenovo GB300 [K33] log-LS fit: dp = %.2f kPa (Q/59)^%.3f" % (math.exp(c[0]), c[1]))
    n = math.log(dp[-1] / dp[0]) / math.log(Q[-1] / Q[0])
    print("two-end-point exponent (59 and 177 LPM): n = %.3f; dp(177) = %.1f kPa, dp(59) = %.1f kPa" % (n, dp[-1], dp[0]))
    e = 126.9 * (Q / 177) ** 1.89 / dp - 1
    print("law 126.9 kPa (Q/177)^1.89: max |rel err| vs table %.1f %%" % (100 * abs(e).max()))
    print("same law at 130 LPM: %.1f kPa (MGX ~10 psid = %.1f kPa)" % (126.9 * (130 / 177) ** 1.89, 10 * PSI / 1e3))
    for name, p_kw, f_liq, n_gpu, p_gpu, q_lpm in (("gb200_nvl72", 120, 0.85, 72, 1200, 130),
                                                  ("gb300_nvl72", 135, 0.90, 72, 1400, 177)):
        q_liq = p_kw * f_liq
        rho, cpp = pg.density(.25, 35), pg.cp(.25, 35)
        dT = q_liq * 1e3 / (q_lpm / 60e3 * rho * cpp)
        print("%s: gpu_heat_fraction = %d*%d/%d kW = %.3f; liquid %.1f kW at %d LPM PG25 -> dT %.1f K; LPM/kW %.2f"
              % (name, n_gpu, p_gpu, p_kw, n_gpu * p_gpu / (p_kw * 1e3), q_liq, q_lpm, dT, q_lpm / p_kw))
    print("CoolIT CHx2000 [K43]: 2125 LPM / 12 GB300 racks = %.1f LPM per rack" % (2125 / 12))
    for kv, q in ((25, 130), (35, 177)):
        print("balancing valve Kv %d at %d LPM PG25: dp = %.1f kPa" % (kv, q, 100 * (q * 0.06 / kv) ** 2 * 1.015))


def hx_ua(Q, C_h, C_c, dT_max):
    """UA of a counterflow HX for duty Q [W] and inlet difference dT_max."""
    Cmin, Cmax = min(C_h, C_c), max(C_h, C_c)
    Z = Cmin / Cmax
    eps = Q / (Cmin * dT_max)
    ntu = math.log((1 - eps * Z) / (1 - eps)) / (1 - Z)
    return eps, ntu * Cmin


def cdu(name, Q, m_sec, m_pri, T_sec_sup, approach, phi_vol, dp_ext, dp_hx, U=6000.0, gap=2.7e-3):
    print("== CDU %s ==" % name)
    T_pri_in = T_sec_sup - approach
    x = pg.volume_to_mass_fraction(phi_vol, T_sec_sup) if phi_vol > 0 else 0.25
    if phi_vol == 0:
        x = 0.25
    cp_sec = pg.cp(x, T_sec_sup)
    rho_sec = pg.density(x, T_sec_sup)
    cp_pri = 4180.0
    dT_sec = Q / (m_sec * cp_sec)
    dT_pri = Q / (m_pri * cp_pri)
    T_sec_ret = T_sec_sup + dT_sec
    eps, UA = hx_ua(Q, m_sec * cp_sec, m_pri * cp_pri, T_sec_ret - T_pri_in)
    V_lpm = m_sec / rho_sec * 60e3
    A = UA / U
    hold = A * gap / 2 * 1e3
    print("glycol mass fraction %.3f; rho_sec(%.1f degC) %.1f kg/m3, cp_sec %.0f J/kgK" % (x, T_sec_sup, rho_sec, cp_sec))
    print("T_primary_in %.1f degC; secondary dT %.1f K (return %.1f degC); primary dT %.1f K (return %.1f degC)"
          % (T_pri_in, dT_sec, T_sec_ret, dT_pri, T_pri_in + dT_pri))
    print("secondary volume flow %.0f L/min (%.0f per pump with 2 running); LPM/kW %.2f"
          % (V_lpm, V_lpm / 2, V_lpm / (Q / 1e3)))
    print("epsilon %.3f, UA %.0f kW/K; holdup per side (a: U %.0f W/m2K, channel gap %.1f mm) = %.0f L"
          % (eps, UA / 1e3, U, gap * 1e3, hold))
    H = dp_ext + dp_hx
    print("per-pump rated head = external %.0f + HX %.0f = %.0f kPa" % (dp_ext / 1e3, dp_hx / 1e3, H / 1e3))
    hp = V_lpm / 60e3 * H
    print("hydraulic power %.1f kW, electric at 0.7*0.7 = %.1f kW" % (hp / 1e3, hp / 0.49 / 1e3))
    return H


def pump_curve_total(H_ext, dp_hx, ratios=(3.846, 3.676, 3.231, 2.538, 1.0), r=(0, .25, .5, .75, 1.0)):
    """Modelica applies `ratios` to the EXTERNAL head; convert to total head / total rated head."""
    H = H_ext + dp_hx
    return [round((k * H_ext + dp_hx * x ** 2) / H, 3) for k, x in zip(ratios, r)]


if __name__ == "__main__":
    coldplate()
    rack()
    H = cdu("vertiv_xdu1350", 1368e3, 20.6, 20.6, 32.0, 4.0, 0.20, 250e3, 84e3)
    print("XDU1350 curve 3.846.. applied to total head: shut-off %.0f kPa; applied to external 2.5 bar: %.0f kPa"
          % (3.846 * H / 1e3, 3.846 * 250 + 84))
    print("XDU1350 Modelica curve converted to total-head ratios (datasheet 2.5 bar ext):",
          pump_curve_total(250e3, 84e3))
    cdu("generic_2mw (Deschutes thermal, CHx2000 head)", 2000e3, 31.48, 32.30, 26.8 + 3.0, 3.0, 0.0,
        35 * PSI, 80e3)
    print("generic curve (a) 1.35 - 0.35 r^2:", [round(1.35 - 0.35 * r ** 2, 3) for r in (0, .25, .5, .75, 1)])
    print("Deschutes record dpPumpExt_nominal 827000 Pa = %.0f psi (doc: 80-90 psi)" % (827000 / PSI))
