"""Wait modes of a software component on the simulated board (docs/runtime.md, "Waiting").

The generated ``hof`` system (tests/gen/hof) on Icarus, through PYNQ: its top has the
interrupt block (a pending bit for ``host``), ``axi_intc_0`` and ``IRQ_F2P`` in its
``.hwh``, and the ``interrupt`` mode waits through PYNQ's own ``pynq.Interrupt`` on the
simulated board's interrupt path (pushpush.pynq.simulated.interrupt). Checked:

- every mode calls hardware (the reply wakes the caller) and serves hardware's calls
  (hardware -> Python -> hardware), switching modes at run time while serving;
- ``interrupt`` mode with the fallback sweep disabled (IRQ_WAIT_S = 30 s, so a lost
  interrupt would hang a call until its timeout): many back-to-back calls with random
  gaps, each making hardware call into Python and wait for its reply, none lost;
- an ``interrupt``-mode runtime uses almost no CPU while idle (process CPU time over one
  idle second);
- only a runtime in ``interrupt`` mode enables its bit in the interrupt block (a runtime
  in another mode, whose replies set its bit, holds no line);
- the YAML's ``wait`` is the runtime's default; a system without an interrupt refuses
  ``interrupt`` with a message that says why.
"""

from __future__ import annotations

import os
import random
import time

import pytest

pytest.importorskip("pynq.pl_server")
os.environ.setdefault("PUSHPUSH_BOARD", "sim")

import pushpush.pynq as ppq  # noqa: E402
from pushpush.pynq import board  # noqa: E402

from pynq_systems import HOF_YAML, write_loop_overlay  # noqa: E402

MODES = ("sleep", "poll", "yield", "interrupt")


@pytest.fixture(scope="module")
def hof_ol(tmp_path_factory):
    ol = ppq.load(HOF_YAML, outdir=tmp_path_factory.mktemp("hofwait"))
    yield ol
    ol.free()


def test_the_overlay_has_the_interrupt(hof_ol):
    assert "system_top_0/irq" in hof_ol.interrupt_pins
    assert hof_ol.interrupt_pins["system_top_0/irq"]["controller"] == "axi_intc_0"
    assert hof_ol.interrupt_controllers["axi_intc_0"]["raw_irq"] == 61
    assert hof_ol.ip_dict["axi_intc_0"]["type"] == "xilinx.com:ip:axi_intc:4.1"


def test_every_mode_calls_and_serves_switching_at_run_time(hof_ol):
    rt = hof_ol.runtime()
    assert rt.wait == "sleep"                      # the YAML says nothing: the default
    logs: list[int] = []
    hof_ol.export("log", logs.append)
    for i, mode in enumerate(MODES + ("sleep", "interrupt", "poll")):
        rt.wait = mode                             # while the serve thread runs
        assert rt.wait == mode
        assert hof_ol.mixer.mix(1, 2, 3 + i, True) == 4 + i          # Python -> hardware
        hof_ol.mixer.store(100 + i)                # hardware -> Python (host.log) -> reply
        assert logs[-1] == 100 + i
        assert hof_ol.mapper.apply(lambda x: 3 * x, i) == 9 * i + 1  # two calls into Python
    with pytest.raises(ValueError, match="use one of sleep, poll, yield, interrupt"):
        rt.wait = "spin"
    rt.wait = "sleep"


def test_only_a_runtime_in_interrupt_mode_enables_its_bit(hof_ol):
    # the interrupt is the OR of the pending bits that are enabled (docs/architecture.md
    # section 2.3): a runtime in another mode, whose bit every reply sets, holds no line
    rt = hof_ol.runtime()
    rt.wait = "sleep"
    backend = rt.backend
    irq = backend.linked.irq
    bit = 1 << irq.bit("host")

    def enabled() -> int:
        return int(backend.pl_mmio.read(irq.enable_set_address - backend.pl_base))

    assert enabled() & bit == 0
    assert hof_ol.mixer.mix(1, 2, 3, True) == 4              # the reply sets the pending bit
    assert backend.pending() & bit and enabled() & bit == 0
    rt.wait = "interrupt"
    assert enabled() & bit
    assert hof_ol.mixer.mix(1, 2, 4, True) == 5
    rt.wait = "poll"                                          # leaving: disabled and cleared
    assert enabled() & bit == 0 and backend.pending() & bit == 0
    rt.wait = "sleep"


def test_interrupt_mode_loses_no_trigger(hof_ol, monkeypatch):
    # no fallback sweep: a lost interrupt would leave a call waiting until its timeout
    monkeypatch.setattr(board, "IRQ_WAIT_S", 30.0)
    rt = hof_ol.runtime()
    rt.wait = "interrupt"
    rt.timeout = 20.0
    logs: list[int] = []
    hof_ol.export("log", logs.append)
    rng = random.Random(16)
    want = []
    hub = rt.backend._hub
    fired = hub.generation
    for i in range(60):
        v = rng.randrange(1 << 32)
        want.append(v)
        hof_ol.mixer.store(v)                      # hardware calls host.log, then replies
        if rng.random() < 0.3:
            x = rng.randrange(-1000, 1000)
            assert hof_ol.mapper.apply(lambda y: y + 7, x) == x + 15
        if rng.random() < 0.5:
            time.sleep(rng.random() * 2e-3)         # a gap, or none: back to back
    assert logs == want
    assert hub.generation > fired                  # the interrupt did the waking
    rt.wait = "sleep"


def test_interrupt_mode_idles_without_cpu(hof_ol):
    rt = hof_ol.runtime()
    hof_ol.export("neg", lambda x: -x)
    rt.wait = "interrupt"
    assert hof_ol.mapper.apply(lambda x: x, 1) == 2       # serving, and warmed up
    time.sleep(0.3)
    t0, c0 = time.monotonic(), time.process_time()
    time.sleep(1.0)
    cpu = time.process_time() - c0
    wall = time.monotonic() - t0
    # a polling runtime would use most of a core; the interrupt-mode one sleeps (its
    # threads wake about every 0.1 s to check the overlay)
    assert cpu < 0.1 * wall, f"{cpu:.3f} s of CPU in {wall:.3f} s idle"
    rt.wait = "sleep"


def test_yaml_wait_is_the_default(tmp_path):
    text = HOF_YAML.read_text().replace("  host:\n    kind: python\n",
                                        "  host:\n    kind: python\n    wait: interrupt\n")
    assert "wait: interrupt" in text
    yaml = tmp_path / "system.yaml"
    yaml.write_text(text)
    for sub in ("rtl",):
        (tmp_path / sub).symlink_to(HOF_YAML.parent / sub)
    ol = ppq.load(yaml, outdir=tmp_path / "out")
    try:
        rt = ol.runtime()
        assert rt.wait == "interrupt"
        assert ol.mixer.mix(-5, 7, 100, False) == 93
    finally:
        ol.free()


def test_no_interrupt_without_the_block(tmp_path):
    # the loopback fixture stands in for a top without an interrupt output
    ol = ppq.PushPushOverlay(str(write_loop_overlay(tmp_path)))
    try:
        assert "system_top_0/irq" not in ol.interrupt_pins
        rt = ol.runtime()
        with pytest.raises(ValueError, match="no interrupt pin system_top_0/irq"):
            rt.wait = "interrupt"
        assert rt.wait == "sleep"
    finally:
        ol.free()
