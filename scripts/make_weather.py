#!/usr/bin/python3
"""make_weather.py: synthetic sample EPW weather files from monthly climate means.

Writes data/weather/{phoenix_hot_dry,uccle_temperate,singapore_hot_humid}_synthetic.epw: one
typical year (8760 hourly rows) per site, built from each month's mean daily maximum and minimum
dry bulb and mean dew point (docs/models/weather.md, "Sample weather files"):

  T(h) = Tbar + R/2 cos(2 pi (h - 15) / 24)     Tbar = (Tmax + Tmin)/2, R = Tmax - Tmin (peak 15:00)
  dew point = the monthly mean, held at or below T(h); RH = p_ws(T_dp)/p_ws(T) (ASHRAE 2017 ch. 1)
  station pressure from the elevation (standard atmosphere)

The monthly values are interpolated linearly between mid-months so that months join smoothly.
Radiation, wind and sky fields carry the EPW missing codes (dctwin does not read them). These
files are SYNTHETIC: they have the sites' monthly climate but no weather (no fronts, no
heat waves, no year-to-year variation); a user drops in a real EPW for their site.

Sources of the monthly means (docs/references.md): the typical-year files they were derived from,
NREL TMY3 Phoenix Sky Harbor 722780 [P18], climate.onebuilding.org TMYx Brussels-Uccle
064470 2007-2021 [P17], ASHRAE IWEC Singapore Changi 486980 [P16]; Phoenix cross-checked against
the NOAA 1991-2020 normals [P15b]. Psychrometrics: ASHRAE Fundamentals 2017 ch. 1 [P21].

Usage: /usr/bin/python3 scripts/make_weather.py [--out data/weather] [--check]
"""
import argparse
import math
import os
import sys

# per month: mean daily max, mean daily min, mean dew point (degC)
SITES = {
    "phoenix_hot_dry": dict(
        city="Phoenix (synthetic)", region="AZ", country="USA", source="dctwin-synthetic",
        wmo="722780", lat=33.45, lon=-111.98, tz=-7.0, elev=337.0,
        note="hot-dry (BWh); monthly means of NREL TMY3 722780 Phoenix Sky Harbor",
        months=[(19.1, 7.7, -2.2), (21.8, 10.1, 4.1), (22.8, 11.7, 2.5), (30.8, 15.4, -1.6),
                (34.1, 19.6, 2.3), (40.5, 26.9, 5.9), (41.6, 29.5, 13.6), (39.4, 27.7, 13.5),
                (36.7, 24.1, 8.9), (31.7, 18.6, 6.4), (24.3, 12.2, 1.9), (17.4, 6.7, 0.5)],
        wb=[6.2, 9.8, 9.8, 11.2, 14.0, 17.5, 21.1, 20.5, 17.4, 14.5, 10.1, 6.5]),
    "uccle_temperate": dict(
        city="Brussels-Uccle (synthetic)", region="VLG", country="BEL", source="dctwin-synthetic",
        wmo="064470", lat=50.80, lon=4.36, tz=1.0, elev=101.0,
        note="temperate maritime (Cfb); monthly means of TMYx 064470 Uccle 2007-2021",
        months=[(5.1, 1.2, 1.3), (7.1, 2.0, 1.6), (10.8, 3.5, 1.5), (15.7, 6.4, 4.0),
                (18.3, 9.3, 7.4), (22.4, 13.5, 11.8), (22.4, 14.2, 13.0), (23.1, 14.1, 12.2),
                (19.6, 11.3, 11.4), (14.4, 8.3, 7.8), (9.3, 4.2, 4.7), (6.8, 3.0, 2.9)],
        wb=[2.3, 3.2, 4.8, 7.5, 10.5, 14.3, 15.0, 14.7, 13.1, 9.5, 5.7, 3.9]),
    "singapore_hot_humid": dict(
        city="Singapore (synthetic)", region="-", country="SGP", source="dctwin-synthetic",
        wmo="486980", lat=1.37, lon=103.98, tz=8.0, elev=16.0,
        note="hot-humid (Af); monthly means of ASHRAE IWEC 486980 Singapore Changi",
        months=[(29.7, 24.4, 23.5), (30.9, 24.9, 23.9), (31.6, 25.1, 24.5), (32.1, 25.5, 24.7),
                (31.2, 25.9, 25.0), (31.5, 25.9, 24.7), (30.8, 25.2, 24.4), (30.7, 25.0, 24.1),
                (30.4, 24.5, 24.0), (30.7, 25.3, 24.5), (29.9, 24.6, 24.5), (29.5, 24.3, 23.7)],
        wb=[24.3, 24.8, 25.3, 25.6, 25.8, 25.7, 25.3, 25.0, 24.8, 25.3, 25.1, 24.4]),
}

DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
FLAGS = "?9?9?9?9E0?9?9?9?9?9?9?9?9?9?9?9?9?9?9?9*9*9?9?9?9"
# EPW fields 11-35: the data dictionary's missing codes
MISSING = ("9999,9999,9999,9999,9999,9999,999999,999999,999999,9999,999,999,99,99,9999,99999,"
           "9,999999999,999,.999,999,99,999,999,99")


