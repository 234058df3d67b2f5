"""A resume checkpoint's file, read and checked before anything it holds is loaded: its bytes,
whether its MAC is this machine's key's, and whether its log is still as it was when it was
taken (checkpoint.py says what a checkpoint is, and why each check).

Apart from checkpoint.py so that `agentui --resume` reads and checks the file in a thread begun
before the plan's modules load (pydantic and the fold's models, ~0.1 s on the main thread):
reading its megabytes and their HMAC let go of the GIL, so with a core free they take nothing
from the first frame (~10 ms for a 1,000-agent session; issue 36).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import threading
from pathlib import Path
from typing import Any, NamedTuple

from agentui.core.support.paths import state_dir

CHECKPOINT_SUFFIX = ".checkpoint"
KEY_FILE = "checkpoint.key"
KEY_BYTES = 32
# 2: its MAC is an HMAC-SHA256 (OpenSSL's; ~3 ms for a 1,000-agent plan, keyed BLAKE2b's ~8 ms).
# 3: the agents' conversations follow the plan, read at first use (KeptConversations).
# 4: the closing events apart, as the steps are (KeptEvents): the first frame loads no event.
MAGIC = b"agentui resume checkpoint 4\n"
EDGE_BYTES = 1 << 16  # how much of the log's start and end its digest covers
MAC_BYTES = 32


def checkpoint_path(session: Path) -> Path:
    return session.with_name(session.stem + CHECKPOINT_SUFFIX)


class SignedCheckpoint(NamedTuple):  # not a dataclass: made in a quarter of the time
    """A checkpoint signed with this machine's key, taken from its log as the log is now."""

    data: bytes  # the whole file
    start: int  # where its pickle begins
    header: dict[str, Any]  # what it was taken from: the log, the code, the log's path


def read_signed(session: Path) -> SignedCheckpoint | None:
    """`session`'s checkpoint if its MAC is this machine's key's and it was taken from the log
    as the log is now, at this path; else None (none, stale, damaged, not ours). Whether this
    code made it is for its loader to check (the code's fingerprint reads pydantic's version)."""
    try:
        data = checkpoint_path(session).read_bytes()
        key = read_key()
        fingerprint = log_fingerprint(session)
        path = str(session.resolve())
    except OSError:
        return None
    if key is None:
        return None
    header, mac, start = _split(data)
    if header is None:
        return None
    try:
        meta = json.loads(header)
    except ValueError:
        return None
    if not isinstance(meta, dict) or meta.get("log") != fingerprint or meta.get("path") != path:
        return None  # stale (the log changed), or another file's
    if not hmac.compare_digest(mac, mac_of(key, header, memoryview(data)[start:])):
        return None
    return SignedCheckpoint(data, start, meta)


class CheckpointReading:
    """read_signed(session) in a thread of its own, begun at once; `result()` waits for it."""

    def __init__(self, session: Path) -> None:
        self.session = session
        self._signed: SignedCheckpoint | None = None
        self._thread = threading.Thread(target=self._read, name="checkpoint-read", daemon=True)
        self._thread.start()

    def _read(self) -> None:
        # Whatever goes wrong here (a header nested too deep for json, ...) costs only the
        # checkpoint: the log is read instead, and no traceback reaches the terminal.
        try:
            self._signed = read_signed(self.session)
        except Exception:
            self._signed = None

    def result(self) -> SignedCheckpoint | None:
        self._thread.join()
        return self._signed  # None too when the thread failed: the log is read instead


def _split(data: bytes) -> tuple[bytes | None, bytes, int]:
    """MAGIC, the header's length (4 bytes), the header (JSON), the MAC, and where the pickle
    starts (read in place: not a copy of its megabytes)."""
    if not data.startswith(MAGIC):
        return None, b"", 0
    at = len(MAGIC)
    size = int.from_bytes(data[at : at + 4], "big")
    header = data[at + 4 : at + 4 + size]
    mac = data[at + 4 + size : at + 4 + size + MAC_BYTES]
    if len(header) != size or len(mac) != MAC_BYTES:
        return None, b"", 0
    return header, mac, at + 4 + size + MAC_BYTES


def log_fingerprint(session: Path) -> dict[str, Any]:
    """The log as it is: size, modification time, and a digest of its first and last bytes
    (a log only grows, at its end; its start holds the header)."""
    with session.open("rb") as file:
        stat = os.fstat(file.fileno())
        digest = hashlib.blake2b(file.read(EDGE_BYTES), digest_size=16)
        file.seek(max(EDGE_BYTES, stat.st_size - EDGE_BYTES))
        digest.update(file.read(EDGE_BYTES))
    return {"size": stat.st_size, "mtime_ns": stat.st_mtime_ns, "edges": digest.hexdigest()}


def mac_of(key: bytes, header: bytes, payload: bytes | memoryview) -> bytes:
    mac = hmac.new(key, len(header).to_bytes(4, "big") + header, hashlib.sha256)
    mac.update(payload)  # megabytes: OpenSSL's HMAC lets go of the GIL meanwhile
    return mac.digest()


def read_key() -> bytes | None:
    """This machine's key, or None when there is none, or it is not one agentui made, or
    others may read it (then anyone could make a checkpoint this agentui loads)."""
    path = state_dir() / KEY_FILE
    try:
        with path.open("rb") as file:
            if os.fstat(file.fileno()).st_mode & 0o077:
                return None
            key = file.read(KEY_BYTES + 1)
    except FileNotFoundError:
        return None
    return key if len(key) == KEY_BYTES else None
