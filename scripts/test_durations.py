"""Write tests/durations.json, the seconds each unit of work of the test suite takes, from a
run's JUnit XML. The suite's xdist scheduler (tests/conftest.py) sends the longest units
first, so that the two workers of ``pytest -n 2`` end together.

    .venv/bin/python -m pytest -n 2 -m "not bench" --long-sample --junitxml=/tmp/run.xml
    .venv/bin/python scripts/test_durations.py /tmp/run.xml

(``-m "not bench" --long-sample`` is both tiers' pytest in one run.) A unit is a test file
(a tests/cluster file: that folder), as ``work_unit`` in tests/conftest.py says; its seconds
are the sum of its tests' times (setup, call and teardown) in the XML, which therefore
should hold every tier's tests of the unit. Units the XML does not have keep their old
entry.
"""

from __future__ import annotations

import importlib.util
import json
import sys
import xml.etree.ElementTree as ET
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "durations.json"


def _work_unit():  # tests/conftest.py's, so that both group alike
    spec = importlib.util.spec_from_file_location("pp_tests_conftest", REPO / "tests" / "conftest.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.work_unit


def nodeid(case: ET.Element) -> str:
    """pytest's node id from a JUnit testcase (classname is the dotted path, plus a class)."""
    cls, name = case.get("classname", ""), case.get("name", "")
    parts = cls.split(".")
    for i in range(len(parts), 0, -1):
        path = Path(*parts[:i]).with_suffix(".py")
        if (REPO / path).is_file():
            return "::".join([path.as_posix(), *parts[i:], name])
    return f"{cls}::{name}"


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__)
        return 2
    work_unit = _work_unit()
    seconds: dict[str, float] = defaultdict(float)
    for case in ET.parse(argv[0]).iter("testcase"):
        seconds[work_unit(nodeid(case))] += float(case.get("time", 0.0))
    old = json.loads(OUT.read_text()) if OUT.exists() else {}
    old.update({k: round(v, 1) for k, v in seconds.items()})
    OUT.write_text(json.dumps(dict(sorted(old.items(), key=lambda kv: (-kv[1], kv[0]))), indent=1) + "\n")
    print(f"{OUT.relative_to(REPO)}: {len(seconds)} units from {argv[0]} ({len(old)} in all)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
