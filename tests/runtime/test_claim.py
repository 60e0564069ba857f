"""The claim of a software component (pushpush.runtime.claim; docs/architecture.md §2.2,
"Restarts and owners"): one owner at a time in this process or another, the owner named in
the refusal, released by release(), by exit and by kill -9, and the caller's memory kept
across owners; a probe never gets in a claimer's way."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap

import pytest

from pushpush.runtime.claim import (RECORD_OFFSET, RECORD_VALID, Claim, ClaimRefused, claim_path,
                                    forget, probe)

BASE = 0xFFFC_1000


@pytest.fixture
def key(tmp_path, monkeypatch):
    monkeypatch.setenv("PUSHPUSH_CLAIM_DIR", str(tmp_path / "claims"))
    f = tmp_path / "ocm"
    f.write_bytes(bytes(4096))
    return str(f)


def holder(key: str, *, then: str = "") -> subprocess.Popen:
    """Another process that claims the window and says HELD, then waits on stdin."""
    code = textwrap.dedent(f"""
        import sys
        from pushpush.runtime.claim import Claim
        c = Claim.acquire({key!r}, {BASE}, "host", "python", nimports=2)
        {then}
        print("HELD", flush=True)
        sys.stdin.readline()
    """)
    p = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         text=True, env=dict(os.environ))
    assert p.stdout.readline().strip() == "HELD"
    return p


def test_one_owner_in_this_process(key):
    c = Claim.acquire(key, BASE, "host", nimports=1)
    with pytest.raises(ClaimRefused) as e:
        Claim.acquire(key, BASE, "host")
    msg = str(e.value)
    assert f"component 'host' already has a live runtime: PID {os.getpid()} (python runtime" in msg
    assert "since 20" in msg and "ol.free()" in msg and f"kill {os.getpid()}" in msg
    assert e.value.owner.pid == os.getpid() and e.value.path == str(claim_path(key, BASE))
    other = Claim.acquire(key, BASE + 0x1000, "other")     # another window: its own claim
    c.release()
    c.release()                                             # idempotent
    Claim.acquire(key, BASE, "host").release()              # free again
    other.release()


def test_another_process_and_release_by_exit_and_by_kill(key):
    p = holder(key)
    try:
        assert probe(key, BASE)[0] is True
        with pytest.raises(ClaimRefused, match=rf"PID {p.pid} \(python runtime"):
            Claim.acquire(key, BASE, "host")
    finally:
        p.communicate("\n", timeout=60)                     # exits: the kernel releases it
    assert probe(key, BASE)[0] is False and probe(key, BASE)[1].pid == p.pid
    Claim.acquire(key, BASE, "host").release()
    p = holder(key)
    p.send_signal(signal.SIGKILL)                           # a crash releases it too
    p.wait(60)
    Claim.acquire(key, BASE, "host").release()


def test_the_callers_memory_outlives_its_owner(key):
    p = holder(key, then="c.record[1] = 0x81")
    p.send_signal(signal.SIGKILL)
    p.wait(60)
    c = Claim.acquire(key, BASE, "host", nimports=2)
    assert c.record[0] == 0 and c.record[1] == RECORD_VALID | 1
    c.release()
    raw = claim_path(key, BASE).read_bytes()
    assert raw[RECORD_OFFSET - 4:RECORD_OFFSET] == b"PPRS" and raw[RECORD_OFFSET + 1] == 0x81


def test_a_never_claimed_window_and_the_key(key, tmp_path):
    assert probe(key, BASE) == (None, None)
    other = tmp_path / "other-board"
    other.write_bytes(b"")
    c = Claim.acquire(key, BASE, "host")
    Claim.acquire(str(other), BASE, "host").release()      # another memory file: another board
    c.release()


def test_forget_removes_the_claims_nobody_holds(key):
    held = Claim.acquire(key, BASE, "host")
    Claim.acquire(key, BASE + 0x1000, "other").release()
    assert forget(key) == 1                                  # the held one stays
    assert claim_path(key, BASE).exists() and not claim_path(key, BASE + 0x1000).exists()
    held.release()
    assert forget(key) == 1 and probe(key, BASE) == (None, None)
