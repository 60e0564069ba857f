"""pushpush's PYNQ overlays (installed as ``pushpush.overlays``, PYNQ's ``pynq.overlays``
entry point): one folder per example system with its driver module, its build script and,
once built with Vivado, ``<system>.bit`` and ``<system>.hwh`` next to ``<system>.map.json``.
See README.md."""
