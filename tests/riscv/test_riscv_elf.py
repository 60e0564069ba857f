"""pushpush.c.riscv: the program of a kind: riscv component, built with Debian's RISC-V
GCC and picolibc, fits its memory or is refused with the size it needs."""

from __future__ import annotations

from pathlib import Path

import pytest

from pushpush.c.riscv import ProgramTooLarge, build_program
from pushpush.codegen.c import render_c
from pushpush.link import load

REPO = Path(__file__).resolve().parents[2]
PROG = REPO / "tests" / "riscv" / "prog" / "pingpong_rv.c"


@pytest.fixture(scope="module")
def cdir(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("gen")
    for name, text in render_c(load(str(REPO / "examples" / "pingpong" / "c" / "system.yaml"))).items():
        p = root / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
    return root / "c"


def test_program_image(cdir: Path, tmp_path: Path) -> None:
    prog = build_program(cdir, [PROG], components=["callee"], out_dir=tmp_path, memory_bytes=16384)
    words = prog.hex_path.read_text().split()
    assert len(words) * 4 == 16384 and prog.image_bytes <= prog.used_bytes <= 16384
    assert set(words[prog.image_bytes // 4:]) == {"00000000"}
    assert all(len(w) == 8 for w in words)
    # the image starts with crt0 (_start at 0: the core's reset vector)
    assert prog.symbols["_start"] == 0 and prog.symbols["__stack_top"] == 16384
    assert prog.elf.read_bytes()[:4] == b"\x7fELF"


def test_program_too_large_is_refused(cdir: Path, tmp_path: Path) -> None:
    with pytest.raises(ProgramTooLarge) as e:
        build_program(cdir, [PROG], components=["callee"], out_dir=tmp_path, memory_bytes=4096)
    assert e.value.memory_bytes == 4096 and e.value.used_bytes > 4096
    assert "set memory to at least 16384 bytes (16 KiB)" in str(e.value)
    assert not (tmp_path / "program.hex").exists()


def test_too_large_is_refused_at_the_yaml_line(tmp_path: Path) -> None:
    """examples/riscv_pingpong with memory: 4KiB: the error names system.yaml's memory line."""
    from pushpush.c.riscv import ProgramDoesNotFit, build_component

    src = (REPO / "examples" / "riscv_pingpong" / "system.yaml").read_text()
    lines = src.splitlines()
    line = next(i for i, ln in enumerate(lines, 1) if ln.strip().startswith("memory: 16KiB"))
    col = lines[line - 1].index("16KiB") + 1
    yaml = tmp_path / "system.yaml"
    yaml.write_text(src.replace("memory: 16KiB", "memory: 4KiB").replace("../pingpong/", str(REPO / "examples" / "pingpong") + "/")
                    .replace("[c/callee.c]", f"[{REPO / 'examples' / 'riscv_pingpong' / 'c' / 'callee.c'}]"))
    linked = load(str(yaml))
    gen = tmp_path / "gen"
    for name, text in render_c(linked).items():
        (gen / name).parent.mkdir(parents=True, exist_ok=True)
        (gen / name).write_text(text)
    with pytest.raises(ProgramDoesNotFit) as e:
        build_component(linked, "callee", gen / "c", tmp_path / "rv")
    assert str(e.value).startswith(f"{yaml}:{line}:{col}: memory of component 'callee': the program")
    assert "set memory to at least 16384 bytes (16 KiB)" in str(e.value)
