"""Size limits of the generated hardware, checked where the user writes the system.

The interconnect has ``MAX_INTERCONNECT_PORTS`` ports per side (the ARM's and one per rtl
component): ``pushpush validate`` reports the first rtl component that does not fit, at its
YAML line, with the limit and the fix; a system at the limit links and generates a top whose
interconnect has exactly that many ports.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pushpush.cli import main
from pushpush.codegen.rtl import render_top
from pushpush.errors import LinkError
from pushpush.link import MAX_INTERCONNECT_PORTS, link
from pushpush.spec import parse_system


def system_text(n_rtl: int) -> str:
    """``n_rtl`` rtl components ``c0``.. (each exports f), and a python host importing c0.f;
    component ``c<i>`` starts on line ``4 + 5 * i``."""
    lines = ["system: many", "board: none", "components:"]
    for i in range(n_rtl):
        lines += [f"  c{i}:", "    kind: rtl", f"    module: m{i}", f"    sources: [m{i}.v]",
                  '    exports: {f: "(x: i32) -> i32"}']
    lines += ["  host:", "    kind: python", "    imports: [c0.f]"]
    return "\n".join(lines) + "\n"


def test_too_many_rtl_components(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    n = MAX_INTERCONNECT_PORTS + 2
    text = system_text(n)
    with pytest.raises(LinkError) as exc:
        link(parse_system(text, file="many.yaml", base_dir=tmp_path))
    msg = str(exc.value)
    first = MAX_INTERCONNECT_PORTS - 1   # index of the first component that does not fit
    assert f"many.yaml:{4 + 5 * first}:3:" in msg, msg
    assert f"component 'c{first}'" in msg
    assert f"at most {MAX_INTERCONNECT_PORTS} ports" in msg
    assert f"at most {MAX_INTERCONNECT_PORTS - 1} rtl components" in msg
    assert "merge components" in msg
    # the command line: one positioned line, exit 1, no traceback
    path = tmp_path / "many.yaml"
    path.write_text(text)
    assert main(["validate", str(path)]) == 1
    out = capsys.readouterr()
    both = out.out + out.err
    assert "Traceback" not in both
    assert re.search(rf"many\.yaml:{4 + 5 * first}:3: .*at most {MAX_INTERCONNECT_PORTS} ports", both), both


def test_at_the_limit(tmp_path: Path) -> None:
    n = MAX_INTERCONNECT_PORTS - 1
    linked = link(parse_system(system_text(n), file="many.yaml", base_dir=tmp_path))
    top = render_top(linked)
    assert f".S_COUNT({MAX_INTERCONNECT_PORTS})" in top
    assert f".M_COUNT({MAX_INTERCONNECT_PORTS})" in top
    # the interconnect core accepts that many ports
    core = (Path(__file__).resolve().parents[2] / "cores" / "interconnect" / "pp_axi_interconnect.v")
    assert f"S_COUNT > {MAX_INTERCONNECT_PORTS} || M_COUNT < 1 || M_COUNT > {MAX_INTERCONNECT_PORTS}" \
        in core.read_text()
