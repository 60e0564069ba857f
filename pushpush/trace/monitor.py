"""The wire monitor: a cocotb coroutine that records, in exact simulated cycles, what every
call does on the wires of a generated system top (inside the simulated board's harness or
any cocotb bench of a top).

It watches

* the interconnect's slave ports (``ic_m_axi_*`` of the top: each endpoint window, the
  ``ps`` port into the software windows included): every written 32-bit word with its
  address, the master that wrote it and whether it was its burst's first and last beat
  (``w`` records), and every write response (``b``);
* each rtl component's user-module handshakes (``<comp>_inst.usr_<f>_valid/ready``: the
  module took a call of export ``f``; ``usr_<f>_result_valid/ready``: its result; the same
  of each call port ``<p>``, an import ``callee_f`` or a function parameter ``f_param``: the
  module issued a call, took its result): ``u`` records;
* the harness's other PS memory ports (a DMA engine's master, ``buf_axi``): the address
  handshake of every burst with its bytes and the cycle of its last beat: ``m`` records.

It costs nothing while the buses are quiet: it sleeps until one of the valid signals
changes, then samples once per clock edge (in the read-only phase after the edge, so the
values are the settled ones the next edge takes) until they are all low again. It only
reads signals: a traced run has the same cycle counts as an untraced one.

Records (JSON-able lists; ``cycle`` = the clock edge at which the handshake happens):

* ``["w", cycle, slave, master, address, data, first, last]``
* ``["b", cycle, slave, master, resp]``
* ``["u", cycle, component, "take" | "result" | "call" | "reply", export or call port]``
* ``["m", cycle, port, "r" | "w", address, bytes, "start" | "end"]``

Example (a cocotb test)::

    mon = WireMonitor.attach(dut, cycle_of=lambda t: ...)
    mon.start()
    ...
    records = mon.stop()
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Any, Callable, Optional

__all__ = ["WireMonitor", "find_top", "MonitorError"]


class MonitorError(RuntimeError):
    """The monitor cannot see the signals it needs (names the signal and the fix)."""


def _int(sig: Any) -> int:
    v = sig.value
    try:
        return int(v)
    except ValueError:   # X/Z: treat as 0
        return int("".join("1" if c == "1" else "0" for c in str(v)) or "0", 2)


def _has(obj: Any, name: str) -> bool:
    try:
        getattr(obj, name)
        return True
    except AttributeError:
        return False


def find_top(dut: Any) -> Any:
    """The generated system top under ``dut``: ``dut`` itself, the harness's ``dut``, or the
    DMA shell's ``top`` below that."""
    for path in ((), ("dut",), ("dut", "top")):
        obj = dut
        try:
            for p in path:
                obj = getattr(obj, p)
        except AttributeError:
            continue
        if _has(obj, "ic_m_axi_awvalid"):
            return obj
    raise MonitorError(
        "trace: no generated system top with an interconnect (ic_m_axi_awvalid) under the "
        "simulation's toplevel; on Verilator the signals must be visible (the simulated "
        "board builds a traced Verilator run with --public-flat-rw, or use PUSHPUSH_SIM=icarus)")


@dataclass
class _Port:
    """One AXI write (and read) channel group, sliced out of flattened vectors."""

    name: Any          # slave index, or a memory port's name
    sig: dict[str, Any]
    index: int = 0     # the field in the flattened vectors
    data_width: int = 32
    id_width: int = 0
    aw: deque = field(default_factory=deque)     # [address, id, beats seen]
    w_early: deque = field(default_factory=deque)
    ar: deque = field(default_factory=deque)


