"""A content-addressed cache of simulation builds, shared by processes and runs.

A build (``iverilog`` or Verilator, through cocotb's runner) is keyed by a hash of
everything that goes into it: the content and order of every source file, the toplevel,
parameters, defines, include folders' files, build arguments, timescale, the simulator and
its version, cocotb's version and libraries, and Python's version. An entry is the build
folder plus ``pushpush-cache.json`` naming its artifact (``sim.vvp``, or Verilator's
executable) and that artifact's SHA-256; an entry whose artifact is missing or does not
match is rebuilt, not trusted.

Where: ``$PUSHPUSH_CACHE`` or ``$XDG_CACHE_HOME/pushpush/sim`` (``~/.cache/pushpush/sim``).
Size: at most ``$PUSHPUSH_CACHE_MB`` (default 2048) MB; the least recently used entries go
first. ``PUSHPUSH_CACHE=off`` (or ``0``) turns the cache off.

Concurrency: a build holds an exclusive ``flock`` on ``<key>.lock`` (released by the
kernel if the process dies) and builds in a private folder, renamed into place when
complete, so two processes that want the same build at once build it once and both use it.

Example::

    from pushpush.build.cache import BuildCache
    cache = BuildCache.default()
    entry = cache.get_or_build(key_inputs, artifact="sim.vvp", build=lambda folder: ...)
"""

from __future__ import annotations

import errno
import fcntl
import hashlib
import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Optional

__all__ = ["BuildCache", "CacheError", "build_key", "simulator_version", "MANIFEST"]

MANIFEST = "pushpush-cache.json"
FORMAT = 1
#: How long a process waits for another one building the same entry.
LOCK_TIMEOUT_S = 3600.0


class CacheError(RuntimeError):
    """The build cache cannot be used (e.g. a lock is held too long)."""


@lru_cache(maxsize=None)
def simulator_version(simulator: str, executable: str = "") -> str:
    """The simulator's version line (part of every key: a new simulator rebuilds)."""
    cmd = {"icarus": [executable or "iverilog", "-V"],
           "verilator": [executable or "verilator", "--version"]}.get(simulator)
    if cmd is None:
        return simulator
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=60, check=False)
    except (OSError, subprocess.TimeoutExpired) as e:
        return f"{simulator}: {e}"
    text = (out.stdout or out.stderr).strip().splitlines()
    return f"{shutil.which(cmd[0]) or cmd[0]}: {text[0] if text else '?'}"


