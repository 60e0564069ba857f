"""``pushpush bench channels``: RIFFA-style channels on the simulated board (issue 18).

A generated system whose rtl component ``bench_chnl`` (``pushpush/bench/rtl``) has one
channel ``c`` at full speed (a sink on its receive side, a source on its transmit side)
and cycle stamps. Python drives it through ``rt.channel("hw.c")``:

- **send** (software to hardware, RIFFA's downstream): ``ch.send(x)`` of n words;
- **recv** (hardware to software, upstream): ``arm(n)`` then ``ch.recv(capacity=n)``;
- **both**: ``arm(n, mode=2)`` (the core starts transmitting in the cycle it acknowledges
  the next send), a receive posted first (in a thread), then the send: both directions
  stream from the same cycle.

Cycles are exact and counted in the core: a send from the cycle ``CHNL_RX`` is seen (one
cycle after the call is taken; it includes the DMA engine's start and read latency) to the
cycle its last word is taken; a receive from ``CHNL_TX_ACK`` (the posted call has reached the
adapter) to the last word handed over; both at once from the earlier start to the later
end (with both directions started in one cycle, so no software skew is counted). Bandwidth = bytes / cycles against the bus limit: the buffer engines' port
``buf_axi`` (S_AXI_HP0) moves 4 bytes per cycle per direction (32-bit, reads and writes on
separate channels), so 400 MB/s each way at 100 MHz, 800 MB/s both at once. The target is
97 % of it from 64 KiB up (RIFFA 2.1: 97 % of the achievable PCIe bandwidth). The latency
row: a 1-word send that the core answers with a 1-word transmit (``arm(1, mode=1)``), the
receive posted first, from ``CHNL_RX`` to the reply word's hand-over, in cycles; the software's part of a round
trip on the simulated board (wall clock) is not the ARM's and is reported apart.
RIFFA's published figures (Tables III and IV of the paper) are printed beside ours.
"""

from __future__ import annotations

import shutil
import threading
import tempfile
import time
from pathlib import Path
from typing import Any, Callable, Optional, Sequence

import numpy as np

from pushpush.bench.paths import RTL_DIR
from pushpush.bench.report import md_table, meta, pyplot, save_figure

__all__ = ["run_channels", "measure", "SIZES", "SMOKE_SIZES", "RIFFA_TABLE_III", "RIFFA_TABLE_IV", "run"]

KiB, MiB = 1024, 1024 * 1024
SIZES = (4, 64, 1 * KiB, 16 * KiB, 64 * KiB, 256 * KiB, 1 * MiB, 4 * MiB)
SMOKE_SIZES = (4, 1 * KiB, 64 * KiB)
#: RIFFA 2.1 (Jacobsen et al., TRETS 2015) Table III: board, up/down MB/s, link
#: utilisation up/down %, normalised (of the achievable bandwidth) up/down %.
RIFFA_TABLE_III = (
    ("Spartan 6, PCIe Gen1 x1, 32-bit, 62.5 MHz", "226/212", "90/85", "96/88"),
    ("Virtex 6 ML605, Gen1 x8, 64-bit, 250 MHz", "1816/1694", "91/85", "96/87"),
    ("Virtex 7 VC707, Gen2 x8, 128-bit, 250 MHz", "3640/3403", "91/85", "97/88"),
)
#: Table IV: latencies.
RIFFA_TABLE_IV = (
    ("FPGA to host interrupt", "3 us"),
    ("host read from FPGA, round trip", "1.8 us"),
    ("host thread wake after interrupt", "10.4 us"),
)

_YAML = """
system: chnlbench
clock_mhz: {clock}
components:
  hw:
    kind: rtl
    module: bench_chnl
    sources: [bench_chnl.v]
    channels: [c]
    exports:
      arm: "(n: u32, mode: u32) -> void"
      rx_stamps: "() -> u64"
      tx_stamps: "() -> u64"
  host:
    kind: python
    imports: [hw.arm, hw.rx_stamps, hw.tx_stamps]
"""


def _system(folder: Path, clock: float) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copy(RTL_DIR / "bench_chnl.v", folder / "bench_chnl.v")
    (folder / "system.yaml").write_text(_YAML.format(clock=f"{clock:g}"))
    return folder / "system.yaml"


def _span(stamps: int) -> tuple[int, int]:
    return stamps & 0xFFFF_FFFF, stamps >> 32


