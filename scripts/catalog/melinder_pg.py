"""Propylene glycol / water properties from the Melinder (2010) polynomial.

Coefficients and polynomial form are those of lbl-srg/modelica-buildings
Buildings/Media/Antifreeze/PropyleneGlycolWater.mo (identical in
Buildings/Media/Antifreeze/Functions/PropyleneGlycolWater.mo), key [K50]:

    f(x, T) = sum_i sum_j a[n] * dx^i * dy^j,  dx = 100*(x - 0.307031),  dy = T_degC - 32.7083
    nT = {4, 4, 4, 3, 2, 1}  (terms in dy for each power i of dx)
    viscosity: mu = 1e-3 * exp(f)  [Pa s]; freeze point: Tf = f [degC]

x is the glycol MASS fraction (0..0.6), T in degC.
"""
import math

X_REF = 0.307031
T_REF_C = 32.7083
N_T = (4, 4, 4, 3, 2, 1)

A_D = (1.018e3, -5.406e-1, -2.666e-3, 1.347e-5, 7.604e-1, -9.450e-3, 5.541e-5, -1.343e-7,
       -2.498e-3, 2.700e-5, -4.018e-7, 3.376e-9, -1.550e-4, 2.829e-6, -7.175e-9, -1.131e-6,
       -2.221e-8, 2.342e-8)
A_ETA = (6.837e-1, -3.045e-2, 2.525e-4, -1.399e-6, 3.328e-2, -3.984e-4, 4.332e-6, -1.860e-8,
         5.453e-5, -8.600e-8, -1.593e-8, -4.465e-11, -3.900e-6, 1.054e-7, -1.589e-9, -1.587e-8,
         4.475e-10, 3.564e-9)
A_TF = (-1.325e1, -3.820e-5, 7.865e-7, -1.733e-9, -6.631e-1, 6.774e-6, -6.242e-8, -7.819e-10,
        -1.094e-2, 5.332e-8, -4.169e-9, 3.288e-11, -2.283e-4, -1.131e-8, 1.918e-10, -3.409e-6,
        8.035e-11, 1.465e-8)
A_CP = (3.882e3, 2.699e0, -1.659e-3, -1.032e-5, -1.304e1, 5.070e-2, -4.752e-5, 1.522e-6,
        -1.598e-1, 9.534e-5, 1.167e-5, -4.870e-8, 3.539e-4, 3.102e-5, -2.950e-7, 5.000e-5,
        -7.135e-7, -4.959e-7)
A_LAMBDA = (4.513e-1, 7.955e-4, 3.482e-8, -5.966e-9, -4.795e-3, -1.678e-5, 8.941e-8, 1.493e-10,
            2.076e-5, 1.563e-7, -4.615e-9, 9.897e-12, -9.083e-8, -2.518e-9, 6.543e-11, -5.952e-10,
            -3.605e-11, 2.104e-11)


def _poly(x, t_c, a):
    dx = 100.0 * (x - X_REF)
    dy = t_c - T_REF_C
    f = 0.0
    n = 0
    for i, nt in enumerate(N_T):
        for j in range(nt):
            f += a[n] * dx ** i * dy ** j
            n += 1
    return f


def density(x, t_c):
    return _poly(x, t_c, A_D)


def cp(x, t_c):
    return _poly(x, t_c, A_CP)


def viscosity(x, t_c):
    return 1e-3 * math.exp(_poly(x, t_c, A_ETA))


def conductivity(x, t_c):
    return _poly(x, t_c, A_LAMBDA)


def freeze_point(x):
    """Fusion temperature [degC]; the polynomial has a weak T argument, solved self-consistently."""
    tf = -10.0
    for _ in range(50):
        tf = _poly(x, tf, A_TF)
    return tf


def volume_to_mass_fraction(phi, t_c):
    """As Buildings.Media.Antifreeze.Functions.PropyleneGlycolWater.volumeToMassFraction."""
    x_max, delta = 0.6, 0.01
    d_wat = density(0.0, t_c)
    d_gly = density(x_max, t_c) + (1.0 - x_max) * (density(x_max, t_c) - density(x_max - delta, t_c)) / delta
    return phi * d_gly / (phi * d_gly + (1.0 - phi) * d_wat)
