"""The loader's smaller decisions, each as the user sees it: a riscv component's memory,
an rtl component's DMA and channels, the address regions and the trace ring, with the
loaded values and the exact place and fix of each error."""

from __future__ import annotations

from pathlib import Path

import pytest

from test_spec import errors, write  # this folder's helpers (pytest puts it on sys.path)

from pushpush.errors import SpecError
from pushpush.spec import load_system, parse_system
from pushpush.spec.model import ChannelSpec, Dma

RISCV = """\
system: demo
components:
  callee:
    kind: riscv
    sources: [c/callee.c]
    memory: {memory}
    exports:
      f: "(x: i32) -> i32"
  host:
    kind: python
    imports: [callee.f]
"""

RTL = """\
system: demo
components:
  callee:
    kind: rtl
    module: callee_core
    sources: [rtl/callee_core.v]
{extra}
    exports:
      f: "(x: i32) -> i32"
  host:
    kind: python
    imports: [callee.f]
"""





def one_error(tmp_path: Path, text: str) -> str:
    errs = errors(tmp_path, text)
    assert len(errs) == 1, errs
    return errs[0]


def at(tmp_path: Path, line: int, col: int, message: str) -> str:
    return f"{tmp_path / 'system.yaml'}:{line}:{col}: {message}"


GOOD = RTL.format(extra="    window: 4096")  # line 7 holds the extra key; the system keys start at line 13


# --------------------------------------------------------------------------- riscv memory


@pytest.mark.parametrize("memory, size", [
    ("8KiB", 8192), ("8 KiB", 8192), ("'16 KiB '", 16384), ("4KiB", 4096), ("256KiB", 1 << 18),
    ("4096", 4096), ("0x40000", 1 << 18), ("0x4000", 16384),
])
def test_riscv_memory_is_loaded(tmp_path: Path, memory: str, size: int) -> None:
    comp = load_system(write(tmp_path, RISCV.format(memory=memory))).components[0]
    assert comp.memory == size
    assert (comp.memory_loc.line, comp.memory_loc.column) == (6, 13)


def test_riscv_memory_default(tmp_path: Path) -> None:
    text = RISCV.format(memory="x").replace("    memory: x\n", "")
    comp = load_system(write(tmp_path, text)).components[0]
    assert comp.memory == 16384 and comp.memory_loc is None


@pytest.mark.parametrize("memory", ["3000", "3KiB", "2KiB", "0KiB", "0", "512KiB", "2048", "0x80000", "12KiB"])
def test_riscv_memory_not_a_power_of_two_in_range(tmp_path: Path, memory: str) -> None:
    assert one_error(tmp_path, RISCV.format(memory=memory)) == at(
        tmp_path, 6, 13, f"memory of component 'callee' must be a power of two from 4KiB to 256KiB "
                         f"(bytes or e.g. 16KiB), not '{memory}'; e.g. memory: 16KiB")


def test_riscv_memory_not_a_number(tmp_path: Path) -> None:
    assert one_error(tmp_path, RISCV.format(memory="lots")) == at(
        tmp_path, 6, 13, "memory of component 'callee' must be an integer, not 'lots'; e.g. memory: 16KiB")
    assert one_error(tmp_path, RISCV.format(memory="[1]")) == at(
        tmp_path, 6, 13, "memory of component 'callee' must be an integer, not a list; e.g. memory: 16KiB")


# --------------------------------------------------------------------------- dma


@pytest.mark.parametrize("extra, dma", [
    ("    dma:", Dma()),
    ("    dma: {}", Dma()),
    ("    dma: {name: dma1, data_width: 64, max_burst: 32}", Dma("dma1", 64, 32)),
    ("    dma: {max_burst: 256}", Dma("axi_dma_0", 32, 256)),
])
def test_dma_is_loaded(tmp_path: Path, extra: str, dma: Dma) -> None:
    comp = load_system(write(tmp_path, RTL.format(extra=extra))).components[0]
    assert comp.dma == dma
    assert (comp.dma.name, comp.dma.data_width, comp.dma.max_burst) == (dma.name, dma.data_width, dma.max_burst)
    assert (comp.dma.loc.line, comp.dma.loc.column) == (7, 5)


def test_no_dma(tmp_path: Path) -> None:
    assert load_system(write(tmp_path, GOOD)).components[0].dma is None


@pytest.mark.parametrize("extra, line, col, message", [
    ("    dma: {data_width: 48}", 7, 23,
     "dma.data_width of component 'callee' must be one of 32, 64, not '48'; write one of them, e.g. 32"),
    ("    dma: {max_burst: 3}", 7, 22,
     "dma.max_burst of component 'callee' must be one of 2, 4, 8, 16, 32, 64, 128, 256, not '3'; "
     "did you mean '32'?"),
    ("    dma: {name: 1x}", 7, 17,
     "dma name of component 'callee' '1x' is not a valid name; use letters, digits and '_', not starting "
     "with a digit (e.g. '_1x')"),
    ("    dma: 3", 7, 10,
     "dma of component 'callee' must be a mapping (key: value lines), not '3'; write one 'key: value' per "
     "line (see examples/pingpong/system.yaml)"),
])
def test_dma_errors(tmp_path: Path, extra: str, line: int, col: int, message: str) -> None:
    assert one_error(tmp_path, RTL.format(extra=extra)) == at(tmp_path, line, col, message)


# --------------------------------------------------------------------------- channels


def _channels(tmp_path: Path, extra: str) -> tuple[list[tuple[str, int, int, int]], list[tuple[str, str, int]]]:
    comp = load_system(write(tmp_path, RTL.format(extra=extra))).components[0]
    chans = [(c.name, c.index, c.loc.line, c.loc.column) for c in comp.channels]
    exports = [(e.name, str(e.signature), e.dynamic_slots, e.loc.line) for e in comp.exports]
    return chans, exports


def test_channel_count(tmp_path: Path) -> None:
    chans, exports = _channels(tmp_path, "    channels: 2")
    assert chans == [("ch0", 0, 7, 15), ("ch1", 1, 7, 15)]
    names = [e[0] for e in exports]
    assert names == ["f", "ch0_rx", "ch0_tx", "ch1_rx", "ch1_tx"]
    comp = load_system(write(tmp_path, RTL.format(extra="    channels: 2"))).components[0]
    by = {e.name: e for e in comp.exports}
    assert by["ch0_rx"].signature != by["ch0_tx"].signature
    assert by["ch0_rx"].signature == by["ch1_rx"].signature and by["ch0_tx"].signature == by["ch1_tx"].signature
    assert by["ch0_rx"].dynamic_slots == by["f"].dynamic_slots == 1
    assert comp.channels[1] == ChannelSpec("ch1", 1)


