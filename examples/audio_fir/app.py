"""audio_fir: a Verilog FIR filter that calls back into Python, on a PYNQ-Z1 or the simulated board.

``main(ol)`` takes the loaded overlay (``pushpush.pynq.load`` / ``pushpush.apps.open_system``)
and filters a test signal (a 440 Hz tone plus a 6 kHz tone at 48 kHz, 16-bit) with a
low-pass filter (a Hamming-windowed sinc, cut-off 2 kHz, coefficients in Q15). The hardware
``fir.fir(coeff, src, sink, taps)`` receives three *functions* and calls them back:
``coeff(i)`` for each tap, ``src()`` for each input sample (the stream ends when it raises),
``sink(y)`` for each output sample. Here they are Python functions: once the exports of the
``host`` component (``ol.export``), once plain Python lambdas lent for one call.

Checks: every output sample equals ``np.convolve(x, c)`` in int32 arithmetic exactly, the
coefficients were fetched once each in order, and the 6 kHz tone is attenuated.

Run: ``pushpush run examples/audio_fir`` (or in a notebook: ``r = main(ol)`` and plot
``r["x"]``, ``r["y"]``).
"""

from __future__ import annotations

import contextlib
import logging
import time
from typing import Any, Callable, Iterator

import numpy as np

FS = 48_000            # sample rate (Hz)
TONES = (440.0, 6000.0)
CUTOFF = 2000.0
MAX_TAPS = 32          # fir_core's MAX_TAPS parameter (default)


class EndOfStream(Exception):
    """Raised by the source after the last sample: fir_core ends the call."""


def lowpass_q15(taps: int, cutoff: float = CUTOFF, fs: float = FS) -> np.ndarray:
    """A Hamming-windowed sinc low-pass, unity gain at DC, as int Q15 coefficients."""
    k = np.arange(taps) - (taps - 1) / 2
    h = np.sinc(2 * cutoff / fs * k) * np.hamming(taps)
    h /= h.sum()
    return np.round(h * 32768).astype(np.int64)


def test_signal(n: int, amplitude: float = 0.45) -> np.ndarray:
    """``n`` 16-bit samples: two tones of ``amplitude`` full scale each."""
    t = np.arange(n) / FS
    x = sum(amplitude * np.sin(2 * np.pi * f * t) for f in TONES)
    return np.round(x * 32767).astype(np.int64)


def fir_reference(coeffs: np.ndarray, x: np.ndarray) -> np.ndarray:
    """What fir_core computes: y[n] = sum_k c[k] x[n-k], int32 wraparound."""
    if len(x) == 0:
        return np.zeros(0, dtype=np.int64)
    full = np.convolve(np.asarray(x, dtype=np.int64), np.asarray(coeffs[:MAX_TAPS], dtype=np.int64))
    return ((full[:len(x)] + (1 << 31)) % (1 << 32)) - (1 << 31)


def tone_amplitude(y: np.ndarray, freq: float, skip: int) -> float:
    """Amplitude of the ``freq`` component of ``y[skip:]`` (least squares on sin/cos)."""
    t = np.arange(len(y))[skip:] / FS
    a = np.stack([np.sin(2 * np.pi * freq * t), np.cos(2 * np.pi * freq * t), np.ones_like(t)], 1)
    sol, *_ = np.linalg.lstsq(a, np.asarray(y[skip:], dtype=float), rcond=None)
    return float(np.hypot(sol[0], sol[1]))


class _QuietEnd(logging.Filter):
    """The runtime logs every exception an export raises; the end of the stream is expected."""

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        text = record.getMessage()
        return not (isinstance(exc, (EndOfStream, StopIteration))
                    or "EndOfStream" in text or "StopIteration" in text)


@contextlib.contextmanager
def quiet_end() -> Iterator[None]:
    """Within the block the runtime does not log the stream's expected end (``source``
    raising :class:`EndOfStream`)."""
    quiet = _QuietEnd()
    logging.getLogger("pushpush.runtime").addFilter(quiet)
    handlers = list(logging.getLogger().handlers)
    for h in handlers:
        h.addFilter(quiet)
    try:
        yield
    finally:
        logging.getLogger("pushpush.runtime").removeFilter(quiet)
        for h in handlers:
            h.removeFilter(quiet)


def run_fir(ol: Any, coeffs: np.ndarray, x: np.ndarray, *, lambdas: bool = False,
            timeout: float = 600.0) -> dict[str, Any]:
    """One ``fir.fir`` call over ``x``; returns the outputs, the coefficient calls, timing."""
    samples = iter(int(v) for v in x)
    out: list[int] = []
    coeff_calls: list[int] = []

    def coeff(i: int) -> int:
        coeff_calls.append(i)
        return int(coeffs[i])

    def source() -> int:
        for v in samples:
            return v
        raise EndOfStream()

    def sink(y: int) -> None:
        out.append(y)

    rt = ol.runtime()
    t0 = time.perf_counter()
    if lambdas:   # plain callables, lent to the hardware for this call only
        rt.start()
        ol.fir.fir(lambda i: coeff(i), lambda: source(), lambda y: sink(y), len(coeffs),
                   timeout=timeout)
    else:         # the host component's exports (fixed slots in its window)
        ol.export("coeff", coeff)
        ol.export("source", source)
        ol.export("sink", sink)
        ol.fir.fir(coeff=rt.exports["coeff"], src=rt.exports["source"], sink=rt.exports["sink"],
                   taps=len(coeffs), timeout=timeout)
    wall = time.perf_counter() - t0
    return {"y": np.array(out, dtype=np.int64), "coeff_calls": coeff_calls, "wall_s": wall}


