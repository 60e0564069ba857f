"""The C layer for the ZynqMP boards (ZCU104, KV260: aarch64, Ubuntu 22.04): the generated C
of a system linked for each board, cross-compiled with ``aarch64-linux-gnu-gcc`` (Debian
``gcc-aarch64-linux-gnu``, ``libc6-dev-arm64-cross``; bootstrap.sh installs them) as strictly
as on the host (-std=c99 -Wall -Wextra -Werror -pedantic), the Linux platform layer linked
into an aarch64 executable. Nothing runs: there is no aarch64 machine or emulator here; the
ELF header says the machine (EM_AARCH64, 183). The armv7 build of the PYNQ-Z1/Z2 is
tests/c/test_c_runtime.py::test_arm_cross_compile_linux_layer."""

from __future__ import annotations

import shutil
import struct
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tests" / "c"))
from cbuild import DATA, SRC, compile_c, generate_c  # noqa: E402

from pushpush.link import load  # noqa: E402

CC = "aarch64-linux-gnu-gcc"
EM_AARCH64 = 183

pytestmark = pytest.mark.skipif(shutil.which(CC) is None,
                                reason=f"{CC} is not installed (Debian gcc-aarch64-linux-gnu; "
                                       "./bootstrap.sh setup installs it)")


def _machine(path: Path) -> int:
    head = path.read_bytes()[:20]
    assert head[:4] == b"\x7fELF" and head[4] == 2, "not a 64-bit ELF"
    return struct.unpack_from("<H", head, 18)[0]


@pytest.mark.parametrize("name", ["zcu104", "kv260"])
def test_the_linux_layer_cross_compiles_for_each_zynqmp_board(name, tmp_path):
    linked = load(DATA / "cc.yaml", board=name)
    cdir = generate_c(linked, tmp_path / "gen")
    for src in ("pp_runtime.c", "pp_platform_linux.c", "cli_pp.c", "srv_pp.c"):
        obj = compile_c(cdir, [src], tmp_path / (src + ".o"), cc=CC, link_exe=False, flags=["-O2"])
        assert _machine(obj) == EM_AARCH64
    exe = compile_c(cdir, [SRC / "cc_procs.c", SRC / "srv_scalars.c", "srv_pp.c", "cli_pp.c",
                           "pp_runtime.c", "pp_platform_linux.c"], tmp_path / "procs", cc=CC,
                    flags=["-O2"])
    assert _machine(exe) == EM_AARCH64
    for src in ("pp_runtime.c", "pp_platform_baremetal.c"):   # the Cortex-A53 bare-metal build
        obj = compile_c(cdir, [src], tmp_path / (src + ".bm.o"), cc=CC, link_exe=False,
                        flags=["-O2", "-ffreestanding", "-nostdlib", "-mcpu=cortex-a53"])
        assert _machine(obj) == EM_AARCH64


def test_the_generated_map_has_the_boards_addresses(tmp_path):
    """A C component's map on a ZCU104 names the rtl windows behind M_AXI_HPM0_FPD."""
    linked = load(REPO / "examples" / "pingpong" / "c" / "system.yaml", board="zcu104")
    cdir = generate_c(linked, tmp_path / "gen")
    text = "\n".join(p.read_text() for p in cdir.glob("*.h"))
    callee = next(c for c in linked.components if c.name == "callee" or c.kind == "rtl")
    assert 0xA000_0000 <= callee.base < 0xB000_0000
    assert f"0x{callee.base:08X}" in text.upper().replace("0X", "0x")