def test_channel_names(tmp_path: Path) -> None:
    chans, exports = _channels(tmp_path, "    channels: [audio, video]")
    assert chans == [("audio", 0, 7, 16), ("video", 1, 7, 23)]
    assert [e[0] for e in exports] == ["f", "audio_rx", "audio_tx", "video_rx", "video_tx"]
    assert [e[3] for e in exports] == [9, 7, 7, 7, 7]


def test_at_most_twelve_channels(tmp_path: Path) -> None:
    assert len(_channels(tmp_path, "    channels: 12")[0]) == 12
    twelve = ", ".join("abcdefghijkl")
    assert [c[1] for c in _channels(tmp_path, f"    channels: [{twelve}]")[0]] == list(range(12))
    assert one_error(tmp_path, RTL.format(extra="    channels: 13")) == at(
        tmp_path, 7, 15, "component 'callee' has 13 channels; RIFFA's limit is 12: use at most 12 or split the "
                         "core into two components")
    assert one_error(tmp_path, RTL.format(extra=f"    channels: [{twelve}, m, n]")) == at(
        tmp_path, 7, 15, "component 'callee' has 14 channels; RIFFA's limit is 12: remove 2 or split the core "
                         "into two components")


@pytest.mark.parametrize("extra, col, message", [
    ("    channels: 0", 15, "channels of component 'callee' must be at least 1, not 0; e.g. channels: 2 or "
                           "channels: [audio, video]"),
    ("    channels: []", 15, "channels of component 'callee' is empty; give a count or names, e.g. channels: 2 "
                            "or channels: [audio, video]"),
    ("    channels: [a, b, a]", 22, "channel 'a' of component 'callee' is listed twice; give each channel its "
                                   "own name"),
    ("    channels: [1x, b]", 16, "a channel name of component 'callee' '1x' is not a valid name; use letters, "
                                 "digits and '_', not starting with a digit (e.g. '_1x')"),
])
def test_channel_errors(tmp_path: Path, extra: str, col: int, message: str) -> None:
    assert one_error(tmp_path, RTL.format(extra=extra)) == at(tmp_path, 7, col, message)


def test_channel_after_a_bad_name_keeps_its_number(tmp_path: Path) -> None:
    # the bad name is reported; a duplicate after it is reported too, at its own place
    assert errors(tmp_path, RTL.format(extra="    channels: [1x, b, b]")) == [
        at(tmp_path, 7, 16, "a channel name of component 'callee' '1x' is not a valid name; use letters, digits "
                            "and '_', not starting with a digit (e.g. '_1x')"),
        at(tmp_path, 7, 23, "channel 'b' of component 'callee' is listed twice; give each channel its own name"),
    ]


def test_channel_export_taken(tmp_path: Path) -> None:
    text = RTL.format(extra="    channels: [a, b]").replace('f: "(x', 'b_tx: "(x').replace("callee.f", "callee.b_tx")
    assert one_error(tmp_path, text) == at(
        tmp_path, 7, 19, "channel 'b' of component 'callee' needs the export 'b_tx', which the component exports "
                         "already; rename the channel or the export")
    text = RTL.format(extra="    channels: 1").replace('f: "(x', 'ch0_rx: "(x').replace("callee.f", "callee.ch0_rx")
    assert one_error(tmp_path, text) == at(
        tmp_path, 7, 15, "channel 'ch0' of component 'callee' needs the export 'ch0_rx', which the component "
                         "exports already; rename the channel or the export")


# --------------------------------------------------------------------------- trace


@pytest.mark.parametrize("trace, depth", [
    ("trace: true", 1024), ("trace: false", 0), ("trace: {}", 1024), ("trace: {depth: 16}", 16),
    ("trace: {depth: 131072}", 131072), ("trace: {depth: 1048576}", 1048576),
])
def test_trace_depth(tmp_path: Path, trace: str, depth: int) -> None:
    assert load_system(write(tmp_path, GOOD + trace + "\n")).trace_depth == depth


def test_no_trace(tmp_path: Path) -> None:
    assert load_system(write(tmp_path, GOOD)).trace_depth == 0


@pytest.mark.parametrize("depth, fix", [(24, "use 16 or 32"), (48, "use 32 or 64"), (1000, "use 512 or 1024"),
                                        (17, "use 16 or 32")])
def test_trace_depth_not_a_power_of_two(tmp_path: Path, depth: int, fix: str) -> None:
    assert one_error(tmp_path, GOOD + f"trace: {{depth: {depth}}}\n") == at(
        tmp_path, 13, 16, f"trace depth must be a power of two (records in the ring), not {depth}; {fix}")


def test_trace_errors(tmp_path: Path) -> None:
    assert one_error(tmp_path, GOOD + "trace: 3\n") == at(
        tmp_path, 13, 8, "trace must be true, false or a mapping such as {depth: 4096}, not '3'; e.g. trace: true")
    assert one_error(tmp_path, GOOD + "trace: {depth: 8}\n") == at(
        tmp_path, 13, 16, "trace depth must be at least 16, not 8; e.g. depth: 4096")
    assert one_error(tmp_path, GOOD + "trace: {dept: 4}\n") == at(
        tmp_path, 13, 9, "unknown key 'dept' in 'trace'; did you mean 'depth'?")


# --------------------------------------------------------------------------- regions


def _regions(tmp_path: Path, text: str) -> tuple[tuple[int, int], tuple[int, int], dict[str, tuple[int, int]]]:
    spec = load_system(write(tmp_path, GOOD + text + "\n"))
    return ((spec.pl.base, spec.pl.size), (spec.ps.base, spec.ps.size),
            {k: (v.line, v.column) for k, v in spec.region_locs.items()})