def _file_digest(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def build_key(*, simulator: str, toplevel: str, sources: Sequence[Path],
              parameters: Mapping[str, object], build_args: Sequence[str] = (),
              defines: Mapping[str, object] | None = None, includes: Sequence[Path] = (),
              timescale: Optional[tuple[str, str]] = None, waves: bool = False,
              simulator_id: str = "") -> tuple[str, dict[str, Any]]:
    """(hex key, the inputs it hashes) for one build."""
    import cocotb
    import cocotb_tools.config

    inc_files: list[list[str]] = []
    for d in includes:
        for f in sorted(Path(d).rglob("*")):
            if f.is_file() and f.suffix in (".v", ".vh", ".sv", ".svh", ".h", ".inc"):
                inc_files.append([str(f.relative_to(d)), _file_digest(f)])
    inputs: dict[str, Any] = {
        "format": FORMAT,
        "simulator": simulator,
        "simulator_version": simulator_id or simulator_version(simulator),
        "cocotb": [cocotb.__version__, str(cocotb_tools.config.libs_dir)],
        "python": sys.version.split()[0],
        "toplevel": toplevel,
        "sources": [[Path(s).name, _file_digest(Path(s))] for s in sources],
        "parameters": {str(k): str(v) for k, v in sorted(parameters.items())},
        "defines": {str(k): str(v) for k, v in sorted((defines or {}).items())},
        "includes": inc_files,
        "build_args": list(build_args),
        "timescale": list(timescale) if timescale else None,
        "waves": bool(waves),
    }
    text = json.dumps(inputs, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:40], inputs


@dataclass
class BuildCache:
    """The cache folder and its size limit (see the module docstring)."""

    root: Path
    limit_bytes: int = 2048 << 20

    @classmethod
    def default(cls) -> Optional["BuildCache"]:
        """The user's cache, or None when ``$PUSHPUSH_CACHE`` turns it off."""
        env = os.environ.get("PUSHPUSH_CACHE", "")
        if env.lower() in ("0", "off", "no", "false", "none"):
            return None
        if env:
            root = Path(env)
        else:
            base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
            root = Path(base) / "pushpush" / "sim"
        mb = int(os.environ.get("PUSHPUSH_CACHE_MB", "2048") or 2048)
        return cls(root, mb << 20)

    # ------------------------------------------------------------------ entries

    def entry(self, key: str) -> Path:
        return self.root / key

    def valid(self, key: str) -> bool:
        """Whether the entry is complete and its artifact is the one that was built."""
        folder = self.entry(key)
        try:
            meta = json.loads((folder / MANIFEST).read_text())
            artifact = folder / meta["artifact"]
            return (meta.get("key") == key and artifact.is_file()
                    and artifact.stat().st_size == meta["size"]
                    and _file_digest(artifact) == meta["sha256"])
        except (OSError, ValueError, KeyError, TypeError):
            return False

    def held(self, lock: str) -> bool:
        """Whether some process holds the lock file ``lock`` in the cache folder (e.g.
        ``<key>.lock`` while the entry is being built); a look, not a wait."""
        path = self.root / lock
        if not path.exists():
            return False
        try:
            fd = os.open(path, os.O_RDWR)
        except OSError:
            return False
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            return True
        finally:
            os.close(fd)       # closing releases a lock taken here
        return False

    def _lock(self, key: str, timeout: float) -> int:
        self.root.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.root / f"{key}.lock", os.O_RDWR | os.O_CREAT, 0o644)
        deadline = time.monotonic() + timeout
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return fd
            except OSError as e:
                if e.errno not in (errno.EAGAIN, errno.EACCES):
                    os.close(fd)
                    raise
            if time.monotonic() > deadline:
                os.close(fd)
                raise CacheError(f"another process has been building {self.entry(key)} for "
                                 f"{timeout:g} s; wait for it, or stop it and run again")
            time.sleep(0.1)

    def get_or_build(self, key: str, inputs: Mapping[str, Any], artifact: str,
                     build: Callable[[Path], None], *, keep: Optional[Iterable[str]] = None,
                     lock_timeout: float = LOCK_TIMEOUT_S) -> tuple[Path, bool]:
        """The entry folder of ``key`` and whether it was built now. ``build(folder)``
        builds into an empty folder and must produce ``folder/artifact``; ``keep`` (glob
        patterns) prunes the folder to what running needs (default: keep everything)."""
        folder = self.entry(key)
        if self.valid(key):
            self._touch(folder)
            return folder, False
        fd = self._lock(key, lock_timeout)
        try:
            if self.valid(key):  # another process built it while we waited
                self._touch(folder)
                return folder, False
            work = self.root / f"{key}.building-{os.getpid()}"
            shutil.rmtree(work, ignore_errors=True)
            work.mkdir(parents=True)
            try:
                build(work)
                made = work / artifact
                if not made.is_file():
                    raise CacheError(f"the build made no {artifact} in {work}")
                if keep is not None:
                    _prune(work, [artifact, MANIFEST, *keep])
                meta = {"key": key, "artifact": artifact, "size": made.stat().st_size,
                        "sha256": _file_digest(made), "created": time.time(), "inputs": inputs}
                (work / MANIFEST).write_text(json.dumps(meta, indent=1, sort_keys=True))
                if folder.exists():  # an invalid entry: replace it
                    shutil.rmtree(folder, ignore_errors=True)
                os.replace(work, folder)
            except BaseException:
                shutil.rmtree(work, ignore_errors=True)
                raise
        finally:
            os.close(fd)
        self.evict(protect=key)
        return folder, True

    @staticmethod
    def _touch(folder: Path) -> None:
        try:
            os.utime(folder / MANIFEST)
        except OSError:
            pass

    # ------------------------------------------------------------------ size

    def entries(self) -> list[tuple[float, int, str]]:
        """(last use, bytes, key) of every complete entry, least recently used first."""
        out = []
        if not self.root.is_dir():
            return out
        for folder in self.root.iterdir():
            meta = folder / MANIFEST
            if folder.is_dir() and meta.is_file():
                size = sum(f.stat().st_size for f in folder.rglob("*") if f.is_file())
                out.append((meta.stat().st_mtime, size, folder.name))
        return sorted(out)

    def evict(self, protect: str = "") -> list[str]:
        """Remove least recently used entries until the cache is within its limit."""
        entries = self.entries()
        total = sum(size for _, size, _ in entries)
        removed = []
        for _, size, key in entries:
            if total <= self.limit_bytes:
                break
            if key == protect:
                continue
            fd = os.open(self.root / f"{key}.lock", os.O_RDWR | os.O_CREAT, 0o644)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                os.close(fd)
                continue  # being built or replaced right now
            try:
                shutil.rmtree(self.entry(key), ignore_errors=True)
                total -= size
                removed.append(key)
            finally:
                os.close(fd)
        return removed


def _prune(folder: Path, keep: Sequence[str]) -> None:
    kept: set[Path] = set()
    for pattern in keep:
        kept.update(folder.glob(pattern))
    for f in sorted(folder.rglob("*"), reverse=True):
        if f.is_file() and f not in kept:
            f.unlink()
        elif f.is_dir() and not any(f.iterdir()):
            f.rmdir()
