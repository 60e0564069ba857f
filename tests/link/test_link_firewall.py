"""The memory firewall (``firewall:``, issue 46) from YAML to the linked model, the system
map and the system top: its register page's placement, the refusals of the linker (nothing to
guard; riscv callers of buffer functions, which cannot reach the table), the C
runtime's constants and proxies (its share of the table, the engines' cep slots), the
loader's errors, and the engines' order the runtime assumes (the top's buffer interconnect)."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_link import link_errors, write  # this folder's helpers (pytest puts it on sys.path)

from pushpush.codegen.fabric import core_dependencies, system_buffers
from pushpush.codegen.top_model import top_model
from pushpush.errors import SpecError
from pushpush.link import FirewallBlock, LinkedSystem, link
from pushpush.runtime.firewall import engine_order
from pushpush.spec import load_system
from pushpush.sysmap import from_dict, to_dict

BUFS = """\
system: t
{opt}components:
  hw:
    kind: rtl
    module: buf_core
    sources: [buf_core.v]
    exports:
      scale: "(src: in u32[], dst: out u32[], k: u32) -> u32"
      add: "(a: i32, b: i32) -> i32"
  hw2:
    kind: rtl
    module: buf_core2
    sources: [buf_core2.v]
    exports:
      widen: "(src: in u8[], dst: out i16[]) -> u32"
  host:
    kind: {kind}
    imports: [hw.scale, hw.add, hw2.widen]
