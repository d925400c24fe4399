#!/usr/bin/env python3
"""Record an NVML telemetry trace of one NVIDIA GPU under a GEMM / memory-bound / idle pattern.

The trace is what dctwin's GPU model is compared against (tests/models/gpu_telemetry_test.cpp,
docs/models/gpu.md "Validation against a recorded trace"). Run it on any machine with an NVIDIA
GPU, PyTorch and nvidia-ml-py (pynvml):

    python3 scripts/telemetry/record_nvml.py --out DIR [--gpu 0] [--scale 1.0]

It writes to DIR:
  telemetry.csv  one row per sample (default every 50 ms), sampled by a separate process so that
                 the Python interpreter driving the kernels does not delay the samples:
                 t_s (CLOCK_MONOTONIC), power_W (nvmlDeviceGetPowerUsage), power_instant_W and
                 power_average_W (field values, where the driver has them), energy_J (the
                 driver's energy counter), sm_MHz, mem_MHz, T_gpu_C, T_mem_C, throttle (NVML clock
                 event reasons, hex), util_gpu, util_mem (percent), pstate, power_limit_W,
                 power_memory_W (memory-scope power field, where the driver reports it)
  phases.csv     t_start_s, t_end_s, phase, power_limit_W, work, rate (TFLOP/s for GEMM, TB/s of
                 bytes read + written for the memory-bound copy)
  device.txt     `nvidia-smi -q` before the run (hardware, driver, limits, thresholds)
  meta.json      versions, kernel sizes and the measured peak rates

The pattern (durations in seconds, times --scale): idle 15; GEMM 40; idle 15; copy 40; idle 15;
10 x (GEMM 2.0, copy 0.7, idle 0.5) like a training iteration; then GEMM under lowered power limits
(where the driver allows setting them: root, not virtualized) 20 s at each; idle 15.
"""
import argparse
import csv
import json
import multiprocessing as mp
import os
import subprocess
import sys
import time


def sampler(gpu, period, path, stop):
    import pynvml as N

    N.nvmlInit()
    h = N.nvmlDeviceGetHandleByIndex(gpu)
    fi_inst = getattr(N, "NVML_FI_DEV_POWER_INSTANT", 186)
    fi_avg = getattr(N, "NVML_FI_DEV_POWER_AVERAGE", 185)
    fi_mem_t = getattr(N, "NVML_FI_DEV_MEMORY_TEMP", 82)

    def field_values():
        out = {}
        try:
            vals = N.nvmlDeviceGetFieldValues(h, [fi_inst, fi_avg, fi_mem_t])
        except Exception:
            return out
        for name, v in zip(("inst", "avg", "memt"), vals):
            if v.nvmlReturn != 0:
                continue
            t = v.valueType
            val = {0: v.value.dVal, 1: v.value.uiVal, 2: v.value.ulVal, 3: v.value.ullVal,
                   4: v.value.sllVal}.get(t, None)
            if val is not None:
                out[name] = val
        return out

    def memory_power():
        # board memory (HBM) power: the power field with the memory scope (nvidia-smi "GPU Memory
        # Power Readings"), where the driver has it
        try:
            v = N.nvmlDeviceGetFieldValues(h, [(fi_avg, 1)])[0]
        except Exception:
            return None
        if v.nvmlReturn != 0:
            return None
        return {0: v.value.dVal, 1: v.value.uiVal, 2: v.value.ulVal, 3: v.value.ullVal,
                4: v.value.sllVal}.get(v.valueType, None)

    def reasons():
        for fn in ("nvmlDeviceGetCurrentClocksEventReasons", "nvmlDeviceGetCurrentClocksThrottleReasons"):
            f = getattr(N, fn, None)
            if f is not None:
                try:
                    return f(h)
                except Exception:
                    pass
        return None

    def safe(f, *a):
        try:
            return f(*a)
        except Exception:
            return None

    with open(path, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["t_s", "power_W", "power_instant_W", "power_average_W", "energy_J", "sm_MHz",
                    "mem_MHz", "T_gpu_C", "T_mem_C", "throttle", "util_gpu", "util_mem", "pstate",
                    "power_limit_W", "power_memory_W"])
        t_next = time.monotonic()
        while not stop.is_set():
            t = time.monotonic()
            p = safe(N.nvmlDeviceGetPowerUsage, h)
            fv = field_values()
            e = safe(N.nvmlDeviceGetTotalEnergyConsumption, h)
            sm = safe(N.nvmlDeviceGetClockInfo, h, N.NVML_CLOCK_SM)
            mem = safe(N.nvmlDeviceGetClockInfo, h, N.NVML_CLOCK_MEM)
            tg = safe(N.nvmlDeviceGetTemperature, h, N.NVML_TEMPERATURE_GPU)
            r = reasons()
            u = safe(N.nvmlDeviceGetUtilizationRates, h)
            ps = safe(N.nvmlDeviceGetPerformanceState, h)
            pl = safe(N.nvmlDeviceGetEnforcedPowerLimit, h)
            pm = memory_power()
            w.writerow([
                f"{t:.4f}",
                "" if p is None else f"{p / 1000:.3f}",
                "" if "inst" not in fv else f"{fv['inst'] / 1000:.3f}",
                "" if "avg" not in fv else f"{fv['avg'] / 1000:.3f}",
                "" if e is None else f"{e / 1000:.3f}",
                "" if sm is None else sm,
                "" if mem is None else mem,
                "" if tg is None else tg,
                "" if "memt" not in fv else fv["memt"],
                "" if r is None else f"0x{r:x}",
                "" if u is None else u.gpu,
                "" if u is None else u.memory,
                "" if ps is None else ps,
                "" if pl is None else f"{pl / 1000:.1f}",
                "" if pm is None else f"{pm / 1000:.3f}",
            ])
            t_next += period
            dt = t_next - time.monotonic()
            if dt > 0:
                time.sleep(dt)
            else:
                t_next = time.monotonic()
    N.nvmlShutdown()


