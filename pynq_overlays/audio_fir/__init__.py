"""The audio_fir overlay: a Verilog FIR filter that calls back into Python for coefficients, samples and output.

On a PYNQ-Z1 (after ``build.sh`` has put ``audio_fir.bit`` and ``audio_fir.hwh`` here)::

    from pushpush.overlays.audio_fir import AudioFirOverlay      # installed package
    ol = AudioFirOverlay()   # loads audio_fir.bit: a PushPushOverlay
    run(ol)       # the example's application (examples/audio_fir/app.py)

Anywhere (the board's build if present, else the simulated board)::

    ol = load()
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pushpush.apps import load_app, open_system, overlay_class

SYSTEM = "audio_fir"
BITFILE = Path(__file__).resolve().parent / f"{SYSTEM}.bit"
AudioFirOverlay = overlay_class("AudioFirOverlay", SYSTEM, BITFILE, __name__)

__all__ = ["AudioFirOverlay", "load", "run", "BITFILE", "SYSTEM"]


def load(**kwargs: Any) -> Any:
    """The overlay: the board's build when a board is present, else the simulated board."""
    return open_system(SYSTEM, **kwargs)


def run(ol: Any, **options: Any) -> dict:
    """Run the example's application on the loaded overlay."""
    return load_app(SYSTEM).main(ol, **options)
