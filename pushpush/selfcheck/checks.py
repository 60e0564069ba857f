"""The checks of ``pushpush selfcheck``, in groups (:data:`GROUPS`), on a PYNQ board or, on a
machine without one, on the simulated board (as ``pushpush run`` picks it).

- ``image``: Python and PYNQ versions, PYNQ's device (access to the PL).
- ``pingpong``: loads the shipped pingpong overlay (:func:`pushpush.apps.open_system`); the
  on-chip memory's mapping (:mod:`pushpush.pynq.ocm`), a read of every rtl component's
  counters over AXI, a CMA buffer (``pynq.allocate``), Python -> RTL (``callee.f``),
  RTL -> RTL (``caller.run``). Results are checked with the example's own model of the
  callee (examples/pingpong/app.py).
- ``audio_fir``: its Verilog FIR calls Python's exports (examples/audio_fir/app.py's
  ``run_fir``), checked against numpy; then again with Python waiting on the interrupt
  (``wait="interrupt"``), which must have fired.
- ``pingpong_c``: with a C compiler, the C rows of examples/pingpong/c (its ``main`` with few calls):
  C -> RTL, RTL -> C, Python -> C, C -> Python, C -> C.
- ``dma_stream``: one block through dma_stream's core with PYNQ's DMA driver
  (examples/dma_stream/app.py's ``stream``), checked against its model.
"""

from __future__ import annotations

import os
import platform
import sys
import tempfile
from importlib import metadata
from pathlib import Path
from typing import Any, Callable, Optional, Sequence

from .. import __version__, apps
from ..resources import examples_dir
from .report import Check, Report, Skip, run_check

__all__ = ["GROUPS", "run_selfcheck"]

GROUPS = ("image", "pingpong", "audio_fir", "pingpong_c", "dma_stream")

MASK = 0xFFFF_FFFF
Progress = Callable[[str], None]


def _sim_doing(ol: Any) -> Callable[[], str]:
    """What the PL side was doing, for a check that ran out of time."""
    def doing() -> str:
        bridge = getattr(getattr(ol, "device", None), "bridge", None)
        if bridge is not None and hasattr(bridge, "info"):
            info = bridge.info()
            return (f"the simulated board was at PL cycle {info.get('cycle')} "
                    f"(simulator {getattr(ol.device, 'simulator', '?')})")
        return f"the PL's fault counters were {ol.counters()}"
    return doing


class _Run:
    """One self-check run: the report, the options, the overlay being checked."""

    def __init__(self, report: Report, *, simulator: str, timeout: float, workdir: Path,
                 progress: Progress) -> None:
        self.report, self.simulator, self.timeout = report, simulator, timeout
        self.workdir, self.say = workdir, progress

    def check(self, name: str, fn: Callable[[], Optional[str]], *,
              doing: Optional[Callable[[], str]] = None, timeout: Optional[float] = None) -> Check:
        self.say(f"  {name} ...")
        c = self.report.add(run_check(name, fn, timeout=timeout or self.timeout, doing=doing))
        self.say(f"  {name}: {c.status}" + (f" ({c.detail})" if c.status != "pass" else ""))
        return c

    def not_run(self, names: Sequence[str], cause: Check) -> None:
        """Checks that need what ``cause`` failed (or skipped) to give."""
        for n in names:
            self.report.add(Check(n, cause.status, f"not run: {cause.name} was skipped "
                                  f"({cause.detail})" if cause.status == "skip" else
                                  f"not run: {cause.name} failed"))

    def load(self, example: str | Path, name: str) -> tuple[Optional[Any], Check]:
        """Open an example's system (the board's build, or the simulated board)."""
        box: dict[str, Any] = {}

        def go() -> str:
            try:
                box["ol"] = apps.open_system(example, outdir=self.workdir / name,
                                             simulator=self.simulator)
            except FileNotFoundError as e:   # on a board: the overlay's files are not there
                if apps.on_board():
                    raise Skip(str(e)) from None
                raise
            ol = box["ol"]
            where = getattr(ol.device, "simulator", None)
            return f"{Path(ol.bitfile_name).name} on " + (f"the simulated board ({where})" if where
                                                          else "the board")
        c = self.check(f"{name}.load", go, timeout=max(self.timeout, 600.0))
        ol = box.get("ol")
        if c.status != "pass" and ol is not None:   # loaded after its deadline
            ol.free()
            ol = None
        return ol, c


# --------------------------------------------------------------------------- groups


