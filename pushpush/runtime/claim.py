"""One owner per software component: the claim, and the caller's memory it keeps.

A software component of a loaded overlay has at most one live runtime at a time, in any
process, Python or C (docs/architecture.md §2.2, "Restarts and owners"). The runtime proves
it by holding an exclusive ``flock`` on the component's **claim file**; the kernel drops the
lock when the owner closes it, exits or is killed, so a crash never leaves a stale claim.

Where: ``$PUSHPUSH_CLAIM_DIR``, else ``/tmp/pushpush-claims-<uid>``; one file per memory
that holds the windows and per window: ``m<dev>-<ino>-w<base>.claim``, with ``dev``/``ino``
those of the file the runtime maps the window from (``/dev/mem`` on the board, the simulated
board's shared-memory file there, so two simulated boards never share a claim) and ``base``
the window's byte address (8 hex digits). The C runtime's Linux layer (``pp_linux_platform``)
builds the same name, so Python and C programs refuse each other.

Layout of the file (:data:`CLAIM_BYTES` bytes; the constants are :mod:`pushpush.protocol`'s,
which renders them for C into ``c/pp_protocol.h``):

* bytes 0..255: the owner, one text line (``pid=1234 since=2026-11-27T18:03:12Z
  runtime=python component=host program=...``), NUL-padded;
* bytes 256..259: ``PPRS``; then from byte 260 one byte per import of the component (in
  the order of the system map's imports): the **caller's memory** of its static cep slot in
  the callee: bit 0 the ``SEQ`` of the last call written there (or being written), bit 1
  set while that write is under way, bit 7 set once a call was written. It outlives the
  process (the file stays), so a runtime started again continues the alternation (§2.2);
* from byte 1024, 2 bytes per word of the run-time area: the **journal** of its slots in
  use (at an allocation's first word: its words, then 0x80 | result words for a lent cep
  slot or 0 for the rep of a call in flight), so a runtime started again leaves the reps of
  its predecessor's calls in flight alone until their late replies land (strays) and answers
  late calls of its lent functions with ``BAD_FUNCTION``.

Example::

    claim = Claim.acquire(key_file="/dev/mem", base=0xFFFC0000, component="host",
                          runtime="python")       # ClaimRefused if another runtime owns it
    claim.record[0]                               # the caller's memory of import 0
    claim.release()
"""

from __future__ import annotations

import errno
import fcntl
import mmap
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

# the file's layout, shared with the C runtime (c/pp_protocol.h), is the protocol's
from ..protocol import (CLAIM_BYTES, JOURNAL_LENT, JOURNAL_OFFSET, MAX_JOURNAL_WORDS, OWNER_BYTES,
                       RECORD_MAGIC, RECORD_OFFSET, RECORD_SEQ, RECORD_VALID, RECORD_WRITING)

__all__ = ["CLAIM_BYTES", "OWNER_BYTES", "RECORD_MAGIC", "RECORD_OFFSET", "ClaimRefused", "Claim",
           "OwnerInfo", "JOURNAL_OFFSET", "JOURNAL_LENT", "RECORD_SEQ", "RECORD_WRITING", "RECORD_VALID", "claim_dir", "claim_path", "forget", "probe"]

#: Imports a claim file can remember.
MAX_IMPORTS = JOURNAL_OFFSET - RECORD_OFFSET


class ClaimRefused(RuntimeError):
    """Another live runtime owns the component. ``owner`` is its :class:`OwnerInfo`."""

    def __init__(self, message: str, owner: "OwnerInfo", path: str) -> None:
        super().__init__(message)
        self.owner = owner
        self.path = path


