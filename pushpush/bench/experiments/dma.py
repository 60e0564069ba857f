"""``pushpush bench dma``: bulk transfers through an AXI DMA with PYNQ's driver (issue 17).

The seed paper (Rios-Navarro et al., "Performance evaluation over HW/SW co-design SoC memory
transfers for a CNN accelerator") measures a Zynq AXI DMA from 8 B to 6 MiB, TX and RX,
single and double buffering, whole ("Unique") and in blocks, with polling and interrupts;
its Table I gives us/byte of TX and RX for ~100 KiB transfers. Here the same grid runs on the
simulated board: a generated system whose rtl component ``bench_stream``
(``pushpush/bench/rtl``) sinks the stream (TX), sources a packet (RX) or loops it back
(both), on a ``dma:`` (``pp_axi_dma``, 64-bit, bursts of 16 by default: the Zynq HP ports'
AXI3 bursts, and the simulated HP port keeps several in flight, so 16 beats stream back to
back; bursts of 256 cost a receive one 256-cycle burst of S2MM store and forward at its
end, 96.8 % at 64 KiB), on its HP port,
driven by PYNQ's unmodified ``pynq.lib.dma.DMA`` (``transfer``, polling ``wait``).

Cycles are exact: the DMA shell's cycle probe (templates/verilog/dma_shell.v.j2, page
offset 0x1000) stamps the LENGTH write and the end of the transfer (MM2S: the TLAST
handshake; S2MM: the write response that completes it); cycles = end - start (both ways:
from the send's LENGTH write, the receive having been started before it, to the receive's
end). Bandwidth =
bytes / (cycles / clock), against the HP port's limit (data width x clock: 800 MB/s for
64 bits at 100 MHz); the target is 97% of it for 64 KiB and up. The software time of the
simulated board (PYNQ's calls through the simulator, wall clock) is reported apart: it is
not the Cortex-A9's. Blocks: the transfer cut into ``block`` bytes, each started when the
previous one finished (single buffer: the next block is copied into the one buffer after
the wait; double buffer: into the other buffer while the DMA runs); their cycles are the
sum of the blocks' exact cycles (the gaps between blocks are software time). Interrupts:
the DMA's interrupt outputs are not connected in this design, so PYNQ's driver polls;
there is no interrupt row.
"""

from __future__ import annotations

import shutil
import tempfile
import time
from pathlib import Path
from typing import Any, Callable, Optional, Sequence

import numpy as np

from pushpush.bench.paths import RTL_DIR
from pushpush.bench.report import md_table, meta, pyplot, save_figure

__all__ = ["run_dma", "SIZES", "SMOKE_SIZES", "PAPER_TABLE_I", "run"]

KiB, MiB = 1024, 1024 * 1024
#: The paper's range: 8 B to 6 MiB.
SIZES = (8, 64, 512, 4 * KiB, 32 * KiB, 64 * KiB, 128 * KiB, 512 * KiB, 2 * MiB, 6 * MiB)
SMOKE_SIZES = (8, 4 * KiB, 64 * KiB)
#: Blocks of the "blocks" rows, and the sizes they run for.
BLOCK = 64 * KiB
#: The seed paper's Table I (NullHop RoShamBo, Unique mode, single buffer): us/byte.
PAPER_TABLE_I = (
    ("user-level polling", 0.0054, 0.197, 6.31),
    ("user-level drv scheduled", 0.0072, 0.335, 6.57),
    ("kernel-level drv", 0.011, 0.294, 7.39),
)
PROBE = {"mm2s_start": 0x1000, "mm2s_done": 0x1004, "s2mm_start": 0x1008, "s2mm_done": 0x100C}

_YAML = """
system: dmabench
clock_mhz: {clock}
{firewall}components:
  stream:
    kind: rtl
    module: bench_stream
    sources: [bench_stream.v]
    exports:
      mode: "(m: u32, n: u32) -> void"
    dma: {{name: axi_dma_0, data_width: {width}, max_burst: {burst}}}
  host:
    kind: python
    imports: [stream.mode]
"""


