"""A resume checkpoint: the plan `agentui --resume` makes of a session, kept beside its log.

Resuming a long session spends most of its time reading the log and folding it (~0.3 s per
100k events, before the first frame). So when a session's writer closes a log of at least
CHECKPOINT_FROM_BYTES (checkpoint_keeping.py), the log is read back and folded once more, as a resume would, and the
plan is kept in `<id>.checkpoint`; the app's resume loads it instead (~0.05 s).

A checkpoint stands only for the log exactly as it was taken from, read by this agentui:

- the log's size, modification time and a digest of its first and last bytes are the same
  (a log only grows: a resumed run that crashed leaves more lines than its checkpoint knew);
- the code that made it is this code (a fingerprint of the core package's source files: a
  plan of another version's classes or rules is not this version's plan);
- it carries a MAC made with this machine's own key (`checkpoint.key` in the state folder,
  the owner's alone): the plan is a pickle, and loading one runs code, so one copied from
  elsewhere, or altered, is never loaded.

Anything else (no checkpoint, a stale or damaged one, no key) reads the log whole, as without
checkpoints, and says nothing: nothing is lost, the resume is only slower. A checkpoint that
cannot be written costs the next resume its speed, no more (a warning in the log).

The plan it holds is the one `plan_resume` makes, without the events themselves (its `history`
and its log's `events` are empty): what the app needs, not what `serve`, ACP or a headless
rewind replay from the history (they read the log).
"""

from __future__ import annotations

import functools
import hashlib
import io
import json
import logging
import os
import pickle
import sys
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, TypeVar, overload

from agentui.core.protocol.conversation import Conversation
from agentui.core.session.checkpoint_file import (
    CHECKPOINT_SUFFIX,
    KEY_BYTES,
    KEY_FILE,
    MAGIC,
    CheckpointReading,
    checkpoint_path,
    log_fingerprint,
    mac_of,
    read_key,
    read_signed,
)
from agentui.core.session.kept_conversations import ConversationToCome, KeptConversations
from agentui.core.session.private_file import create_private, make_private_folder
from agentui.core.state.transcript import next_uid_bound, number_after
from agentui.core.support.paths import state_dir

if TYPE_CHECKING:
    from agentui.core.agent.steps import StepLog
    from agentui.core.protocol.event_base import Event
    from agentui.core.session.resume_plan import ResumePlan

log = logging.getLogger("agentui.session")
T = TypeVar("T")

# The file's format, its key and its checks live in checkpoint_file.py (read before this
# module's imports load); named here too, as the checkpoint's.
__all__ = [
    "CHECKPOINT_SUFFIX",
    "KEY_BYTES",
    "KEY_FILE",
    "MAGIC",
    "KeptEvents",
    "KeptSteps",
    "checkpoint_path",
    "code_fingerprint",
    "drop_checkpoint",
    "load_checkpoint",
    "log_fingerprint",
    "write_checkpoint",
]


# -- loading --------------------------------------------------------------------------------------


def load_checkpoint(session: Path, reading: CheckpointReading | None = None) -> ResumePlan | None:
    """The plan kept for `session` as it is now, or None (none, stale, damaged, not ours).
    `reading`: the same file's, begun earlier (read and checked in its thread meanwhile)."""
    signed = reading.result() if reading is not None else read_signed(session)
    if signed is None:
        return None
    # Its log and path were checked as it was read: here, that this code made it.
    taken_from = {"log": signed.header.get("log"), "path": signed.header.get("path")}
    if signed.header != taken_from | {"code": code_fingerprint()}:
        return None  # another agentui's (another version, a change in development)
    kept = KeptConversations()
    stream = io.BytesIO(signed.data)  # shares the bytes (a view would be copied)
    stream.seek(signed.start)
    loader = _PlanLoader(stream, kept)
    try:
        uid_bound, plan, steps, closing = loader.load()
    except Exception:  # a pickle of ours that cannot load (whatever it raises): read the log
        return None
    from agentui.core.session.resume_plan import ResumePlan

    if not (isinstance(plan, ResumePlan) and isinstance(uid_bound, int)):
        return None
    if not (isinstance(steps, bytes) and isinstance(closing, bytes)):
        return None
    plan.steps = KeptSteps(steps)
    plan.closing = KeptEvents(closing)
    kept.hold(loader, plan.state.agents, lambda: drop_checkpoint(session))
    plan.conversations = kept
    # The file as this process names it (the same file: checked above), where a resumed run
    # appends; the writer may have named it from another folder.
    plan.log.path = session
    # Its transcript entries were numbered by the process that folded them: this process's
    # own entries are numbered after them, so that a uid still names one entry.
    number_after(uid_bound)
    return plan


