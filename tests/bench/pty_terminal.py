"""A pseudo-terminal for the benches: a command exec'd on it, keys written to it, each frame
read back whole and parsed by pyte, with the time its last byte arrived.

A frame is whole when its synchronized-output block has ended: Textual wraps each frame in
?2026h ... ?2026l once the terminal says it supports that mode, which this terminal does
(it answers Textual's DECRQM query as kitty, WezTerm, iTerm2 or a recent xterm would). Bytes
written outside a block (before the answer reached the app) are parsed as they come.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import pty
import select
import signal
import struct
import termios
import time
from collections.abc import Callable

import pyte

SYNC_START = b"\x1b[?2026h"
SYNC_END = b"\x1b[?2026l"
SYNC_QUERY = b"\x1b[?2026$p"
SYNC_SUPPORTED = b"\x1b[?2026;2$y"  # "supported, reset": Textual then wraps every frame
SAFETY_NET_S = 120.0  # bounds a hung run only


class PtyTerminal:
    """`argv` exec'd on a `columns` x `rows` pseudo-terminal; `began` is just before the fork."""

    def __init__(self, argv: list[str], env: dict[str, str], size: tuple[int, int]) -> None:
        columns, rows = size
        self.began = time.perf_counter()
        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # the child: become the command
            os.execvpe(argv[0], argv, env)
        fcntl.ioctl(self.fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
        self.screen = pyte.Screen(columns, rows)
        self._stream = pyte.ByteStream(self.screen)
        self._pending = b""  # bytes of a synchronized block not yet ended
        self._in_sync = False
        self.frames = 0
        self.synced_frames = 0
        self.closed = False

    def text(self) -> str:
        return "\n".join(self.screen.display)

    def send(self, data: bytes) -> float:
        """Write keys as a person's terminal does; returns the time just before the write (on a
        busy machine this process may be descheduled right after it, while the app reads)."""
        sent = time.perf_counter()
        os.write(self.fd, data)
        return sent

    def _take(self, chunk: bytes, arrived: float, shown: Callable[[], bool] | None) -> bool:
        """Split what was read into whole frames and parse each; True when a whole frame made
        `shown()` true (checked after each frame, so a later frame in the same read is not
        the one timed)."""
        if SYNC_QUERY in chunk:
            os.write(self.fd, SYNC_SUPPORTED)
        data = self._pending + chunk
        self._pending = b""
        hit = False
        while data:
            if self._in_sync:
                end = data.find(SYNC_END)
                if end < 0:
                    self._pending = data
                    break
                self._stream.feed(data[: end + len(SYNC_END)])
                data = data[end + len(SYNC_END) :]
                self._in_sync = False
                self.frames += 1
                self.synced_frames += 1
            else:
                start = data.find(SYNC_START)
                outside = data if start < 0 else data[:start]
                keep = 0  # an escape cut at the end of a read may be the start of ?2026h
                if start < 0:
                    tail = data.rfind(b"\x1b")
                    if tail >= 0 and len(data) - tail < len(SYNC_START):
                        keep = len(data) - tail
                        outside = data[:tail]
                if outside:
                    self._stream.feed(outside)
                    self.frames += 1
                if start < 0:
                    self._pending = data[len(data) - keep :] if keep else b""
                    data = b""
                else:
                    data = data[start:]
                    self._in_sync = True
            if not hit and shown is not None and not self._in_sync and shown():
                hit = True
        return hit

    def pump(self, timeout: float, shown: Callable[[], bool] | None = None) -> float | None:
        """Read what the command wrote within `timeout` (and whatever follows at once); the
        arrival of the frame that made `shown()` true, if one did."""
        wait = timeout
        while not self.closed and select.select([self.fd], [], [], wait)[0]:
            try:
                chunk = os.read(self.fd, 1 << 16)
            except OSError:  # the command exited: the pty is closed
                chunk = b""
            if not chunk:
                self.closed = True
                break
            arrived = time.perf_counter()
            if self._take(chunk, arrived, shown):
                return arrived
            wait = 0.0
        return None

    def until(self, shown: Callable[[], bool], what: str, safety_s: float = SAFETY_NET_S) -> float:
        """Read until a whole frame makes `shown()` true: the time that frame's last byte came."""
        deadline = time.perf_counter() + safety_s
        while time.perf_counter() < deadline and not self.closed:
            arrived = self.pump(0.5, shown)
            if arrived is not None:
                return arrived
        raise TimeoutError(f"never showed {what}; the screen:\n{self.text()}")

    def drain(self, seconds: float) -> None:
        """Read and parse for `seconds` (the command's frames keep the pty from filling)."""
        deadline = time.perf_counter() + seconds
        while (left := deadline - time.perf_counter()) > 0 and not self.closed:
            self.pump(min(left, 0.1))

    def close(self) -> None:
        if self.pid:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
            os.close(self.fd)
            self.pid = 0
