"""Resume checkpoints (core/session/checkpoint.py): the plan a resume makes of a session, kept
beside its log when its writer closes it, loaded by the app's resume only while it stands for
the log exactly as it is; anything else reads the log whole, as without checkpoints."""

from __future__ import annotations

import io
import itertools
import os
import pickle
from pathlib import Path
from typing import Any

import pytest

from agentui.core.agent.tree import AgentStatus as S
from agentui.core.providers.scripted.script import Script, ScriptedToolCall, Turn
from agentui.core.session import checkpoint, checkpoint_keeping
from agentui.core.session import resume as resume_module
from agentui.core.session.checkpoint import checkpoint_path, load_checkpoint
from agentui.core.session.checkpoint_file import CheckpointReading
from agentui.core.session.checkpoint_keeping import keep_checkpoint
from agentui.core.session.reader import read_session
from agentui.core.session.resume import ResumePlan, plan_resume
from agentui.core.session.resume_open import open_to_show, show_found
from agentui.core.state import transcript
from agentui.core.state.transcript import TranscriptItem
from agentui.core.support.paths import state_dir

from .session_helpers import next_event, recorded_runtime, resumed_runtime

pytestmark = pytest.mark.anyio

ASKS = Script.for_all(
    Turn(
        text="Let me ask.",
        tool_calls=[ScriptedToolCall(name="ask_user", arguments={"question": "Which?"})],
    ),
    Turn(text="Thanks."),
)


async def _quit_while_asking(directory: Path) -> tuple[Path, str]:
    """A session quit while its root waits on a question (it comes back waiting on it)."""
    runtime = recorded_runtime(directory, script=ASKS)
    async with runtime:
        events = runtime.subscribe(maxsize=None)
        root = runtime.start("Ask me")
        await next_event(events, "query:raised", root)
    assert runtime.session.path is not None
    return runtime.session.path, root


class _Canonical(pickle._Pickler):  # the Python pickler: its dispatch table can be added to
    """Pickles a plan the same way whatever its objects' history: transcript entries numbered
    in the order met (a uid is this process's name for an entry, drawn as it is folded, so two
    folds of one log number them apart), and sets in sorted order (a set's order depends on
    how it was built: a pydantic model's fields_set comes back from a pickle in another)."""

    dispatch = pickle._Pickler.dispatch.copy()

    def __init__(self, file: io.BytesIO) -> None:
        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)
        self.met: dict[int, int] = {}

    def persistent_id(self, obj: object) -> None:
        if isinstance(obj, TranscriptItem) and id(obj) not in self.met:
            obj.uid = self.met[id(obj)] = len(self.met) + 1
        return None

    def _sorted_set(self, obj: set[Any] | frozenset[Any]) -> None:
        self.save_reduce(type(obj), (sorted(obj, key=repr),), obj=obj)  # type: ignore[attr-defined]

    dispatch[set] = _sorted_set  # type: ignore[assignment]
    dispatch[frozenset] = _sorted_set  # type: ignore[assignment]


def _picture(plan: ResumePlan) -> bytes:
    """Everything of a plan the app and its runtime use, as bytes to compare (a copy of each
    part through one pickle round, so two equal plans give equal bytes; each part on its own:
    a checkpoint keeps the steps apart, so they share no object with the state)."""
    parts: Any = (
        plan.state,
        list(plan.closing),  # a checkpoint's are read on first use
        plan.interrupted,
        dict(plan.steps),  # a checkpoint's are read on first use
        plan.reopenings,
        plan.stops,
        plan.last_seq,
        plan.log.path,
        plan.log.header,
        plan.log.warnings,
        plan.log.valid_bytes,
        plan.log.damaged_lines,
        plan.log.unknown_events,
    )
    pictures = []
    for part in parts:
        out = io.BytesIO()
        _Canonical(out).dump(pickle.loads(pickle.dumps(part)))
        pictures.append(out.getvalue())
    return pickle.dumps(pictures)


@pytest.fixture
def every_log(monkeypatch: pytest.MonkeyPatch) -> None:
    """Checkpoints for logs of any size (the tests' logs are small)."""
    monkeypatch.setattr(checkpoint_keeping, "CHECKPOINT_FROM_BYTES", 0)