def _image(run: _Run) -> None:
    def python() -> str:
        v = sys.version_info
        text = f"Python {platform.python_version()} ({sys.executable}, {platform.machine()})"
        if v < (3, 10):
            raise RuntimeError(f"{text}: pushpush needs Python 3.10 or later (a PYNQ 3.x image has 3.10)")
        return text

    def pynq_version() -> str:
        try:
            v = metadata.version("pynq")
        except metadata.PackageNotFoundError:
            raise RuntimeError("PYNQ is not installed in this Python: pip install 'pushpush-fpga[simboard]' "
                               "(a PYNQ image has it)") from None
        return f"PYNQ {v}"

    def device() -> str:
        import pushpush.pynq  # noqa: F401  registers the simulated board before PYNQ's first use
        from pynq import Device
        if apps.on_board():
            for dev in ("/dev/mem", "/sys/class/fpga_manager/fpga0/firmware"):
                if not os.access(dev, os.R_OK | os.W_OK):
                    raise RuntimeError(f"{dev} is not readable and writable by this user "
                                       f"(uid {os.getuid()}): PYNQ needs root; run as root "
                                       "(sudo, or from the image's Jupyter, which runs as root)")
        dev = Device.active_device
        kind = "the simulated board" if not apps.on_board() else "a board"
        return f"{kind}: {type(dev).__name__} '{getattr(dev, 'name', '?')}'"

    run.check("image.python", python)
    run.check("image.pynq", pynq_version)
    run.check("image.pl_access", device)


def _pingpong(run: _Run) -> None:
    ol, loaded = run.load("pingpong", "pingpong")
    names = ["pingpong.ocm_mapping", "pingpong.pl_read", "pingpong.cma_allocate",
             "calls.python_to_rtl", "calls.rtl_to_rtl"]
    if ol is None:
        run.not_run(names, loaded)
        return
    model = apps.load_app("pingpong")
    linked = ol.system.linked
    call_timeout = run.timeout * 0.8   # the runtime's own timeout message comes first
    doing = _sim_doing(ol)
    state = {"callee": None}           # the callee's state, once a call told it

    def ocm() -> str:
        from ..boards import board
        from ..pynq.ocm import check_ocm_mapping, read_ocm_cfg
        ps = linked.ps
        if linked.software_windows == "ddr":
            return f"the software windows are in DDR (software_windows: ddr): no OCM mapping to check"
        if board(linked.board).is_zynqmp:
            return f"{linked.board}: the Zynq UltraScale+ OCM is not remapped: nothing to check"
        cfg = read_ocm_cfg(ol.device)
        check_ocm_mapping(cfg, ps.base, ps.size, linked.name)
        return f"OCM_CFG = 0x{cfg:02X}: the software windows 0x{ps.base:08X}..0x{ps.base + ps.size - 1:08X} are mapped high"

    def pl_read() -> str:
        counters = ol.counters()
        rtl = {c.name for c in linked.components if c.kind == "rtl"}
        missing = rtl - set(counters)
        if missing:
            raise RuntimeError(f"no counters read from {sorted(missing)}: {counters}")
        return "fault counters of " + ", ".join(f"{k} {v}" for k, v in sorted(counters.items()) if k in rtl)

    def cma() -> str:
        import numpy as np
        import pynq
        n = 4096
        buf = pynq.allocate((n,), np.uint32)
        try:
            buf[:] = np.arange(n, dtype=np.uint32) * 2654435761
            back = np.array(buf)
            if not (back == np.arange(n, dtype=np.uint32) * 2654435761).all():
                raise RuntimeError("the buffer did not read back what was written")
            phys = int(buf.physical_address)
        finally:
            buf.freebuffer()
        free = ""
        try:
            for line in Path("/proc/meminfo").read_text().splitlines():
                if line.startswith("CmaFree") and apps.on_board():
                    free = f"; {' '.join(line.split())}"
        except OSError:
            pass
        return f"pynq.allocate({n} u32) at physical 0x{phys:08X}, written and read back{free}"

    def python_to_rtl() -> str:
        r0 = ol.callee.f(1, timeout=call_timeout) & MASK
        s = model.callee_model(model.callee_state_before(r0, 1), 1)
        for x in (7, -3, 0x12345):
            got = ol.callee.f(x, timeout=call_timeout) & MASK
            s = model.callee_model(s, x)
            if got != s:
                raise RuntimeError(f"callee.f({x}) = 0x{got:08X}, the callee's model says 0x{s:08X}")
        state["callee"] = s
        return "4 calls of callee.f (Verilog) from Python, each result as the callee's model says"

    def rtl_to_rtl() -> str:
        n = 16
        cycles = int(ol.caller.run(n, timeout=call_timeout)) & MASK
        got = ol.callee.f(5, timeout=call_timeout) & MASK
        s = state["callee"]
        if s is not None:        # caller.run chains x = the previous result, the first is n
            x = n
            for _ in range(n):
                s = model.callee_model(s, x)
                x = model.i32(s)
            s = model.callee_model(s, 5)
            if got != s:
                raise RuntimeError(f"after caller.run({n}) callee.f(5) = 0x{got:08X}, the model "
                                   f"says 0x{s:08X}: the hardware calls did not all happen once")
        return f"caller.run({n}): {n} calls of callee.f from Verilog in {cycles} cycles" + \
            ("" if s is not None else " (not followed by the model: Python -> RTL failed)")

    try:
        run.check("pingpong.ocm_mapping", ocm, doing=doing)
        run.check("pingpong.pl_read", pl_read, doing=doing)
        run.check("pingpong.cma_allocate", cma, doing=doing)
        run.check("calls.python_to_rtl", python_to_rtl, doing=doing)
        run.check("calls.rtl_to_rtl", rtl_to_rtl, doing=doing)
    finally:
        ol.free()


