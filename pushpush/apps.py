"""Example applications: find an example, open its system through PYNQ, run its ``app.py``.

An example folder (``examples/<name>/``) holds ``system.yaml`` and, for ``pushpush run``,
``app.py`` with ``main(overlay, *, out=print, **options) -> dict``: the application, written
against a :class:`pushpush.pynq.PushPushOverlay` only, so it runs unchanged on a PYNQ-Z1
and on the simulated board. Its result has ``ok`` (all checks passed) and, as it likes,
numbers, arrays and ``lines`` (what it printed).

:func:`open_system` gives the overlay: on a board the Vivado build (``<system>.bit`` with its
``.hwh`` and ``.map.json``) where :func:`pushpush.pynq.overlay_files.find_overlay` finds it:
the example's folder (``<folder>/pynq_overlays/<system>/``, where ``pushpush build``
writes it), the current folder, the installed overlays; everywhere else the simulated board, generated
from the example's YAML and started (the simulator compiles the system first), with
progress messages.

>>> import pushpush.apps as apps                         # doctest: +SKIP
>>> ol = apps.open_system("pingpong")                    # doctest: +SKIP
>>> apps.load_app("pingpong").main(ol)["ok"]             # doctest: +SKIP
True
"""

from __future__ import annotations

import importlib.util
import os
import sys
import tempfile
import threading
import time
from pathlib import Path
from types import ModuleType
from typing import Any, Callable, Optional

from .resources import examples_dir, installed_overlay_dir

__all__ = ["find_example", "overlay_dir", "load_app", "open_system", "on_board"]

Progress = Callable[[str], None]


def find_example(name_or_path: str | os.PathLike[str]) -> Path:
    """The folder of an example: a path to it (or to its ``system.yaml``), or a shipped
    example's name (:func:`shipped_examples`)."""
    p = Path(name_or_path)
    if p.is_file() and p.suffix in (".yaml", ".yml"):
        return p.resolve().parent
    if (p / "system.yaml").is_file():
        return p.resolve()
    if p.name == str(name_or_path):  # a bare name
        q = examples_dir() / p.name
        if (q / "system.yaml").is_file():
            return q
    raise FileNotFoundError(f"no example '{name_or_path}': give a folder with a system.yaml "
                            f"or one of {', '.join(shipped_examples())}")


def shipped_examples() -> list[str]:
    """The shipped examples' names (their folders hold a system.yaml)."""
    try:
        return sorted(d.name for d in examples_dir().iterdir() if (d / "system.yaml").is_file())
    except FileNotFoundError:  # pragma: no cover
        return []


def overlay_dir(system: str) -> Path:
    """The installed overlay folder of ``system``: ``pushpush/overlays/<system>/`` in a wheel
    (PYNQ's ``pynq.overlays`` entry point), ``pynq_overlays/<system>/`` in a checkout; the
    last place the board looks (:func:`pushpush.pynq.overlay_files.find_overlay`)."""
    return installed_overlay_dir(system)


def load_app(example: str | os.PathLike[str]) -> ModuleType:
    """Import ``app.py`` of an example (under the name ``pushpush_app_<folder>``)."""
    folder = find_example(example)
    path = folder / "app.py"
    if not path.is_file():
        raise FileNotFoundError(f"example '{folder.name}' has no app.py ({path})")
    name = f"pushpush_app_{folder.name}"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def on_board() -> bool:
    """Whether PYNQ runs on a real board here (otherwise the simulated board is used)."""
    from .pynq import sim_wanted

    return not sim_wanted()


class _Ticker:
    """Prints '... <what> (N s)' every ``every`` seconds until stopped."""

    def __init__(self, progress: Progress, what: str, every: float = 5.0) -> None:
        self.progress, self.what, self.every = progress, what, every
        self._stop = threading.Event()
        self._t0 = time.monotonic()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.wait(self.every):
            self.progress(f"    ... {self.what} ({time.monotonic() - self._t0:.0f} s)")

    def __enter__(self) -> "_Ticker":
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()


