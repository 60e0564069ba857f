"""pushpush through PYNQ: the same user code on a PYNQ-Z1 and on a simulated board.

* :func:`load` / :class:`PushPushOverlay` (:mod:`.overlay`): a ``pynq.Overlay`` of a pushpush system whose
  attributes are the system's functions (``ol.mixer.mix(...)``, ``ol.export("neg", fn)``).
* :mod:`.simulated.device`: :class:`SimDevice`, the PYNQ device that is the simulated board (the
  default when there is no board; ``PUSHPUSH_BOARD=sim|pynq`` forces the choice). Importing
  this package registers it, so import it before PYNQ's first ``Overlay``/``MMIO``.
* :mod:`pushpush.codegen.hwh` and :mod:`.simulated.simbit`: the ``.hwh`` and the simulation ``.bit`` of a system.
* :mod:`.board`: the runtime backend over PYNQ (MMIO / mapped memory); :mod:`.driver`: the
  ``DefaultIP`` driver bound by VLNV; :mod:`.simulated.bridge`: the simulator process and its bridge.

Example (laptop or board alike)::

    import pushpush.pynq as ppq
    ol = ppq.load("examples/pingpong/system.yaml")   # a board: its Vivado build (find_overlay);
                                                     # else the simulated board, generated + started
    print(ol.callee.f(41))                           # a Verilog function, called from Python
    ol.free()
"""

from __future__ import annotations

from typing import Any

from ..codegen.hwh import render_hwh
from .overlay_files import (OverlayNotBuilt, PynqVersionError, check_overlay_files,  # noqa: F401
                            find_overlay, map_path_for)
from .simulated.bridge import SimulatorError
from .simulated.simbit import read_manifest, write_sim_overlay

try:  # PYNQ is an optional dependency: hwh/simbit work without it
    import pynq.pl_server as _pynq  # noqa: F401  (a bare 'pynq' may be a namespace package)
except ImportError:  # pragma: no cover
    _pynq = None

__all__ = ["load", "PushPushOverlay", "SimDevice", "SimulatorError", "OverlayNotBuilt",
           "PynqVersionError", "find_overlay", "render_hwh",
           "write_sim_overlay", "read_manifest", "sim_wanted", "reset_dma"]



def _source_checkout_overlays() -> None:
    """PYNQ's ``Overlay("x.bit")`` with a relative name imports every ``pynq.overlays``
    entry point, pushpush's ``pushpush.overlays`` included: the wheel has that folder
    (``pynq_overlays/`` installed there), a source checkout does not, and PYNQ would fail
    with ModuleNotFoundError before looking in the current folder. In a source checkout,
    stand ``pushpush.overlays`` for ``pynq_overlays/`` (what the wheel installs there)."""
    import importlib.util
    import sys
    import types

    from pushpush.resources import OVERLAYS_DIRNAME, _REPO

    try:
        if importlib.util.find_spec("pushpush.overlays") is not None:
            return
    except (ImportError, ValueError):
        pass
    mod = types.ModuleType("pushpush.overlays", "pynq_overlays/ of a source checkout")
    mod.__file__ = str(_REPO / OVERLAYS_DIRNAME / "__init__.py")
    mod.__path__ = [str(_REPO / OVERLAYS_DIRNAME)]
    sys.modules["pushpush.overlays"] = mod


if _pynq is not None:   # the overlay needs PYNQ (pushpush.pynq.overlay)
    _source_checkout_overlays()
    from .overlay import PushPushOverlay, load
    from .dma_guard import reset_dma
    from .simulated.device import SimDevice, sim_wanted
else:  # pragma: no cover
    SimDevice = None  # type: ignore[assignment]

    def sim_wanted() -> bool:  # type: ignore[misc]
        return False

    def load(*args: Any, **kwargs: Any) -> Any:  # type: ignore[misc]
        raise ImportError("pushpush.pynq.load needs PYNQ: pip install 'pushpush-fpga[simboard]' (PYNQ and the "
                          "simulated board; a board's PYNQ image has PYNQ)")

    PushPushOverlay = None  # type: ignore[assignment,misc]

    def reset_dma(*args: Any, **kwargs: Any) -> None:  # type: ignore[misc]
        raise ImportError("pushpush.pynq.reset_dma drives PYNQ's DMA driver: it needs PYNQ")
