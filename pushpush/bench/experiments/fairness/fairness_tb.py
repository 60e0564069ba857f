"""cocotb side of ``pushpush bench fairness`` (run by :mod:`pushpush.bench.experiments.fairness.fairness`).

Toplevel ``pp_fairness_top`` (pushpush/bench/rtl): 8 traffic generators (master 0 the victim,
masters 1..n the interferers), optionally behind ABEs, one interconnect, one pattern memory.
For every point of ``PP_BENCH`` (JSON: ``{"points": [[n, burst], ...], "victim_burst": 16,
"outstanding": 4, "warmup": ..., "window": ...}``) it starts the victim and ``n``
interferers reading continuously, lets them run ``warmup`` cycles, then counts every
master's read beats over ``window`` cycles, stops them and waits until they are idle. The
counts go to ``PP_BENCH_OUT`` (JSON). Cycle counts are exact (simulation).

A latency point (``"latency": true``) measures one victim burst alone: the cycles from
``start`` to its last beat (the generators' ``cycles`` counter).
"""

from __future__ import annotations

import json
import os

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import RisingEdge, Timer

PERIOD_NS = 10
WINDOW_BYTES = 0x10000


def _pack(values, width):
    return sum((v & ((1 << width) - 1)) << (i * width) for i, v in enumerate(values))


def _field(sig, i, width):
    return (int(sig.value) >> (i * width)) & ((1 << width) - 1)


async def _cycles(dut, n):
    """Wait n clock cycles (one timer, no per-cycle Python)."""
    if n > 0:
        await Timer(n * PERIOD_NS, unit="ns")
    await RisingEdge(dut.clk)


@cocotb.test()
async def fairness(dut):
    cfg = json.loads(os.environ["PP_BENCH"])
    masters = len(dut.busy.value)
    victim_len = cfg.get("victim_burst", 16)
    outstanding = cfg.get("outstanding", 4)

    Clock(dut.clk, PERIOD_NS, unit="ns").start()
    for s in ("start", "stop", "cfg_write", "cfg_addr", "cfg_len", "cfg_count",
              "cfg_outstanding", "cfg_span"):
        getattr(dut, s).value = 0
    dut.rst.value = 1
    await _cycles(dut, 4)
    dut.rst.value = 0
    await RisingEdge(dut.clk)

    dut.cfg_addr.value = _pack([2 * i * WINDOW_BYTES for i in range(masters)], 32)
    dut.cfg_span.value = _pack([WINDOW_BYTES] * masters, 32)
    dut.cfg_outstanding.value = _pack([outstanding] * masters, 8)

    results = []
    for point in cfg["points"]:
        n, burst = point["interferers"], point["burst"]
        assert n < masters, f"{n} interferers need {n + 1} masters; the harness has {masters}"
        active = (1 << (n + 1)) - 1
        lens = [point.get("victim_burst", victim_len) - 1] + [burst - 1] * n + [0] * (masters - n - 1)
        dut.cfg_len.value = _pack(lens, 8)
        latency = point.get("latency", False)
        dut.cfg_count.value = _pack([1 if latency else 0] + [0] * (masters - 1), 32)
        dut.start.value = active
        await RisingEdge(dut.clk)
        dut.start.value = 0
        await RisingEdge(dut.clk)   # busy rises the cycle after start
        if latency:
            while _field(dut.busy, 0, 1):
                await RisingEdge(dut.clk)
            results.append({**point, "cycles": _field(dut.cycles, 0, 32),
                            "beats": _field(dut.beats, 0, 32)})
            continue
        await _cycles(dut, point["warmup"])
        b0 = [_field(dut.beats, i, 32) for i in range(n + 1)]
        c0 = _field(dut.cycles, 0, 32)
        await _cycles(dut, point["window"])
        b1 = [_field(dut.beats, i, 32) for i in range(n + 1)]
        c1 = _field(dut.cycles, 0, 32)
        dut.stop.value = active
        await RisingEdge(dut.clk)
        dut.stop.value = 0
        while int(dut.busy.value):
            await RisingEdge(dut.clk)
        errors = sum(_field(dut.data_errors, i, 32) + _field(dut.resp_errors, i, 32)
                     for i in range(n + 1))
        beats = [b - a for a, b in zip(b0, b1)]
        results.append({**point, "beats": beats, "cycles": c1 - c0, "errors": errors})
        dut._log.info("%d x %d-beat interferers: victim %d of %d beats in %d cycles", n, burst,
                      beats[0], sum(beats), c1 - c0)
    with open(os.environ["PP_BENCH_OUT"], "w") as f:
        json.dump(results, f)
