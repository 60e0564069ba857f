"""A C component using RIFFA-style channels (``pp_chnl_send`` / ``pp_chnl_recv``, docs/c.md
"Channels") of examples/channels's core on the simulated board: a loopback with offset and
last, grouped sends summed by the accumulator, a receive with nothing to come (PP_ETIMEOUT
with 0 words), a core that stops reading (PP_ETIMEOUT, 3 words taken), and the component
keeps serving. Compiled with -Wall -Wextra -Werror -pedantic, run under ASan + UBSan."""

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


def test_c_channels(tmp_path):
    out = tmp_path / "cchan"
    bit = ppq.write_sim_overlay(load(DATA / "cchan.yaml"), out, simulator="icarus")
    ol = ppq.load(str(bit))
    try:
        exe = compile_c(out / "c", [SRC / "cchan_main.c", "cc_pp.c", *RUNTIME], out / "cchan",
                        flags=SANITIZE)
        n = 301
        src, dst = pynq.allocate(n, np.uint32), pynq.allocate(n, np.uint32)
        asrc, adst = pynq.allocate(3, np.uint32), pynq.allocate(4, np.uint32)
        src[:] = np.arange(n, dtype=np.uint32) * np.uint32(2654435761)
        dst[:] = 0
        asrc[:] = [5, 6, 7]
        adst[:] = 0xEEEE
        args = [hex(int(x)) for x in (src.physical_address, dst.physical_address, n,
                                      asrc.physical_address, adst.physical_address)]
        with CAttach(ol.device) as att:
            proc = att.popen([str(exe), *args])
            stdout, stderr = proc.communicate(timeout=600)
        assert proc.returncode == 0 and "ALL OK" in stdout, stdout + stderr
        assert f"loop {n} {n} 9 1\n" in stdout
        assert np.array_equal(dst, src)
        assert "acc 2 1\n" in stdout and adst[:2].tolist() == [18, 3]
        assert "acc-empty -100 0\n" in stdout
        assert "stuck -100 3 " in stdout
        assert "add 42\n" in stdout
    finally:
        ol.free()
