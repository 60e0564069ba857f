"""The previous PS side of the simulated board, kept for comparison
(``PUSHPUSH_SIM_PS=cocotb``, ``pushpush bench simboard``): cocotbext-axi's ``AxiMaster`` on
the top's ``s_axi`` and ``AxiSlave`` on its ``m_axi``, a cocotb clock, and a request loop
that wakes every few cycles. Python runs on every clock edge in these models; the default
is :mod:`.hdl`."""

from __future__ import annotations

import json
import logging
import os
import select
import socket
import time
from pathlib import Path
from typing import Any

from .wire import OP_HELLO, REP, SimConfig, SimulatedPSMemory, serve_requests

__all__ = ["serve_simulation"]


class _AxiSlaveTarget:
    """:class:`SimulatedPSMemory` as the target of cocotbext-axi's ``AxiSlave`` (the
    "cocotb" PS model; an unmapped access answers OKAY there, as it always did)."""

    def __init__(self, memory: SimulatedPSMemory, on_access: Any) -> None:
        self.memory = memory
        self.on_access = on_access
        path = os.environ.get("PUSHPUSH_SIM_NOTIFY", "")
        self.notify_fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK) if path else -1

    async def write(self, address: int, data: bytes) -> None:
        self.on_access()
        self.memory.write(address, bytes(data))
        self.memory.count_write()
        if self.notify_fd >= 0:
            try:
                os.write(self.notify_fd, b"\1")
            except OSError:
                pass

    async def read(self, address: int, length: int) -> bytes:
        self.on_access()
        data = self.memory.read(address, length)
        return bytes(length) if data is None else data



class _MasterPort:
    """cocotbext-axi's AxiMaster with the GP0 port interface of :func:`serve_requests`."""

    def __init__(self, master: Any) -> None:
        self.master = master

    async def write(self, address: int, data: bytes) -> int:
        return int((await self.master.write(address, data)).resp)

    async def write_words(self, address: int, data: bytes) -> tuple[int, int]:
        for done, off in enumerate(range(0, len(data), 4)):
            resp = int((await self.master.write(address + off, data[off:off + 4])).resp)
            if resp & 2:
                return resp, done
        return 0, len(data) // 4

    async def read(self, address: int, length: int) -> tuple[int, bytes]:
        resp = await self.master.read(address, length)
        return int(resp.resp), bytes(resp.data)


async def serve_simulation(dut: Any) -> None:
    """The cocotb side: clock, reset, the ARM's ports, and the request loop."""
    import cocotb
    from cocotb.clock import Clock
    from cocotb.triggers import ClockCycles, Timer
    from cocotb.utils import get_sim_time
    from cocotbext.axi import AxiBus, AxiMaster, AxiSlave

    cfg = SimConfig.from_json(Path(os.environ["PUSHPUSH_SIM_CONFIG"]).read_text())
    period_ps = int(round(1e6 / cfg.clock_mhz))
    # reset is driven before the models look at it; the C++ clock (impl="gpi") wakes no
    # Python code per clock edge
    dut.rst.value = 1
    dut.clk.value = 0
    for name in ("s_axi_awvalid", "s_axi_wvalid", "s_axi_arvalid", "s_axi_bready", "s_axi_rready",
                 "m_axi_awready", "m_axi_wready", "m_axi_arready", "m_axi_bvalid", "m_axi_rvalid"):
        getattr(dut, name).value = 0    # the models' handshake outputs, defined from time 0
    await Timer(period_ps, unit="ps")
    cocotb.start_soon(Clock(dut.clk, period_ps, unit="ps", impl="gpi").start())
    state = {"last_activity": 0, "last_wall": time.monotonic()}

    def touch() -> None:
        state["last_activity"] = cycle()
        state["last_wall"] = time.monotonic()

    master = AxiMaster(AxiBus.from_prefix(dut, "s_axi"), dut.clk, dut.rst)
    gp0 = _MasterPort(master)
    slave = AxiSlave(AxiBus.from_prefix(dut, "m_axi"), dut.clk, dut.rst, target=_AxiSlaveTarget(SimulatedPSMemory(cfg), touch))
    for port in (master, slave):
        for lg in (port.write_if.log, port.read_if.log):
            lg.setLevel(logging.WARNING)

    period_ns = period_ps / 1000

    def cycle() -> int:  # from simulated time: no per-cycle Python callback
        return int(get_sim_time(unit="ns") // period_ns)

    await ClockCycles(dut.clk, 8)
    dut.rst.value = 0
    await ClockCycles(dut.clk, 2)

    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.connect(cfg.socket_path)

    def info() -> bytes:
        return json.dumps({"pid": os.getpid(), "cycle": cycle(), "ps": "cocotb",
                           "time_ns": get_sim_time(unit="ns")}).encode()

    def send(op: int, tag: int, status: int, payload: bytes = b"") -> None:
        sock.sendall(REP.pack(op, tag, status, len(payload)) + payload)

    send(OP_HELLO, 0, 0, info())
    buf = bytearray()
    while True:
        busy = cfg.idle_ms <= 0 or (cycle() - state["last_activity"] < cfg.idle_cycles
                                    and time.monotonic() - state["last_wall"] < cfg.idle_s)
        t0 = time.monotonic()
        # a Timer is one simulator callback; ClockCycles would wake Python every cycle
        await Timer((cfg.busy_batch if busy else cfg.idle_batch) * period_ps, unit="ps")
        # idle (no bus activity for idle_cycles): wait for a request at least idle_ms and
        # three times as long as the batch took, so an idle board uses <= 25% of a core;
        # a request ends the wait at once
        wait = 0.0 if busy else max(cfg.idle_ms / 1000, 3 * (time.monotonic() - t0))
        ready, _, _ = select.select([sock], [], [], wait)
        if not ready:
            continue
        chunk = sock.recv(1 << 20)
        if not chunk:  # the PYNQ process went away
            return
        buf += chunk

        async def run(cycles: int) -> None:
            await Timer(max(1, cycles) * period_ps, unit="ps")

        if not await serve_requests(buf, gp0, send, info, run, touch):
            return
