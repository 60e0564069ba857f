"""``pushpush init``: the scaffolded folder is valid, lint-clean and never overwrites anything.

The whole path ``pushpush init demo && cd demo && pushpush run . && pytest`` with the wheel
installed is tested in tests/test_wheel.py (test_wheel_init_run_pytest)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
import yaml

from pushpush import __version__
from pushpush.build.fusesoc import build
from pushpush.link import link, load
from pushpush.scaffold import InitError, scaffold, scaffold_files, system_name_for
from pushpush.resources import PROJECT_URLS
from pushpush.schema import schema_text, system_schema
from pushpush.spec import load_system

REPO = Path(__file__).resolve().parent.parent

FILES = {".gitignore", "README.md", "app.py", "pytest.ini", "rtl/demo_adder.v", "system.yaml",
         "tests/test_demo.py", "demo.core", "system.schema.json", ".github/workflows/test.yml",
         "wheels/README.md"}


def cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(REPO))
    return subprocess.run([sys.executable, "-m", "pushpush", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=120)


def test_init_writes_a_valid_system(tmp_path: Path) -> None:
    proc = cli("init", "demo", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    demo = tmp_path / "demo"
    assert {str(p.relative_to(demo)) for p in demo.rglob("*") if p.is_file()} == FILES
    assert "cd demo && pushpush run . && pytest" in proc.stderr
    spec = load_system(demo / "system.yaml")
    linked = link(spec)
    assert linked.name == "demo"
    assert [(c.name, c.kind) for c in linked.components] == [("adder", "rtl"), ("host", "python")]
    jsonschema.validate(yaml.safe_load((demo / "system.yaml").read_text()), system_schema())
    assert cli("validate", "demo", cwd=tmp_path).returncode == 0


def test_every_file_names_its_template(tmp_path: Path) -> None:
    files = scaffold_files("demo")
    assert files.pop("system.schema.json") == schema_text()   # JSON: no comment line
    for rel, text in files.items():
        head = text.splitlines()[1 if rel in ("system.yaml", "demo.core") else 0]
        assert "Scaffolded by pushpush" in head and "templates/init/" in head, (rel, head)
        for t in head.split("from ", 1)[1].split():
            if t.startswith("templates/"):
                assert (REPO / t.rstrip(";")).is_file(), (rel, t)
    assert "templates/verilog/stub.v.j2" in files["rtl/demo_adder.v"].splitlines()[0]


def test_system_yaml_points_editors_at_the_schema_beside_it(tmp_path: Path) -> None:
    """A relative reference (resolved from the YAML file's folder by the YAML language
    server) to the schema written into the project: it survives a commit and a clone."""
    assert cli("init", "demo", cwd=tmp_path).returncode == 0
    moved = tmp_path / "elsewhere"
    (tmp_path / "demo").rename(moved)
    first = (moved / "system.yaml").read_text().splitlines()[0]
    assert first == "# yaml-language-server: $schema=system.schema.json"
    schema = json.loads((moved / "system.schema.json").read_text())
    assert schema == system_schema()
    jsonschema.validate(yaml.safe_load((moved / "system.yaml").read_text()), schema)


def test_the_readme_links_this_project_not_the_other_pushpush() -> None:
    readme = scaffold_files("demo")["README.md"]
    assert f"[pushpush]({PROJECT_URLS['Homepage']})" in readme
    assert "pypi.org/project/pushpush/" not in readme


def test_the_ci_workflow_installs_what_the_steps_need() -> None:
    ci = yaml.safe_load(scaffold_files("demo")[".github/workflows/test.yml"])
    runs = [s["run"] for s in ci["jobs"]["test"]["steps"] if "run" in s]
    assert any("apt-get install" in r and "iverilog" in r for r in runs)
    assert any(f'"pushpush-fpga[sim]=={__version__}"' in r and "--find-links wheels" in r for r in runs)
    assert runs[-3:] == ["pushpush validate .", "python -m pytest -q", "pushpush build . --target lint"]


def test_the_stub_a_user_edits_says_it_is_theirs(tmp_path: Path) -> None:
    assert cli("init", "demo", cwd=tmp_path).returncode == 0
    out = tmp_path / "rtl"
    proc = cli("generate", "demo", "--stub", "adder", "-o", str(out), cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    first = next(out.glob("*.v")).read_text().splitlines()[0]
    assert "yours to edit" in first and "Do not edit" not in first, first


def test_verilog_is_the_stub_filled_in(tmp_path: Path) -> None:
    v = scaffold_files("demo")["rtl/demo_adder.v"]
    # the stub's ports and handshake are kept, the constant result is replaced
    assert "module demo_adder" in v and "assign add_ready = !add_held_reg;" in v
    assert "32'd0;\n" not in v.split("assign add_result =")[1].split("\n")[0]
    assert "add_sum_reg <= add_a + add_b;" in v


def test_scaffolded_system_lints_clean(tmp_path: Path) -> None:
    """Verilator -Wall through FuseSoC (pushpush build --target lint) on the whole system."""
    scaffold(tmp_path / "demo")
    linked = load(tmp_path / "demo" / "system.yaml")
    result = build(linked, tmp_path / "out", "lint", progress=lambda s: None)
    assert result.notes == ["Verilator -Wall: no warnings"]
    log = result.log.read_text()
    assert "%Warning" not in log and "%Error" not in log


def test_scaffolded_core_lints_with_fusesoc(tmp_path: Path) -> None:
    """The scaffolded demo.core through real FuseSoC and the generator 'pushpush'."""
    from pushpush.fusesoc_gen import cores_root

    scaffold(tmp_path / "demo")
    bindir = Path(sys.executable).parent
    env = dict(os.environ, PYTHONPATH=str(REPO), PATH=f"{bindir}{os.pathsep}{os.environ['PATH']}")
    proc = subprocess.run([str(bindir / "fusesoc"), "--cores-root", ".", "--cores-root", str(cores_root()),
                           "run", "--target", "lint", "local:demo:system"], cwd=tmp_path / "demo",
                          env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "Generating local:demo:system-system:0.1.0" in proc.stderr
    assert "%Warning" not in proc.stdout + proc.stderr


def test_refuses_a_non_empty_folder(tmp_path: Path) -> None:
    target = tmp_path / "mine"
    target.mkdir()
    (target / "notes.txt").write_text("keep me")
    proc = cli("init", "mine", cwd=tmp_path)
    assert proc.returncode == 2
    assert "pushpush: error: 'mine' is not empty (notes.txt)" in proc.stderr
    assert "nothing of yours is overwritten" in proc.stderr
    assert sorted(p.name for p in target.iterdir()) == ["notes.txt"]
    assert (target / "notes.txt").read_text() == "keep me"


def test_refuses_a_file(tmp_path: Path) -> None:
    (tmp_path / "f").write_text("")
    with pytest.raises(InitError, match="exists and is not a folder"):
        scaffold(tmp_path / "f")


def test_empty_folder_is_fine(tmp_path: Path) -> None:
    (tmp_path / "e").mkdir()
    written = scaffold(tmp_path / "e")
    assert len(written) == len(FILES)
    assert load_system(tmp_path / "e" / "system.yaml").name == "e"


@pytest.mark.parametrize("folder,name", [("demo", "demo"), ("my-demo", "my_demo"), ("2x", "sys_2x"),
                                          ("module", "module_"), ("a.b", "a_b")])
def test_system_name_from_folder(tmp_path: Path, folder: str, name: str) -> None:
    assert system_name_for(tmp_path / folder) == name


def test_bad_name_is_refused(tmp_path: Path) -> None:
    proc = cli("init", "x", "--name", "my-sys", cwd=tmp_path)
    assert proc.returncode == 2
    assert "'my-sys' is not a usable system name" in proc.stderr
    assert not (tmp_path / "x").exists()


def test_name_option(tmp_path: Path) -> None:
    scaffold(tmp_path / "hw", name="accel")
    assert load_system(tmp_path / "hw" / "system.yaml").name == "accel"
    assert (tmp_path / "hw" / "rtl" / "accel_adder.v").is_file()
    assert (tmp_path / "hw" / "tests" / "test_accel.py").is_file()
