#!/usr/bin/env python3
"""Write the reference facilities of docs/performance.md into data/facilities/.

  hall_gb300.yaml    one ~100 MW IT hall: 64 generic 2 MW CDUs, each with 12 GB300 NVL72 racks
                     (768 racks, 55,296 GPUs), 256 busways, the power chain lumped as 64
                     transformers and 128 UPS modules, one synchronous training job on every GPU
                     (Llama 3.1 405B as a training configuration describes it)
  campus_gb300.yaml  four such halls on one site (3,072 racks, 221,184 GPUs), one job per hall
  hall_gb300_fabric_pluggable.yaml, hall_gb300_fabric_cpo.yaml
                     the hall with its scale-out fabric as switch racks (docs/models/switch_rack.md):
                     800G ConnectX-8 per GPU; a leaf rack per CDU block, a spine and a core rack
                     per 4 blocks; 1.6T pluggable optics in air-cooled switches, or co-packaged
                     optics in liquid-cooled switches on the CDU loops

  hall_gb300_plant_w32.yaml, hall_gb300_plant_w40.yaml, hall_gb300_plant_w45.yaml
                     the hall with the pod's heat-rejection plant scaled to it (dry coolers with
                     adiabatic pads and trim chillers, synthetic Phoenix weather; docs/models/plant.md)
                     at ASHRAE W32, W40 (the warmest class whose technology loop, W + 2 K, stays
                     inside the racks' 45 degC inlet limit) and W45 (a what-if with racks accepting
                     49 degC, outside their specification): the annual mode's reference years
                     (docs/models/annual.md)

The pod (1 CDU, 8 GB200 NVL72, 576 GPUs) is the hand-written default, data/facilities/pod_gb200.yaml.
Every rack resolves its 72 GPUs (gb300_nvl72 names its GPU type). Python standard library only.

Usage: python3 scripts/make_facilities.py [--halls N] [--cdus N] [--racks-per-cdu N] [--check]
  --check  exit 1 when a committed file differs from what the script writes (CI-friendly)
"""
import argparse
import math
import os
import string
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
OUT = os.path.join(ROOT, "data", "facilities")

RACK_TYPE = "gb300_nvl72"  # 72 GPUs, 135 kW TDP [K33]
CDU_MODEL = "generic_2mw"  # 2 MW, 1860 L/min PG25 rated [K43, K44]
RACKS_PER_BUSWAY = 3  # 3 x 135 kW = 405 kW on an 800 A / 480 V busway (632 kW): 64 % load
CDUS_PER_ROW = 2  # a row of 24 racks, fed by two CDUs at its ends
UPS_PER_CDU = 2  # 1 MW modules; 1.6 MW of IT per CDU block
TX_PER_CDU = 1  # 2500 kVA per CDU block (68 % load)