def set_power_limit(gpu, watts):
    r = subprocess.run(["nvidia-smi", "-i", str(gpu), "-pl", str(int(watts))], capture_output=True,
                       text=True)
    return r.returncode == 0, (r.stdout + r.stderr).strip()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--gpu", type=int, default=0)
    ap.add_argument("--period", type=float, default=0.05, help="sampling period, s")
    ap.add_argument("--scale", type=float, default=1.0, help="multiplies every phase duration")
    ap.add_argument("--limits", default="500,350", help="lowered power limits for capped GEMM, W")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)

    import torch

    dev = torch.device("cuda", args.gpu)
    with open(os.path.join(args.out, "device.txt"), "w") as fh:
        fh.write(subprocess.run(["nvidia-smi", "-q", "-i", str(args.gpu)], capture_output=True,
                                text=True).stdout)

    n = 8192
    a = torch.randn(n, n, device=dev, dtype=torch.bfloat16)
    b = torch.randn(n, n, device=dev, dtype=torch.bfloat16)
    c = torch.empty(n, n, device=dev, dtype=torch.bfloat16)
    elems = 1 << 30  # 4 GiB fp32 source and destination: far beyond L2
    src = torch.rand(elems, device=dev, dtype=torch.float32)
    dst = torch.empty_like(src)
    gemm_flop = 2.0 * n * n * n
    copy_bytes = 2.0 * 4 * elems
    for _ in range(3):
        torch.matmul(a, b, out=c)
        dst.copy_(src)
    torch.cuda.synchronize(dev)

    def gemm(seconds):
        t0 = time.monotonic()
        k = 0
        while time.monotonic() - t0 < seconds:
            for _ in range(20):
                torch.matmul(a, b, out=c)
            torch.cuda.synchronize(dev)
            k += 20
        dt = time.monotonic() - t0
        return k * gemm_flop, k * gemm_flop / dt / 1e12

    def copy(seconds):
        t0 = time.monotonic()
        k = 0
        while time.monotonic() - t0 < seconds:
            for _ in range(10):
                dst.copy_(src)
            torch.cuda.synchronize(dev)
            k += 10
        dt = time.monotonic() - t0
        return k * copy_bytes, k * copy_bytes / dt / 1e12

    def idle(seconds):
        time.sleep(seconds)
        return 0.0, 0.0

    stop = mp.Event()
    sp = mp.Process(target=sampler,
                    args=(args.gpu, args.period, os.path.join(args.out, "telemetry.csv"), stop))
    sp.start()
    time.sleep(1.0)

    phases = []
    limit_default = None
    try:
        import pynvml as N

        N.nvmlInit()
        limit_default = N.nvmlDeviceGetPowerManagementDefaultLimit(
            N.nvmlDeviceGetHandleByIndex(args.gpu)) / 1000
    except Exception:
        pass

    def run(name, fn, seconds, limit=None):
        t0 = time.monotonic()
        work, rate = fn(seconds * args.scale)
        phases.append([f"{t0:.4f}", f"{time.monotonic():.4f}", name,
                       "" if limit is None else f"{limit:.0f}", f"{work:.6g}", f"{rate:.4g}"])
        print(f"{name:>6} {seconds * args.scale:5.1f} s  rate {rate:8.3f}", flush=True)

    run("idle", idle, 15)
    run("gemm", gemm, 40, limit_default)
    run("idle", idle, 15)
    run("copy", copy, 40, limit_default)
    run("idle", idle, 15)
    for _ in range(10):
        run("gemm", gemm, 2.0, limit_default)
        run("copy", copy, 0.7, limit_default)
        run("idle", idle, 0.5)
    limit_log = []
    for lim in [float(x) for x in args.limits.split(",") if x]:
        ok, msg = set_power_limit(args.gpu, lim)
        limit_log.append({"limit_W": lim, "ok": ok, "message": msg})
        if ok:
            time.sleep(0.5)
            run("gemm", gemm, 20, lim)
    if limit_default is not None and any(x["ok"] for x in limit_log):
        set_power_limit(args.gpu, limit_default)
    run("idle", idle, 15)
    time.sleep(1.0)
    stop.set()
    sp.join()

    with open(os.path.join(args.out, "phases.csv"), "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["t_start_s", "t_end_s", "phase", "power_limit_W", "work", "rate"])
        w.writerows(phases)
    meta = {
        "torch": torch.__version__,
        "cuda": torch.version.cuda,
        "device": torch.cuda.get_device_name(dev),
        "gemm": {"dtype": "bfloat16", "m=n=k": n, "flop_per_call": gemm_flop},
        "copy": {"dtype": "float32", "elements": elems, "bytes_read_plus_written": copy_bytes},
        "sampling_period_s": args.period,
        "scale": args.scale,
        "default_power_limit_W": limit_default,
        "power_limit_changes": limit_log,
        "python": sys.version,
    }
    with open(os.path.join(args.out, "meta.json"), "w") as fh:
        json.dump(meta, fh, indent=2)


if __name__ == "__main__":
    mp.set_start_method("spawn")
    main()
