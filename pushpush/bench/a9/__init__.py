"""The Cortex-A9 estimate of the software rows of ``pushpush bench calls`` (issue 32).

:mod:`.count` cross-compiles the generated C runtime with :file:`harness.c` and counts its
call path's instructions and PS-PL accesses under an emulator; :mod:`.model` turns the
counts into CPU cycles and MCalls/s on a PYNQ-Z1 (``python -m pushpush.bench.a9.model``
prints both).
"""
