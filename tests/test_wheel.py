"""The wheel is self-contained: installed into a fresh virtualenv outside the repository,
it carries cores/, templates/, examples/ and the C runtime (c/runtime/) and validates and maps
the examples."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import venv
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


def run(cmd: list[str], cwd: Path, timeout: float = 600) -> str:
    # A clean environment: nothing from the repository may leak into the installed wheel.
    # (PYTEST_ADDOPTS too: a plugin named there is not in the installed wheel's venv)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTEST_ADDOPTS")}
    proc = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout, env=env)
    assert proc.returncode == 0, f"{' '.join(cmd)} failed:\n{proc.stdout}\n{proc.stderr}"
    return proc.stdout


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("wheel")
    run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp / "dist"), str(REPO)], tmp)
    wheels = list((tmp / "dist").glob("pushpush_fpga-*.whl"))
    assert len(wheels) == 1, wheels
    env_dir = tmp / "venv"
    venv.EnvBuilder(with_pip=True).create(env_dir)
    run([str(env_dir / "bin" / "python"), "-m", "pip", "install", "-q", str(wheels[0])], tmp)
    return env_dir


def test_wheel_carries_data(installed: Path, tmp_path: Path) -> None:
    out = run([str(installed / "bin" / "python"), "-c",
               "from pushpush.resources import cores_dir, templates_dir, examples_dir;"
               "import json; print(json.dumps([str(cores_dir()), str(templates_dir()), str(examples_dir())]))"],
              tmp_path)
    for folder in json.loads(out):
        assert "site-packages" in folder, folder
        assert Path(folder).is_dir()
    cores = Path(json.loads(out)[0])
    assert sorted(p.name for p in cores.glob("*/*.core")), "no .core files in the wheel"
    # the C runtime's plain files, byte for byte the checkout's
    runtime = Path(run([str(installed / "bin" / "python"), "-c",
                        "from pushpush.resources import c_runtime_dir; print(c_runtime_dir())"], tmp_path).strip())
    assert "site-packages" in str(runtime), runtime
    ours = sorted((REPO / "c" / "runtime").iterdir())
    assert ours and sorted(p.name for p in runtime.iterdir()) == [p.name for p in ours]
    for p in ours:
        assert (runtime / p.name).read_bytes() == p.read_bytes(), p.name


@pytest.mark.parametrize("example", ["pingpong", "audio_fir"])
def test_wheel_validates_and_maps_examples(installed: Path, tmp_path: Path, example: str) -> None:
    py = str(installed / "bin" / "python")
    examples = Path(run([py, "-c", "from pushpush.resources import examples_dir; print(examples_dir())"],
                        tmp_path).strip())
    system = examples / example / "system.yaml"
    pp = str(installed / "bin" / "pushpush")
    run([pp, "validate", str(system)], tmp_path)
    table = run([pp, "map", str(system)], tmp_path)
    assert "0x" in table
    sysmap = json.loads(run([pp, "map", "--json", str(system)], tmp_path))
    assert sysmap["system"] == example


def test_wheel_init_run_pytest(installed: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``pushpush init demo && cd demo && pushpush run . && pytest`` from an empty folder with
    the wheel installed, then ``fusesoc run --target lint`` of the scaffolded core. The venv holds only the wheel (installed without dependencies); PYNQ,
    cocotb and the rest come from this test's own environment through a .pth file, so
    nothing is downloaded. Icarus only (PUSHPUSH_SIMS), to keep it short."""
    import sysconfig

    wheel = next((installed.parent / "dist").glob("pushpush_fpga-*.whl"))
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=True).create(env_dir)
    py = str(env_dir / "bin" / "python")
    run([py, "-m", "pip", "install", "-q", "--no-deps", str(wheel)], tmp_path)
    site = run([py, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], tmp_path).strip()
    (Path(site) / "_pushpush_test_deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    work = tmp_path / "work"
    work.mkdir()
    pp = str(env_dir / "bin" / "pushpush")
    monkeypatch.setenv("PUSHPUSH_SIMS", "icarus")  # run() passes the environment on
    run([pp, "init", "demo"], work)
    demo = work / "demo"
    first = (demo / "system.yaml").read_text().splitlines()[0]
    assert first == "# yaml-language-server: $schema=system.schema.json"   # beside it: survives a commit
    assert (demo / "system.schema.json").is_file()
    out = run([pp, "run", "."], demo)
    assert "demo: all sums correct" in out
    out = run([py, "-m", "pytest", "-q", "-p", "no:cacheprovider"], demo)
    assert "2 passed" in out, out
    # the scaffolded demo.core through FuseSoC and the wheel's generator (python3 on PATH is
    # the venv's)
    gen_root = run([py, "-m", "pushpush.fusesoc_gen", "--cores-root"], demo).strip()
    assert gen_root.startswith(site), gen_root
    monkeypatch.setenv("PATH", f"{env_dir / 'bin'}{os.pathsep}{os.environ['PATH']}")
    run([py, "-m", "fusesoc.main", "--cores-root", ".", "--cores-root", gen_root, "run",
         "--target", "lint", "local:demo:system"], demo)


#: The distribution's name: ``pushpush`` on PyPI is an unrelated project (a chat-message sender).
DIST = "pushpush-fpga"


def test_wheel_carries_the_documented_name(installed: Path) -> None:
    """The built wheel is ``pushpush-fpga`` (METADATA ``Name``), its entry points are the ones
    ``pynq get-notebooks pushpush`` uses, and every ``pip install`` line a user reads (README,
    docs, overlay README, error messages in the package) installs that distribution, never
    ``pushpush`` (which would install the other project)."""
    import re
    import zipfile

    (wheel,) = (installed.parent / "dist").glob("*.whl")
    assert wheel.name.startswith("pushpush_fpga-"), wheel.name
    with zipfile.ZipFile(wheel) as z:
        meta = z.read(next(n for n in z.namelist() if n.endswith(".dist-info/METADATA"))).decode()
        eps = z.read(next(n for n in z.namelist() if n.endswith(".dist-info/entry_points.txt"))).decode()
    assert f"\nName: {DIST}\n" in meta, meta[:200]
    assert "[pynq.notebooks]\npushpush = pushpush.notebooks" in eps
    assert "pushpush = pushpush.cli:main" in eps
    readme = (REPO / "README.md").read_text()
    assert f"pip install {DIST}" in readme and "pynq get-notebooks pushpush" in readme
    wrong = re.compile(r"pip install '?pushpush(?![-_\w])|(?<![-\w])pushpush\[(check|sim|simboard|pynq|notebooks|verilator|bench|riscv|dev)\]")
    texts = [REPO / "README.md", REPO / "pynq_overlays" / "README.md", *sorted((REPO / "docs").glob("*.md")),
             *sorted((REPO / "pushpush").rglob("*.py")), *sorted((REPO / "notebooks").glob("*.py"))]
    bad = [f"{p.relative_to(REPO)}:{i}: {line.strip()}" for p in texts
           for i, line in enumerate(p.read_text().splitlines(), 1) if wrong.search(line)]
    assert not bad, "these install the unrelated PyPI project 'pushpush':\n" + "\n".join(bad)