async def test_a_closed_log_leaves_a_checkpoint_the_app_s_resume_loads_instead_of_the_log(
    tmp_path: Path, every_log: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    path, root = await _quit_while_asking(tmp_path)
    assert checkpoint_path(path).is_file()
    assert checkpoint_path(path).stat().st_mode & 0o777 == 0o600  # the owner's alone
    read_whole = plan_resume(read_session(path))

    def never(*_: object, **__: object) -> None:
        raise AssertionError("the log was read")

    monkeypatch.setattr(resume_module, "read_session", never)
    kept = open_to_show(str(path))

    assert _picture(kept) == _picture(read_whole)
    assert kept.state.agents[root].status is S.AWAITING_USER  # it waits on its question again
    assert root in kept.reopenings
    # What the app does not need stays out of it: the events themselves.
    assert (kept.history, kept.log.events) == ([], [])


async def _answered_to_the_end(plan: ResumePlan, root: str, reply: str) -> None:
    """The resumed session's waiting question answered, and its root run to its end."""
    runtime = resumed_runtime(plan, Script.for_all(Turn(text=reply)))
    async with runtime:
        events = runtime.subscribe(maxsize=None)
        (query_id,) = list(plan.state.open_queries)
        await next_event(events, "execution:start", root)
        runtime.answer(query_id, "That one")
        assert (await runtime.wait(root)).status is S.COMPLETED


async def test_a_checkpoint_read_in_a_thread_of_its_own_loads_the_same_plan(
    tmp_path: Path, every_log: None
) -> None:
    """`agentui --resume` reads and checks the file in a thread while the plan's modules load
    (app_command.py): the plan is the one the log folds to."""
    path, _ = await _quit_while_asking(tmp_path)
    kept = show_found(path, CheckpointReading(path))
    assert kept.conversations is not None  # from the checkpoint, not the log
    assert _picture(kept) == _picture(plan_resume(read_session(path)))


async def test_a_resume_from_the_checkpoint_goes_on_as_one_from_the_log(
    tmp_path: Path, every_log: None
) -> None:
    path, root = await _quit_while_asking(tmp_path)
    plan = open_to_show(str(path))

    await _answered_to_the_end(plan, root, "Thanks.")
    # Appending made the old checkpoint stale; the close kept a new one for the grown log.
    again = load_checkpoint(path)
    assert again is not None
    assert _picture(again) == _picture(plan_resume(read_session(path)))
    assert again.state.agents[root].status is S.COMPLETED


async def test_a_log_that_grew_after_its_checkpoint_is_read_whole(
    tmp_path: Path, every_log: None
) -> None:
    path, root = await _quit_while_asking(tmp_path)
    kept = checkpoint_path(path).read_bytes()
    # A resumed run that crashed: its lines are in the log, its checkpoint never came.
    plan = plan_resume(read_session(path))
    await _answered_to_the_end(plan, root, "Ok.")
    checkpoint_path(path).write_bytes(kept)  # the old one, as if the crash left it

    assert load_checkpoint(path) is None
    plan = open_to_show(str(path))
    assert plan.state.agents[root].status is S.COMPLETED
    assert _picture(plan) == _picture(plan_resume(read_session(path)))


async def test_an_edited_log_of_the_same_size_is_read_whole(
    tmp_path: Path, every_log: None
) -> None:
    path, root = await _quit_while_asking(tmp_path)
    stat = path.stat()
    path.write_bytes(path.read_bytes().replace(b"Ask me", b"Ask us"))
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))  # even its time put back

    assert load_checkpoint(path) is None
    plan = open_to_show(str(path))
    assert plan.state.agents[root].task == "Ask us"


