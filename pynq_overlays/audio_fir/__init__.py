"""The audio_fir overlay: a Verilog FIR filter that calls back into Python for coefficients, samples and output.

On a PYNQ-Z1 (after ``build.sh`` has put ``audio_fir.bit`` and ``audio_fir.hwh`` here)::

    from pushpush.overlays.audio_fir import AudioFirOverlay      # installed package
    ol = AudioFirOverlay()   # loads audio_fir.bit: a PushPushOverlay
    run(ol)                  # the example's application

Anywhere (the board's build if present, else the simulated board)::

    ol = load()
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
SYSTEM = "audio_fir"
BITFILE = HERE / f"{SYSTEM}.bit"

__all__ = ["AudioFirOverlay", "load", "run", "BITFILE", "SYSTEM"]


try:  # PYNQ is there on a board (and with pushpush[pynq])
    from pushpush.pynq import PushPushOverlay as _Overlay
except ImportError:  # pragma: no cover
    _Overlay = None


class AudioFirOverlay(_Overlay or object):  # type: ignore[misc]
    """The board's overlay (a ``PushPushOverlay``): this folder's ``audio_fir.bit`` by default."""

    def __init__(self, bitfile_name: Any = None, **kwargs: Any) -> None:
        if _Overlay is None:
            raise ImportError("the audio_fir overlay needs PYNQ: pip install 'pushpush[pynq]'")
        super().__init__(str(bitfile_name or BITFILE), **kwargs)


def load(**kwargs: Any) -> Any:
    """The overlay of audio_fir: the board's build when a board is present, else the simulated
    board generated from the example (see ``pushpush.apps.open_system``)."""
    from pushpush.apps import open_system

    return open_system(SYSTEM, **kwargs)


def run(ol: Any, **options: Any) -> dict:
    """Run the example's application (examples/audio_fir/app.py) on the loaded overlay."""
    from pushpush.apps import load_app

    return load_app(SYSTEM).main(ol, **options)
