"""SessionWriter: the service that appends every event of a runtime to its session file.

It reads a lossless subscription, turns each batch into lines on the event loop, and writes them
in a worker thread (`anyio.to_thread`), so a slow disk never blocks an agent. Lines are flushed
to the operating system at least every `flush_interval_s` (100 ms) and at once after any
`agent:status` event; a crash (even SIGKILL) loses at most what came after the last flush, and a
line cut in half is skipped on load (see reader.py). No fsync: surviving a crash of the process
is the goal, not a power cut.

What waits for a flush is kept compact: an agent's consecutive text or thinking deltas become
one line (delta_merge.py; so a line holds up to a flush interval of one block's stream), and a
response or result that only repeats streamed text leaves it out (elision.py). It is a plain
appender: everything it writes is an event (agents' conversations too: `conversation:changed`),
and it never reads the runtime's memory. With each flush that changes the session's row in
`agentui sessions`, it rewrites the summary beside the file (summary.py). The file is created at the first event, so
opening the app and quitting leaves nothing behind. It is the owner's alone (0600,
private_file.py).

A disk error stops the log, never the agents, and is never silent: the first failed write is
kept in `error` and published at once as a `session:error` event (every front end folds it and
says so), with how far the file holds this run (`saved_until`). A new session whose file holds
none of it leaves no file behind, so nothing claims a session that cannot be reopened.

    async with Runtime(provider) as runtime:
        writer = SessionWriter(NewSession(provider="scripted", model="scripted-1"))
        writer.attach(runtime)
"""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import IO, TYPE_CHECKING

import anyio
import anyio.to_thread

from agentui.core import __version__
from agentui.core.bus import Subscription
from agentui.core.protocol.events import RUNTIME_EVENT, AgentSpawned, Event, SessionLogFailed
from agentui.core.session.checkpoint import drop_checkpoint
from agentui.core.session.delta_merge import DeltaMerge
from agentui.core.session.elision import Elision
from agentui.core.session.lock import try_lock
from agentui.core.session.naming import new_session_id, session_path, sessions_dir
from agentui.core.session.private_file import create_private, make_private_folder
from agentui.core.session.records import SessionHeader
from agentui.core.session.session_targets import ContinuedSession as ContinuedSession
from agentui.core.session.session_targets import NewSession as NewSession  # named with the writer
from agentui.core.session.summary import (
    SessionSummary,
    SummaryRow,
    SummaryTracker,
    write_summary,
)
from agentui.core.support.errors import AgentUIError
from agentui.core.support.utf8 import model_json

if TYPE_CHECKING:
    from agentui.core.runtime import Runtime

log = logging.getLogger("agentui.session")

FLUSH_INTERVAL_S = 0.1


def _is_urgent(event: Event) -> bool:
    """An event flushed at once, with what came before it."""
    return event.type == "agent:status"