@pytest.mark.parametrize("text, pl, ps, locs", [
    ("regions:\n  pl: {base: 0x7FFFF000, size: 0x1000}", (0x7FFFF000, 0x1000), (0xFFFC0000, 0x10000),
     {"pl": (14, 3), "pl.base": (14, 14), "pl.size": (14, 32)}),
    ("regions:\n  pl: {base: 0x40000000, size: 0x1000}", (0x40000000, 0x1000), (0xFFFC0000, 0x10000),
     {"pl": (14, 3), "pl.base": (14, 14), "pl.size": (14, 32)}),
    ("regions:\n  ps: {base: 0xFFFFF000, size: 0x1000}", (0x43C00000, 0x400000), (0xFFFFF000, 0x1000),
     {"ps": (14, 3), "ps.base": (14, 14), "ps.size": (14, 32)}),
    ("regions:\n  ps: {base: 0x43BFF000, size: 0x1000}", (0x43C00000, 0x400000), (0x43BFF000, 0x1000),
     {"ps": (14, 3), "ps.base": (14, 14), "ps.size": (14, 32)}),
    ("regions:\n  ps: {base: 0x44000000, size: 0x1000}", (0x43C00000, 0x400000), (0x44000000, 0x1000),
     {"ps": (14, 3), "ps.base": (14, 14), "ps.size": (14, 32)}),
    ("regions:\n  ps: {size: 0x1000}", (0x43C00000, 0x400000), (0xFFFC0000, 0x1000),
     {"ps": (14, 3), "ps.size": (14, 14)}),
    ("regions:\n  pl: {size: 0x1000}", (0x43C00000, 0x1000), (0xFFFC0000, 0x10000),
     {"pl": (14, 3), "pl.size": (14, 14)}),
    ("regions: {}", (0x43C00000, 0x400000), (0xFFFC0000, 0x10000), {}),
    ("board: zcu104\nregions:\n  pl: {base: 0xA0000000}", (0xA0000000, 0x400000), (0xFFFC0000, 0x10000),
     {"pl": (15, 3), "pl.base": (15, 14)}),
    ("board: zcu104", (0xA0000000, 0x400000), (0xFFFC0000, 0x10000), {}),
])
def test_regions_are_loaded(tmp_path: Path, text: str, pl: tuple[int, int], ps: tuple[int, int],
                            locs: dict[str, tuple[int, int]]) -> None:
    assert _regions(tmp_path, text) == (pl, ps, locs)


@pytest.mark.parametrize("text, line, col, message", [
    ("regions:\n  pl: {base: 0x7FFFF000, size: 0x2000}", 14, 3,
     "region 'pl' 0x7FFFF000-0x80000FFF must lie inside the PYNQ-Z1's M_AXI_GP0 range 0x40000000-0x7FFFFFFF; "
     "change its base or size"),
    ("regions:\n  pl: {base: 0x3FFFF000, size: 0x1000}", 14, 3,
     "region 'pl' 0x3FFFF000-0x3FFFFFFF must lie inside the PYNQ-Z1's M_AXI_GP0 range 0x40000000-0x7FFFFFFF; "
     "change its base or size"),
    ("regions:\n  ps: {base: 0xFFFFF000, size: 0x2000}", 14, 3,
     "region 'ps' 0xFFFFF000-0x100000FFF must lie inside the 32-bit address space; change its base or size"),
    ("regions:\n  ps: {base: 0x43C00000, size: 0x1000}", 14, 3,
     "regions 'pl' (0x43C00000-0x43FFFFFF) and 'ps' (0x43C00000-0x43C00FFF) overlap; move one of them"),
    ("regions:\n  ps: {base: 0x43BFF000, size: 0x2000}", 14, 3,
     "regions 'pl' (0x43C00000-0x43FFFFFF) and 'ps' (0x43BFF000-0x43C00FFF) overlap; move one of them"),
    ("regions:\n  ps: {base: 0x43FFF000, size: 0x1000}", 14, 3,
     "regions 'pl' (0x43C00000-0x43FFFFFF) and 'ps' (0x43FFF000-0x43FFFFFF) overlap; move one of them"),
    ("regions:\n  pl: {base: 0x43C00000, size: 0x1000}\n  ps: {base: 0x43C00000}", 15, 3,
     "regions 'pl' (0x43C00000-0x43C00FFF) and 'ps' (0x43C00000-0x43C0FFFF) overlap; move one of them"),
    ("regions:\n  pl: {base: 0xFFFC0000, size: 0x1000}\n  ps: {base: 0xFFFC0000}", 14, 3,
     "region 'pl' 0xFFFC0000-0xFFFC0FFF must lie inside the PYNQ-Z1's M_AXI_GP0 range 0x40000000-0x7FFFFFFF; "
     "change its base or size"),
    ("board: zcu104\nregions:\n  pl: {base: 0x43C00000}", 15, 3,
     "region 'pl' 0x43C00000-0x43FFFFFF must lie inside the ZCU104's M_AXI_HPM0_FPD range 0xA0000000-0xAFFFFFFF; "
     "change its base or size"),
    ("regions:\n  pl: 3", 14, 7,
     "region 'pl' must be a mapping (key: value lines), not '3'; write one 'key: value' per line (see "
     "examples/pingpong/system.yaml)"),
])
def test_region_errors_at_their_place(tmp_path: Path, text: str, line: int, col: int, message: str) -> None:
    assert one_error(tmp_path, GOOD + text + "\n") == at(tmp_path, line, col, message)



# --------------------------------------------------------------------------- more places and fixes


def test_load_system_names_the_file_and_takes_the_board(tmp_path: Path) -> None:
    p = write(tmp_path, GOOD)
    spec = load_system(p, board="zcu104")
    assert spec.board == "zcu104" and spec.pl.base == 0xA0000000
    p.write_bytes(GOOD.encode("utf-16"))
    with pytest.raises(SpecError) as info:
        load_system(p)
    assert [str(d) for d in info.value.diagnostics] == [
        f"{p}:1:1: the file is UTF-16 text; save it as UTF-8 (most editors: 'Save with encoding')"]


