"""The board table (pushpush/boards.py) and what ``board:`` in the YAML does with it: each
board's facts carry a source, the link places the PL where the board's PS master reaches,
and the validator refuses, at the YAML line, what a board cannot do."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from pushpush.boards import BOARD_NAMES, BOARDS, board, pl_clock_divisors
from pushpush.errors import SpecError
from pushpush.link import link, load
from pushpush.spec import load_system, parse_system

REPO = Path(__file__).resolve().parents[2]
CITED = ("part", "board_part_pattern", "ps_vlnv", "pl_range", "ocm", "ddr_segment", "irq_port",
         "raw_irq0", "ref_clk_mhz", "pll_mhz", "arch", "image")


def test_the_four_boards_and_their_families():
    assert BOARD_NAMES == ("pynq-z1", "pynq-z2", "zcu104", "kv260")
    assert [BOARDS[n].family for n in BOARD_NAMES] == ["zynq", "zynq", "zynqmp", "zynqmp"]
    assert board("none") is BOARDS["pynq-z1"]
    with pytest.raises(ValueError, match="unknown board 'zcu102'"):
        board("zcu102")


@pytest.mark.parametrize("name", BOARD_NAMES)
def test_every_fact_has_a_source(name):
    b = BOARDS[name]
    missing = [k for k in CITED if not b.sources.get(k)]
    assert not missing, f"{name}: no source for {missing}"


@pytest.mark.parametrize("name", BOARD_NAMES)
def test_the_pl_lies_where_the_boards_master_reaches(name):
    linked = link(load_system(REPO / "examples" / "dma_stream" / "system.yaml", board=name))
    b = BOARDS[name]
    lo, hi = b.pl_range
    assert linked.board == name
    for c in linked.components:
        if c.kind == "rtl":
            assert lo <= c.base and c.end <= hi
    assert all(lo <= d.base and d.end <= hi for d in linked.dmas)
    ps = next(c for c in linked.components if c.is_software)
    assert b.ocm[0] <= ps.base and ps.end <= b.ocm[0] + b.ocm[1]


def test_pynq_z2_links_as_the_z1():
    z1 = load(REPO / "examples" / "pingpong" / "system.yaml")
    z2 = load(REPO / "examples" / "pingpong" / "system.yaml", board="pynq-z2")
    assert [(c.name, c.base, c.size) for c in z1.components] == \
        [(c.name, c.base, c.size) for c in z2.components]


def _errors(tmp_path, text):
    f = tmp_path / "system.yaml"
    f.write_text(textwrap.dedent(text))
    with pytest.raises(SpecError) as e:
        load_system(f)
    return [str(d) for d in e.value.diagnostics]


SYS = """\
    system: s
    board: {board}
    clock_mhz: {clock}
    components:
      a:
        kind: rtl
        module: a
        sources: [a.v]
        exports: {{f: "(x: i32) -> i32"}}
    {extra}"""


def test_a_pl_region_outside_the_zynqmp_master_is_refused_at_its_line(tmp_path):
    (msg,) = _errors(tmp_path, SYS.format(board="zcu104", clock=100,
                                          extra="regions:\n      pl: {base: 0x43C00000}\n"))
    assert ":11:3: region 'pl' 0x43C00000-0x43FFFFFF must lie inside the ZCU104's M_AXI_HPM0_FPD " \
           "range 0xA0000000-0xAFFFFFFF" in msg


def test_a_clock_the_board_cannot_make_is_refused_at_its_line(tmp_path):
    (msg,) = _errors(tmp_path, SYS.format(board="kv260", clock=99, extra=""))
    assert ":3:12: clock_mhz: 99 cannot be made by the Kria KV260's pl_clk0" in msg
    assert "board: none for simulation only" in msg
    (tmp_path / "a.v").write_text("module a; endmodule\n")
    parse_system(textwrap.dedent(SYS.format(board="none", clock=99, extra="")), base_dir=tmp_path)


def test_a_board_given_on_the_command_line_is_checked_as_the_files():
    with pytest.raises(ValueError, match="unknown board 'zcu106'"):
        load(REPO / "examples" / "pingpong" / "system.yaml", board="zcu106")


@pytest.mark.parametrize("pll,mhz,want", [(1000, 100, (5, 2)), (1600, 100, (4, 4)),
                                          (1000, 125, (4, 2)), (1500, 100, (5, 3))])
def test_pl_clock_divisors(pll, mhz, want):
    assert pl_clock_divisors(pll, mhz) == want


def test_pynq_z2_ps7_preset_is_the_z1s():
    """PYNQ's PetaLinux hardware projects of the Z1 and the Z2 (pynqz1.tcl, pynqz2.tcl) set
    the same value for every PS7 preset key pushpush writes (checked against Xilinx/PYNQ at
    19ed17d4 when this table was made; the files are not in this repository)."""
    from pushpush.codegen.vivado import PYNQ_Z1_PS7_PRESET
    assert dict(PYNQ_Z1_PS7_PRESET)["PCW_CRYSTAL_PERIPHERAL_FREQMHZ"] == "50"
    assert "ps_preset" in BOARDS["pynq-z2"].sources