@dataclass(frozen=True)
class OwnerInfo:
    """What a claim file says about its (last) owner."""

    pid: Optional[int]
    since: str
    runtime: str
    component: str
    program: str

    @classmethod
    def parse(cls, raw: bytes) -> "OwnerInfo":
        text = raw[:OWNER_BYTES].split(b"\0", 1)[0].decode("utf-8", "replace").strip()
        fields: dict[str, str] = {}
        # "k=v k=v ... program=<the rest of the line>"
        head, _, program = text.partition(" program=")
        for part in head.split():
            k, _, v = part.partition("=")
            fields[k] = v
        pid: Optional[int]
        try:
            pid = int(fields.get("pid", ""))
        except ValueError:
            pid = None
        return cls(pid, fields.get("since", "?"), fields.get("runtime", "?"),
                   fields.get("component", "?"), program or "?")

    def describe(self) -> str:
        who = f"PID {self.pid}" if self.pid is not None else "an unknown process"
        return f"{who} ({self.runtime} runtime, program {self.program}) since {self.since}"


def claim_dir() -> Path:
    """``$PUSHPUSH_CLAIM_DIR``, else ``/tmp/pushpush-claims-<uid>`` (made on first use)."""
    d = os.environ.get("PUSHPUSH_CLAIM_DIR")
    return Path(d) if d else Path(f"/tmp/pushpush-claims-{os.getuid()}")


def claim_path(key_file: str, base: int) -> Path:
    """The claim file of the window at ``base`` in the memory mapped from ``key_file``."""
    st = os.stat(key_file)
    return claim_dir() / f"m{st.st_dev:x}-{st.st_ino:x}-w{base & 0xFFFFFFFF:08x}.claim"


def _program() -> str:
    argv = [a for a in sys.argv if a] or [sys.executable]
    return " ".join(argv)[:120].replace("\n", " ")


def _read_owner(fd: int) -> OwnerInfo:
    try:
        return OwnerInfo.parse(os.pread(fd, OWNER_BYTES, 0))
    except OSError:
        return OwnerInfo(None, "?", "?", "?", "?")


def _refusal(path: Path, component: str, owner: OwnerInfo) -> str:
    pid = owner.pid
    how = (f"end it first: Python: ol.free() (or exit the program); C: pp_linux_close() or exit; "
           f"or kill {pid}" if pid is not None else "end that program first")
    return (f"component '{component}' already has a live runtime: {owner.describe()} owns it "
            f"(claim {path}). A software component has one runtime at a time (two would take each "
            f"other's calls and SEQ bits); {how}. The claim is released when its owner exits, "
            "also by a crash.")


