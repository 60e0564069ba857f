"""``channels:`` of an rtl component (issue 18, docs/rtl-ports.md "Channels"): the loader's
expansion into ``<c>_rx``/``<c>_tx`` exports and its errors at the YAML line, the linker's
channel list and the system map, the module's RIFFA ports and the generated channel shell
(linted with Verilator -Wall together with the wrapper, the top and cores/chnl)."""

from __future__ import annotations

import shutil
import subprocess
import textwrap
from pathlib import Path

import pytest

from pushpush.codegen.channel_shell import module_ports, render_channel_shell
from pushpush.codegen.generate import generate
from pushpush.codegen.rtl import render_stub
from pushpush.codegen.render import GenerateError
from pushpush.errors import SpecError
from pushpush.link import link
from pushpush.spec import CHANNEL_RX_SIGNATURE, CHANNEL_TX_SIGNATURE, load_system
from pushpush.sysmap import from_json, to_json
from pushpush.types import format_type, parse_signature

ROOT = Path(__file__).resolve().parents[2]


def _system(tmp_path: Path, channels: str, exports: str = "{add: \"(a: i32) -> i32\"}",
            kind: str = "rtl") -> Path:
    p = tmp_path / "system.yaml"
    rtl = "    module: m\n    sources: [m.v]\n" if kind == "rtl" else ""
    p.write_text(textwrap.dedent(f"""\
        system: s
        board: none
        components:
          hw:
            kind: {kind}
        """) + rtl + f"    exports: {exports}\n    channels: {channels}\n")
    return p


@pytest.mark.parametrize("channels, names", [
    ("2", ["ch0", "ch1"]),
    ("[audio, video]", ["audio", "video"]),
    ("12", [f"ch{i}" for i in range(12)]),
])
def test_channels_become_exports(tmp_path: Path, channels: str, names: list[str]) -> None:
    linked = link(load_system(_system(tmp_path, channels)))
    assert [(c.name, c.index) for c in linked.channels] == [(n, i) for i, n in enumerate(names)]
    exports = {e.name: format_type(e.signature) for e in linked.component("hw").exports}
    assert list(exports)[0] == "add"
    for n in names:
        assert exports[f"{n}_rx"] == format_type(parse_signature(CHANNEL_RX_SIGNATURE))
        assert exports[f"{n}_tx"] == format_type(parse_signature(CHANNEL_TX_SIGNATURE))
    again = from_json(to_json(linked))
    assert again.channels == linked.channels
    assert linked.channel("hw", names[-1]).index == len(names) - 1
    assert linked.channel("hw", "1").name == names[1]
    with pytest.raises(KeyError, match="has no channel 'nope'"):
        linked.channel("hw", "nope")


@pytest.mark.parametrize("channels, exports, where, message", [
    ("13", "{}", (9, 15), "component 'hw' has 13 channels; RIFFA's limit is 12"),
    ("0", "{}", (9, 15), "channels of component 'hw' must be at least 1"),
    ("[a, a]", "{}", (9, 19), "channel 'a' of component 'hw' is listed twice"),
    ("[a, 1x]", "{}", (9, 19), "a channel name of component 'hw'"),
    ("[]", "{}", (9, 15), "channels of component 'hw' is empty"),
    ("[a]", "{a_rx: \"(x: i32) -> i32\"}", (9, 16),
     "channel 'a' of component 'hw' needs the export 'a_rx', which the component exports already"),
    ("[c0, c1, c2, c3, c4, c5, c6, c7, c8, c9, c10, c11, c12]", "{}", (9, 15),
     "component 'hw' has 13 channels; RIFFA's limit is 12"),
])
def test_bad_channels_at_their_line(tmp_path: Path, channels: str, exports: str,
                                    where: tuple[int, int], message: str) -> None:
    with pytest.raises(SpecError) as e:
        load_system(_system(tmp_path, channels, exports))
    text = str(e.value)
    assert f"system.yaml:{where[0]}:{where[1]}: " in text and message in text, text


def test_channels_on_software_component(tmp_path: Path) -> None:
    with pytest.raises(SpecError, match="python component 'hw' cannot have 'channels'"):
        load_system(_system(tmp_path, "2", kind="python"))


def test_module_ports_are_riffa_and_stub_refused(tmp_path: Path) -> None:
    linked = link(load_system(_system(tmp_path, "[audio]")))
    comp = linked.component("hw")
    ports = {p.name: (p.direction, p.width, p.optional) for p in module_ports(linked, comp)}
    assert ports["audio_CHNL_RX"] == ("input", 1, False)
    assert ports["audio_CHNL_RX_OFF"] == ("input", 31, False)
    assert ports["audio_CHNL_TX_DATA_REN"] == ("input", 1, False)
    assert ports["audio_CHNL_TX_LEN"] == ("output", 32, False)
    assert ports["audio_CHNL_RX_CLK"] == ("output", 1, True)
    assert "add_valid" in ports and not any(n.startswith("audio_rx") for n in ports)
    assert "pp_chnl_rx" in render_channel_shell(linked, comp)
    with pytest.raises(GenerateError, match="has channels: no generated stub"):
        render_stub(linked, "hw")


def test_generated_channels_example_lints(tmp_path: Path) -> None:
    verilator = shutil.which("verilator")
    assert verilator is not None, "verilator not found: ./bootstrap.sh setup installs it"
    linked = link(load_system(ROOT / "examples" / "channels" / "system.yaml"))
    generate(linked, tmp_path / "out")
    files = sorted(str(p) for p in (tmp_path / "out").rglob("*.v"))
    cores = sorted(str(p) for p in (ROOT / "cores").glob("*/*.v"))
    r = subprocess.run([verilator, "--lint-only", "-Wall", "--top-module", "channels_top",
                        *files, *cores], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0 and "%Warning" not in r.stderr, r.stderr[-3000:]
