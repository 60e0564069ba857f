"""The simulated board delivers the ARM's writes into the PL as the board does: one 32-bit
single-beat AXI write per word, in order, the call's trigger word last (the burst form is an
option). Runs the generated ``hof`` system on Icarus through PYNQ.

The device hands a call's words to the simulator in one WRITE_WORDS request; the simulated
board's GP0 master (cores/sim_ps/pp_sim_gp0.v) turns it into one single-beat write per word,
in order, which tests/cores/test_sim_ps.py checks on the AXI bus."""

from __future__ import annotations

import os

import pytest

pytest.importorskip("pynq.pl_server")
os.environ.setdefault("PUSHPUSH_BOARD", "sim")

import pushpush.pynq as ppq  # noqa: E402
from pushpush.pynq.simulated.device import SimDevice  # noqa: E402

from pynq_systems import HOF_YAML  # noqa: E402


@pytest.fixture(scope="module")
def hof_ol(tmp_path_factory):
    ol = ppq.load(HOF_YAML, outdir=tmp_path_factory.mktemp("hof-words"))
    yield ol
    ol.free()


@pytest.fixture
def recorded(hof_ol, monkeypatch):
    """Every write the simulated device sends over the bridge into the PL."""
    dev = hof_ol.device
    assert isinstance(dev, SimDevice)
    writes = []
    real, real_words = dev.bridge.write, dev.bridge.write_words

    def write(address, data):
        writes.append((address, bytes(data)))
        return real(address, data)

    def write_words(address, data):
        for off in range(0, len(data), 4):
            writes.append((address + off, bytes(data[off:off + 4])))
        return real_words(address, data)

    monkeypatch.setattr(dev.bridge, "write", write)
    monkeypatch.setattr(dev.bridge, "write_words", write_words)
    return dev, writes


def test_default_is_the_boards_word_by_word_path(hof_ol, recorded):
    dev, writes = recorded
    assert dev.pl_writes == "words"
    assert hof_ol.mixer.mix(1, 2, 3, True) == 4
    assert writes, "the call did not reach the PL"
    assert all(len(d) == 4 for _, d in writes), writes
    addrs = [a for a, _ in writes]
    # one call: consecutive words of one cep slot, ascending, the trigger (non-zero) last
    assert addrs == list(range(addrs[0], addrs[0] + 4 * len(addrs), 4))
    assert len(addrs) == 6            # i32, i32, i64 (2 words), bool; then the trigger
    # the trigger word (last) names the caller's rep slot in the ARM's window
    trigger = int.from_bytes(writes[-1][1], "little")
    host = hof_ol.runtime().component
    assert host.base <= trigger & 0xFFFFFFFC < host.base + host.size


def test_burst_remains_an_option(hof_ol, recorded, monkeypatch):
    dev, writes = recorded
    monkeypatch.setattr(dev, "pl_writes", "burst")
    assert hof_ol.mixer.mix(-5, 7, -(1 << 40), False) == -(1 << 40) - 7
    assert len(writes) == 1 and len(writes[0][1]) > 4


def test_an_unknown_mode_is_refused(monkeypatch):
    monkeypatch.setenv("PUSHPUSH_SIM_PL_WRITES", "bytes")
    with pytest.raises(ValueError, match="PUSHPUSH_SIM_PL_WRITES='bytes': use one of words, burst"):
        SimDevice()