@pytest.mark.parametrize("text, messages", [
    ("regions: 3", [(13, 10, "'regions' must be a mapping (key: value lines), not '3'; write one 'key: value' per "
                             "line (see examples/pingpong/system.yaml)")]),
    ("regions:\n  ddr: {}\n  ps: {base: 0xFFFFF000, size: 0x2000}", [
        (14, 3, "unknown key 'ddr' in 'regions'; allowed keys: pl, ps"),
        (15, 3, "region 'ps' 0xFFFFF000-0x100000FFF must lie inside the 32-bit address space; change its base or size")]),
    ("regions:\n  pl: {base: x}", [(14, 14, "regions.pl.base must be an integer, not 'x'; e.g. base: 0x43C00000")]),
    ("regions:\n  ps: {size: x}", [(14, 14, "regions.ps.size must be an integer, not 'x'; e.g. size: 0x00010000")]),
    ("regions:\n  pl: {size: x}", [(14, 14, "regions.pl.size must be an integer, not 'x'; e.g. size: 0x00400000")]),
    ("regions:\n  ps: {base: x}", [(14, 14, "regions.ps.base must be an integer, not 'x'; e.g. base: 0xFFFC0000")]),
    ("regions:\n  pl: 3\n  ps: {base: 0xFFFFF000, size: 0x2000}", [
        (14, 7, "region 'pl' must be a mapping (key: value lines), not '3'; write one 'key: value' per line (see "
                "examples/pingpong/system.yaml)"),
        (15, 3, "region 'ps' 0xFFFFF000-0x100000FFF must lie inside the 32-bit address space; change its base or size")]),
    ("regions:\n  pl: {base: x}\n  ps: {base: 0xFFFFF000, size: 0x2000}", [
        (14, 14, "regions.pl.base must be an integer, not 'x'; e.g. base: 0x43C00000"),
        (15, 3, "region 'ps' 0xFFFFF000-0x100000FFF must lie inside the 32-bit address space; change its base or size")]),
    ("regions:\n  pl: {base: 0x3FFFF000, size: 0x1000}\n  ps: {base: 0xFFFFF000, size: 0x2000}", [
        (14, 3, "region 'pl' 0x3FFFF000-0x3FFFFFFF must lie inside the PYNQ-Z1's M_AXI_GP0 range "
                "0x40000000-0x7FFFFFFF; change its base or size"),
        (15, 3, "region 'ps' 0xFFFFF000-0x100000FFF must lie inside the 32-bit address space; change its base or size")]),
    ("regions:\n  pl: {bas: 1}", [(14, 8, "unknown key 'bas' in region 'pl'; did you mean 'base'?")]),
    ("regions:\n  pl: {base: 0x40000000}\n  pl: {base: 0x40000000}", [
        (15, 3, "duplicate region 'pl' in 'regions' (first at line 14); remove or rename one")]),
])
def test_region_errors_all_reported(tmp_path: Path, text: str, messages: list[tuple[int, int, str]]) -> None:
    assert errors(tmp_path, GOOD + text + "\n") == [at(tmp_path, ln, col, m) for ln, col, m in messages]


def test_ps_region_may_start_at_zero(tmp_path: Path) -> None:
    assert _regions(tmp_path, "regions:\n  ps: {base: 0, size: 0x1000}")[1] == (0, 0x1000)


def test_integers_may_hold_underscores(tmp_path: Path) -> None:
    pl = _regions(tmp_path, "regions:\n  pl: {base: '0x4000__0000', size: '0x1000_'}")[0]
    assert pl == (0x40000000, 0x1000)


@pytest.mark.parametrize("window, fix", [
    (0, "not 0 (0x0); use 0x1000"), (1, "not 1 (0x1); use 0x1000"), (3, "not 3 (0x3); use 0x1000"),
    (5000, "not 5000 (0x1388); use 0x1000 or 0x2000"), (8191, "not 8191 (0x1FFF); use 0x1000 or 0x2000"),
    (8193, "not 8193 (0x2001); use 0x2000 or 0x4000"), (12288, "not 12288 (0x3000); use 0x2000 or 0x4000"),
])
def test_window_power_of_two_suggestions(tmp_path: Path, window: int, fix: str) -> None:
    assert one_error(tmp_path, RTL.format(extra=f"    window: {window}")) == at(
        tmp_path, 7, 13, f"window of component 'callee' must be a power of two of at least 4096 (0x1000) bytes, {fix}")


def test_window_errors(tmp_path: Path) -> None:
    assert one_error(tmp_path, RTL.format(extra="    window: [1]")) == at(
        tmp_path, 7, 13, "window of component 'callee' must be an integer, not a list; e.g. window: 0x1000")
    assert one_error(tmp_path, RTL.format(extra="    window: 0x20000000")) == at(
        tmp_path, 7, 13, "window of component 'callee' is 536870912 but one window holds at most 268435456; use a "
                         "smaller value, e.g. window: 0x1000")


def test_riscv_memory_negative(tmp_path: Path) -> None:
    assert one_error(tmp_path, RISCV.format(memory="-4096")) == at(
        tmp_path, 6, 13, "memory of component 'callee' must be at least 0, not -4096; e.g. memory: 16KiB")


def test_trace_not_a_mapping_or_flag(tmp_path: Path) -> None:
    assert one_error(tmp_path, GOOD + "trace: [1]\n") == at(
        tmp_path, 13, 8, "trace must be true, false or a mapping such as {depth: 4096}, not a list; e.g. trace: true")
    assert one_error(tmp_path, GOOD + "trace: {depth: x}\n") == at(
        tmp_path, 13, 16, "trace depth must be an integer, not 'x'; e.g. depth: 4096")


@pytest.mark.parametrize("extra, messages", [
    ("    channels: [[a]]", [(16, "a channel name of component 'callee' must be a name, not a list; e.g. channels: "
                                "[audio, video]")]),
    ("    channels: [1]", [(16, "a channel name of component 'callee' must be a name, not '1'; e.g. channels: "
                              "[audio, video]")]),
    ("    channels: [a, a, 1x]", [
        (19, "channel 'a' of component 'callee' is listed twice; give each channel its own name"),
        (22, "a channel name of component 'callee' '1x' is not a valid name; use letters, digits and '_', not "
             "starting with a digit (e.g. '_1x')")]),
])
def test_channel_name_errors_all_reported(tmp_path: Path, extra: str, messages: list[tuple[int, str]]) -> None:
    assert errors(tmp_path, RTL.format(extra=extra)) == [at(tmp_path, 7, col, m) for col, m in messages]


def test_both_channel_exports_taken(tmp_path: Path) -> None:
    text = RTL.format(extra="    channels: [a]").replace(
        'f: "(x', 'a_rx: "(x: i32) -> i32"\n      a_tx: "(x').replace("callee.f", "callee.a_rx")
    assert errors(tmp_path, text) == [
        at(tmp_path, 7, 16, f"channel 'a' of component 'callee' needs the export '{f}', which the component exports "
                            "already; rename the channel or the export") for f in ("a_rx", "a_tx")]


@pytest.mark.parametrize("name, ok", [
    ("fir", True), ("_x1", True), ("Fir_2", True), ("1x", False), ("a-b", False), ("", False), ("fir\n", False),
    ("module", False), ("int", False), ("class", False), ("wire", False), ("None", False),
])
def test_is_identifier(name: str, ok: bool) -> None:
    # the names `pushpush init` accepts for a system: usable in Verilog, C and Python alike
    from pushpush.spec import is_identifier
    assert is_identifier(name) is ok