def _system(folder: Path, width: int, burst: int, clock: float, firewall: bool = False) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    src = RTL_DIR / "bench_stream.v"
    text = src.read_text().replace("parameter W = 64", f"parameter W = {width}")
    (folder / "bench_stream.v").write_text(text)
    (folder / "system.yaml").write_text(_YAML.format(clock=f"{clock:g}", width=width, burst=burst,
                                                     firewall="firewall: true\n" if firewall else ""))
    return folder / "system.yaml"


class _Bench:
    """The loaded system: PYNQ's DMA driver, the probe, the stream component."""

    def __init__(self, ol: Any, clock: float, width: int) -> None:
        import pynq
        self.ol = ol
        self.dma = ol.axi_dma_0
        self.mmio = pynq.MMIO(ol.ip_dict["axi_dma_0"]["phys_addr"], 0x2000)
        self.clock = clock
        self.width = width

    def probe(self, name: str) -> int:
        return int(self.mmio.read(PROBE[name]))

    def cycles(self, start: str, done: str) -> int:
        return (self.probe(done) - self.probe(start)) % (1 << 32)

    def tx(self, buf: Any, nbytes: int) -> tuple[int, float]:
        self.ol.stream.mode(1, 0)
        t0 = time.perf_counter()
        self.dma.sendchannel.transfer(buf, nbytes=nbytes)
        self.dma.sendchannel.wait()
        host = time.perf_counter() - t0
        return self.cycles("mm2s_start", "mm2s_done"), host

    def rx(self, buf: Any, nbytes: int) -> tuple[int, float]:
        self.ol.stream.mode(2, nbytes)
        t0 = time.perf_counter()
        self.dma.recvchannel.transfer(buf, nbytes=nbytes)
        self.dma.recvchannel.wait()
        host = time.perf_counter() - t0
        return self.cycles("s2mm_start", "s2mm_done"), host

    def both(self, src: Any, dst: Any, nbytes: int, start: int = 0) -> tuple[int, float]:
        t0 = time.perf_counter()
        self.dma.recvchannel.transfer(dst, start=start, nbytes=nbytes)
        self.dma.sendchannel.transfer(src, start=start, nbytes=nbytes)
        self.dma.sendchannel.wait()
        self.dma.recvchannel.wait()
        host = time.perf_counter() - t0
        # from the send's LENGTH write (the receive was started before it) to the last
        # write response of the receive: no software time inside
        return self.cycles("mm2s_start", "s2mm_done"), host


def _row(kind: str, nbytes: int, cycles: int, host: float, clock: float, limit: float,
         **extra: Any) -> dict[str, Any]:
    us = cycles / clock
    mbs = nbytes / us if us else 0.0
    return {"kind": kind, "bytes": nbytes, "cycles": cycles, "us_per_byte": us / nbytes,
            "mb_s": round(mbs, 2), "of_hp_limit": round(mbs / limit, 4),
            "host_s": round(host, 4), "host_us_per_byte": host * 1e6 / nbytes, **extra}