@pytest.mark.parametrize(
    "damage",
    ["flipped byte", "cut short", "empty", "not ours", "bad header"],
)
async def test_a_damaged_checkpoint_is_ignored_and_the_log_read(
    tmp_path: Path, every_log: None, damage: str
) -> None:
    path, root = await _quit_while_asking(tmp_path)
    target = checkpoint_path(path)
    data = bytearray(target.read_bytes())
    if damage == "flipped byte":
        data[-100] ^= 0xFF
    elif damage == "cut short":
        del data[len(data) // 2 :]
    elif damage == "empty":
        data = bytearray()
    elif damage == "not ours":
        data = bytearray(b"\x80\x05N.")  # a pickle, but nothing agentui wrote
    else:
        start = len(checkpoint.MAGIC) + 4
        data[start] = ord("[")
    target.write_bytes(bytes(data))

    assert load_checkpoint(path) is None
    assert load_checkpoint(path, CheckpointReading(path)) is None  # read as `--resume` does
    plan = open_to_show(str(path))
    assert _picture(plan) == _picture(plan_resume(read_session(path)))
    assert plan.state.agents[root].status is S.AWAITING_USER


async def test_no_checkpoint_reads_the_log(tmp_path: Path) -> None:
    """A small log keeps none (it reads fast enough); without one the log is read."""
    path, root = await _quit_while_asking(tmp_path)
    assert not checkpoint_path(path).exists()
    assert load_checkpoint(path) is None
    plan = open_to_show(str(path))
    assert plan.state.agents[root].status is S.AWAITING_USER
    assert plan.history == []


async def test_a_checkpoint_made_with_another_key_is_never_loaded(
    tmp_path: Path, every_log: None
) -> None:
    """The plan is a pickle, which runs code when loaded: one this machine's key did not
    sign (copied from elsewhere with its session) is not loaded."""
    path, _ = await _quit_while_asking(tmp_path)
    key = state_dir() / checkpoint.KEY_FILE
    key.write_bytes(bytes(checkpoint.KEY_BYTES))
    assert load_checkpoint(path) is None


async def test_a_key_others_may_read_signs_nothing(tmp_path: Path, every_log: None) -> None:
    path, _ = await _quit_while_asking(tmp_path)
    key = state_dir() / checkpoint.KEY_FILE
    key.chmod(0o644)
    try:
        assert load_checkpoint(path) is None
        assert keep_checkpoint(path) is False
    finally:
        key.chmod(0o600)


async def test_a_copy_of_the_session_under_another_name_reads_its_log(
    tmp_path: Path, every_log: None
) -> None:
    """A plan names its file (where the resumed run appends): a copy's checkpoint, copied
    too, is the original's."""
    path, _ = await _quit_while_asking(tmp_path)
    copy = path.with_name("20260101T000000Z-copy.jsonl")
    copy.write_bytes(path.read_bytes())
    checkpoint_path(copy).write_bytes(checkpoint_path(path).read_bytes())
    stat = path.stat()
    os.utime(copy, ns=(stat.st_atime_ns, stat.st_mtime_ns))

    assert load_checkpoint(copy) is None
    assert open_to_show(str(copy)).log.path == copy


async def test_a_checkpoint_of_other_code_is_not_loaded(
    tmp_path: Path, every_log: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    path, _ = await _quit_while_asking(tmp_path)
    monkeypatch.setattr(checkpoint, "code_fingerprint", lambda: "another agentui")
    assert load_checkpoint(path) is None


async def test_a_resumed_run_drops_the_checkpoint_as_soon_as_it_appends(
    tmp_path: Path, every_log: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The log changes from the moment the resumed writer opens it: a checkpoint left there
    would only take room until the next close replaces it."""
    path, _ = await _quit_while_asking(tmp_path)
    monkeypatch.setattr(
        checkpoint_keeping, "CHECKPOINT_FROM_BYTES", 1 << 40
    )  # the close keeps none
    runtime = resumed_runtime(plan_resume(read_session(path)), Script.for_all(Turn(text="Ok.")))
    async with runtime:
        assert not checkpoint_path(path).exists()
    assert not checkpoint_path(path).exists()


def test_a_log_below_the_size_keeps_no_checkpoint(tmp_path: Path) -> None:
    path = tmp_path / "20260101T000000Z-tiny.jsonl"
    path.write_bytes(b"")
    assert keep_checkpoint(path, from_bytes=1) is False
    assert not checkpoint_path(path).exists()


async def test_entries_made_after_a_checkpoint_loads_never_take_one_of_its_uids(
    tmp_path: Path, every_log: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A uid names one transcript entry in this process (the transcript's widgets are found by
    it): a checkpoint's entries were numbered by the process that folded them."""
    path, root = await _quit_while_asking(tmp_path)
    monkeypatch.setattr(transcript, "_uids", itertools.count(1))  # as a new process starts
    plan = load_checkpoint(path)
    assert plan is not None
    loaded = {entry.uid for agent in plan.state.agents.values() for entry in agent.entries}
    assert loaded
    made = TranscriptItem(root, "text", "after")
    assert made.uid > max(loaded)


def test_a_transcript_entry_comes_back_from_a_pickle_whole() -> None:
    """A checkpoint pickles each entry as one tuple of its fields (TranscriptItem.__reduce__):
    every one of them comes back, its uid too, and its text grows apart from the original's."""
    item = TranscriptItem(
        "a1", "tool", "first", title="search", key="call-1", iteration=3, detail="found",
        failed=True, open=True, interrupted=True, tool="python", ts=1.5, settled_ts=2.5,
    )  # fmt: skip
    item.append_text(" second")
    item.progress = "2/3"
    back = pickle.loads(pickle.dumps(item, protocol=pickle.HIGHEST_PROTOCOL))
    assert type(back) is TranscriptItem
    for name in TranscriptItem.__slots__:
        if name != "_text":
            assert getattr(back, name) == getattr(item, name), name
    assert back.text == "first second"
    back.append_text(" third")
    assert (back.text, item.text) == ("first second third", "first second")


async def test_a_checkpoint_names_the_log_as_the_loading_process_does(
    tmp_path: Path, every_log: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The writer may have named the file from another folder (a relative data folder): the
    plan appends to the file found now, the one its checkpoint was checked against."""
    path, _ = await _quit_while_asking(tmp_path)
    monkeypatch.chdir(path.parent)
    assert keep_checkpoint(Path(path.name))  # kept under a relative name
    monkeypatch.chdir(tmp_path.parent)
    plan = load_checkpoint(path)
    assert plan is not None
    assert plan.log.path == path
    assert plan.continued_session().path == path