def measure(rt: Any, sizes: Sequence[int], clock: float = 100.0,
            log: Callable[[str], None] = print) -> list[dict[str, Any]]:
    """The rows (send, recv, both per size, then the latency row) on a loaded bench system's
    runtime ``rt``; every transfer's data is checked."""
    ch = rt.channel("hw.c")
    rows: list[dict[str, Any]] = []
    limit1 = 4 * clock                               # MB/s one way (4 B per cycle)
    big = max(sizes) // 4
    data = (np.arange(max(1, big), dtype=np.uint64) * 2654435761 % (1 << 32)).astype(np.uint32)
    for nbytes in sizes:
        n = max(1, nbytes // 4)
        x = data[:n]
        t0 = time.perf_counter()
        assert ch.send(x) == n
        host = time.perf_counter() - t0
        s, e = _span(rt.hw.rx_stamps())
        rows.append(_row("send", 4 * n, e - s + 1, host, clock, limit1))
        rt.hw.arm(n, 0)
        t0 = time.perf_counter()
        y = ch.recv(capacity=n)
        host = time.perf_counter() - t0
        ok = bool(np.array_equal(y, np.arange(n, dtype=np.uint32)))
        s, e = _span(rt.hw.tx_stamps())
        rows.append(_row("recv", 4 * n, e - s + 1, host, clock, limit1, ok=ok))
        rt.hw.arm(n, 2)
        t0 = time.perf_counter()
        sent, y = _posted_first(ch, x, n)
        host = time.perf_counter() - t0
        ok = sent == n and bool(np.array_equal(y, np.arange(n, dtype=np.uint32)))
        rs, re_ = _span(rt.hw.rx_stamps())
        ts, te = _span(rt.hw.tx_stamps())
        rows.append(_row("both", 8 * n, max(re_, te) - min(rs, ts) + 1, host, clock, 2 * limit1, ok=ok))
        log(f"channels: {4 * n} B: " + ", ".join(
            f"{r['kind']} {r['mb_s']:.0f} MB/s ({100 * r['of_limit']:.1f} %)"
            for r in rows if r["bytes"] in (4 * n, 8 * n) and r["size"] == 4 * n))
    # latency: 1 word there, 1 word back
    lat = []
    hosts = []
    for _ in range(5):
        rt.hw.arm(1, 1)
        t0 = time.perf_counter()
        _, y = _posted_first(ch, data[:1], 1)
        hosts.append(time.perf_counter() - t0)
        assert y.tolist() == [0]
        rs, _ = _span(rt.hw.rx_stamps())
        _, te = _span(rt.hw.tx_stamps())
        lat.append(te - rs + 1)
    rows.append({"kind": "round trip", "bytes": 4, "size": 4, "cycles": min(lat),
                 "cycles_max": max(lat), "us": min(lat) / clock, "host_s": min(hosts), "ok": True,
                 "mb_s": 0.0, "of_limit": 0.0})
    return rows


def _posted_first(ch: Any, x: Any, n: int) -> tuple[int, Any]:
    """Post a receive of ``n`` words (a thread), give it time to reach the adapter, send
    ``x``; (words sent, words received)."""
    got: dict[str, Any] = {}

    def recv() -> None:
        try:
            got["y"] = ch.recv(capacity=n)
        except BaseException as e:  # noqa: BLE001 - re-raised below
            got["e"] = e

    t = threading.Thread(target=recv)
    t.start()
    time.sleep(0.05)
    sent = ch.send(x)
    t.join()
    if "e" in got:
        raise got["e"]
    return sent, got["y"]


def _row(kind: str, nbytes: int, cycles: int, host: float, clock: float, limit: float,
         ok: bool = True) -> dict[str, Any]:
    mb_s = nbytes / (cycles / clock)
    size = nbytes // 2 if kind == "both" else nbytes
    return {"kind": kind, "bytes": nbytes, "size": size, "cycles": cycles,
            "mb_s": round(mb_s, 1), "of_limit": round(mb_s / limit, 4),
            "host_s": round(host, 4), "ok": ok}


def run_channels(out: Path, *, smoke: bool = False, sizes: Optional[Sequence[int]] = None,
                 clock: float = 100.0, simulator: str = "auto",
                 log: Callable[[str], None] = print) -> dict[str, Any]:
    """Build and load the bench system, measure (see the module docstring), write
    ``channels.json``, ``channels.md``, ``channels.png`` into ``out``; returns the results."""
    import json
    import os
    os.environ.setdefault("PUSHPUSH_BOARD", "sim")

    import pushpush.pynq as ppq
    from pushpush.link import load

    sizes = tuple(sizes or (SMOKE_SIZES if smoke else SIZES))
    out.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="pushpush-bench-chnl-"))
    t_all = time.monotonic()
    try:
        bit = ppq.write_sim_overlay(load(_system(work / "sys", clock)), work / "overlay",
                                    simulator=simulator)
        log(f"channels: loading the system ({simulator}) ...")
        ol = ppq.load(str(bit))
        sim = getattr(ol.device, "simulator", simulator)
        try:
            rt = ol.runtime()
            rt.timeout = 600.0
            rows = measure(rt, sizes, clock, log)
        finally:
            ol.free()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    res = _result(rows, clock, sim, smoke)
    res["wall_s"] = round(time.monotonic() - t_all, 1)
    png = plot(rows, out / "channels.png")
    res["plots"] = [png.name] if png else []
    (out / "channels.json").write_text(json.dumps(res, indent=1) + "\n")
    (out / "channels.md").write_text(res["markdown"])
    return res


