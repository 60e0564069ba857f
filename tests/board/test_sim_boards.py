"""The simulated board of each board (issue 30): the same examples' applications, unchanged,
on a simulated PYNQ-Z2, ZCU104 and KV260 with that board's addresses, bus widths and PS.

On a ZynqMP board the simulated device tells PYNQ the truth about the design it loads,
not about the host: its ``arch`` becomes ``aarch64`` because the .hwh's PS is a
zynq_ultra_ps_e (PYNQ's ``Clocks`` asks ``device.arch`` and programs the PL clock through
CRL_APB; PYNQ's metadata parser reads the PS from the .hwh), while ``platform.machine()``
and PYNQ's ``CPU_ARCH`` stay the host's. PYNQ's own ``set_axi_port_width`` programs the PS
port widths from the .hwh, and they must be the simulated PL's."""

from __future__ import annotations

import os
import platform

import pytest

pytest.importorskip("pynq.pl_server")
os.environ.setdefault("PUSHPUSH_BOARD", "sim")

import pynq  # noqa: E402

from pushpush import apps  # noqa: E402
from pushpush.boards import BOARDS  # noqa: E402

HOST_ARCH = platform.machine()


def _run(example: str, name: str, tmp_path):
    folder = apps.find_example(example)
    app = apps.load_app(folder)
    # timeout: the runtime's 5 s wall-clock default is too short for dma_stream's 4096-word
    # scale() under Icarus on a loaded host (4.2 s alone on main); the check is the result
    ol = apps.open_system(folder, outdir=tmp_path / example, simulator="icarus", board=name)
    ol.runtime(timeout=120)
    try:
        linked = ol.system.linked
        assert linked.board == name
        dev = ol.device
        b = BOARDS[name]
        assert dev.arch == b.arch
        assert platform.machine() == HOST_ARCH and pynq.ps.CPU_ARCH == HOST_ARCH
        assert abs(pynq.Clocks.fclk0_mhz - 100.0) < 0.01
        rtl = [c for c in linked.components if c.kind == "rtl"]
        assert all(b.pl_range[0] <= c.base < b.pl_range[1] for c in rtl)
        assert ol.ip_dict["system_top_0"]["phys_addr"] >= b.pl_range[0]
        if b.is_zynqmp:
            assert dev._zu.port_width("MAXIGP0") == linked.interconnect.data_width
            assert dev._zu.port_width("SAXIGP0") == linked.interconnect.data_width   # HPC0
        result = app.main(ol)
    finally:
        ol.free()
    ok = result.get("ok") if isinstance(result, dict) else result
    assert ok, result


@pytest.mark.parametrize("name", ["pynq-z2", "zcu104", "kv260"])
@pytest.mark.parametrize("example", ["pingpong", "audio_fir", "dma_stream"])
def test_examples_run_on_each_simulated_board(example, name, tmp_path):
    _run(example, name, tmp_path)


@pytest.mark.parametrize("name", ["zcu104", "kv260"])
def test_pushpush_run_board(name, tmp_path):
    """``pushpush run examples/pingpong --board <name>`` in its own process, as a user runs
    it: the same table, and a board line naming the board, its PS, the PL's address behind
    its PS master and the port the windows are written through."""
    import subprocess
    import sys

    b = BOARDS[name]
    env = {**os.environ, "PUSHPUSH_BOARD": "sim", "PUSHPUSH_SIM": "icarus"}
    proc = subprocess.run([sys.executable, "-m", "pushpush", "run", "-q", "-o", str(tmp_path),
                           str(apps.find_example("pingpong")), "--board", name],
                          capture_output=True, text=True, timeout=900, env=env)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    pl = f"0x{b.default_pl[0]:08X}"
    assert (f"board: {b.title} ({name}, simulated): {b.ps_modtype}, the PL at {pl} behind "
            f"{b.master_port} (32-bit), the software windows at 0xFFFC0000 through "
            f"{b.port('S_AXI_GP0')}") in proc.stdout, proc.stdout[:500]
    assert "rtl -> rtl               6.00            16.667" in proc.stdout
    bad = subprocess.run([sys.executable, "-m", "pushpush", "run", "pingpong", "--board", "zcu102"],
                         capture_output=True, text=True, timeout=300, env=env)
    assert bad.returncode == 2 and "--board zcu102: use one of pynq-z1, pynq-z2, zcu104, kv260" in bad.stderr


def test_pynq_sees_a_zynqmp_and_the_host_stays_the_host(tmp_path):
    _run("pingpong", "zcu104", tmp_path)


def test_a_zynq_after_a_zynqmp_in_one_process(tmp_path):
    """PYNQ keeps one Clocks implementation per process; loading a Z1 design after a ZCU104
    one gives PYNQ the Zynq's again (the SLCR, armv7l)."""
    _run("pingpong", "zcu104", tmp_path / "a")
    _run("pingpong", "pynq-z1", tmp_path / "b")
