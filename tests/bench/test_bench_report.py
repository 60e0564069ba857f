"""Bench result files record the tools that produced them."""

from __future__ import annotations

import pytest

from pushpush.bench.report import meta
from pushpush.build.sim import verilator_bin_dir


def test_verilator_version_is_the_projects() -> None:
    """The recorded Verilator is the one simulations use (the project's, usually the PyPI
    wheel's), with a version number, not whichever ``verilator`` is first on PATH."""
    found = verilator_bin_dir()
    if found is None:
        pytest.fail("no usable Verilator: run ./bootstrap.sh setup")
    text = meta("verilator")["simulator_version"]
    assert text.startswith("Verilator 5."), text
    major, minor = text.split()[1].split(".")[:2]
    assert (int(major), int(minor)) >= (5, 36), text
