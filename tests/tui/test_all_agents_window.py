"""Every agent's transcript at once mounts a window of its entries, not all of them: long
answers of many agents cost what is shown, and every entry stays reachable (scrolled back to
with the earlier button, gone to by a search, or a question waiting in it answered)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

import pytest
from textual.app import App, ComposeResult
from textual.pilot import Pilot
from textual.widgets import Button

from agentui.core.protocol.agent_status import AgentStatus as S
from agentui.core.providers.scripted.script import Script, ScriptedToolCall, Turn
from agentui.core.state import TranscriptItem as Entry
from agentui.tui.app.widgets.blocks import AnswerBlock, EntryBlock
from agentui.tui.app.widgets.query_blocks import AnswerInput, QuestionBlock
from agentui.tui.app.widgets.transcript import MAX_BLOCKS, WINDOW_LINES, Transcript

from .helpers import app_when, has_status, settle
from .idle_slices import idle_slice

pytestmark = pytest.mark.anyio

ALL = "*"
AGENTS = 60


def long_answer(agent: int) -> str:
    """About 600 lines of Markdown: a few such answers fill a window."""
    return "\n\n".join(f"Agent {agent} says paragraph {n} of its long answer." for n in range(300))


def every_agents_entries(question_of: int | None = None) -> list[Entry]:
    """Each agent's task and long answer, interleaved as the fold's timeline is; agent
    `question_of` asked a question, still open, right after its task."""
    entries = [Entry(f"a{n}", "task", f"part {n} of the job") for n in range(AGENTS)]
    if question_of is not None:
        entries.append(
            Entry(f"a{question_of}", "question", "Which port?", key="q-early", open=True)
        )
    entries += [Entry(f"a{n}", "text", long_answer(n)) for n in range(AGENTS)]
    return entries


class AllAgentsApp(App[None]):
    def __init__(self) -> None:
        super().__init__()
        self.answered: list[tuple[str, str | None]] = []

    def compose(self) -> ComposeResult:
        yield Transcript()

    def on_answer_input_answered(self, message: AnswerInput.Answered) -> None:
        self.answered.append((message.query_id, message.text))


async def until(pilot: Pilot[None], condition: Callable[[], bool], *, pauses: int = 50) -> None:
    """Let the app run until `condition` holds (a bounded number of Textual's idle waits)."""
    for _ in range(pauses):
        if condition():
            return
        await idle_slice(pilot)
    assert condition()


def show_all(transcript: Transcript, entries: list[Entry]) -> None:
    transcript.show(ALL, entries, lambda entry: entry.agent_id)


@asynccontextmanager
async def every_agent_view(
    entries: list[Entry],
) -> AsyncIterator[tuple[AllAgentsApp, Pilot[None], Transcript]]:
    """A transcript alone, showing `entries` as every agent's view, once it has settled."""
    app = AllAgentsApp()
    async with app.run_test(size=(100, 30)) as pilot:
        transcript = app.query_one(Transcript)
        show_all(transcript, entries)
        await pilot.pause()
        yield app, pilot, transcript


async def test_the_view_of_many_agents_long_answers_mounts_a_bounded_window() -> None:
    entries = every_agents_entries()
    async with every_agent_view(entries) as (_app, pilot, transcript):
        mounted = transcript.mounted_blocks()
        answers = [b for b in mounted if isinstance(b, AnswerBlock)]
        # The newest answer and what fits in the window's lines before it: a handful.
        assert 1 <= len(answers) <= 1 + WINDOW_LINES // 600
        assert len(mounted) == len(answers) < MAX_BLOCKS
        assert mounted[-1].entry is entries[-1], "the view ends at the newest entry"
        button = transcript.query_one("#earlier", Button)
        hidden = len(entries) - len(mounted)
        assert button.display and f"of {hidden} hidden entries" in str(button.label)
        # A page of the earlier ones is as bounded: a few long answers, not the other 50.
        transcript.show_earlier()
        await pilot.pause()
        assert len(transcript.mounted_blocks()) <= 2 * len(mounted)


async def test_an_entry_far_up_is_mounted_and_shown_when_gone_to_and_the_tail_comes_back() -> None:
    entries = every_agents_entries()
    async with every_agent_view(entries) as (_app, pilot, transcript):
        window = len(transcript.mounted_blocks())
        far = AGENTS + 3  # agent 3's answer: dozens of long answers above the window
        block = transcript.reveal(far)
        assert block is not None and block.entry is entries[far]
        await pilot.pause()
        transcript.show_block(block)
        await pilot.pause()
        top = block.parts()[0]  # an answer's head: its label and first lines
        assert block.is_mounted and top.region.y == transcript.region.y, "its top is shown"
        assert len(transcript.mounted_blocks()) <= window + 1, "the window moved, not grew"
        assert transcript.entries[-1].uid not in {b.entry.uid for b in transcript.mounted_blocks()}
        # New entries while the person reads up there are not mounted; "later" leads back.
        entries.append(Entry("a0", "notice", "a late notice"))
        transcript.sync(set())
        await pilot.pause()
        later = transcript.query_one("#later", Button)
        assert later.display and "later of" in str(later.label)
        while transcript.query("#later"):
            transcript.show_later()
            await pilot.pause()
        assert transcript.mounted_blocks()[-1].entry is entries[-1]


async def test_going_back_to_the_end_after_reading_far_up_follows_the_tail_again() -> None:
    entries = every_agents_entries()
    async with every_agent_view(entries) as (_app, pilot, transcript):
        transcript.reveal(AGENTS)  # the first answer
        await pilot.pause()
        transcript.follow()  # as after the person answers a question
        await pilot.pause()
        await pilot.pause()
        assert transcript.mounted_blocks()[-1].entry is entries[-1]
        assert not transcript.query("#later")
        entries.append(Entry("a1", "notice", "new at the tail"))
        transcript.sync(set())
        await pilot.pause()
        assert transcript.mounted_blocks()[-1].entry is entries[-1], "new entries mount again"


async def test_end_on_a_window_moved_far_up_goes_back_to_the_tail_and_follows_it() -> None:
    entries = every_agents_entries()
    async with every_agent_view(entries) as (_app, pilot, transcript):
        transcript.reveal(AGENTS)  # a search went to the first answer
        await pilot.pause()
        assert transcript.query("#later")
        transcript.focus()
        await pilot.press("end")
        await until(pilot, lambda: not transcript.query("#later"))
        assert transcript.mounted_blocks()[-1].entry is entries[-1]
        entries.append(Entry("a1", "notice", "new at the tail"))
        transcript.sync(set())
        await until(pilot, lambda: transcript.mounted_blocks()[-1].entry is entries[-1])


async def test_a_question_of_an_agent_far_above_the_window_is_answerable_in_place() -> None:
    entries = every_agents_entries(question_of=7)
    async with every_agent_view(entries) as (app, pilot, transcript):
        assert not transcript.open_query_blocks(), "its block is far above the window"
        block = transcript.block_for_query("q-early")
        assert isinstance(block, QuestionBlock) and block.input is not None
        await pilot.pause()
        assert block in transcript.open_query_blocks()
        app.screen.set_focus(block.input)
        await pilot.press(*"8080", "enter")
        assert app.answered == [("q-early", "8080")]


async def test_a_short_transcript_is_mounted_whole_as_before() -> None:
    entries = [Entry(f"a{n % 5}", "notice", f"note {n}") for n in range(MAX_BLOCKS)]
    async with every_agent_view(entries) as (_app, _pilot, transcript):
        blocks: list[EntryBlock] = transcript.mounted_blocks()
        assert [b.entry for b in blocks] == entries
        assert not transcript.query("#earlier")


async def test_an_answer_growing_far_above_the_view_is_drawn_when_scrolled_to() -> None:
    entries = [Entry(f"a{n}", "text", long_answer(n) if n else "short start") for n in range(4)]
    async with every_agent_view(entries) as (_app, pilot, transcript):
        transcript.scroll_end(animate=False, immediate=True)
        await pilot.pause()
        first = transcript.mounted_blocks()[0]
        assert isinstance(first, AnswerBlock) and first.entry is entries[0]
        entries[0].append_text(" and the words that came while nobody looked")
        transcript.sync({entries[0].uid})
        await pilot.pause()
        assert "nobody looked" not in first.tail_text, "not drawn far off screen"
        transcript.scroll_home(animate=False, immediate=True)
        await pilot.pause()
        assert "nobody looked" in first.tail_text, "drawn once it is near the view"


# -- in the app ------------------------------------------------------------------------------

# An answer of many short paragraphs: few characters to stream, ~2,000 lines to the window.
TALL_ANSWER = Turn(text="\n\n".join(f"p{n}" for n in range(1000)))
ASKS_FIRST = Script(
    agents={
        "main": [
            Turn(tool_calls=[ScriptedToolCall(name="ask_user", arguments={"question": "Port?"})]),
            Turn(text="done"),
        ],
        "*": [TALL_ANSWER],
    }
)


async def test_in_the_app_a_question_far_above_every_agents_window_is_answered_in_place() -> None:
    async with app_when(lambda app: bool(app.main.model.open_queries), "ask", ASKS_FIRST) as (
        app,
        pilot,
    ):
        (query_id,) = app.main.model.open_queries
        runtime = app.host.runtime
        assert runtime is not None
        others = [runtime.start(f"write part {n}") for n in range(4)]
        await settle(pilot, lambda: all(has_status(app, a, S.COMPLETED)() for a in others))
        app.main.prompt_view.focus()
        app.main.action_toggle_all()
        await pilot.pause()
        transcript = app.main.transcript_view
        assert transcript.source == ALL
        assert not transcript.open_query_blocks(), "its block is far above the window"
        app.main.focus_question(query_id)
        await pilot.pause()
        block = transcript.block_for_query(query_id)
        assert isinstance(block, QuestionBlock) and app.focused is block.input
        await pilot.press(*"8080", "enter")
        await settle(pilot, lambda: query_id not in app.main.model.open_queries)
        (question,) = [e for e in app.main.model.timeline if e.key == query_id]
        assert question.detail == "8080"