def test_invalid_name_suggestion_keeps_capitals(tmp_path: Path) -> None:
    assert one_error(tmp_path, RTL.format(extra="    channels: [Zz.y]")) == at(
        tmp_path, 7, 16, "a channel name of component 'callee' 'Zz.y' is not a valid name; use letters, digits and "
                         "'_', not starting with a digit (e.g. 'Zz_y')")


@pytest.mark.parametrize("sig, line, col", [
    ('|\n        (x: i33) -> i32', 10, 13),
    ('>\n        (x: i33) -> i32', 10, 13),
    ('|-\n        (x: i32) -> i33', 10, 21),
    ('|\n\n        (x: i33) -> i32', 11, 13),
    ('"(x: i33) -> i32"', 9, 15),
])
def test_signature_error_in_a_block_scalar_at_its_character(tmp_path: Path, sig: str, line: int, col: int) -> None:
    # the error points at the bad type inside the (block) scalar, not at the scalar's start
    text = RTL.format(extra="    window: 4096").replace('f: "(x: i32) -> i32"', "f: " + sig)
    assert one_error(tmp_path, text) == at(
        tmp_path, line, col, "invalid signature of export 'callee.f': unknown type 'i33'; did you mean 'i32'?")


EMPTY = "empty type; expected a type such as 'i32' or '(i32) -> void'"
AT_END = "expected a type, found end of text; write a type such as 'i32' or '(i32) -> void' here"
I33 = "unknown type 'i33'; did you mean 'i32'?"


@pytest.mark.parametrize("sig, line, col, message", [
    ('""', 9, 12, EMPTY),                                # the end of an empty string: after its quotes
    ('"i33"', 9, 11, I33),                               # the first character of the value
    ('"(x: i32) -> "', 9, 22, AT_END),                   # past the last character: the closing quote
    ('"(x: i32) ->"', 9, 22, AT_END),
    ('|\n        (x: i32) -> ', 10, 20, AT_END),
    ('"(x: i32) -> i32 extra"', 9, 27, "unexpected 'extra' after the end of the type; delete it, or check that "
                                       "every '(' has its ')' before the '->'"),
    ('"  (x: i33) -> i32"', 9, 17, I33),
    ('"\\x28x: i33) -> i32"', 9, 10, I33),               # an escape: the source and the value disagree, the scalar
    ('"(x: i32)\\n -> i33"', 9, 10, I33),                # (a newline escape too)
])
def test_signature_error_columns(tmp_path: Path, sig: str, line: int, col: int, message: str) -> None:
    text = RTL.format(extra="    window: 4096").replace('f: "(x: i32) -> i32"', "f: " + sig)
    assert one_error(tmp_path, text) == at(tmp_path, line, col, f"invalid signature of export 'callee.f': {message}")


def test_empty_block_scalar_at_the_end_of_the_file(tmp_path: Path) -> None:
    # 'g: |' as the file's last bytes (no newline): the error is at the '|'
    text = RTL.format(extra="    window: 4096").replace('    exports:\n      f: "(x: i32) -> i32"\n', "").replace(
        "    imports: [callee.f]\n", "    exports:\n      g: |")
    p = tmp_path / "system.yaml"
    p.write_text(text)
    with pytest.raises(SpecError) as info:
        load_system(p)
    assert [str(d) for d in info.value.diagnostics] == [
        at(tmp_path, 11, 10, f"invalid signature of export 'host.g': {EMPTY}")]


@pytest.mark.parametrize("clock", [1000, 0.5, 125.5])
def test_clock_in_range(tmp_path: Path, clock: float) -> None:
    assert load_system(write(tmp_path, GOOD + f"board: none\nclock_mhz: {clock}\n")).clock_mhz == clock


@pytest.mark.parametrize("clock, shown", [("1000.5", "'1000.5'"), ("1001", "'1001'"), ("0", "'0'"), ("-5", "'-5'"),
                                          ("x", "'x'"), ("[1]", "a list"), ("{a: 1}", "a mapping"), ("true", "'true'")])
def test_clock_out_of_range(tmp_path: Path, clock: str, shown: str) -> None:
    assert one_error(tmp_path, GOOD + f"board: none\nclock_mhz: {clock}\n") == at(
        tmp_path, 14, 12, f"clock_mhz must be a number of MHz between 0 and 1000, not {shown}; e.g. clock_mhz: 100")


def test_not_a_mapping_where_a_mapping_is_needed(tmp_path: Path) -> None:
    assert one_error(tmp_path, GOOD + "interconnect: 3\n") == at(
        tmp_path, 13, 15, "'interconnect' must be a mapping (key: value lines), not '3'; write one 'key: value' per "
                          "line (see examples/pingpong/system.yaml)")
    assert one_error(tmp_path, RTL.format(extra="    channels: {a: 1}")) == at(
        tmp_path, 7, 15, "channels of component 'callee' must be an integer, not a mapping; e.g. channels: 2 or "
                         "channels: [audio, video]")


def test_duplicate_import_in_a_mapping(tmp_path: Path) -> None:
    text = GOOD.replace("imports: [callee.f]",
                        "imports:\n      callee.f: \"(x: i32) -> i32\"\n      callee.f: \"(x: i32) -> i32\"")
    assert one_error(tmp_path, text) == at(
        tmp_path, 14, 7, "duplicate import 'callee.f' in imports of component 'host' (first at line 13); remove or "
                         "rename one")


@pytest.mark.parametrize("imports, col, shown", [("[1]", 15, "'1'"), ("[[a]]", 15, "a list"), ("[callee.f, 2]", 25, "'2'"),
                                                 ("{1: x}", 15, "'1'")])
def test_import_that_is_no_name(tmp_path: Path, imports: str, col: int, shown: str) -> None:
    assert one_error(tmp_path, GOOD.replace("imports: [callee.f]", "imports: " + imports)) == at(
        tmp_path, 12, col, f"an import of component 'host' must be 'component.function', not {shown}; write e.g. fir.fir")


def test_every_bad_expected_signature_is_reported(tmp_path: Path) -> None:
    text = GOOD.replace("imports: [callee.f]", "imports:\n      callee.f: \"(x: i33) -> i32\"\n"
                                                "      callee.g: \"(y: i33) -> i32\"")
    assert errors(tmp_path, text) == [
        at(tmp_path, 13, 22, "invalid expected signature of import 'callee.f': unknown type 'i33'; did you mean 'i32'?"),
        at(tmp_path, 14, 22, "invalid expected signature of import 'callee.g': unknown type 'i33'; did you mean 'i32'?"),
    ]