class Claim:
    """A held claim (see the module docstring); :meth:`release` (or the process's end) lets go.

    ``record`` is a writable memoryview of the caller's memory (one byte per import), backed by
    the file: stores reach the file at once (a shared mapping), so they survive ``kill -9``.
    ``journal`` is the run-time area's journal (2 bytes per word: at an allocation's first word
    its words, then :data:`JOURNAL_LENT` and the result words for a lent cep slot, 0 for a rep
    of a call in flight; 0, 0 elsewhere), so a runtime started again knows which run-time words
    its predecessor left in use (docs/architecture.md §2.2)."""

    def __init__(self, path: Path, fd: int, mm: mmap.mmap, component: str, nimports: int,
                 runtime_words: int = 0) -> None:
        self.path = path
        self._fd: Optional[int] = fd
        self._mm: Optional[mmap.mmap] = mm
        self.component = component
        view = memoryview(mm)
        self.record = view[RECORD_OFFSET:RECORD_OFFSET + max(nimports, 0)]
        self.journal = view[JOURNAL_OFFSET:JOURNAL_OFFSET + 2 * max(runtime_words, 0)]
        view.release()

    @classmethod
    def acquire(cls, key_file: str, base: int, component: str, runtime: str = "python",
                nimports: int = 0, runtime_words: int = 0) -> "Claim":
        """Claim the window at ``base``; :class:`ClaimRefused` names the live owner."""
        if nimports > MAX_IMPORTS or runtime_words > MAX_JOURNAL_WORDS:
            raise ValueError(f"component '{component}' has {nimports} imports and {runtime_words} "
                             f"run-time words; a claim file remembers at most {MAX_IMPORTS} and "
                             f"{MAX_JOURNAL_WORDS}")
        path = claim_path(key_file, base)
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        while True:
            fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError as e:
                owner = _read_owner(fd)
                os.close(fd)
                if e.errno not in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                    raise
                raise ClaimRefused(_refusal(path, component, owner), owner, str(path)) from None
            # the file may have been unlinked by its previous owner's release meanwhile: the
            # lock then guards nothing; open the name again
            try:
                same = os.stat(path).st_ino == os.fstat(fd).st_ino
            except FileNotFoundError:
                same = False
            if same:
                break
            os.close(fd)
        try:
            if os.fstat(fd).st_size < CLAIM_BYTES:
                os.ftruncate(fd, CLAIM_BYTES)
            mm = mmap.mmap(fd, CLAIM_BYTES, mmap.MAP_SHARED, mmap.PROT_READ | mmap.PROT_WRITE)
            since = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
            line = (f"pid={os.getpid()} since={since} runtime={runtime} component={component} "
                    f"program={_program()}").encode("utf-8", "replace")[:OWNER_BYTES - 1]
            mm[:OWNER_BYTES] = line.ljust(OWNER_BYTES, b"\0")
            if mm[OWNER_BYTES:RECORD_OFFSET] != RECORD_MAGIC:
                mm[OWNER_BYTES:CLAIM_BYTES] = RECORD_MAGIC + bytes(CLAIM_BYTES - RECORD_OFFSET)
        except BaseException:
            os.close(fd)
            raise
        return cls(path, fd, mm, component, nimports, runtime_words)

    @property
    def held(self) -> bool:
        return self._fd is not None

    def release(self) -> None:
        """Let go (idempotent). The file stays, with the caller's memory for the next owner."""
        fd, self._fd = self._fd, None
        if fd is None:
            return
        for view in (self.record, self.journal):
            try:
                view.release()
            except Exception:
                pass
        mm, self._mm = self._mm, None
        if mm is not None:
            try:
                mm.close()
            except BufferError:   # a view still exported: the mapping goes with the process
                pass
        os.close(fd)

    def __del__(self) -> None:
        try:
            self.release()
        except Exception:
            pass

    def __enter__(self) -> "Claim":
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


def _locked_by(path: Path) -> Optional[int]:
    """The PID holding a ``flock`` on ``path`` now (from ``/proc/locks``, which lists it
    without taking a lock: a probe never gets in a claimer's way), else None."""
    try:
        st = os.stat(path)
        with open("/proc/locks", encoding="ascii", errors="replace") as f:
            lines = f.read().splitlines()
    except OSError:
        return None
    want = f"{os.major(st.st_dev):02x}:{os.minor(st.st_dev):02x}:{st.st_ino}"
    for line in lines:
        parts = line.split()
        if "FLOCK" in parts and "->" not in parts and want in parts:
            try:
                return int(parts[parts.index(want) - 1])
            except (ValueError, IndexError):
                return -1
    return None


def probe(key_file: str, base: int) -> tuple[Optional[bool], Optional[OwnerInfo]]:
    """Whether the window at ``base`` has a live owner now, and what its claim file says
    about the (last) owner: ``(None, None)`` when no runtime ever claimed it."""
    try:
        path = claim_path(key_file, base)
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return None, None
    try:
        owner = _read_owner(fd)
    finally:
        os.close(fd)
    return _locked_by(path) is not None, owner


def forget(key_file: str) -> int:
    """Remove the claim files of the memory ``key_file`` that nobody holds (a simulated board
    whose memory goes away: its claims are garbage then); returns how many. A claim held now
    stays. Call it before the memory file is deleted (its device and inode name the files)."""
    try:
        st = os.stat(key_file)
    except OSError:
        return 0
    d = claim_dir()
    n = 0
    for path in d.glob(f"m{st.st_dev:x}-{st.st_ino:x}-w*.claim"):
        if _locked_by(path) is None:
            try:
                path.unlink()
                n += 1
            except OSError:
                pass
    return n