def _fmt(n: int) -> str:
    for unit, k in (("MiB", MiB), ("KiB", KiB)):
        if n >= k and n % k == 0:
            return f"{n // k} {unit}"
    return f"{n} B"


def _result(rows: list[dict[str, Any]], clock: float, sim: str, smoke: bool) -> dict[str, Any]:
    data = [r for r in rows if r["kind"] != "round trip"]
    rt_row = next(r for r in rows if r["kind"] == "round trip")
    table = md_table(["direction", "size", "cycles", "MB/s", "of bus limit", "data ok",
                      "host s (sim)"],
                     [[r["kind"], _fmt(r["size"]), r["cycles"], r["mb_s"],
                       f"{100 * r['of_limit']:.1f} %", "yes" if r["ok"] else "NO", r["host_s"]]
                      for r in data])
    riffa = md_table(["RIFFA 2.1 board (Table III)", "up/down MB/s", "link util. %",
                      "normalised %"], [list(t) for t in RIFFA_TABLE_III])
    lat = md_table(["latency", "value"],
                   [[f"pushpush: 1-word send + 1-word reply, CHNL_RX to reply word (cycles at "
                     f"{clock:g} MHz)", f"{rt_row['cycles']} cycles = {rt_row['us']:.2f} us"],
                    ["pushpush: the same from Python on the simulated board (wall clock, not "
                     "the ARM's)", f"{1e3 * rt_row['host_s']:.1f} ms"]]
                   + [[f"RIFFA 2.1: {a}", b] for a, b in RIFFA_TABLE_IV])
    big = [r for r in data if r["size"] >= 64 * KiB]
    targets = []
    for kind in ("send", "recv", "both"):
        rs = [r for r in big if r["kind"] == kind]
        if rs:
            worst = min(r["of_limit"] for r in rs)
            targets.append({"target": f"{kind} >= 97 % of the bus limit from 64 KiB",
                            "ours": f"{100 * worst:.1f} %", "met": worst >= 0.97})
    md = (f"# pushpush bench channels\n\n{table}\n\nBus limit: buf_axi (S_AXI_HP0), 32 bits, "
          f"{4 * clock:g} MB/s each way at {clock:g} MHz ({8 * clock:g} MB/s both). Cycles are "
          f"exact, counted in the core (see pushpush/bench/experiments/channels.py).\n\n{lat}\n\n{riffa}\n")
    return {"benchmark": "channels", "experiment": "channels", "title": "Channels (RIFFA-style send/recv)", "meta": meta(sim), "clock_mhz": clock, "smoke": smoke,
            "rows": rows, "targets": targets, "ok": all(r["ok"] for r in rows),
            "markdown": md}


def plot(rows: list[dict[str, Any]], path: Path) -> Optional[Path]:
    """Bandwidth (% of the bus limit) against transfer size, per direction."""
    plt = pyplot()
    if plt is None:
        return None
    fig, ax = plt.subplots(figsize=(8, 4))
    for kind, style in (("send", "o-"), ("recv", "s-"), ("both", "^-")):
        pts = [r for r in rows if r["kind"] == kind]
        ax.semilogx([r["size"] for r in pts], [100 * r["of_limit"] for r in pts], style, label=kind)
    ax.axhline(97, color="grey", ls="--", lw=1, label="97 % (RIFFA 2.1)")
    ax.set_xlabel("transfer size (bytes)")
    ax.set_ylabel("% of the bus limit (exact cycles)")
    ax.set_title("pushpush channels on the simulated board")
    ax.legend()
    return save_figure(fig, path, dpi=100)


def run(opts: Any, log: Callable[[str], None]) -> dict[str, Any]:
    """``pushpush bench channels`` (registry, :mod:`pushpush.bench.registry`)."""
    out = Path(opts.output)
    res = run_channels(out, smoke=opts.smoke, simulator=opts.sim or "auto", log=log)
    lines = [res["markdown"], f"results: {out / 'channels.json'}"
             + (f", plot: {out / res['plots'][0]}" if res["plots"] else "")]
    missed = [f"channels: {t['target']}: {t['ours']}" for t in res["targets"] if not t["met"]]
    if missed:
        lines.append("targets missed:\n  " + "\n  ".join(missed))
    return {**res, "printed": "\n".join(lines)}
