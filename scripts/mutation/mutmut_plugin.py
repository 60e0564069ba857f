"""pytest plugin for mutmut runs (run_mutation.py loads it with ``-p mutmut_plugin``).

mutmut forks every mutant's test run from a process that has already run the tests once
(to learn which tests call which function). pushpush keeps one :class:`SignatureCodec` per
signature for the life of the process (``codec_of``'s cache), whose closures come from
``_encoder``/``_decoder``/``_args_encoder``: without this plugin a mutant of those functions
would never run in a test whose signature was cached before (it would survive whatever the
tests check), and the coverage map would miss every test after the first with a given
signature. So each test starts with the cache empty, as a fresh process would.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator

import pytest


@pytest.fixture(autouse=True)
def _pushpush_fresh_caches() -> Iterator[None]:
    codec = sys.modules.get("pushpush.types.codec")
    if codec is not None:
        codec._CODECS.clear()  # type: ignore[attr-defined]
    yield
