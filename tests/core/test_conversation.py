"""The message model's helpers and the tool-pair-safe sliding window.

The window is checked with property tests over random *valid* conversations: every tool_use
is answered by the next message (a user message holding all of its results, in any order),
except possibly in the very last message, whose results are still pending.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agentui.core.protocol.conversation import (
    Conversation,
    Message,
    TextBlock,
    ThinkingBlock,
    ToolResultBlock,
    ToolUseBlock,
    sliding_window,
    user_text,
)

# 100 examples (300 took 15 s of a 3-minute suite and found nothing more).
PROPERTY_SETTINGS = settings(max_examples=100, deadline=None)

# -- building conversations -----------------------------------------------------------------

short_text = st.text(alphabet="abcdefghij ", min_size=1, max_size=12)


def system(text: str = "be helpful") -> Message:
    return Message(role="system", content=[TextBlock(text=text)])


def assistant_text(text: str, thinking: str | None = None) -> Message:
    content: list = []
    if thinking is not None:
        content.append(ThinkingBlock(thinking=thinking, signature="sig"))
    content.append(TextBlock(text=text))
    return Message(role="assistant", content=content)


def tool_call(ids: list[str], text: str | None = None) -> Message:
    content: list = [] if text is None else [TextBlock(text=text)]
    content += [ToolUseBlock(id=i, name="lookup", input={"n": n}) for n, i in enumerate(ids)]
    return Message(role="assistant", content=content)


def tool_results(ids: list[str], note: str | None = None) -> Message:
    content: list = [ToolResultBlock(tool_use_id=i, content=f"result of {i}") for i in ids]
    if note is not None:
        content.append(TextBlock(text=note))
    return Message(role="user", content=content)


@dataclass
class Case:
    messages: list[Message]
    has_system: bool
    pending: bool  # the last message is a tool_use whose results have not arrived yet


@st.composite
def conversations(draw: st.DrawFn, *, tools: bool = True) -> Case:
    messages: list[Message] = []
    has_system = draw(st.booleans())
    if has_system:
        messages.append(system(draw(short_text)))
    next_id = 0

    def fresh_ids() -> list[str]:
        nonlocal next_id
        count = draw(st.integers(1, 3))
        ids = [f"toolu_{next_id + k}" for k in range(count)]
        next_id += count
        return ids

    turn_kinds = ["user", "assistant", "thinking"] + (["tools"] if tools else [])
    kinds = draw(st.lists(st.sampled_from(turn_kinds), max_size=14))
    for kind in kinds:
        if kind == "user":
            messages.append(user_text(draw(short_text)))
        elif kind == "assistant":
            messages.append(assistant_text(draw(short_text)))
        elif kind == "thinking":
            messages.append(assistant_text(draw(short_text), thinking=draw(short_text)))
        else:
            ids = fresh_ids()
            messages.append(tool_call(ids, draw(st.none() | short_text)))
            order = draw(st.permutations(ids))
            messages.append(tool_results(list(order), draw(st.none() | short_text)))
    pending = tools and draw(st.booleans())
    if pending:
        messages.append(tool_call(fresh_ids(), draw(st.none() | short_text)))
    return Case(messages, has_system, pending)


# -- an independent oracle ------------------------------------------------------------------


def orphan_results(window: list[Message]) -> list[str]:
    """Ids of tool_results in `window` whose tool_use is not in an earlier message of it."""
    seen_uses: set[str] = set()
    orphans: list[str] = []
    for message in window:
        orphans += [r.tool_use_id for r in message.tool_results if r.tool_use_id not in seen_uses]
        seen_uses |= {u.id for u in message.tool_uses}
    return orphans


def safe_starts(messages: list[Message], offset: int) -> list[int]:
    """Every i >= offset where messages[i:] is a non-empty tail without orphan results."""
    return [i for i in range(offset, len(messages)) if not orphan_results(messages[i:])]


def snapshot(messages: list[Message]) -> list[dict]:
    return [m.model_dump() for m in messages]


# -- properties -----------------------------------------------------------------------------

# Each property runs on tool-free conversations and on conversations with tool calls.
with_and_without_tools = pytest.mark.parametrize(
    "tools", [pytest.param(False, id="no-tools"), pytest.param(True, id="tools")]
)


def draw_case(data: st.DataObject, tools: bool) -> tuple[Case, int]:
    return data.draw(conversations(tools=tools), "case"), data.draw(st.integers(1, 40), "max")


@with_and_without_tools
@PROPERTY_SETTINGS
@given(data=st.data())
def test_window_is_system_plus_a_suffix(data: st.DataObject, tools: bool) -> None:
    case, max_messages = draw_case(data, tools)
    messages = case.messages
    before = snapshot(messages)
    window = sliding_window(messages, max_messages)

    assert snapshot(messages) == before, "the input list must not be changed"
    head = messages[:1] if case.has_system else []
    assert window[: len(head)] == head, "the leading system message is always kept"
    rest = window[len(head) :]
    assert rest == messages[len(messages) - len(rest) :], "the rest is a suffix of the input"
    if len(messages) > len(head):
        assert rest, "at least the newest message is kept"
        assert rest[-1] is messages[-1]
    assert all(m.role != "system" for m in rest)


@with_and_without_tools
@PROPERTY_SETTINGS
@given(data=st.data())
def test_window_keeps_tool_pairs_together(data: st.DataObject, tools: bool) -> None:
    case, max_messages = draw_case(data, tools)
    window = sliding_window(case.messages, max_messages)

    assert orphan_results(window) == [], "no tool_result without its tool_use"
    answered = {r.tool_use_id for m in window for r in m.tool_results}
    for position, message in enumerate(window):
        unanswered = [u.id for u in message.tool_uses if u.id not in answered]
        if position == len(window) - 1 and case.pending:
            assert unanswered == [u.id for u in message.tool_uses]
        else:
            assert unanswered == [], f"tool_use without its result at {position}"


@with_and_without_tools
@PROPERTY_SETTINGS
@given(data=st.data())
def test_window_is_the_longest_safe_tail_within_the_budget(
    data: st.DataObject, tools: bool
) -> None:
    case, max_messages = draw_case(data, tools)
    messages = case.messages
    window = sliding_window(messages, max_messages)

    if len(messages) <= max_messages:
        assert window == messages, "a conversation that fits is returned unchanged"
        return
    offset = 1 if case.has_system else 0
    starts = safe_starts(messages, offset)
    assert starts, "a valid conversation always has a safe non-empty tail"
    fitting = [i for i in starts if offset + len(messages) - i <= max_messages]
    shortest = offset + len(messages) - max(starts)
    assert len(window) <= max(max_messages, shortest)
    # The longest safe tail that fits; when none does, correctness wins: the shortest safe one.
    expected_start = min(fitting) if fitting else max(starts)
    assert window == messages[:offset] + messages[expected_start:]


@with_and_without_tools
@PROPERTY_SETTINGS
@given(data=st.data())
def test_window_is_idempotent(data: st.DataObject, tools: bool) -> None:
    case, max_messages = draw_case(data, tools)
    window = sliding_window(case.messages, max_messages)
    assert sliding_window(window, max_messages) == window


# -- examples -------------------------------------------------------------------------------


def test_cut_moves_forward_past_a_tool_result_rather_than_orphan_it() -> None:
    messages = [
        user_text("task"),
        tool_call(["t1", "t2"]),
        tool_results(["t2", "t1"]),
        assistant_text("done"),
    ]
    # A budget of 2 would start at the results of t1/t2: the cut moves on to the last message.
    assert sliding_window(messages, 2) == [messages[3]]
    assert sliding_window(messages, 3) == messages[1:]


def test_when_no_safe_cut_fits_the_shortest_safe_tail_is_kept() -> None:
    messages = [
        system(),
        user_text("task"),
        tool_call(["t1"]),
        tool_results(["t1"]),
    ]
    # Only the last two messages form a safe tail: system + 2 > 2 but still correct.
    assert sliding_window(messages, 2) == [messages[0], messages[2], messages[3]]


def test_a_pending_tool_use_at_the_end_is_kept() -> None:
    messages = [user_text("task"), assistant_text("hm"), user_text("go"), tool_call(["t9"])]
    assert sliding_window(messages, 1) == [messages[3]]


def test_empty_conversation() -> None:
    assert sliding_window([], 1) == []


@pytest.mark.parametrize("max_messages", [0, -1, -100])
def test_max_messages_below_one_is_refused(max_messages: int) -> None:
    with pytest.raises(ValueError, match="at least 1"):
        sliding_window([user_text("task")], max_messages)


def test_add_user_note_starts_a_user_message_when_the_model_spoke_last() -> None:
    conversation = Conversation(messages=[user_text("task"), assistant_text("working")])
    conversation.add_user_note("please hurry")
    assert len(conversation.messages) == 3
    assert conversation.messages[-1].role == "user"
    assert conversation.messages[-1].text == "please hurry"


def test_add_user_note_on_an_empty_conversation() -> None:
    conversation = Conversation()
    conversation.add_user_note("hello")
    assert [(m.role, m.text) for m in conversation.messages] == [("user", "hello")]


def test_add_user_note_joins_a_trailing_user_message() -> None:
    conversation = Conversation(messages=[user_text("task")])
    conversation.add_user_note("first note")
    conversation.add_user_note("second note")
    assert len(conversation.messages) == 1
    assert [b.text for b in conversation.messages[0].content] == [  # type: ignore[union-attr]
        "task",
        "first note",
        "second note",
    ]


def test_add_user_note_goes_after_pending_tool_results() -> None:
    conversation = Conversation(
        messages=[user_text("task"), tool_call(["t1"]), tool_results(["t1"])]
    )
    conversation.add_user_note("a note")
    last = conversation.messages[-1]
    assert len(conversation.messages) == 3
    # tool_results stay first in the message, as the API requires; the note follows them.
    assert [b.type for b in last.content] == ["tool_result", "text"]
    assert last.text == "a note"
    assert orphan_results(conversation.messages) == []


def test_replace_task_swaps_the_first_plain_user_message() -> None:
    conversation = Conversation(
        messages=[
            user_text("old task"),
            assistant_text("ok"),
            user_text("a follow-up"),
        ]
    )
    conversation.replace_task("new task")
    assert [m.text for m in conversation.messages] == ["new task", "ok", "a follow-up"]


def test_replace_task_skips_user_messages_holding_tool_results() -> None:
    conversation = Conversation(
        messages=[tool_call(["t1"]), tool_results(["t1"]), user_text("old task")]
    )
    conversation.replace_task("new task")
    assert conversation.messages[1].tool_results[0].tool_use_id == "t1"
    assert conversation.messages[2].text == "new task"
    assert len(conversation.messages) == 3


def test_replace_task_inserts_a_task_when_there_is_none() -> None:
    conversation = Conversation(messages=[assistant_text("hello")])
    conversation.replace_task("the task")
    assert [(m.role, m.text) for m in conversation.messages] == [
        ("user", "the task"),
        ("assistant", "hello"),
    ]


def test_replace_task_keeps_notes_attached_to_the_task() -> None:
    # The runtime folds a comment made before the first model call into the task message
    # (add_user_note), then a later `modify(content=...)` calls replace_task: the person's
    # earlier note should survive; only the task text should change.
    conversation = Conversation(messages=[user_text("old task")])
    conversation.add_user_note("A note from the person: use metric units")
    conversation.append(assistant_text("working"))
    conversation.replace_task("new task")
    first = conversation.messages[0]
    assert first.content[0] == TextBlock(text="new task")
    assert "use metric units" in first.text