def pws(T):
    """saturation pressure over water (T >= 273.15 K) or ice, Pa (ASHRAE 2017 ch. 1 eq. 5, 6)"""
    if T >= 273.15:
        c = (-5.8002206e3, 1.3914993, -4.8640239e-2, 4.1764768e-5, -1.4452093e-8, 6.5459673)
        return math.exp(c[0] / T + c[1] + c[2] * T + c[3] * T**2 + c[4] * T**3 + c[5] * math.log(T))
    c = (-5.6745359e3, 6.3925247, -9.677843e-3, 6.2215701e-7, 2.0747825e-9, -9.484024e-13, 4.1635019)
    return math.exp(c[0] / T + c[1] + c[2] * T + c[3] * T**2 + c[4] * T**3 + c[5] * T**4 +
                    c[6] * math.log(T))


def wet_bulb(t, tdp, p):
    """thermodynamic wet bulb (degC) by bisection on the psychrometric balance (eq. 33/35)"""
    W = 0.621945 * pws(tdp + 273.15) / (p - pws(tdp + 273.15))
    lo, hi = tdp, t
    for _ in range(60):
        ts = 0.5 * (lo + hi)
        Ws = 0.621945 * pws(ts + 273.15) / (p - pws(ts + 273.15))
        if ts >= 0:
            Wt = ((2501 - 2.326 * ts) * Ws - 1.006 * (t - ts)) / (2501 + 1.86 * t - 4.186 * ts)
        else:
            Wt = ((2830 - 0.24 * ts) * Ws - 1.006 * (t - ts)) / (2830 + 1.86 * t - 2.1 * ts)
        if Wt > W:
            hi = ts
        else:
            lo = ts
    return 0.5 * (lo + hi)


def monthly(site, doy_mid):
    """(Tmax, Tmin, Tdp) on day-of-year doy_mid (0-based, fractional), between mid-months"""
    mids, acc = [], 0
    for d in DAYS:
        mids.append(acc + d / 2.0)
        acc += d
    m = site["months"]
    for k in range(12):
        k1 = (k + 1) % 12
        a, b = mids[k], mids[k1] + (365 if k1 == 0 else 0)
        x = doy_mid if doy_mid >= mids[0] else doy_mid + 365
        if a <= x < b:
            f = (x - a) / (b - a)
            return tuple(m[k][i] + f * (m[k1][i] - m[k][i]) for i in range(3))
    return m[0]


def rows(site):
    p = 101325 * (1 - 2.25577e-5 * site["elev"]) ** 5.2559
    doy = 0
    for mo in range(1, 13):
        for dy in range(1, DAYS[mo - 1] + 1):
            tmax, tmin, tdp_m = monthly(site, doy + 0.5)
            for hr in range(1, 25):
                tbar, rng = 0.5 * (tmax + tmin), tmax - tmin
                t = tbar + 0.5 * rng * math.cos(2 * math.pi * (hr - 15) / 24.0)
                tdp = min(tdp_m, t)
                rh = 100 * pws(tdp + 273.15) / pws(t + 273.15)
                yield mo, dy, hr, t, tdp, rh, p
            doy += 1


def write(name, site, out):
    path = os.path.join(out, name + "_synthetic.epw")
    lines = [
        "LOCATION,%s,%s,%s,%s,%s,%.2f,%.2f,%.1f,%.1f" % (site["city"], site["region"],
                                                          site["country"], site["source"],
                                                          site["wmo"], site["lat"], site["lon"],
                                                          site["tz"], site["elev"]),
        "DESIGN CONDITIONS,0",
        "TYPICAL/EXTREME PERIODS,0",
        "GROUND TEMPERATURES,0",
        "HOLIDAYS/DAYLIGHT SAVINGS,No,0,0,0",
        'COMMENTS 1,"SYNTHETIC - generated from monthly means, not measured: %s '
        '(dctwin scripts/make_weather.py, docs/models/weather.md)"' % site["note"],
        'COMMENTS 2,"dry bulb: daily cosine between the mean daily max (15:00) and min; dew point: '
        'monthly mean; no radiation, wind or sky data (missing codes)"',
        "DATA PERIODS,1,1,Data,Sunday,1/1,12/31",
    ]
    for mo, dy, hr, t, tdp, rh, p in rows(site):
        lines.append("1999,%d,%d,%d,60,%s,%.1f,%.1f,%d,%d,%s" %
                     (mo, dy, hr, FLAGS, t, tdp, round(rh), round(p), MISSING))
    with open(path, "w", newline="\n") as f:
        f.write("\n".join(lines) + "\n")
    return path


def check(name, site):
    """monthly mean wet bulb of the synthetic file against the source table (K)"""
    p = 101325 * (1 - 2.25577e-5 * site["elev"]) ** 5.2559
    sums = [0.0] * 12
    counts = [0] * 12
    for mo, dy, hr, t, tdp, rh, pp in rows(site):
        sums[mo - 1] += wet_bulb(t, tdp, p)
        counts[mo - 1] += 1
    dev = [sums[k] / counts[k] - site["wb"][k] for k in range(12)]
    return dev


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=os.path.join(os.path.dirname(__file__), "..", "data", "weather"))
    ap.add_argument("--check", action="store_true",
                    help="print the monthly mean wet bulb against the source tables")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    for name, site in SITES.items():
        path = write(name, site, a.out)
        print("wrote", os.path.normpath(path))
        if a.check:
            dev = check(name, site)
            print("  monthly mean wet bulb - source table (K):", " ".join("%+.1f" % d for d in dev))
    return 0


if __name__ == "__main__":
    sys.exit(main())