@pytest.mark.parametrize("sources, col, shown", [("[1]", 15, "'1'"), ("['']", 15, "''"), ("[[a]]", 15, "a list"),
                                                 ("[a.v, 2]", 20, "'2'")])
def test_source_that_is_no_path(tmp_path: Path, sources: str, col: int, shown: str) -> None:
    assert one_error(tmp_path, GOOD.replace("sources: [rtl/callee_core.v]", "sources: " + sources)) == at(
        tmp_path, 6, col, f"a source of component 'callee' must be a string, not {shown}; e.g. rtl/fir_core.v")


@pytest.mark.parametrize("sig, col, shown", [("3", 10, "'3'"), ("[1]", 10, "a list"), ("{signature: 3}", 22, "'3'")])
def test_signature_that_is_no_string(tmp_path: Path, sig: str, col: int, shown: str) -> None:
    assert one_error(tmp_path, GOOD.replace('f: "(x: i32) -> i32"', "f: " + sig)) == at(
        tmp_path, 9, col, f"signature of export 'callee.f' must be a signature string, not {shown}; "
                          "e.g. \"(x: i32) -> i32\"")


def test_empty_sources(tmp_path: Path) -> None:
    assert one_error(tmp_path, GOOD.replace("sources: [rtl/callee_core.v]", "sources: []")) == at(
        tmp_path, 6, 14, "sources of component 'callee' is empty; list the Verilog files, e.g. [rtl/fir_core.v]")


def test_every_bad_import_is_reported(tmp_path: Path) -> None:
    assert errors(tmp_path, GOOD.replace("imports: [callee.f]", "imports: [1, 2]")) == [
        at(tmp_path, 12, col, f"an import of component 'host' must be 'component.function', not '{v}'; write e.g. fir.fir")
        for col, v in ((15, 1), (18, 2))]
    assert errors(tmp_path, GOOD.replace("imports: [callee.f]", "imports: [callee, x]")) == [
        at(tmp_path, 12, col, f"import '{v}' of component 'host' must name a component and a function; write e.g. "
                              "'fir.fir'") for col, v in ((15, "callee"), (23, "x"))]


# --------------------------------------------------------------------------- kinds, places, choices


def test_riscv_component_without_sources_is_told_of_c_files(tmp_path: Path) -> None:
    # an rtl component is told of Verilog files (test_spec), a riscv one of its C program's
    text = RISCV.format(memory="8KiB").replace("    sources: [c/callee.c]\n", "")
    assert one_error(tmp_path, text) == at(
        tmp_path, 3, 3, "riscv component 'callee' has no 'sources'; list the C files of its program, e.g. "
                        "sources: [c/callee.c]")


@pytest.mark.parametrize("text, line, message", [
    (RISCV.format(memory="8KiB").replace("    sources:", "    module: callee_core\n    sources:"), 5,
     "riscv component 'callee' cannot have 'module' (a riscv component is C on a soft core: it has sources and "
     "memory, no Verilog module, burst settings, DMA streams or wait mode); remove it"),
    (RTL.format(extra="    memory: 8KiB"), 7,
     "rtl component 'callee' cannot have 'memory' (only riscv components have a soft core's memory); remove it "
     "or use 'kind: riscv'"),
    (GOOD.replace("    kind: python\n", "    kind: python\n    memory: 8KiB\n"), 12,
     "python component 'host' cannot have 'memory' (only riscv components have a soft core's memory); remove it "
     "or use 'kind: riscv'"),
    (GOOD.replace("    kind: python\n", "    kind: python\n    reply_timeout: 100\n"), 12,
     "python component 'host' cannot have 'reply_timeout' (only rtl components' calls wait for replies in the PL; "
     "a software caller's calls time out in its runtime (timeout=)); remove it"),
    (RTL.format(extra="    wait: poll"), 7,
     "rtl component 'callee' cannot have 'wait' (only python and c components wait for calls in software); "
     "remove it"),
])
def test_key_of_another_kind(tmp_path: Path, text: str, line: int, message: str) -> None:
    assert one_error(tmp_path, text) == at(tmp_path, line, 5, message)


def test_component_and_source_places(tmp_path: Path) -> None:
    text = GOOD.replace("sources: [rtl/callee_core.v]", "sources: [rtl/callee_core.v, rtl/b.v]")
    callee, host = load_system(write(tmp_path, text)).components
    assert [(c.loc.line, c.loc.column) for c in (callee, host)] == [(3, 3), (10, 3)]
    assert [(s.name, loc.line, loc.column) for s, loc in zip(callee.sources, callee.source_locs)] == [
        ("callee_core.v", 6, 15), ("b.v", 6, 34)]
    assert (callee.window, callee.window_loc.line, callee.window_loc.column) == (4096, 7, 13)
    assert (host.window, host.window_loc) == (None, None)


def test_riscv_sources_are_loaded(tmp_path: Path) -> None:
    comp = load_system(write(tmp_path, RISCV.format(memory="8KiB"))).components[0]
    assert comp.sources == (tmp_path / "c" / "callee.c",) and comp.module is None
    assert [(loc.line, loc.column) for loc in comp.source_locs] == [(5, 15)]


def test_what_each_kind_gets_of_wait_and_reply_timeout(tmp_path: Path) -> None:
    # each key's declared default for the kinds that have it; the others get "" and the
    # model's default (a software caller's calls time out in its runtime)
    from pushpush.spec.fields import DEFAULT_REPLY_TIMEOUT
    callee, host = load_system(write(tmp_path, GOOD)).components
    assert (callee.wait, callee.reply_timeout) == ("", DEFAULT_REPLY_TIMEOUT)
    assert (host.wait, host.reply_timeout) == ("sleep", DEFAULT_REPLY_TIMEOUT)
    riscv = load_system(write(tmp_path, RISCV.format(memory="8KiB"))).components[0]
    assert (riscv.wait, riscv.reply_timeout, riscv.module) == ("", DEFAULT_REPLY_TIMEOUT, None)


@pytest.mark.parametrize("change, line, col, message", [
    (("  host:\n", "  1host:\n"), 10, 3,
     "component name '1host' is not a valid name; use letters, digits and '_', not starting with a digit "
     "(e.g. '_1host')"),
    (("    kind: python\n", ""), 10, 3,
     "component 'host' has no 'kind'; add 'kind: rtl', 'kind: python' or 'kind: c'"),
])
def test_component_left_out_for_its_own_error(tmp_path: Path, change: tuple[str, str], line: int, col: int,
                                              message: str) -> None:
    # a component with a bad name, or without a kind, is left out: its import of an
    # export that does not exist is not reported as well
    text = GOOD.replace(*change).replace("imports: [callee.f]", "imports: [callee.g]")
    assert one_error(tmp_path, text) == at(tmp_path, line, col, message)