# -- keeping --------------------------------------------------------------------------------------


def write_checkpoint(session: Path, plan: ResumePlan, fingerprint: dict[str, Any]) -> bool:
    """Keep `plan` (made from `session` while it had `fingerprint`, log_fingerprint's) beside
    the log, signed with this machine's key; never half written where a resume looks. True
    when written; a failure is a warning in the log (the next resume reads the log)."""
    try:
        key = _key()
    except OSError as exc:
        log.warning("no resume checkpoint for %s: %s", session, exc.strerror or exc)
        return False
    slim = replace(plan, log=replace(plan.log, events=[], conversations=[]), history=[])
    # Past every transcript entry's uid in the plan: the loading process numbers after it.
    uid_bound = next_uid_bound()
    meta = {"log": fingerprint, "code": code_fingerprint(), "path": str(session.resolve())}
    header = json.dumps(meta, sort_keys=True).encode()
    # The steps apart, read when the runtime adopts the plan (after the first frame); so are
    # the closing events, which the resumed writer writes first and the runtime numbers on
    # from (their models are the events' vocabulary, which the first frame does not load).
    steps = pickle.dumps(dict(slim.steps), protocol=pickle.HIGHEST_PROTOCOL)
    closing = pickle.dumps(list(slim.closing), protocol=pickle.HIGHEST_PROTOCOL)
    slim.steps = {}
    slim.closing = []
    slim.conversations = None
    # So are the agents' conversations (a third of the plan's objects), which no frame shows:
    # after the plan in the same pickle stream (one memo: a string the plan shares with one
    # is one string again), each named by its agent's id where the plan holds it.
    apart = {agent_id: agent.conversation for agent_id, agent in slim.state.agents.items()}
    buffer = io.BytesIO()
    pickler = _PlanPickler(buffer, {id(conv): agent_id for agent_id, conv in apart.items()})
    pickler.dump((uid_bound, slim, steps, closing))
    pickler.names = {}
    pickler.dump(apart)
    payload = buffer.getvalue()
    target = checkpoint_path(session)
    temporary = target.with_name(f"{target.name}.{os.getpid()}.tmp")
    try:
        temporary.unlink(missing_ok=True)
        with create_private(temporary) as file:
            file.write(MAGIC + len(header).to_bytes(4, "big") + header)
            file.write(mac_of(key, header, payload))
            file.write(payload)
        os.replace(temporary, target)  # never half written where a resume looks
    except OSError as exc:
        log.warning("cannot write the resume checkpoint of %s: %s", session, exc.strerror or exc)
        temporary.unlink(missing_ok=True)
        return False
    return True


class _ReadWhenUsed(Generic[T]):
    """A pickle the checkpoint carries (checked with it), loaded at its first use, after the
    first frame, which does not need it. Read on the app's loop alone (the runtime's assembly
    and adoption), so unlocked. One that cannot load raises there, not in load_checkpoint,
    which would read the log instead: with the MAC and the code's fingerprint checked, only a
    bug of ours gets that far."""

    def __init__(self, data: bytes) -> None:
        self._data = data
        self._value: T | None = None

    def _read(self) -> T:
        if self._value is None:
            self._value = pickle.loads(self._data)
            self._data = b""
        return self._value


class KeptSteps(_ReadWhenUsed[dict[str, "StepLog"]], Mapping[str, "StepLog"]):
    """A plan's steps as its checkpoint keeps them: a runtime recalls them when it adopts
    the plan."""

    def __getitem__(self, agent_id: str) -> StepLog:
        return self._read()[agent_id]

    def __iter__(self) -> Iterator[str]:
        return iter(self._read())

    def __len__(self) -> int:
        return len(self._read())