def run_dma(out: Path, *, smoke: bool = False, sizes: Optional[Sequence[int]] = None,
            width: int = 64, burst: int = 16, clock: float = 100.0, simulator: str = "auto",
            firewall: bool = False, log: Callable[[str], None] = print) -> dict[str, Any]:
    """Run the grid (see the module docstring); returns the common result dict and writes
    ``dma.png`` into ``out``. ``firewall``: the system with ``firewall: true`` (the DMA's
    memory firewall, :mod:`pushpush.runtime.dma_firewall`: a range opened per transfer)."""
    import os
    os.environ.setdefault("PUSHPUSH_BOARD", "sim")
    import pynq

    import pushpush.pynq as ppq
    from pushpush.link import load

    sizes = tuple(sizes or (SMOKE_SIZES if smoke else SIZES))
    limit = width / 8 * clock                       # MB/s: one beat per cycle
    work = Path(tempfile.mkdtemp(prefix="pushpush-bench-dma-"))
    t_all = time.monotonic()
    rows: list[dict[str, Any]] = []
    try:
        linked = load(_system(work / "sys", width, burst, clock, firewall))
        bit = ppq.write_sim_overlay(linked, work / "overlay", simulator=simulator)
        log(f"dma: loading the system ({simulator}) ...")
        ol = ppq.load(str(bit))
        sim = getattr(ol.device, "simulator", simulator)
        try:
            b = _Bench(ol, clock, width)
            big = max(sizes)
            src = pynq.allocate((big,), np.uint8)
            dst = pynq.allocate((big,), np.uint8)
            alt = pynq.allocate((min(big, BLOCK),), np.uint8)
            data = (np.arange(big, dtype=np.int64) * 7 % 251).astype(np.uint8)
            src[:] = data
            for n in sizes:
                c, h = b.tx(src, n)
                rows.append(_row("TX", n, c, h, clock, limit, mode="whole", buffers=1))
                dst[:n] = 0
                c, h = b.rx(dst, n)
                ok = bool((np.asarray(dst[:n]) == (np.arange(n) % 256).astype(np.uint8)).all())
                rows.append(_row("RX", n, c, h, clock, limit, mode="whole", buffers=1, ok=ok))
                b.ol.stream.mode(0, 0)
                dst[:n] = 0
                c, h = b.both(src, dst, n)
                ok = bool((np.asarray(dst[:n]) == data[:n]).all())
                rows.append(_row("both", n, c, h, clock, limit, mode="whole", buffers=1, ok=ok))
                if n > BLOCK and n % BLOCK == 0:
                    rows += _blocks(b, src, alt, dst, data, n, clock, limit)
                log(f"dma: {n} B: " + ", ".join(f"{r['kind']} {r['mb_s']:.0f} MB/s"
                                                 for r in rows if r["bytes"] == n))
            del src, dst, alt
        finally:
            ol.free()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    res = _result(rows, sizes, width, burst, clock, limit, sim, smoke, firewall)
    res["wall_s"] = round(time.monotonic() - t_all, 1)
    png = _plot(rows, limit, out / "dma.png")
    res["plots"] = [png.name] if png else []
    return res


def _blocks(b: _Bench, src: Any, alt: Any, dst: Any, data: np.ndarray, n: int, clock: float,
            limit: float) -> list[dict[str, Any]]:
    """The loop-back transfer of ``n`` bytes in blocks of BLOCK, single and double buffer."""
    out = []
    k = n // BLOCK
    b.ol.stream.mode(0, 0)
    # single buffer: copy block i into the one buffer, transfer it, wait, next
    cyc, t0 = 0, time.perf_counter()
    for i in range(k):
        alt[:BLOCK] = data[i * BLOCK:(i + 1) * BLOCK]
        c, _ = _both_into(b, alt, dst, i)
        cyc += c
    host = time.perf_counter() - t0
    ok = bool((np.asarray(dst[:n]) == data[:n]).all())
    out.append(_row("both", n, cyc, host, clock, limit, mode=f"blocks of {BLOCK // KiB} KiB",
                    buffers=1, ok=ok))
    # double buffer: block i+1 is copied into the other buffer while block i moves
    dst[:n] = 0
    bufs = (src, alt)
    cyc, t0 = 0, time.perf_counter()
    alt[:BLOCK] = data[:BLOCK]
    for i in range(k):
        cur = bufs[(i + 1) % 2]   # block 0 in alt, block 1 in src's first block, ...
        d = b.dma
        d.recvchannel.transfer(dst, start=i * BLOCK, nbytes=BLOCK)
        d.sendchannel.transfer(cur, nbytes=BLOCK)
        if i + 1 < k:
            bufs[i % 2][:BLOCK] = data[(i + 1) * BLOCK:(i + 2) * BLOCK]   # overlaps the DMA
        d.sendchannel.wait()
        d.recvchannel.wait()
        cyc += b.cycles("mm2s_start", "s2mm_done")
    host = time.perf_counter() - t0
    ok = bool((np.asarray(dst[:n]) == data[:n]).all())
    src[:] = data                                   # src was used as the second buffer
    out.append(_row("both", n, cyc, host, clock, limit, mode=f"blocks of {BLOCK // KiB} KiB",
                    buffers=2, ok=ok))
    return out