def test_choice_that_is_no_scalar(tmp_path: Path) -> None:
    # a list is no board, and no near miss of one either (not even of 'none')
    assert one_error(tmp_path, GOOD + "board: [pynq-z1]\n") == at(
        tmp_path, 13, 8, "board must be one of pynq-z1, pynq-z2, zcu104, kv260, none, not a list; write one of "
                         "them, e.g. pynq-z1")


@pytest.mark.parametrize("after", ["", "\n"])
def test_empty_block_scalar_before_the_next_key(tmp_path: Path, after: str) -> None:
    # 'f: |' with the next key below (a blank line between or not): the end of the empty
    # value is the start of the line after the '|'
    text = GOOD.replace('f: "(x: i32) -> i32"', "f: |" + after)
    assert one_error(tmp_path, text) == at(tmp_path, 10, 1, f"invalid signature of export 'callee.f': {EMPTY}")


def test_bad_export_signature_and_an_import_expecting_one(tmp_path: Path) -> None:
    # the export with the bad signature is left out: the import expecting a signature of it
    # is not compared with nothing
    text = GOOD.replace('f: "(x: i32) -> i32"', 'f: "(x: i33) -> i32"').replace(
        "imports: [callee.f]", 'imports: {callee.f: "(x: i32) -> i32"}')
    assert one_error(tmp_path, text) == at(
        tmp_path, 9, 15, "invalid signature of export 'callee.f': unknown type 'i33'; did you mean 'i32'?")


@pytest.mark.parametrize("module", ["3core", "wire"])
def test_missing_sources_fix_names_the_component_when_the_module_is_bad(tmp_path: Path, module: str) -> None:
    # the fix's file is named after the module only when that is a valid module name
    text = GOOD.replace("    sources: [rtl/callee_core.v]\n", "").replace("module: callee_core", f"module: {module}")
    assert errors(tmp_path, text) == [
        at(tmp_path, 3, 3, "rtl component 'callee' has no 'sources'; list the Verilog files that define its "
                           "module, e.g. sources: [rtl/callee.v]"),
        at(tmp_path, 5, 13, f"module of component 'callee' must be a Verilog module name, not '{module}'; "
                            "e.g. module: fir_core")]


# --------------------------------------------------------------------------- imports against exports

WORKER = GOOD.replace("  host:\n", "  worker:\n    kind: vhdl\n  host:\n")   # worker: left out (line 11)
BAD_KIND = ("kind of component 'worker' must be one of rtl, python, c, riscv, hls, not 'vhdl'; write one of them, "
                  "e.g. rtl")


def test_components_listed_for_an_unknown_one(tmp_path: Path) -> None:
    # the components, not the exports left out for their own errors (callee.g)
    text = GOOD.replace('f: "(x: i32) -> i32"', 'f: "(x: i32) -> i32"\n      g: "(x: i33) -> i32"').replace(
        "imports: [callee.f]", "imports: [callee.f, zz.top]")
    assert errors(tmp_path, text) == [
        at(tmp_path, 10, 15, "invalid signature of export 'callee.g': unknown type 'i33'; did you mean 'i32'?"),
        at(tmp_path, 13, 25, "import 'zz.top' names no component 'zz'; components are: callee, host")]


def test_unknown_component_near_one_left_out(tmp_path: Path) -> None:
    # a component left out for its own error is still a name an import may have meant
    assert errors(tmp_path, WORKER.replace("imports: [callee.f]", "imports: [workr.f]")) == [
        at(tmp_path, 11, 11, BAD_KIND),
        at(tmp_path, 14, 15, "import 'workr.f' names no component 'workr'; did you mean 'worker'?")]


@pytest.mark.parametrize("text, messages", [
    (GOOD.replace("imports: [callee.f]", "imports: [callee.f, callee.f, callee.g]"), [
        (12, 25, "component 'host' imports 'callee.f' twice; remove one"),
        (12, 35, "import 'callee.g' names no export; 'callee' exports: f")]),
    (WORKER.replace("imports: [callee.f]", "imports: [worker.f, callee.g]"), [
        (11, 11, BAD_KIND),
        (14, 25, "import 'callee.g' names no export; 'callee' exports: f")]),
    (GOOD.replace("imports: [callee.f]", "imports: [nope.f, callee.g]"), [
        (12, 15, "import 'nope.f' names no component 'nope'; components are: callee, host"),
        (12, 23, "import 'callee.g' names no export; 'callee' exports: f")]),
    (GOOD.replace('f: "(x: i32) -> i32"', 'f: "(x: i32) -> i32"\n      g: "() -> void"').replace(
        "imports: [callee.f]", "imports: [callee.f, callee.g, callee.zzz, callee.yyy]"), [
        (13, 35, "import 'callee.zzz' names no export; 'callee' exports: f, g"),
        (13, 47, "import 'callee.yyy' names no export; 'callee' exports: f, g")]),
])
def test_every_bad_import_after_another_is_reported(tmp_path: Path, text: str,
                                                    messages: list[tuple[int, int, str]]) -> None:
    assert errors(tmp_path, text) == [at(tmp_path, ln, col, m) for ln, col, m in messages]


def test_signature_mismatch_of_a_model_built_in_code() -> None:
    # the linker checks models built in code again: the mismatch is reported at the
    # expected signature, else at the import, else at its component, else at the file
    from pushpush.errors import Location
    from pushpush.spec import check_references
    from pushpush.spec.model import ComponentSpec, ExportSpec, ImportSpec, SystemSpec
    from pushpush.types import parse_signature

    def where(expected_loc: object, loc: object, comp_loc: object) -> str:
        imp = ImportSpec("callee", "f", parse_signature("(x: u8) -> i32"), loc=loc, expected_loc=expected_loc)
        spec = SystemSpec("demo", (
            ComponentSpec("callee", "python", exports=(ExportSpec("f", parse_signature("(x: i32) -> i32")),)),
            ComponentSpec("host", "python", imports=(imp,), loc=comp_loc)), file="s.yaml")
        (d,) = check_references(spec)
        assert d.message == ("import 'callee.f' expects '(x: u8) -> i32' but 'callee.f' is exported as "
                             "'(x: i32) -> i32'; make the signatures agree (parameter names may differ, types "
                             "must not)")
        return f"{d.line}:{d.column}"

    one, two, three = Location("s.yaml", 1, 2), Location("s.yaml", 3, 4), Location("s.yaml", 5, 6)
    assert where(one, two, three) == "1:2"
    assert where(None, two, three) == "3:4"
    assert where(None, None, three) == "5:6"
    assert where(None, None, None) == "1:1"