class WireMonitor:
    """See the module docstring. ``clk``: the clock; ``next_edge()``: the cycle number of
    the next rising edge (the harness's numbering); ``components``: rtl component ->
    ``{"exports": [...], "calls": [...]}`` (the user-module ports watched: ``usr_<f>`` and
    ``usr_<f>_result`` of each export and call port); ``mem_ports``: harness-level AXI master
    prefixes (name -> signal prefix object) of PS memory ports."""

    def __init__(self, clk: Any, top: Any, next_edge: Callable[[], int], *,
                 components: Optional[dict[str, dict[str, list[str]]]] = None,
                 mem_ports: Optional[dict[str, tuple[Any, str, int]]] = None) -> None:
        self.clk = clk
        self.top = top
        self.next_edge = next_edge
        self.records: list[list[Any]] = []
        self._task: Any = None
        n_slaves = len(top.ic_m_axi_awvalid)
        n_masters = len(top.ic_s_axi_awvalid)
        dw = len(top.ic_m_axi_wdata) // n_slaves
        self.s_id = len(top.ic_s_axi_awid) // n_masters
        m_id = len(top.ic_m_axi_awid) // n_slaves
        names = ("awvalid", "awready", "awaddr", "awid", "awlen", "wvalid", "wready", "wdata",
                 "wstrb", "wlast", "bvalid", "bready", "bresp", "bid")
        self.vec = {n: getattr(top, f"ic_m_axi_{n}") for n in names}
        self.slaves = [_Port(i, self.vec, i, dw, m_id) for i in range(n_slaves)]
        self.users: list[tuple[str, str, str, Any, Any]] = []   # comp, kind, fn, valid, ready
        for comp, ports in (components or {}).items():
            try:
                inst = getattr(top, f"{comp}_inst")
            except AttributeError:
                continue
            watch = [("take", fn, f"usr_{fn}") for fn in ports.get("exports", [])]
            watch += [("result", fn, f"usr_{fn}_result") for fn in ports.get("exports", [])]
            watch += [("call", p, f"usr_{p}") for p in ports.get("calls", [])]
            watch += [("reply", p, f"usr_{p}_result") for p in ports.get("calls", [])]
            for kind, fn, stem in watch:
                try:
                    v, r = getattr(inst, f"{stem}_valid"), getattr(inst, f"{stem}_ready")
                except AttributeError:
                    continue
                self.users.append((comp, kind, fn, v, r))
        self.mems: list[_Port] = []
        for name, (scope, prefix, width) in (mem_ports or {}).items():
            sig = {n: getattr(scope, f"{prefix}_{n}") for n in (
                "awvalid", "awready", "awaddr", "awlen", "awsize", "wvalid", "wready", "wlast",
                "bvalid", "bready", "arvalid", "arready", "araddr", "arlen", "arsize",
                "rvalid", "rready", "rlast")}
            self.mems.append(_Port(name, sig, 0, width))
        self.valids = [self.vec["awvalid"], self.vec["wvalid"], self.vec["bvalid"]]
        self.valids += [v for _, _, _, v, _ in self.users]
        for p in self.mems:
            self.valids += [p.sig[n] for n in ("awvalid", "wvalid", "bvalid", "arvalid", "rvalid")]

    @classmethod
    def attach(cls, dut: Any, next_edge: Callable[[], int], *,
               components: Optional[dict[str, dict[str, list[str]]]] = None,
               mem_ports: Optional[dict[str, tuple[str, int]]] = None) -> "WireMonitor":
        """A monitor of the top under ``dut`` (:func:`find_top`); ``mem_ports``: name ->
        (signal prefix on ``dut``, data width)."""
        top = find_top(dut)
        mems = {n: (dut, prefix, w) for n, (prefix, w) in (mem_ports or {}).items()}
        return cls(dut.clk, top, next_edge, components=components, mem_ports=mems)

    # ------------------------------------------------------------------ running

    def start(self) -> None:
        import cocotb
        self._task = cocotb.start_soon(self._run())

    def stop(self) -> list[list[Any]]:
        """Stop recording; the records so far (the monitor may be started again)."""
        if self._task is not None:
            self._task.cancel()
            self._task = None
        out, self.records = self.records, []
        return out

    async def _run(self) -> None:
        from cocotb.triggers import First, ReadOnly, RisingEdge, ValueChange
        await ReadOnly()
        while True:
            busy = self._sample(self.next_edge())
            if busy:
                await RisingEdge(self.clk)
            else:
                await First(*[ValueChange(s) for s in self.valids])
            await ReadOnly()

    # ------------------------------------------------------------------ sampling

    def _sample(self, cyc: int) -> bool:
        """Record the handshakes the next edge (cycle ``cyc``) takes; whether any valid is
        high (then the next edge must be looked at too)."""
        busy = False
        v = {n: _int(s) for n, s in self.vec.items() if n in ("awvalid", "wvalid", "bvalid")}
        if v["awvalid"] or v["wvalid"] or v["bvalid"]:
            busy = True
            r = {n: _int(s) for n, s in self.vec.items()}
            for p in self.slaves:
                self._slave(p, r, cyc)
        for comp, kind, fn, valid, ready in self.users:
            if _int(valid):
                busy = True
                if _int(ready):
                    self.records.append(["u", cyc, comp, kind, fn])
        for p in self.mems:
            busy = self._mem(p, cyc) or busy
        return busy

    def _slave(self, p: _Port, r: dict[str, int], cyc: int) -> None:
        i, dw, idw = p.index, p.data_width, p.id_width
        bit = 1 << i
        if r["awvalid"] & bit and r["awready"] & bit:
            addr = (r["awaddr"] >> (32 * i)) & 0xFFFF_FFFF
            awid = (r["awid"] >> (idw * i)) & ((1 << idw) - 1)
            p.aw.append([addr, awid >> self.s_id, 0, ((r["awlen"] >> (8 * i)) & 0xFF) + 1])
            while p.w_early and p.aw:
                self._beat(p, *p.w_early.popleft())
        if r["wvalid"] & bit and r["wready"] & bit:
            data = (r["wdata"] >> (dw * i)) & ((1 << dw) - 1)
            strb = (r["wstrb"] >> (dw // 8 * i)) & ((1 << dw // 8) - 1)
            last = bool(r["wlast"] & bit)
            if p.aw:
                self._beat(p, cyc, data, strb, last)
            else:
                p.w_early.append((cyc, data, strb, last))
        if r["bvalid"] & bit and r["bready"] & bit:
            bid = (r["bid"] >> (idw * i)) & ((1 << idw) - 1)
            self.records.append(["b", cyc, i, bid >> self.s_id, (r["bresp"] >> (2 * i)) & 3])

    def _beat(self, p: _Port, cyc: int, data: int, strb: int, last: bool) -> None:
        burst = p.aw[0]
        addr0, master, k, beats = burst
        bb = p.data_width // 8
        base = addr0 - addr0 % bb + k * bb
        present = [wi for wi in range(bb // 4) if (strb >> (4 * wi)) & 0xF]
        for j, wi in enumerate(present):
            self.records.append(["w", cyc, p.index, master, base + 4 * wi,
                                 (data >> (32 * wi)) & 0xFFFF_FFFF, k == 0 and j == 0,
                                 last and j == len(present) - 1])
        burst[2] = k + 1
        if last or burst[2] >= beats:
            p.aw.popleft()

    def _mem(self, p: _Port, cyc: int) -> bool:
        s = p.sig
        busy = False
        for d, pre in (("w", "aw"), ("r", "ar")):
            if _int(s[f"{pre}valid"]):
                busy = True
                if _int(s[f"{pre}ready"]):
                    n = (_int(s[f"{pre}len"]) + 1) << _int(s[f"{pre}size"])
                    self.records.append(["m", cyc, p.name, d, _int(s[f"{pre}addr"]), n, "start"])
        if _int(s["wvalid"]) or _int(s["rvalid"]) or _int(s["bvalid"]):
            busy = True
        if _int(s["bvalid"]) and _int(s["bready"]):
            self.records.append(["m", cyc, p.name, "w", 0, 0, "end"])
        if _int(s["rvalid"]) and _int(s["rready"]) and _int(s["rlast"]):
            self.records.append(["m", cyc, p.name, "r", 0, 0, "end"])
        return busy