class SessionWriter:
    def __init__(
        self, target: NewSession | ContinuedSession, *, flush_interval_s: float = FLUSH_INTERVAL_S
    ) -> None:
        self.target = target
        self.flush_interval_s = flush_interval_s
        self.path: Path | None = target.path if isinstance(target, ContinuedSession) else None
        self.error: str | None = None  # why the log stopped, when it did
        self.written_seq = 0  # every event up to this seq is in the file (flushed)
        self.written_ts: float | None = None  # the time of that last event (None: none yet)
        self._runtime: Runtime | None = None  # told when the log stops
        self._created = False  # this writer made the file (a new session's)
        self._attached = False
        self._subscription: Subscription | None = None
        self._file: IO[bytes] | None = None
        self.header: SessionHeader | None = None  # the file's, once it has one
        self._encoded_seq = 0
        self._encoded_ts: float | None = None
        self._waiting: DeltaMerge[str] = DeltaMerge()  # events (and the header) not yet flushed
        self._held: list[Event] = []  # the runtime's events before a new session's first agent
        self._elision: Elision | None = Elision()
        self._summary: SummaryTracker | None = SummaryTracker()
        self._summary_written = True  # the summary describes the file as it stands
        self._row: SummaryRow | None = None  # a new row for the summary, at this flush
        if isinstance(target, ContinuedSession):
            self.header = target.header
            self._summary = target.summary if target.header is not None else None
            if target.format < 2:
                self._elision = None  # its readers may not put back what is left out
        self._progress: anyio.Event | None = None  # made in attach: it needs the event loop
        self._done = False

    @property
    def session_id(self) -> str | None:
        return self.path.stem if self.path is not None else None

    @property
    def saved(self) -> bool:
        """The file holds some of this run's events (or, resumed, the session it continues):
        `agentui --resume` can open it."""
        return self.written_seq > 0 or isinstance(self.target, ContinuedSession)

    # -- attaching -----------------------------------------------------------------------

    def attach(self, runtime: Runtime) -> None:
        """Start writing `runtime`'s events (call it inside `async with runtime`)."""
        if self._attached:
            raise AgentUIError("this session writer is already attached")
        self._attached = True
        self._runtime = runtime
        if isinstance(self.target, ContinuedSession):
            # Hold the file from now on, not from the first write: another agentui resuming it
            # meanwhile would write a run of its own into it and lose one of the two.
            try:
                self._file = self._open([])
            except OSError as exc:
                raise AgentUIError(f"cannot open {self.path}: {exc.strerror or exc}") from None
        self._progress = anyio.Event()
        # Subscribe now, not when the service first runs, so no event is missed.
        self._subscription = runtime.subscribe(maxsize=None)
        # It writes an agent's consecutive deltas as one line anyway (DeltaMerge): taking them
        # joined spares it an event per streamed chunk (see bus.py).
        self._subscription.join_deltas = True
        try:
            runtime.run_service(self._serve, name="session writer")
        except BaseException:
            self._subscription.close()
            raise

    async def wait_written(self, seq: int) -> None:
        """Return once every event up to `seq` is flushed (or the writer stopped)."""
        while self.written_seq < seq and not self._done:
            if self._progress is None:
                raise AgentUIError("the session writer is not attached to a runtime")
            await self._progress.wait()

    # -- the service ---------------------------------------------------------------------

    async def _serve(self) -> None:
        assert self._subscription is not None
        subscription = self._subscription
        pending: list[str] = []
        try:
            if isinstance(self.target, ContinuedSession) and self.target.preamble:
                self._encode(list(self.target.preamble))
                await self._flush(pending)
            while self.error is None:
                batch = await subscription.next_batch()
                if not batch:
                    break  # the runtime shut down
                if not self._encode(batch, subscription):
                    # Until the flush is due, only an urgent event wakes the writer: waking for
                    # every few deltas of a stream cost more than encoding them.
                    with anyio.move_on_after(self.flush_interval_s):
                        await subscription.wait_for(_is_urgent)
                    self._encode(subscription.drain(), subscription)
                await self._flush(pending)
        finally:
            with anyio.CancelScope(shield=True):
                if self.error is None:
                    self._encode(subscription.drain(), subscription)
                    await self._flush(pending, final=True)
                subscription.close()
                await self._close()
                await self._keep_checkpoint()
                self._done = True
                self._notify()

    # -- turning events into lines (on the event loop) -----------------------------------

    def _encode(self, batch: list[Event], read_from: Subscription | None = None) -> bool:
        """Take in the batch (all `read_from` held); True when it must be flushed now."""
        urgent = False
        waiting, summary = self._waiting, self._summary
        for event in batch:
            if self.path is None:
                if event.agent_id == RUNTIME_EVENT:
                    # No session before an agent: a start with none writes no file, and the
                    # header's task is the first agent's. The runtime's events join it then.
                    self._held.append(event)
                    continue
                waiting.add_other(self._start(event))
                for held in self._held:
                    waiting.add(held)
                    if summary is not None:
                        summary.apply(held)
                self._held.clear()
            waiting.add(event)
            if summary is not None:
                summary.apply(event)
            if _is_urgent(event):
                urgent = True
        if batch:
            self._encoded_seq = batch[-1].seq
            self._encoded_ts = batch[-1].ts
            if read_from is not None and read_from.newest_seq > self._encoded_seq:
                # Its last piece joined a delta: that piece's seq and time (on no event)
                self._encoded_seq, self._encoded_ts = read_from.newest_seq, read_from.newest_ts
        return urgent

    def _lines(self, pending: list[str]) -> None:
        """Append what waits to `pending` as lines, in order, deltas merged."""
        elision = self._elision
        for item in self._waiting.take():
            if isinstance(item, str):
                pending.append(item)
            elif elision is not None:
                pending.append(elision.line(item))
            else:
                pending.append(model_json(item) + "\n")

    def _start(self, first: Event) -> str:
        """Name the new file and return its header line."""
        assert isinstance(self.target, NewSession)
        started = first.ts
        session_id = self.target.session_id or new_session_id(started)
        directory = self.target.directory if self.target.directory is not None else sessions_dir()
        self.path = session_path(session_id, directory)
        task = first.task if isinstance(first, AgentSpawned) else ""
        self.header = SessionHeader(
            agentui=__version__,
            id=session_id,
            started=started,
            task=task,
            provider=self.target.provider,
            model=self.target.model,
        )
        return model_json(self.header) + "\n"

    # -- writing (in a worker thread) ----------------------------------------------------

    async def _flush(self, pending: list[str], *, final: bool = False) -> None:
        self._lines(pending)
        summary = self._summary
        self._row = summary.row() if summary is not None and (summary.changed or final) else None
        if self.error is not None or not (pending or (final and not self._summary_written)):
            pending.clear()
            return
        try:
            await anyio.to_thread.run_sync(
                self._write, pending, self._encoded_seq, self._encoded_ts
            )
        except OSError as exc:
            reason = exc.strerror or str(exc)
            self._fail(f"cannot write {self.path}: {reason}", reason)
        except AgentUIError as exc:
            self._fail(str(exc), str(exc))
        finally:
            self._notify()

    def _write(self, pending: list[str], seq: int, ts: float | None) -> None:
        """Runs in a worker thread while the writer task waits for it.

        It empties `pending` only once the lines are written: a cancel that lands before the
        thread starts leaves them for the final flush, one that lands after never repeats them.
        """
        if self._file is None:
            self._file = self._open(pending)
        data = "".join(pending).encode("utf-8")
        self._file.write(data)
        self._file.flush()
        pending.clear()
        if seq > self.written_seq:
            self.written_seq, self.written_ts = seq, ts
        self._summary_written = data == b""
        if self._row is not None:
            self._write_summary(self._file, self._row)

    def _write_summary(self, file: IO[bytes], row: SummaryRow) -> None:
        """Rewrite the summary for the file as it now stands (a failure only costs speed)."""
        assert self.path is not None and self.header is not None
        header = self.header
        stat = os.fstat(file.fileno())
        summary = SessionSummary(
            id=header.id,
            started=header.started,
            task=header.task,
            size=stat.st_size,
            mtime_ns=stat.st_mtime_ns,
            **row,
        )
        try:
            write_summary(self.path, summary)
        except OSError as exc:
            log.warning("cannot write the summary of %s: %s", self.path, exc.strerror or exc)
        else:
            self._summary_written = True

    def _open(self, pending: list[str]) -> IO[bytes]:
        assert self.path is not None
        file: IO[bytes]
        if isinstance(self.target, ContinuedSession):
            file = self.path.open("r+b")
            if not try_lock(file):
                file.close()
                raise AgentUIError(f"{self.path} is being written by another agentui")
            file.truncate(self.target.append_at)  # drops a torn last line, if any
            file.seek(0, 2)
            # The log grows from here: its checkpoint stands no more (a new one is kept when
            # this run closes it).
            drop_checkpoint(self.path)
            return file
        make_private_folder(self.path.parent)
        for _ in range(100):
            try:
                file = create_private(self.path)
            except FileExistsError:
                # Another session started in the same second drew the same suffix: draw again
                # (the header, the first line waiting, names the file).
                assert self.header is not None
                self.header = self.header.model_copy(
                    update={"id": new_session_id(self.header.started)}
                )
                self.path = self.path.with_name(self.header.id + self.path.suffix)
                pending[0] = model_json(self.header) + "\n"
                continue
            try_lock(file)  # a brand-new file: nobody else can hold it
            self._created = True
            return file
        raise AgentUIError(f"cannot find a free session file name in {self.path.parent}")

    async def _close(self) -> None:
        file, self._file = self._file, None
        if file is not None:
            try:
                await anyio.to_thread.run_sync(file.close)
            except OSError as exc:
                reason = exc.strerror or str(exc)
                self._fail(f"cannot close {self.path}: {reason}", reason)
        if self.error is not None and self._created and not self.saved:
            await anyio.to_thread.run_sync(self._remove_unsaved)

    async def _keep_checkpoint(self) -> None:
        """A long log, closed whole, leaves the plan a resume makes of it beside it, so that
        `agentui --resume` need not read it all (checkpoint.py; in a worker thread: it reads
        and folds the log once more, ~0.3 s per 100k events)."""
        if self.error is not None or self.path is None or not self.saved:
            return
        from agentui.core.session.checkpoint_keeping import keep_checkpoint

        await anyio.to_thread.run_sync(keep_checkpoint, self.path)

    def _remove_unsaved(self) -> None:
        """A new session's file that holds none of its events (at most part of its header)
        would be listed as unreadable and could not be resumed: it goes."""
        assert self.path is not None
        try:
            self.path.unlink(missing_ok=True)
        except OSError as exc:
            log.warning("cannot remove %s: %s", self.path, exc.strerror or exc)

    def _fail(self, error: str, reason: str) -> None:
        if self.error is not None:
            return
        self.error = error
        log.error("session log stopped: %s", error)
        if self._subscription is not None:
            self._subscription.close()  # a log that cannot write must not hold every event
        if self._runtime is not None:  # said at once, on every front end (after the close:
            # the writer does not try to write that its log stopped)
            self._runtime.publish_runtime(
                SessionLogFailed,
                path=str(self.path),
                error=error,
                reason=reason,
                saved_until=self.written_ts if self.written_seq else None,
            )

    def _notify(self) -> None:
        if self._progress is not None:
            self._progress.set()
            self._progress = anyio.Event()