def _audio_fir(run: _Run) -> None:
    ol, loaded = run.load("audio_fir", "audio_fir")
    if ol is None:
        run.not_run(["calls.rtl_to_python", "audio_fir.interrupt_wait"], loaded)
        return
    fir = apps.load_app("audio_fir")

    def go() -> str:
        import numpy as np
        coeffs = np.array([3, -1, 4, 1], dtype=np.int64)
        x = np.array([1, 0, 0, 0, 2, -5, 7], dtype=np.int64)
        with fir.quiet_end():
            r = fir.run_fir(ol, coeffs, x, timeout=run.timeout * 0.8)
        want = fir.fir_reference(coeffs, x)
        if not np.array_equal(r["y"], want):
            raise RuntimeError(f"fir.fir gave {r['y'].tolist()}, numpy {want.tolist()}")
        return (f"fir.fir called Python's coeff {len(r['coeff_calls'])} times, source and sink "
                f"{len(x)} times each; the output equals numpy's")

    def interrupt() -> str:
        # Python serves the FIR's calls in interrupt mode: its serve thread sleeps until
        # the interrupt says a call (or the reply to fir.fir) landed in its window
        import numpy as np
        from ..pynq.irqwait import hub_for
        rt = ol.runtime()
        before = rt.wait
        rt.wait = "interrupt"        # ValueError says why a system cannot
        hub = hub_for(ol.device)
        try:
            g0 = hub.generation
            coeffs, x = np.array([2, 1], dtype=np.int64), np.array([5, -1, 3], dtype=np.int64)
            with fir.quiet_end():
                r = fir.run_fir(ol, coeffs, x, timeout=run.timeout * 0.8)
            fired = hub.generation - g0
        finally:
            hub.release()
            rt.wait = before
        if not np.array_equal(r["y"], fir.fir_reference(coeffs, x)):
            raise RuntimeError(f"fir.fir gave {r['y'].tolist()} in interrupt mode, numpy "
                               f"{fir.fir_reference(coeffs, x).tolist()}")
        if fired < 1:
            raise RuntimeError("the FIR's calls were served, but the interrupt never fired "
                               f"(pin {hub.pin}): Python found them by its fallback sweep")
        return (f"Python served the FIR's calls waiting on the interrupt ({fired} firings of "
                f"{hub.pin})")

    try:
        run.check("calls.rtl_to_python", go, doing=_sim_doing(ol))
        run.check("audio_fir.interrupt_wait", interrupt, doing=_sim_doing(ol))
    finally:
        ol.free()