# --------------------------------------------------------------------------- the generic readers


def test_parse_system_names_the_text_system_by_default() -> None:
    with pytest.raises(SpecError) as info:
        parse_system(GOOD.replace("system: demo", "system: 1x"))
    assert [str(d) for d in info.value.diagnostics] == [
        "<system>:1:9: system name '1x' is not a valid name; use letters, digits and '_', not starting with a "
        "digit (e.g. '_1x')"]


@pytest.mark.parametrize("keys, line, col, message", [
    ("    [x]: 1\n    kind: rtl\n", 4, 5,
     "keys of component 'callee' must be plain names, not a list; write a name before the ':'"),
    ("    kind: rtl\n    kind: rtl\n", 5, 5,
     "duplicate key 'kind' in component 'callee' (first at line 4); remove or rename one"),
])
def test_bad_key_and_the_keys_after_it(tmp_path: Path, keys: str, line: int, col: int, message: str) -> None:
    # the key is reported and skipped; the component's keys after it are read as usual
    assert one_error(tmp_path, GOOD.replace("    kind: rtl\n", keys, 1)) == at(tmp_path, line, col, message)


def test_empty_choice(tmp_path: Path) -> None:
    # an empty value is one of the choices only where the field says what it means (board: none)
    assert load_system(write(tmp_path, GOOD + "board:\n")).board == "none"
    assert one_error(tmp_path, GOOD.replace("    kind: python\n", "    kind:\n")) == at(
        tmp_path, 11, 10, "kind of component 'host' must be one of rtl, python, c, riscv, hls, not empty; write one of "
                          "them, e.g. rtl")


def test_name_that_is_no_string(tmp_path: Path) -> None:
    assert one_error(tmp_path, RTL.format(extra="    dma: {name: [a]}")) == at(
        tmp_path, 7, 17, "dma name of component 'callee' must be a name, not a list; e.g. name: axi_dma_0")


def test_missing_system_is_reported_at_the_first_line(tmp_path: Path) -> None:
    # at 1:1, where the line goes, not at the first key below the comment
    assert one_error(tmp_path, "# a comment\n\n" + GOOD.replace("system: demo\n", "")) == at(
        tmp_path, 1, 1, "missing required key 'system'; add a line 'system: <name>' at the top")


@pytest.mark.parametrize("text, value, message", [
    ("rtl/a.v", "rtl/a.v", None),
    ("''", None, "f.yaml:1:1: path must be a string, not ''; e.g. rtl/a.v"),
    ("[a]", None, "f.yaml:1:1: path must be a string, not a list; e.g. rtl/a.v"),
])
def test_value_of_a_plain_string(text: str, value: object, message: object) -> None:
    # value_of is the one routine every field's check goes through: a Str without a
    # pattern (no field of the system's records has one yet) is any non-empty string
    import yaml
    from pushpush.spec.fields import Str
    from pushpush.spec.reader import _Reader

    reader = _Reader(text, "f.yaml")
    node = yaml.compose(text, Loader=yaml.SafeLoader)
    assert reader.value_of(node, Str(), "path", "rtl/a.v") == value
    assert [str(d) for d in reader.diags] == ([message] if message else [])


@pytest.mark.parametrize("tagged, shown", [
    ("!!int abc", "'abc'"), ("!!float x", "'x'"), ("!!bool x", "'x'"), ("!!timestamp 2020-13-45", "'2020-13-45'"),
    ("!!timestamp abc", "'abc'"),
])
def test_scalar_whose_tag_does_not_fit_is_its_text(tmp_path: Path, tagged: str, shown: str) -> None:
    # an explicit tag YAML cannot construct the text as: checked as the text (was a crash
    # with ValueError, KeyError or AttributeError for all but the collections' tags)
    assert one_error(tmp_path, RTL.format(extra=f"    window: {tagged}")) == at(
        tmp_path, 7, 13, f"window of component 'callee' must be an integer, not {shown}; e.g. window: 0x1000")


def test_scalar_with_a_collections_tag_is_its_text(tmp_path: Path) -> None:
    spec = load_system(write(tmp_path, GOOD.replace("system: demo", "system: !!map demo").replace(
        "window: 4096", "window: !!seq 4096")))
    assert (spec.name, spec.components[0].window) == ("demo", 4096)


def test_system_place_is_its_key(tmp_path: Path) -> None:
    spec = load_system(write(tmp_path, "# a comment\n" + GOOD))
    assert (spec.loc.line, spec.loc.column) == (2, 1)


def test_clock_the_board_cannot_make(tmp_path: Path) -> None:
    # a clock in range that the board's PLL does not divide into: refused at its value
    # (board: none takes it: test_clock_in_range)
    assert one_error(tmp_path, GOOD + "clock_mhz: 123\n") == at(
        tmp_path, 13, 12, "clock_mhz: 123 cannot be made by the PYNQ-Z1's FCLK_CLK0 (1000 MHz / 4 / 2 = 125 MHz is "
                          "the nearest); use a rate 1000 MHz divides into whole Hz, e.g. 50, 100, 125 or 250; or "
                          "board: none for simulation only")


def test_software_windows(tmp_path: Path) -> None:
    assert load_system(write(tmp_path, GOOD)).software_windows == "ocm"
    assert load_system(write(tmp_path, GOOD + "software_windows: ddr\n")).software_windows == "ddr"
    # not with c components (their runtime maps the windows at regions.ps): at the value
    text = GOOD.replace("kind: python", "kind: c") + "  c2: {kind: c}\nsoftware_windows: ddr\n"
    assert one_error(tmp_path, text) == at(
        tmp_path, 14, 19, "software_windows: ddr is not supported with c components yet ('host', 'c2'): their "
                          "runtime maps the windows at regions.ps (/dev/mem on the board), not a pynq.allocate "
                          "buffer; use software_windows: ocm")


def test_system_level_places_and_folder(tmp_path: Path) -> None:
    spec = parse_system("# c\n" + GOOD, file="inline.yaml", base_dir=Path("/proj"))
    assert (spec.file, spec.base_dir) == ("inline.yaml", Path("/proj"))
    assert (spec.components_loc.file, spec.components_loc.line, spec.components_loc.column) == ("inline.yaml", 3, 1)
    assert spec.region_locs == {} and spec.trace_depth == 0 and spec.board == "pynq-z1"