def open_system(example: str | os.PathLike[str], *, outdir: Optional[str | os.PathLike[str]] = None,
                simulator: Optional[str] = None, progress: Optional[Progress] = None,
                board: Optional[str] = None, **kwargs: Any) -> Any:
    """Load an example's system through PYNQ and return its ``PushPushOverlay``.

    On a board: ``<system>.bit`` (built with ``pushpush build --target pynq_z1``) where
    :func:`pushpush.pynq.overlay_files.find_overlay` finds it: the example's folder
    (``pynq_overlays/<system>/`` there), the current folder, the installed overlays; a
    missing build raises ``OverlayNotBuilt`` naming every place looked at. Otherwise the simulated board: the system is generated into ``outdir``
    (default: a fresh temporary folder) and its simulator started (``simulator``: icarus,
    or verilator; ``PUSHPUSH_SIM`` overrides). ``progress`` receives one line per step.
    ``board`` (e.g. ``"zcu104"``) replaces the YAML's ``board:``: the simulated board is then
    that board (its addresses, bus widths and PS).
    """
    import pushpush.pynq as ppq  # registers the simulated board with PYNQ
    from .link import load as load_linked

    say: Progress = progress or (lambda s: None)
    folder = find_example(example)
    linked = load_linked(folder / "system.yaml", board=board)
    name = linked.name
    if on_board():
        from .pynq.overlay_files import find_overlay
        bit = find_overlay(name, folder, system_yaml=folder / "system.yaml")  # or says where it looked
        say(f"[1/2] loading {bit} onto the board")
        t0 = time.monotonic()
        ol = ppq.load(str(bit), **kwargs)
        say(f"      loaded in {time.monotonic() - t0:.1f} s")
        return ol

    sim = os.environ.get("PUSHPUSH_SIM") or simulator or "auto"
    out = Path(outdir) if outdir else Path(tempfile.mkdtemp(prefix=f"pushpush-{name}-"))
    say(f"[1/2] generating '{name}' for the simulated board into {out}")
    t0 = time.monotonic()
    bit = ppq.write_sim_overlay(linked, out, simulator=sim)
    say(f"      generated in {time.monotonic() - t0:.1f} s")
    say(f"[2/2] compiling the system ({sim}; builds are cached) and starting the simulated board")
    t0 = time.monotonic()
    with _Ticker(say, f"compiling/starting {sim}"):
        ol = ppq.load(str(bit), **kwargs)  # the manifest names the simulator
    dev = ol.device
    ran = getattr(dev, "simulator", None) or sim
    why = getattr(dev, "simulator_reason", "")
    say(f"      simulated board up in {time.monotonic() - t0:.1f} s "
        f"({ran}, {linked.clock_mhz:g} MHz system clock)" + (f"\n      {why}" if why else ""))
    return ol


def overlay_class(name: str, system: str, bitfile: Path, module: Optional[str] = None) -> type:
    """The board overlay class of an overlay package (``pushpush.overlays.<system>``): a
    ``PushPushOverlay`` that loads ``bitfile`` by default. Without PYNQ the class exists but
    refuses to be instantiated, so the package imports anywhere."""
    try:  # PYNQ is there on a board (and with pushpush-fpga[pynq])
        from pushpush.pynq import PushPushOverlay as base
    except ImportError:  # pragma: no cover
        base = None

    def __init__(self: Any, bitfile_name: Any = None, **kwargs: Any) -> None:
        if base is None:
            raise ImportError(f"the {system} overlay needs PYNQ: pip install 'pushpush-fpga[pynq]'")
        base.__init__(self, str(bitfile_name or bitfile), **kwargs)

    doc = f"The board's overlay (a ``PushPushOverlay``): ``{bitfile.name}`` of this folder by default."
    attrs = {"__init__": __init__, "__doc__": doc, "__module__": module or __name__}
    return type(name, (base or object,), attrs)
