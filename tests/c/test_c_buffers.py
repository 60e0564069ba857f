"""A C component passing buffers (``pp_buf``: physical address, length) to an rtl export
on the simulated board (tests/c/data/cbuf.yaml: examples/bufargs's module): the data
arrives, the out buffer is written before the result, a module that never reads its
stream fails the call with PP_EBUFFER and the status naming the parameter and the cause,
and the component keeps serving. The buffers are ``pynq.allocate`` memory of this process
(the C runtime has no allocator of its own: docs/c.md). Compiled with -Wall -Wextra
-Werror -pedantic, run under ASan + UBSan."""

from __future__ import annotations

import os

import numpy as np
import pytest

pytest.importorskip("pynq.pl_server")
os.environ.setdefault("PUSHPUSH_BOARD", "sim")

import pynq  # noqa: E402

import pushpush.pynq as ppq  # noqa: E402
from cbuild import DATA, SANITIZE, SRC, compile_c  # noqa: E402
from pushpush.link import load  # noqa: E402
from pushpush.pynq.simulated.c_programs import CAttach  # noqa: E402

RUNTIME = ["pp_runtime.c", "pp_platform_linux.c", "pp_platform_simboard.c"]


def test_c_passes_buffers(tmp_path):
    out = tmp_path / "cbuf"
    bit = ppq.write_sim_overlay(load(DATA / "cbuf.yaml"), out, simulator="icarus",
                                parameters={"BUFFER_TIMEOUT": 3000})
    ol = ppq.load(str(bit))
    try:
        exe = compile_c(out / "c", [SRC / "cbuf_main.c", "cc_pp.c", *RUNTIME], out / "cbuf",
                        flags=SANITIZE)
        n, m = 300, 77
        src, dst = pynq.allocate(n, np.uint32), pynq.allocate(n, np.uint32)
        bsrc, bdst = pynq.allocate(m + 1, np.uint8), pynq.allocate(m + 1, np.int16)
        src[:] = np.arange(n, dtype=np.uint32) * np.uint32(2654435761)
        dst[:] = 0
        bsrc[:] = np.arange(m + 1) % 256
        bdst[:] = 999
        args = [hex(int(x)) for x in (src.physical_address, dst.physical_address, n, 5,
                                      bsrc[1:].physical_address, bdst[1:].physical_address, m)]
        with CAttach(ol.device) as att:
            proc = att.popen([str(exe), *args])
            stdout, stderr = proc.communicate(timeout=600)
        assert proc.returncode == 0 and "ALL OK" in stdout, stdout + stderr
        assert f"scale {n}\n" in stdout and f"widen {m}\n" in stdout and "add 42\n" in stdout
        assert np.array_equal(dst, src * np.uint32(5))
        assert np.array_equal(bdst[1:], bsrc[1:].astype(np.int16) - 128) and bdst[0] == 999
        # stuck: PP_EBUFFER (-6), status 0x80010006: parameter 0, cause 1 (timeout)
        line = next(x for x in stdout.splitlines() if x.startswith("stuck "))
        assert line.split()[1:3] == ["-6", "0x80010006"], line
    finally:
        ol.free()