def row_names(n, prefix):
    letters = string.ascii_uppercase
    names = []
    for i in range(n):
        names.append(prefix + (letters[i] if i < 26 else letters[i // 26 - 1] + letters[i % 26]))
    return names


def hall_parts(h, ncdu, rpc, prefix):
    """CDU, rack, busway and job lines of hall h (1-based)"""
    nrows = (ncdu + CDUS_PER_ROW - 1) // CDUS_PER_ROW
    rows = row_names(nrows, prefix)
    cdus, racks, busways = [], [], []
    for c in range(ncdu):
        row = rows[c // CDUS_PER_ROW]
        cname = "%sCDU%02d" % (prefix, c + 1)
        cdus.append(cname)
        first = (c % CDUS_PER_ROW) * rpc
        names = []
        for k in range(rpc):
            idx = first + k + 1
            name = "%s%02d" % (row, idx)
            names.append(name)
            # on a campus each rack names its hall: the GUI draws a block per hall
            hall = ", hall: H%d" % h if prefix else ""
            racks.append("  - {name: %s, cdu: %s, type: %s, row: %s%s, index: %d}"
                         % (name, cname, RACK_TYPE, row, hall, idx))
        for b in range(0, rpc, RACKS_PER_BUSWAY):
            busways.append("    - {name: %sBW%03d, model: eaton_powrway3_cu_800a, length: 20 m, "
                           "breaker: breaker_mccb_800a, racks: [%s]}"
                           % (prefix, len(busways) + 1, ", ".join(names[b:b + RACKS_PER_BUSWAY])))
    return cdus, racks, busways


def cdu_block(name):
    return """  - name: %s
    model: %s
    fluid: pg25
    control:
      supply_temperature: 36 degC    # TCS supply: W32 + 4 K (GB300 accepts up to 45 degC [K33])
      flow_setpoint: 1860 L/min      # the CDU's rated secondary flow (155 L/min per rack)
    piping:
      supply: {length: 20 m, diameter: 154 mm, segments: 6}
      return: {length: 20 m, diameter: 154 mm, segments: 6}
""" % (name, CDU_MODEL)


BLOCKS_PER_POD = 4  # CDU blocks under one spine rack: 48 racks, 3,456 GPUs (a 2-tier pod)


def fabric_parts(ncdu, rpc, prefix, optics):
    """fabric section and switch-rack lines of one hall (docs/models/switch_rack.md)

    dctwin counts leaves and spines from the served racks and the fabric; the core tier (spine
    role, no racks: power only) carries the pods' uplinks with as many switches as spines (a)"""
    cpo = optics == "cpo"
    rows = row_names((ncdu + CDUS_PER_ROW - 1) // CDUS_PER_ROW, prefix)

    def cool(c):
        return "cooling: liquid, cdu: %sCDU%02d" % (prefix, c + 1) if cpo else "cooling: air"

    def block(c):
        return ["%s%02d" % (rows[c // CDUS_PER_ROW], (c % CDUS_PER_ROW) * rpc + k + 1)
                for k in range(rpc)]

    def busway(c):  # the first busway of CDU block c
        return "%sBW%03d" % (prefix, c * (rpc // RACKS_PER_BUSWAY) + 1)

    # spines of a pod: its GPUs' NIC bandwidth (100 GB/s each) over one switch's (72 x 200 GB/s)
    spines = -(-BLOCKS_PER_POD * rpc * 72 * 100 // (72 * 200))
    lines = ["",
             "fabric:                              # GB300 NVL72: one 800G ConnectX-8 per GPU [F16]",
             "  scale_out: {nics_per_gpu: 1, nic_bandwidth: 100 GB/s}",
             "",
             "switch_racks:                        # Quantum-X800-class, 72 x 1.6T cages [F21]"]
    for c in range(ncdu):
        lines.append("  - {name: %sLEAF%02d, role: leaf, optics: %s, %s, busway: %s, racks: [%s]}"
                     % (prefix, c + 1, optics, cool(c), busway(c), ", ".join(block(c))))
    for p in range(0, ncdu, BLOCKS_PER_POD):
        racks = sum((block(c) for c in range(p, min(p + BLOCKS_PER_POD, ncdu))), [])
        n = p // BLOCKS_PER_POD + 1
        lines.append("  - {name: %sSPINE%02d, role: spine, optics: %s, %s, busway: %s, racks: [%s]}"
                     % (prefix, n, optics, cool(p + 1), busway(p + 1), ", ".join(racks)))
        lines.append("  - {name: %sCORE%02d, role: spine, switches: %d, optics: %s, %s, busway: %s}"
                     % (prefix, n, spines, optics, cool(p + 2), busway(p + 2)))
    return "\n".join(lines)


# the hall's job: Llama 3.1 405B as Meta trained it on 16,384 H100 [F75] (TP 8, PP 16 with one
# layer fewer on the first and last stage, sequence parallelism, 16 micro-batches of one sequence
# per data-parallel rank, BF16, distributed optimizer, overlapped DP and TP collectives), scaled in
# data parallelism to the hall's GPUs: DP = GPUs / 128, global batch 16 x DP sequences (a: the
# batch grows with DP, as the published per-rank batch is kept; 432 x 16 x 8192 = 56.6M tokens
# for one hall). The interleaving is the one that gives the shortest step (vp: auto).
def hall_workload(ngpu):
    if ngpu % 128:
        raise SystemExit("a hall of %d GPUs does not divide into TP 8 x PP 16 model replicas" % ngpu)
    return """    workload:                    # Llama 3.1 405B with Meta's 16k-GPU parallelism [F75], DP %d
      layers: 126
      hidden: 16384
      ffn_hidden: 53248
      gated_mlp: true               # SwiGLU
      heads: 128
      kv_heads: 8                   # grouped-query attention
      vocab: 128256
      sequence_length: 8192
      global_batch: %d             # 16 sequences per data-parallel rank, as published
      micro_batch_size: 1
      parallelism: {tp: 8, pp: 16, vp: auto, sequence_parallel: true, first_stage_layers: 7,
                    last_stage_layers: 7, overlap_grad_reduce: true, overlap_param_gather: true,
                    tp_comm_overlap: true}
      precision: bf16
      recompute: auto
      distributed_optimizer: true""" % (ngpu // 128, 16 * (ngpu // 128))


def air_handler_count(air_kw):
    """fan-wall modules (18,600 m3/h each [K136]) that move the air heat's flow at a 12 K rise
    (rho c_p 1.2 kg/m3 x 1005 J/(kg K)) at 75 % of their full speed (a)"""
    airflow = max(9, int(air_kw / (1.2 * 1005 * 12) * 1e3))  # m3/s
    return int(math.ceil(airflow / (18600.0 / 3600.0) / 0.75))


def facility(name, halls, ncdu, rpc, optics=None):
    ngpu = halls * ncdu * rpc * 72
    nrack = halls * ncdu * rpc
    prefixes = ["" if halls == 1 else "H%d-" % (h + 1) for h in range(halls)]
    parts = [hall_parts(h + 1, ncdu, rpc, prefixes[h]) for h in range(halls)]
    it_mw = nrack * 0.135
    air_kw = it_mw * 1e3 * 0.10  # ~10 % of a GB300 rack's heat goes to air [K33]
    out = []
    out.append("""# generated by scripts/make_facilities.py; do not edit (rerun the script)
#
# %d hall(s) x %d %s CDUs x %d %s racks = %d racks, %d GPUs, ~%.0f MW IT at TDP.
# Every GPU is resolved; the racks idle 5 min after a cold start, then one synchronous training
# job per hall runs on all of its GPUs: Llama 3.1 405B described by its training configuration
# (docs/models/job.md). W32 facility water.
# Benchmarked in docs/performance.md.
dctwin: 1
name: %s
description: "%d x %s CDUs, %d x GB300 NVL72 (%d GPUs), W32 facility water"

site:
  ambient_temperature: 25 degC
  room_air:                          # the hall air: ~10 %% of the IT heat goes to air [K33]
    volume: %d m3
    air_handlers:                    # fan-wall modules on chilled water (docs/models/air_handler.md)
      count: %d                      # 630 mm EC plug fans [K136]: the air heat's flow at a 12 K rise at 75 %% speed (a)
      room_temperature: 36 degC      # return air: 24 degC supply + the racks' 12 K air rise (a)

facility_water:
  fluid: water
  supply_temperature: 32 degC        # ASHRAE W32 [K47]
  differential_pressure: 200 kPa

# GPU-to-GPU variation with the catalog's sourced spreads (docs/models/gpu_variation.md); the
# what-if populations without public data are off; a sweep turns one on at a path such as
# facility.variation.bad_mount_fraction (data/sweeps/hall_bad_mount_whatif.yaml)
variation:
  seed: 1

power:
  line_voltage_V: 480
  power_factor: 0.95
  transformer: transformer_2500kva
  transformer_count: %d              # one per CDU block
  ups: ups_double_conversion_1mw
  ups_count: %d                      # two 1 MW modules per CDU block
  shelf: shelf_gb200_33kw
  shelf_breaker: breaker_mcb_63a_c
  busways:
""" % (halls, ncdu, CDU_MODEL, rpc, RACK_TYPE, nrack, ngpu, it_mw, name, halls * ncdu, CDU_MODEL,
       nrack, ngpu, max(400, int(nrack * 60)), air_handler_count(air_kw),
       halls * ncdu * TX_PER_CDU, halls * ncdu * UPS_PER_CDU))
    for _, _, busways in parts:
        out.extend(busways)
    out.append("\ncdus:")
    for cdus, _, _ in parts:
        out.extend(cdu_block(c).rstrip("\n") for c in cdus)
    out.append("\njobs:")
    for h, (_, racks, _) in enumerate(parts):
        names = [r.split("name: ")[1].split(",")[0] for r in racks]
        out.append("""  - name: training_%s
    racks: [%s]
    start: 5 min
%s
    checkpoint_interval: 30 min
    checkpoint_duration: 20 s""" % ("hall%d" % (h + 1), ", ".join(names), hall_workload(len(names) * 72)))
    out.append("\nracks:")
    for _, racks, _ in parts:
        out.extend(racks)
    if optics:  # the hall with its scale-out fabric
        out.append(fabric_parts(ncdu, rpc, prefixes[0], optics))
    return "\n".join(out) + "\n"


# the hall's plant: the pod's units (data/facilities/pod_gb200_plant_w32.yaml: a 1.2 MW dry cooler
# and a 1055 kW chiller per ~0.85 MW of liquid heat, 2 x 1200 L/min pumps per 2400 L/min; here 52 x 2400 L/min) in
# proportion to the hall's 64 x 32.3 kg/s primary flow (generic_2mw rated point) and ~93 MW of
# liquid heat (a)
PLANT = """
# the heat-rejection plant (docs/models/plant.md), the pod's units scaled to the hall (a): the
# facility water is no longer a fixed boundary; facility_water.supply_temperature above is only
# its value at t = 0
plant:
  supply_setpoint: %(w)d degC
  deadband: 0.5 K
  min_run_time: 20 min               # Modelica Buildings' mode-change wait [P1]
  step: 60 s
  weather:
    epw: ../weather/phoenix_hot_dry_synthetic.epw   # SYNTHETIC hot-dry sample (docs/models/weather.md)
    start_month: 1
    start_day: 1
    start_hour: 0
  pumps:                             # 52 x 2400 L/min primary pumps, speed on the CDU dp (a)
    count: 52
    running: 52
    rated_flow: 2400 L/min           # per pump
    rated_head: 250 kPa
    header_dp: 50 kPa                # at the design flow
    design_flow: 124000 L/min        # 64 CDUs x 32.3 kg/s (generic_2mw rated primary flow)
    dp_setpoint: 200 kPa             # as facility_water.differential_pressure
  dry_coolers:                       # 112 units of the pod's 1.2 MW at 35 degC (BAC Trillium
    count: 112                       # record [P5]: fans 4 %% of the heat)
    rated_capacity: 1200 kW
    rated_air_temperature: 35 degC
    rated_inlet: 50 degC
    rated_outlet: 40 degC
    rated_fan_power: 48 kW
    adiabatic: true
    pad_effectiveness: 0.8           # (a); the pad law [P10]
  chillers:                          # York YT 1055 kW EIR curves [P6]; trim only
    count: 96
    rated_capacity: 1055 kW
    rated_cop: 5.96
    condenser_approach: 5.55 K       # over the dry bulb: the dry cooler's rated approach
  tariff:                            # an example time-of-use tariff (a)
    time_of_use: [0.08, 0.08, 0.08, 0.08, 0.08, 0.08, 0.08, 0.12, 0.12, 0.12, 0.12, 0.12,
                  0.12, 0.12, 0.12, 0.12, 0.12, 0.20, 0.20, 0.20, 0.20, 0.12, 0.08, 0.08]
    currency: USD
  grid_co2: 0.39                     # kg CO2 per kWh (a)
"""


def with_plant(text, name, w):
    """the hall at ASHRAE W<w> with its plant (supply set point w, TCS supply w + the approach)"""
    # the CDU approach: 4 K, but 2 K at W40, where 44 degC would leave no room for the CDU's
    # job-start overshoot (~1.5 K) under the racks' 45 degC inlet limit (docs/models/annual.md)
    tcs = w + (2 if w == 40 else 4)
    out = text.replace("name: hall_gb300\n", "name: %s\n" % name, 1)
    out = out.replace('W32 facility water"', 'W%d facility water, dry coolers + pads + trim chillers, '
                      'synthetic Phoenix weather"' % w, 1)
    out = out.replace("W32 facility water.\n", "W%d facility water from its plant.\n" % w, 1)
    out = out.replace("  supply_temperature: 32 degC        # ASHRAE W32 [K47]",
                      "  supply_temperature: %d degC        # ASHRAE W%d [K47]" % (w, w), 1)
    out = out.replace("supply_temperature: 36 degC    # TCS supply: W32 + 4 K",
                      "supply_temperature: %d degC    # TCS supply: W%d + %d K" % (tcs, w, tcs - w))
    if tcs > 45:
        # a what-if outside the racks' specification: they accept the warmer technology-loop
        # supply, as pod_gb200_w45.yaml; the catalog's 45 degC supply_temperature_max would make
        # the protection layers cap and then shut the racks down (docs/models/protection.md)
        out = out.replace("type: %s," % RACK_TYPE, "type: %s_tcs55," % RACK_TYPE)
        out = out.replace("\nracks:\n", """
# A WHAT-IF OUTSIDE THE RACKS' SPECIFICATION: the racks accept the %d degC technology-loop supply,
# as in pod_gb200_w45.yaml; the catalog's 45 degC supply_temperature_max (Lenovo: inlet up to
# 45 degC [K33]) would make the protection layers cap and then shut the racks down within minutes
# (docs/models/protection.md). The in-spec warm-water hall is hall_gb300_plant_w40.yaml. (a)
rack_types:
  - name: %s_tcs55
    base: %s
    supply_temperature_max: 55 degC

racks:
""" % (tcs, RACK_TYPE, RACK_TYPE), 1)
    return out + PLANT % {"w": w}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cdus", type=int, default=64)
    ap.add_argument("--racks-per-cdu", type=int, default=12)
    ap.add_argument("--check", action="store_true")
    a = ap.parse_args()
    files = {"hall_gb300.yaml": facility("hall_gb300", 1, a.cdus, a.racks_per_cdu),
             "campus_gb300.yaml": facility("campus_gb300", 4, a.cdus, a.racks_per_cdu)}
    for optics in ("pluggable", "cpo"):  # the hall with its fabric as switch racks
        fn = "hall_gb300_fabric_%s" % optics
        files[fn + ".yaml"] = facility(fn, 1, a.cdus, a.racks_per_cdu, optics)
    for w in (32, 40, 45):  # W40: the warmest class with the TCS inside the 45 degC limit
        name = "hall_gb300_plant_w%d" % w
        files[name + ".yaml"] = with_plant(files["hall_gb300.yaml"], name, w)
    bad = 0
    for fn, text in files.items():
        path = os.path.join(OUT, fn)
        if a.check:
            if not os.path.exists(path) or open(path).read() != text:
                print("%s differs from scripts/make_facilities.py's output" % path)
                bad = 1
            continue
        open(path, "w").write(text)
        print("%s: %d lines" % (path, text.count("\n")))
    return bad


if __name__ == "__main__":
    sys.exit(main())
