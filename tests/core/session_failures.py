"""Disks that refuse a session, made to fail the same way on every run (as root too).

A data dir under a regular file cannot be made whatever the user (ENOTDIR, root included); a
disk that fills is a file whose writes stop with ENOSPC once a set number of bytes is in it.
"""

from __future__ import annotations

import errno
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

import pytest

from agentui.core.session import writer as writer_module


def unwritable_dir(tmp_path: Path) -> Path:
    """A sessions folder nobody can make, root included: its parent is a regular file."""
    blocker = tmp_path / "data"
    blocker.write_text("a file where the data folder should be")
    return blocker / "sessions"


class FillingFile:
    """A session file on a disk with `room` bytes left after its first write: the write that
    would pass that puts what fits and raises ENOSPC, as a full disk does mid-line."""

    def __init__(self, file: IO[bytes], room: int) -> None:
        self._file = file
        self._room = room
        self._left: int | None = None  # set by the first write

    def write(self, data: bytes) -> int:
        if self._left is None:
            self._left = self._room
            return self._file.write(data)
        if len(data) > self._left:
            self._file.write(data[: self._left])
            self._file.flush()
            self._left = 0
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        self._left -= len(data)
        return self._file.write(data)

    def __getattr__(self, name: str) -> object:
        return getattr(self._file, name)  # flush, fileno, close, truncate, seek


@contextmanager
def disk_fills_after_first_write(monkeypatch: pytest.MonkeyPatch, room: int) -> Iterator[None]:
    real = writer_module.create_private

    def create(path: Path) -> IO[bytes]:
        return FillingFile(real(path), room)  # type: ignore[return-value]

    monkeypatch.setattr(writer_module, "create_private", create)
    yield
