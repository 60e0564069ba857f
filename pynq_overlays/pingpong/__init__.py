"""The pingpong overlay: the calls table of the PushPush paper (Table II): caller.run(n) and callee.f.

On a PYNQ-Z1 (after ``build.sh`` has put ``pingpong.bit`` and ``pingpong.hwh`` here)::

    from pushpush.overlays.pingpong import PingpongOverlay      # installed package
    ol = PingpongOverlay()   # loads pingpong.bit: a PushPushOverlay
    run(ol)       # the example's application (examples/pingpong/app.py)

Anywhere (the board's build if present, else the simulated board)::

    ol = load()
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pushpush.apps import load_app, open_system, overlay_class

SYSTEM = "pingpong"
BITFILE = Path(__file__).resolve().parent / f"{SYSTEM}.bit"
PingpongOverlay = overlay_class("PingpongOverlay", SYSTEM, BITFILE, __name__)

__all__ = ["PingpongOverlay", "load", "run", "BITFILE", "SYSTEM"]


def load(**kwargs: Any) -> Any:
    """The overlay: the board's build when a board is present, else the simulated board."""
    return open_system(SYSTEM, **kwargs)


def run(ol: Any, **options: Any) -> dict:
    """Run the example's application on the loaded overlay."""
    return load_app(SYSTEM).main(ol, **options)