"""


def linked(tmp_path: Path, opt: str, kind: str = "python") -> LinkedSystem:
    return link(load_system(write(tmp_path, BUFS.format(opt=opt, kind=kind))))


def test_off_by_default(tmp_path: Path) -> None:
    s = linked(tmp_path, "")
    assert s.firewall is None and top_model(s).firewall is None
    assert "mem_firewall" not in core_dependencies(s)


@pytest.mark.parametrize("opt,entries", [("firewall: true\n", 8), ("firewall: {entries: 3}\n", 3)])
def test_page_after_the_windows_and_the_interrupt_block(tmp_path: Path, opt: str, entries: int) -> None:
    s = linked(tmp_path, opt)
    assert s.irq is not None and s.irq.base == 0x43C02000
    assert s.firewall == FirewallBlock(0x43C03000, entries)
    assert from_dict(to_dict(s)).firewall == s.firewall
    m = top_model(s)
    assert m.firewall is not None and m.slaves[m.firewall.slave].name == "firewall"
    # only the ARM reaches the firewall's registers
    assert [i for i, r in enumerate(m.reach) if m.firewall.slave in r] == [0]
    # the engine index sits above the engines' own ID bit; 4 engines: 2 bits
    assert (m.firewall.tag_lsb, m.firewall.tag_bits) == (1, 2)
    assert "mem_firewall" in core_dependencies(s)


def test_engine_order_is_the_tops(tmp_path: Path) -> None:
    s = linked(tmp_path, "firewall: true\n")
    assert engine_order(s) == [(c.name, b.export, b.param) for c, b in system_buffers(s)]
    assert engine_order(s) == [("hw", "scale", "src"), ("hw", "scale", "dst"),
                               ("hw2", "widen", "src"), ("hw2", "widen", "dst")]


def test_refused_when_it_guards_nothing(tmp_path: Path) -> None:
    """No buffer parameter and no PL write into a software window (no software component):
    nothing to guard."""
    errs = link_errors(tmp_path, "system: t\nfirewall: true\ncomponents:\n"
                                 "  r: {kind: rtl, module: r, sources: [r.v], exports: {f: '(a: i32) -> i32'}}\n")
    assert len(errs) == 1 and "nothing to guard" in errs[0] and "remove 'firewall:'" in errs[0]
    assert errs[0].startswith(str(tmp_path / "system.yaml") + ":1:")


def test_refused_with_riscv_callers_of_buffer_functions(tmp_path: Path) -> None:
    (tmp_path / "host.c").write_text("")
    text = BUFS.format(opt="firewall: true\n", kind="riscv").replace(
        "    kind: riscv\n", "    kind: riscv\n    sources: [host.c]\n")
    errs = link_errors(tmp_path, text)
    assert len(errs) == 1 and "riscv component(s) host call functions with buffer parameters" in errs[0]
    assert "only GP0 reaches its register page" in errs[0] and "from a python or c component" in errs[0]


def test_c_callers_get_their_share_and_the_engines(tmp_path: Path) -> None:
    """A C caller links; its generated code attaches the firewall with its share of the
    entries (split with the python component as the Python runtime splits them) and opens a
    range per buffer argument of its imports and function values, with each cep slot's first
    engine as the top numbers them."""
    from pushpush.codegen.c import render_c
    text = BUFS.format(opt="firewall: {entries: 5}\n", kind="c") + "  py:\n    kind: python\n"
    s = link(load_system(write(tmp_path, text)))
    assert s.firewall is not None
    assert s.firewall.share(["host", "py"], "host") == range(0, 2)
    assert s.firewall.share(["host", "py"], "py") == range(2, 5)
    files = render_c(s)
    h, c = files["c/host_pp.h"], files["c/host_pp.c"]
    assert f"#define HOST_FW_BASE 0x{s.firewall.base:08X}u" in h
    assert "#define HOST_FW_FIRST 0u" in h and "#define HOST_FW_COUNT 2u" in h
    assert "#define HOST_FW_ENGINES 4u" in h and '#include "pp_firewall.h"' in h
    scale = s.component("hw").slots[s.component("hw").exports[0].static_slots[0]].address
    widen = s.component("hw2").slots[s.component("hw2").exports[0].static_slots[0]].address
    assert f"{{0x{scale:08X}u, 0u, 2u}}, /* hw.scale */" in c
    assert f"{{0x{widen:08X}u, 2u, 2u}}, /* hw2.widen */" in c
    assert "pp_fw_arg_of(src, 1u, 0), pp_fw_arg_of(dst, 2u, 1)" in c     # u8 in, i16 out
    assert c.count("pp_fw_call_site(") == 2 and "pp_call(rt, 1u" in c  # hw.add: no buffers: the fast path
    assert "pp_fw_attach(rt, &host_fw" in c
    from pushpush.codegen.c_map_header import render_c_header
    m = " ".join(render_c_header(s).split())
    assert f"T_FIREWALL_BASE 0x{s.firewall.base:08X}u" in m and "T_FIREWALL_ENTRIES 5u" in m
    assert "T_HOST_FIREWALL_FIRST 0u" in m and "T_HOST_FIREWALL_COUNT 2u" in m
    assert "T_PY_FIREWALL_FIRST 2u" in m and "T_PY_FIREWALL_COUNT 3u" in m
    # without firewall: nothing of it
    plain = render_c(link(load_system(write(tmp_path, BUFS.format(opt="", kind="c")))))
    assert "pp_fw" not in plain["c/host_pp.c"] + plain["c/host_pp.h"]


def test_rounded_out_to_the_engines_beats(tmp_path: Path) -> None:
    from pushpush.codegen.fabric import BUF_DATA_WIDTH
    assert FirewallBlock.BEAT_BYTES == BUF_DATA_WIDTH // 8
    c_header = (Path(__file__).resolve().parents[2] / "c" / "runtime" / "pp_firewall.h").read_text()
    assert f"#define PP_FW_BEAT_BYTES {FirewallBlock.BEAT_BYTES}u" in c_header
    fb = FirewallBlock(0x43C03000, 8)
    assert fb.rounded(0x1000_0001, 77) == (0x1000_0000, 0x1000_004F)
    assert fb.rounded(0x1000_0000, 8) == (0x1000_0000, 0x1000_0007)


@pytest.mark.parametrize("value,message", [
    ("{entries: 49}", "at most 48"),
    ("{entries: 0}", "firewall entries"),
    ("yes please", "firewall must be true, false or a mapping"),
    ("{depth: 4}", "depth"),
])
def test_loader_errors(tmp_path: Path, value: str, message: str) -> None:
    with pytest.raises(SpecError) as info:
        load_system(write(tmp_path, BUFS.format(opt=f"firewall: {value}\n", kind="python")))
    assert message in str(info.value), str(info.value)


def test_the_block_designs_address_block_holds_the_page(tmp_path: Path) -> None:
    from pushpush.codegen.vivado import pl_address_block
    s = linked(tmp_path, "firewall: true\n")
    base, size = pl_address_block(s)
    assert s.firewall is not None and base <= s.firewall.base and s.firewall.base + 0x1000 <= base + size
