"""The linker's placement of the PL trace buffer's page (``trace:``) and the pulse events
it watches (issue 35: the mutation run found these paths of pushpush/link/ untested at link
level; tests/trace runs the buffer itself)."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_link import link_errors, write  # this folder's helpers (pytest puts it on sys.path)

from pushpush.link import LinkedSystem, link
from pushpush.link.model import TraceBlock
from pushpush.spec import load_system


def linked(tmp_path: Path, text: str) -> LinkedSystem:
    return link(load_system(write(tmp_path, text)))


def rtl(name: str, extra: str = "") -> str:
    return f"  {name}: {{kind: rtl, module: {name}, sources: [{name}.v]{extra}}}\n"


def test_no_trace_no_page(tmp_path: Path) -> None:
    s = linked(tmp_path, "system: t\ncomponents:\n" + rtl("r"))
    assert s.trace is None


def test_trace_page_after_the_windows_and_the_interrupt_block(tmp_path: Path) -> None:
    s = linked(tmp_path, "system: t\ntrace: {depth: 64}\ncomponents:\n" + rtl("r")
               + "  host: {kind: python}\n")
    assert s.component("r").base == 0x43C00000 and s.irq is not None and s.irq.base == 0x43C01000
    assert s.trace == TraceBlock(0x43C02000, 64) and s.trace.size == 0x1000


def test_a_deep_trace_ring_takes_a_size_aligned_page(tmp_path: Path) -> None:
    s = linked(tmp_path, "system: t\ntrace: {depth: 1024}\ncomponents:\n" + rtl("r")
               + "  host: {kind: python}\n")
    assert s.trace is not None and s.trace.size == 0x8000
    assert s.trace.base == 0x43C08000       # 0x43C02000 rounded up to 32 KiB


def test_trace_page_after_the_ddr_windows_register_block(tmp_path: Path) -> None:
    s = linked(tmp_path, "system: t\nsoftware_windows: ddr\ntrace: {depth: 64}\ncomponents:\n"
               + rtl("r") + "  host: {kind: python}\n")
    assert s.ps_window_register == 0x43C01000 and s.irq is not None and s.irq.base == 0x43C02000
    assert s.trace == TraceBlock(0x43C03000, 64)


def test_trace_page_fills_the_first_gap_that_holds_it(tmp_path: Path) -> None:
    # a at 0x43C04000 (size-aligned), b in the gap before it at 0x43C01000, the interrupt
    # block next to b; the trace page is the gap's last free page, before a
    s = linked(tmp_path, "system: t\ntrace: {depth: 64}\nregions: {pl: {base: 0x43C01000, size: 0x10000}}\n"
               "components:\n" + rtl("a", ", window: 0x4000") + rtl("b") + "  host: {kind: python}\n")
    assert [s.component(n).base for n in ("a", "b")] == [0x43C04000, 0x43C01000]
    assert s.irq is not None and s.irq.base == 0x43C02000
    assert s.trace == TraceBlock(0x43C03000, 64)


def test_trace_without_an_rtl_component_is_refused(tmp_path: Path) -> None:
    assert link_errors(tmp_path, "system: t\ntrace: true\ncomponents:\n  host: {kind: python}\n") == [
        f"{tmp_path / 'system.yaml'}:1:1: trace: the PL trace buffer lives in the system top, which "
        "only a system with an rtl component has; remove 'trace:' or add an rtl component"]


def test_trace_without_a_free_page_is_refused(tmp_path: Path) -> None:
    assert link_errors(tmp_path, "system: t\ntrace: {depth: 64}\nregions: {pl: {base: 0x43C00000, size: 0x2000}}\n"
                  "components:\n" + rtl("r") + "  host: {kind: python}\n") == [
        f"{tmp_path / 'system.yaml'}:1:1: trace: no free 0x1000-byte page for the trace buffer in region "
        "pl (0x43c00000..0x43c02000); use a smaller trace depth or a larger regions.pl"]


@pytest.mark.parametrize("n,ok", [(62, True), (63, False)])
def test_trace_needs_a_free_interconnect_port(tmp_path: Path, n: int, ok: bool) -> None:
    # n rtl windows, the control port and the trace buffer's: 64 ports at most
    text = "system: t\ntrace: {depth: 64}\ncomponents:\n" + "".join(rtl(f"r{i}") for i in range(n))
    if ok:
        s = linked(tmp_path, text)
        assert s.trace is not None and s.trace.base == 0x43C00000 + n * 0x1000
    else:
        assert link_errors(tmp_path, text) == [
            f"{tmp_path / 'system.yaml'}:1:1: trace: the interconnect has no free port for the trace "
            "buffer (64 at most); remove 'trace:' or merge components"]


def test_trace_refusals_point_at_the_systems_own_line(tmp_path: Path) -> None:
    # the message is placed at the 'system:' line (here after two comment lines), not 1:1
    assert link_errors(tmp_path, "# a comment\n# another\nsystem: t\ntrace: true\ncomponents:\n"
                  "  host: {kind: python}\n")[0].startswith(f"{tmp_path / 'system.yaml'}:3:1: trace: ")


@pytest.mark.parametrize("ddr", [False, True])
def test_the_port_count_includes_the_interrupt_and_register_blocks(tmp_path: Path, ddr: bool) -> None:
    # 64 ports: the rtl windows, the control port, the interrupt block (a python component),
    # with ddr windows the register block, and the trace buffer
    most = 61 if not ddr else 60
    head = "system: t\ntrace: {depth: 64}\n" + ("software_windows: ddr\n" if ddr else "")
    head += "regions: {pl: {base: 0x43C00000, size: 0x100000}}\ncomponents:\n  host: {kind: python}\n"
    s = linked(tmp_path, head + "".join(rtl(f"r{i}") for i in range(most)))
    assert s.irq is not None and s.trace is not None
    assert (s.ps_window_register is not None) == ddr
    assert link_errors(tmp_path, head + "".join(rtl(f"r{i}") for i in range(most + 1))) == [
        f"{tmp_path / 'system.yaml'}:1:1: trace: the interconnect has no free port for the trace "
        "buffer (64 at most); remove 'trace:' or merge components"]


def test_trace_page_below_the_windows_is_size_aligned(tmp_path: Path) -> None:
    # region pl starts at 0x43C01000; a 64 KiB window sits at 0x43C10000; the 32 KiB trace
    # page (depth 1024) goes below it, at the first 32 KiB boundary: 0x43C08000
    s = linked(tmp_path, "system: t\ntrace: {depth: 1024}\nregions: {pl: {base: 0x43C01000, size: 0x20000}}\n"
               "components:\n" + rtl("a", ", window: 0x10000"))
    assert s.component("a").base == 0x43C10000
    assert s.trace == TraceBlock(0x43C08000, 1024) and isinstance(s.trace.base, int)


def test_trace_page_may_end_exactly_at_the_regions_end(tmp_path: Path) -> None:
    s = linked(tmp_path, "system: t\ntrace: {depth: 64}\nregions: {pl: {base: 0x43C00000, size: 0x3000}}\n"
               "components:\n" + rtl("r") + "  host: {kind: python}\n")
    assert s.trace == TraceBlock(0x43C02000, 64) and s.trace.base + s.trace.size == 0x43C03000


def test_trace_pulses_of_each_kind_of_component() -> None:
    from pushpush.link.model import trace_pulses

    root = Path(__file__).resolve().parents[2] / "examples"
    pp = link(load_system(root / "pingpong" / "system.yaml"))
    assert trace_pulses(pp.component("caller")) == (
        ("take", "run"), ("result", "run"), ("call", "callee_f"), ("reply", "callee_f"))
    assert trace_pulses(pp.component("callee")) == (("take", "f"), ("result", "f"))
    assert trace_pulses(pp.component("host")) == ()
    fir = link(load_system(root / "audio_fir" / "system.yaml")).component("fir")
    assert trace_pulses(fir) == (
        ("take", "fir"), ("result", "fir"), ("call", "fir_coeff"), ("reply", "fir_coeff"),
        ("call", "fir_src"), ("reply", "fir_src"), ("call", "fir_sink"), ("reply", "fir_sink"))
    rv = link(load_system(root / "riscv_pingpong" / "system.yaml"))
    assert [trace_pulses(c) for c in rv.components if c.kind == "riscv"] == [()]
