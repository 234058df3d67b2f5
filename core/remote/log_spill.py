"""The event log's oldest entries, on disk: what keeps a server that runs for days small.

Every state event stays in the log for the server's life (a viewer attaching late folds the
whole run, and any SSE id ever sent must still resume). In memory that grows with every agent
(more with long conversations: each message is in its `conversation:changed`;
tests/bench/serve_bench.py measures it). So the oldest entries go, a block at a time, to a file
of the server's own, compressed (a small part of their size in memory), and come back
exactly as they were when a client reads that far back. The session file cannot stand in for
it: it merges deltas (keeping the first piece's seq), so an id pointing inside a merged delta
could not be resumed without doubling or losing text, and `--no-session` has none.

The file is a `TemporaryFile`: unlinked at once, readable by this process alone, gone when it
ends, even by a crash. It lives in the state directory (`serve/`), not in /tmp, which is often
memory (tmpfs). Blocks are pickled: the file holds only what this process wrote to it.

    spill = LogSpill()
    block = spill.write(first_position, slots, seqs)   # None: the disk refused, keep them
    slots, seqs = spill.read(block)
"""

from __future__ import annotations

import logging
import os
import pickle
import tempfile
import zlib
from array import array
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from agentui.core.remote.delta_runs import DeltaRun
from agentui.core.remote.log_entry import LogEntry
from agentui.core.session.reader import collector_paused
from agentui.core.support.paths import state_dir

log = logging.getLogger("agentui.remote")

Slot = LogEntry | DeltaRun
LOADED_BLOCKS = 8  # blocks kept decompressed: a few clients catching up side by side


@dataclass(frozen=True, slots=True)
class SpilledBlock:
    """Where one block of consecutive log positions is in the file."""

    first_position: int
    last_seq: int
    offset: int
    size: int


class LogSpill:
    def __init__(self, directory: Path | None = None) -> None:
        self._directory = directory
        self._file: IO[bytes] | None = None  # made at the first block
        self._size = 0
        self._loaded: OrderedDict[int, tuple[list[Slot], array[int]]] = OrderedDict()
        self.failed = False  # the disk refused a block once: nothing more is spilled

    @property
    def bytes_written(self) -> int:
        return self._size

    def write(
        self, first_position: int, slots: Sequence[Slot], seqs: array[int]
    ) -> SpilledBlock | None:
        """Store a block; None when the disk refuses it (the caller keeps it in memory)."""
        payload = zlib.compress(pickle.dumps((list(slots), seqs), pickle.HIGHEST_PROTOCOL), 6)
        try:
            file = self._open()
            file.seek(self._size)
            file.write(payload)
            file.flush()  # read back through the same file object: no need to reach the disk
        except OSError as exc:
            self.failed = True
            log.warning("the event log stays in memory: it cannot be written to disk (%s)", exc)
            return None
        block = SpilledBlock(first_position, seqs[-1], self._size, len(payload))
        self._size += len(payload)
        return block

    def read(self, block: SpilledBlock) -> tuple[list[Slot], array[int]]:
        """A block's slots and their seqs, as they were written."""
        loaded = self._loaded.get(block.offset)
        if loaded is not None:
            self._loaded.move_to_end(block.offset)
            return loaded
        assert self._file is not None
        self._file.seek(block.offset)
        payload = self._file.read(block.size)
        with collector_paused():  # thousands of objects, no cycles among them
            read: tuple[list[Slot], array[int]] = pickle.loads(zlib.decompress(payload))  # ours
        self._loaded[block.offset] = read
        if len(self._loaded) > LOADED_BLOCKS:
            self._loaded.popitem(last=False)
        return read

    def close(self) -> None:
        self._loaded.clear()
        if self._file is not None:
            self._file.close()

    def _open(self) -> IO[bytes]:
        if self._file is None:
            directory = self._directory or state_dir() / "serve"
            directory.mkdir(mode=0o700, parents=True, exist_ok=True)
            # Open for the log's life; closed by close() (the server's end) or with the process.
            self._file = tempfile.TemporaryFile(  # noqa: SIM115
                prefix="event-log-", dir=os.fspath(directory)
            )
        return self._file