def main(ol: Any, *, samples: int = 480, taps: int = 32, lambda_samples: int = 24,
         out: Callable[[str], None] = print) -> dict[str, Any]:
    """Filter the test signal through the hardware and check it; returns the arrays too."""
    coeffs = lowpass_q15(taps)
    x = test_signal(samples)
    want = fir_reference(coeffs, x)
    bridge = getattr(getattr(ol, "device", None), "bridge", None)
    simulated = bridge is not None and hasattr(bridge, "info")
    clock = float(ol.system.linked.clock_mhz)

    with quiet_end():
        c0 = int(bridge.info()["cycle"]) if simulated else 0
        r = run_fir(ol, coeffs, x)
        cycles = int(bridge.info()["cycle"]) - c0 if simulated else None
        xl = test_signal(lambda_samples)
        rl = run_fir(ol, coeffs[:4], xl, lambdas=True)
    y = r["y"]
    wantl = fir_reference(coeffs[:4], xl)

    problems = []
    if len(y) != len(want):
        problems.append(f"{len(y)} output samples, want {len(want)}")
    elif not np.array_equal(y, want):
        bad = np.flatnonzero(y != want)
        problems.append(f"{len(bad)} samples differ from np.convolve, first at n={bad[0]}: "
                        f"{y[bad[0]]} != {want[bad[0]]}")
    if r["coeff_calls"] != list(range(min(taps, MAX_TAPS))):
        problems.append(f"coeff() calls {r['coeff_calls'][:8]}..., want 0..{taps - 1} once each")
    if not np.array_equal(rl["y"], wantl):
        problems.append(f"lambdas: outputs {rl['y'][:6].tolist()}..., want {wantl[:6].tolist()}...")

    skip = taps
    y_scaled = (y if len(y) == len(want) else want) / 32768.0 ** 2   # Q15 x 16-bit
    amp_in = [tone_amplitude(x / 32768.0, f, skip) for f in TONES]
    amp_out = [tone_amplitude(y_scaled, f, skip) for f in TONES]
    gains_db = [20 * np.log10(max(o, 1e-9) / i) for i, o in zip(amp_in, amp_out)]
    if not (gains_db[0] > -1.0 and gains_db[1] < -20.0):
        problems.append(f"filter response off: {TONES[0]:g} Hz {gains_db[0]:.1f} dB, "
                        f"{TONES[1]:g} Hz {gains_db[1]:.1f} dB")

    ok = not problems
    where = "SIMULATED board" if simulated else "board"
    out(f"audio_fir: {taps}-tap low-pass (Q15, cut-off {CUTOFF:g} Hz) in Verilog, "
        f"samples from and to Python, {where}")
    out(f"  fir.fir(coeff=host.coeff, src=host.source, sink=host.sink, taps={taps}): "
        f"{len(y)} samples out for {samples} in, {len(r['coeff_calls'])} coeff() calls")
    out(f"  output vs np.convolve (int32): "
        f"{'all equal' if len(y) == len(want) and np.array_equal(y, want) else 'MISMATCH'}")
    for f, i, o, g in zip(TONES, amp_in, amp_out, gains_db):
        out(f"  {f:>6g} Hz tone: in {i:.3f}, out {o:.3f} of full scale ({g:+.1f} dB)")
    out(f"  higher-order: fir.fir(lambda i: ..., lambda: ..., lambda y: ..., 4) over "
        f"{lambda_samples} samples: {'equal to np.convolve' if np.array_equal(rl['y'], wantl) else 'MISMATCH'}")
    rate = samples / r["wall_s"] if r["wall_s"] else 0.0
    if simulated:
        out(f"  {r['wall_s']:.1f} s wall clock ({rate:.0f} samples/s: speed of the SIMULATION, "
            f"each sample is 2 calls into Python); {cycles} simulated cycles "
            f"({cycles / max(samples, 1):.1f} per sample at {clock:g} MHz)")
    else:
        out(f"  {r['wall_s']:.2f} s, {rate:.0f} samples/s (each sample: src() and sink() "
            "called from the PL into Python)")
    out(f"  checks: {'passed' if ok else 'FAILED'}")
    for p in problems:
        out(f"    {p}")
    return {"ok": ok, "x": x, "y": y, "want": want, "coeffs": coeffs, "y_lambdas": rl["y"],
            "gains_db": dict(zip(TONES, gains_db)), "wall_s": r["wall_s"], "cycles": cycles,
            "simulated": simulated, "problems": problems}