def _both_into(b: _Bench, buf: Any, dst: Any, i: int) -> tuple[int, float]:
    t0 = time.perf_counter()
    b.dma.recvchannel.transfer(dst, start=i * BLOCK, nbytes=BLOCK)
    b.dma.sendchannel.transfer(buf, nbytes=BLOCK)
    b.dma.sendchannel.wait()
    b.dma.recvchannel.wait()
    return b.cycles("mm2s_start", "s2mm_done"), time.perf_counter() - t0


def _where(r: dict[str, Any], width: int, burst: int) -> str:
    """Where a whole transfer's cycles beyond its beats go (exact cycles of the model)."""
    beats = r["bytes"] * 8 // width
    extra = r["cycles"] - beats
    if r["kind"] == "TX":
        return f"{r['cycles']} cycles = {beats} beats + {extra} of start latency"
    return (f"{r['cycles']} cycles = {beats} beats + {burst} (S2MM gathers each {burst}-beat "
            f"burst before its AW, so the last one is written after the stream's end) + "
            f"{extra - burst} of start and write-response latency")


def _fmt_size(n: int) -> str:
    return f"{n // MiB} MiB" if n >= MiB and n % MiB == 0 else (
        f"{n // KiB} KiB" if n >= KiB and n % KiB == 0 else f"{n} B")


def _result(rows: list[dict[str, Any]], sizes: Sequence[int], width: int, burst: int,
            clock: float, limit: float, sim: str, smoke: bool, firewall: bool = False) -> dict[str, Any]:
    table = md_table(
        ["transfer", "size", "mode", "buffers", "cycles", "ns/B", "MB/s", "of HP limit",
         "host us/B (simulated board)"],
        [[r["kind"], _fmt_size(r["bytes"]), r["mode"], r["buffers"], r["cycles"],
          f"{r['us_per_byte'] * 1000:.3f}", f"{r['mb_s']:.1f}", f"{100 * r['of_hp_limit']:.1f}%",
          f"{r['host_us_per_byte']:.3f}"] for r in rows])
    near = min(sizes, key=lambda s: abs(s - 128 * KiB))
    ours = {r["kind"]: r for r in rows if r["bytes"] == near and r["mode"] == "whole"}
    paper = md_table(["", "TX (us/byte)", "RX (us/byte)", "Frame (ms)"],
                     [[n, f"{tx:g}", f"{rx:g}", f"{fr:g}"] for n, tx, rx, fr in PAPER_TABLE_I]
                     + [[f"pushpush, simulated cycles ({_fmt_size(near)}, PYNQ polling)",
                         f"{ours['TX']['us_per_byte']:.5f}", f"{ours['RX']['us_per_byte']:.5f}", "-"],
                        [f"pushpush, simulated board's software time ({_fmt_size(near)})",
                         f"{ours['TX']['host_us_per_byte']:.4f}", f"{ours['RX']['host_us_per_byte']:.4f}",
                         "-"]])
    big = [r for r in rows if r["bytes"] >= 64 * KiB and r["mode"] == "whole"]
    worst = min(big, key=lambda r: r["of_hp_limit"]) if big else None
    targets = []
    if worst is not None:
        targets.append({"target": "bandwidth >= 97% of the HP port's limit for transfers of 64 KiB "
                                  "and up (whole, TX/RX/both)",
                        "ours": f"worst {100 * worst['of_hp_limit']:.1f}% ({worst['kind']}, "
                                f"{_fmt_size(worst['bytes'])}, {worst['mb_s']:.0f} of {limit:.0f} MB/s)",
                        "met": worst["of_hp_limit"] >= 0.97, "note": _where(worst, width, burst)})
    bad = [r for r in rows if r.get("ok") is False]
    targets.append({"target": "every received byte checked against numpy",
                    "ours": "all equal" if not bad else f"{len(bad)} transfers differ",
                    "met": not bad})
    md = "\n".join([
        f"PYNQ's `pynq.lib.dma.DMA` (polling `wait()`) on the simulated board: an AXI DMA "
        f"(`pp_axi_dma`, {width}-bit, bursts of {burst}) on its HP port, the stream component "
        f"`bench_stream` (TX: sink, RX: source, both: loop-back)"
        + (" behind its memory firewall (`firewall: true`: `pp_mem_firewall`, a range opened "
           "around each transfer)" if firewall else "") + f". Cycles are exact (the "
        f"DMA shell's probe: LENGTH write to TLAST handshake / last write response) at "
        f"{clock:g} MHz; the HP port's limit is {width} bits x {clock:g} MHz = {limit:.0f} MB/s "
        f"per direction. The host column is the simulated board's software time (PYNQ through "
        f"the simulator), not a Cortex-A9's. Blocks: {BLOCK // KiB} KiB each; their cycles are "
        f"the sum of the blocks' DMA cycles, the gaps between blocks being software time "
        f"(double buffering overlaps the copy of the next block with the transfer: only the "
        f"host time changes). No interrupt rows: the DMA's interrupts are not connected, so "
        f"PYNQ polls.", "", table, "",
        "The seed paper's Table I (a PYNQ-class Zynq running a CNN, ~100 KiB transfers) beside "
        "ours:", "", paper])
    return {"experiment": "dma", "title": "DMA transfers with PYNQ's driver (issue 17; the seed "
                                          "paper's Table I and Figs. 4-5)",
            "meta": dict(meta(sim), clock_mhz=clock, smoke=smoke), "rows": rows,
            "targets": targets, "markdown": md,
            "config": {"width": width, "burst": burst, "clock_mhz": clock, "hp_limit_mb_s": limit,
                       "sizes": list(sizes), "block": BLOCK, "firewall": firewall},
            "paper_table_i": [list(r) for r in PAPER_TABLE_I]}