class KeptEvents(_ReadWhenUsed[list["Event"]], Sequence["Event"]):
    """A plan's closing events as its checkpoint keeps them: the resumed writer writes them
    first, and the runtime's numbering goes on from the last."""

    def __iter__(self) -> Iterator[Event]:
        return iter(self._read())

    @overload
    def __getitem__(self, index: int) -> Event: ...
    @overload
    def __getitem__(self, index: slice) -> list[Event]: ...
    def __getitem__(self, index: int | slice) -> Event | list[Event]:
        return self._read()[index]

    def __len__(self) -> int:
        return len(self._read())


class _PlanPickler(pickle.Pickler):
    """Pickles a plan with each agent's conversation named by the agent's id, not pickled
    (they are pickled apart)."""

    def __init__(self, file: io.BytesIO, names: dict[int, str]) -> None:
        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)
        self.names = names

    def persistent_id(self, obj: object) -> str | None:
        if type(obj) is Conversation or type(obj) is ConversationToCome:
            return self.names.get(id(obj))
        return None


class _PlanLoader(pickle.Unpickler):
    """Loads a plan pickled by _PlanPickler: each conversation named stands for its own."""

    def __init__(self, file: io.BytesIO, kept: KeptConversations) -> None:
        super().__init__(file)
        self._kept = kept

    def persistent_load(self, pid: object) -> ConversationToCome:
        if not isinstance(pid, str):
            raise pickle.UnpicklingError("not a conversation's name")
        return self._kept.standing_for(pid)


def drop_checkpoint(session: Path) -> None:
    """Remove `session`'s checkpoint, if any (one that stands no more only takes room)."""
    try:
        checkpoint_path(session).unlink(missing_ok=True)
    except OSError as exc:
        log.warning("cannot remove the resume checkpoint of %s: %s", session, exc.strerror or exc)


# -- what a checkpoint is checked against ---------------------------------------------------------


# Packages of core that neither make a plan nor shape what it holds: the model back-ends and
# the network doors (a change there leaves every checkpoint standing).
_NOT_IN_A_PLAN = frozenset({"providers", "remote", "acp"})


@functools.cache
def code_fingerprint() -> str:
    """The core package's source files (name, size, modification time), Python's and
    pydantic's versions (a plan is a pickle of their objects): a checkpoint made by other code
    (another version, a change in development) is not loaded."""
    from pydantic.version import VERSION as PYDANTIC_VERSION

    root = Path(__file__).resolve().parent.parent
    digest = hashlib.blake2b(digest_size=16)
    digest.update(f"{sys.version}\n{PYDANTIC_VERSION}\n".encode())
    lines: list[str] = []
    _source_lines(str(root), "", lines, top=True)
    digest.update("".join(lines).encode())
    return digest.hexdigest()


def _source_lines(folder: str, relative: str, lines: list[str], *, top: bool) -> None:
    """`relative/name:size:mtime_ns` of each .py file under `folder`, in name order, a folder's
    files before its subfolders' (as os.walk goes, top down, not into linked folders, past a
    folder it cannot read). With scandir's entries, not os.walk's names and os.path.relpath:
    a third of the time (~2.5 -> ~0.7 ms, before a resumed session's first frame)."""
    try:
        with os.scandir(folder) as listing:
            entries = sorted(listing, key=lambda entry: entry.name)
    except OSError:
        return
    folders = []
    for entry in entries:
        if entry.is_dir():
            skipped = entry.name == "__pycache__" or (top and entry.name in _NOT_IN_A_PLAN)
            if not (skipped or entry.is_symlink()):
                folders.append(entry)
        elif entry.name.endswith(".py"):
            stat = entry.stat()
            lines.append(f"{relative}{entry.name}:{stat.st_size}:{stat.st_mtime_ns}\n")
    for entry in folders:
        _source_lines(entry.path, f"{relative}{entry.name}{os.sep}", lines, top=False)


def _key() -> bytes:
    """This machine's key, made (the owner's alone) the first time. Raises OSError."""
    key = read_key()
    if key is not None:
        return key
    folder = state_dir()
    make_private_folder(folder)
    path = folder / KEY_FILE
    try:
        with create_private(path) as file:
            file.write(os.urandom(KEY_BYTES))
    except FileExistsError:
        pass  # another agentui made it meanwhile: theirs is the key
    key = read_key()
    if key is None:
        raise OSError(f"{path} is not a private key agentui made")
    return key