def _c(run: _Run) -> None:
    from ..c import CompileError, compiler
    rows = ["calls.c_to_rtl", "calls.rtl_to_c", "calls.python_to_c", "calls.c_to_python", "calls.c_to_c"]

    def cc() -> str:
        try:
            return f"C compiler: {compiler()}"
        except CompileError as e:
            raise Skip(str(e)) from None

    found = run.check("c.compiler", cc)
    if found.status != "pass":
        run.not_run(rows, found)
        return
    if apps.on_board():
        run.not_run(rows, run.report.add(Check(
            "c.program", "skip",
            "the C rows run on the simulated board only: examples/pingpong/c's app attaches its "
            "C program to the simulated board; on a board build callee.c with the Linux layer "
            "(docs/c.md) against pingpong_c's overlay")))
        return
    ol, loaded = run.load(examples_dir() / "pingpong" / "c", "pingpong_c")
    if ol is None:
        run.not_run(rows, loaded)
        return
    app = apps.load_app(examples_dir() / "pingpong" / "c")
    box: dict[str, Any] = {}

    def program() -> str:
        lines: list[str] = []
        box["r"] = r = app.main(ol, c_calls=8, hw_n=(2, 6), py_calls=8, cc_calls=200, out=lines.append)
        if not r["ok"]:
            raise RuntimeError("; ".join(r["problems"]))
        return f"callee.c compiled ({compiler()}) and attached; every result as the model says"

    try:
        prog = run.check("c.program", program, doing=_sim_doing(ol))
    finally:
        ol.free()
    if prog.status != "pass":
        run.not_run(rows, prog)
        return
    seen = {f"calls.{r['caller']}_to_{r['callee']}": r for r in box["r"]["rows"]}
    for name in rows:
        r = seen.get(name)
        if r is None:
            run.report.add(Check(name, "fail", "the C program made no such calls"))
        else:
            how = [f"{r['cycles_per_call']:.1f} cycles/call"] if r.get("cycles_per_call") else []
            how += [f"{r['wall_calls_per_s']:,.0f} calls/s wall"] if r.get("wall_calls_per_s") else []
            run.report.add(Check(name, "pass", "checked against the callee's model (" + ", ".join(how) + ")"))


def _dma(run: _Run) -> None:
    ol, loaded = run.load("dma_stream", "dma_stream")
    if ol is None:
        run.not_run(["dma.transfer"], loaded)
        return
    app = apps.load_app("dma_stream")

    def doing() -> str:
        dma = ol.axi_dma_0
        return (f"the AXI DMA's MM2S_DMASR = 0x{dma.mmio.read(0x04):08X}, S2MM_DMASR = "
                f"0x{dma.mmio.read(0x34):08X} (bit 1 idle, bits 4..6 errors; PG021); "
                + _sim_doing(ol)())

    def go() -> str:
        import numpy as np
        import pynq
        n, gain, offset = 256, 3, -100
        ol.scaler.set_gain(gain, offset, timeout=run.timeout * 0.8)
        src = pynq.allocate((n,), np.int32)
        dst = pynq.allocate((n,), np.int32)
        try:
            x = app.signal(n)
            src[:] = x
            dst[:] = 0
            got = app.stream(ol.axi_dma_0, src, dst)
            y = np.array(dst)
        finally:
            src.freebuffer()
            dst.freebuffer()
        if got != 4 * n or not np.array_equal(y, app.model(x, gain, offset)):
            raise RuntimeError(f"{got} bytes came back of {4 * n}; "
                               f"{int((y != app.model(x, gain, offset)).sum())} words differ from gain * x + offset")
        return f"{n} words through axi_dma_0 and the core and back (PYNQ's DMA driver), as the model says"

    try:
        run.check("dma.transfer", go, doing=doing)
    finally:
        ol.free()


_GROUP_FN = {"image": _image, "pingpong": _pingpong, "audio_fir": _audio_fir, "pingpong_c": _c,
             "dma_stream": _dma}


def run_selfcheck(groups: Sequence[str] = GROUPS, *, simulator: Optional[str] = None,
                  timeout: float = 120.0, progress: Optional[Progress] = None) -> Report:
    """Run the checks of ``groups`` (:data:`GROUPS`) and return the report. ``simulator``
    (the simulated board's; default ``$PUSHPUSH_SIM`` or icarus) does not apply on a board.
    ``timeout``: seconds each check may take (loading a system may take 600)."""
    bad = [g for g in groups if g not in GROUPS]
    if bad:
        raise ValueError(f"unknown check group(s) {', '.join(bad)}: use {', '.join(GROUPS)}")
    say = progress or (lambda s: None)
    env: dict[str, Any] = {"pushpush": __version__, "python": platform.python_version(),
                           "machine": platform.machine(), "platform": platform.platform()}
    try:
        env["pynq"] = metadata.version("pynq")
    except metadata.PackageNotFoundError:
        env["pynq"] = "not installed"
    on_board = apps.on_board()
    sim = None if on_board else (os.environ.get("PUSHPUSH_SIM") or simulator or "icarus")
    env["where"] = "a board" if on_board else f"the simulated board ({sim})"
    env["groups"] = ", ".join(groups)
    report = Report(environment=env)
    with tempfile.TemporaryDirectory(prefix="pushpush-selfcheck-") as tmp:
        run = _Run(report, simulator=sim or "auto", timeout=timeout, workdir=Path(tmp), progress=say)
        for g in GROUPS:
            if g in groups:
                say(f"[{g}]")
                _GROUP_FN[g](run)
    return report