def _plot(rows: list[dict[str, Any]], limit: float, path: Path) -> Optional[Path]:
    plt = pyplot()
    if plt is None:
        return None
    fig, (a, b) = plt.subplots(1, 2, figsize=(12, 4.2))
    for kind, style in (("TX", "o-"), ("RX", "s-"), ("both", "^-")):
        pts = [(r["bytes"], r) for r in rows if r["kind"] == kind and r["mode"] == "whole"]
        if not pts:
            continue
        xs = [p for p, _ in pts]
        a.loglog(xs, [r["us_per_byte"] * 1000 for _, r in pts], style, label=f"{kind} (cycles)")
        a.loglog(xs, [r["host_us_per_byte"] * 1000 for _, r in pts], style, alpha=0.35,
                 label=f"{kind} (simulated board's software time)")
        b.semilogx(xs, [r["mb_s"] for _, r in pts], style, label=kind)
    a.axhline(PAPER_TABLE_I[0][1] * 1000, color="gray", ls=":", label="paper Table I TX (polling)")
    a.axhline(PAPER_TABLE_I[0][2] * 1000, color="gray", ls="--", label="paper Table I RX (polling)")
    a.set_xlabel("transfer size (bytes)"); a.set_ylabel("ns per byte"); a.legend(fontsize=7)
    a.set_title("time per byte")
    b.axhline(limit, color="k", ls="--", label=f"HP port limit ({limit:.0f} MB/s)")
    b.axhline(0.97 * limit, color="k", ls=":", label="97%")
    b.set_xlabel("transfer size (bytes)"); b.set_ylabel("MB/s (simulated cycles)")
    b.set_title("bandwidth"); b.legend(fontsize=7)
    return save_figure(fig, path)


def run(opts: Any, log: Callable[[str], None]) -> dict[str, Any]:
    """``pushpush bench dma`` (registry, :mod:`pushpush.bench.registry`)."""
    from pushpush.bench.report import write_result

    out = Path(opts.output)
    out.mkdir(parents=True, exist_ok=True)
    res = run_dma(out, smoke=opts.smoke, simulator=opts.sim or "auto",
                  firewall=bool(getattr(opts, "firewall", False)), log=log)
    write_result(out, res)
    lines = [(out / "dma.md").read_text(),
             f"results: {out / 'dma.json'}" + (f", plot: {out / res['plots'][0]}" if res["plots"] else "")]
    missed = [f"dma: {t['target']}: {t['ours']}" for t in res["targets"] if not t["met"]]
    if missed:
        lines.append("targets missed:\n  " + "\n  ".join(missed))
    return {**res, "printed": "\n".join(lines)}
