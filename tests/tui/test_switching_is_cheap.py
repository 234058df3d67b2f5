"""Going from agent to agent redraws in place: the transcript reuses its blocks, the footer is
rebuilt only when its keys change, and the selection follows the cursor in the key's own turn."""

from __future__ import annotations

import pytest
from textual import events
from textual.app import App, ComposeResult
from textual.geometry import Region
from textual.widget import Widget
from textual.widgets._footer import FooterKey

from agentui.core.agent.tree import AgentStatus
from agentui.core.providers.scripted.script import Script, Turn
from agentui.core.state import TranscriptItem as Entry
from agentui.tui.app.keymap import pane_action
from agentui.tui.app.widgets.blocks import (
    PARAGRAPHS_PER_CHUNK,
    AnswerBlock,
    EntryBlock,
    FoldBlock,
    NoteBlock,
)
from agentui.tui.app.widgets.footer import KeyFooter
from agentui.tui.app.widgets.query_blocks import QuestionBlock
from agentui.tui.app.widgets.transcript import Transcript

from .helpers import has_status, make_app, runtime_of, settle

pytestmark = pytest.mark.anyio

HOLD = Script.for_all(Turn(text="one two three four five six seven", hang_after_chunks=2))


class TranscriptApp(App[None]):
    def compose(self) -> ComposeResult:
        yield Transcript()


def shown(widget: Widget) -> str:
    """The text the widget and everything in it draw, as on screen."""
    lines: list[str] = []
    for node in widget.walk_children(with_self=True):
        if isinstance(node, Widget) and not node.children and node.display:
            width, height = node.size
            strips = node.render_lines(Region(0, 0, width, height))
            lines += [strip.text.rstrip() for strip in strips]
    return "\n".join(line for line in lines if line.strip())


def blocks(transcript: Transcript) -> list[EntryBlock]:
    return list(transcript.query(EntryBlock))


async def test_switching_agents_redraws_the_same_blocks_with_the_new_text() -> None:
    alpha = [
        Entry("a1", "task", "alpha task"),
        Entry("a1", "text", "alpha answer"),
        Entry("a1", "tool", "x=1", title="add", key="c1", detail="2"),
    ]
    beta = [
        Entry("a2", "task", "beta task"),
        Entry("a2", "text", "beta answer"),
        Entry("a2", "error", "beta failed", title="error", failed=True),
    ]
    app = TranscriptApp()
    async with app.run_test() as pilot:
        transcript = app.query_one(Transcript)
        transcript.show("a1", alpha)
        await pilot.pause()
        before = blocks(transcript)
        transcript.show("a2", beta)
        await pilot.pause()
        after = blocks(transcript)
        # The task and the answer are the same widgets, drawing beta's entries now; the tool
        # block cannot show an error, so a note block took its place.
        assert after[:2] == before[:2]
        assert after[2] is not before[2] and isinstance(after[2], NoteBlock)
        assert [b.entry for b in after] == beta
        assert after[2].has_class("failed") and after[2].has_class("error")
        text = shown(transcript)
        assert "beta task" in text and "beta answer" in text and "beta failed" in text
        assert "alpha" not in text
        transcript.show("a1", alpha)
        await pilot.pause()
        text = shown(transcript)
        assert "alpha task" in text and "alpha answer" in text and "beta" not in text
        assert not blocks(transcript)[2].has_class("failed")


async def test_a_reused_answer_block_drops_the_chunks_of_the_answer_before() -> None:
    long = "".join(f"Long paragraph {i}.\n\n" for i in range(PARAGRAPHS_PER_CHUNK * 2 + 3))
    app = TranscriptApp()
    async with app.run_test() as pilot:
        transcript = app.query_one(Transcript)
        transcript.show("a1", [Entry("a1", "text", long)])
        await pilot.pause()
        block = transcript.query_one(AnswerBlock)
        assert len(block.frozen_chunks.chunks) == 2
        transcript.show("a2", [Entry("a2", "text", "Short answer.")])
        await pilot.pause()
        assert transcript.query_one(AnswerBlock) is block
        assert not block.frozen_chunks.chunks
        assert shown(transcript) == "Short answer."
        transcript.show("a1", [Entry("a1", "text", long)])
        await pilot.pause()
        assert len(block.frozen_chunks.chunks) == 2
        assert "Long paragraph 0." in shown(transcript)


async def test_a_reused_fold_starts_folded_and_an_error_starts_open() -> None:
    ok = Entry("a1", "tool", "a=1", title="add", key="c1", detail="2")
    bad = Entry("a2", "tool", "a=x", title="add", key="c2", detail="invalid", failed=True)
    app = TranscriptApp()
    async with app.run_test() as pilot:
        transcript = app.query_one(Transcript)
        transcript.show("a1", [ok])
        await pilot.pause()
        fold = transcript.query_one(FoldBlock)
        fold.folded = False  # the person opened it
        transcript.show("a2", [bad])
        await pilot.pause()
        assert transcript.query_one(FoldBlock) is fold and not fold.folded
        transcript.show("a1", [ok])
        await pilot.pause()
        assert fold.folded and not fold.has_class("failed")


async def test_questions_always_get_a_block_of_their_own() -> None:
    first = Entry("a1", "question", "Which city?", key="q1", open=True)
    second = Entry("a2", "question", "Which date?", key="q2", open=True)
    app = TranscriptApp()
    async with app.run_test() as pilot:
        transcript = app.query_one(Transcript)
        transcript.show("a1", [first])
        await pilot.pause()
        block = transcript.query_one(QuestionBlock)
        assert block.input is not None
        block.input.insert("Lis")  # a half-typed answer
        transcript.show("a2", [second])
        await pilot.pause()
        other = transcript.query_one(QuestionBlock)
        assert other is not block and other.query_id == "q2"
        assert other.input is not None and other.input.value == ""
        transcript.show("a1", [first])
        await pilot.pause()
        again = transcript.query_one(QuestionBlock)
        assert again.input is not None and again.input.value == "Lis", "the draft is kept"


async def test_the_cursor_selects_its_agent_in_the_same_turn_as_the_key() -> None:
    app = make_app("first", HOLD)
    async with app.run_test() as pilot:
        runtime = await runtime_of(pilot)
        runtime.start("second")
        runtime.start("third")
        await settle(pilot, lambda: len(app.main.tree_view._agent_nodes) == 3)
        app.main.tree_view.focus()
        app.main.tree_view.select_agent("a1")
        await pilot.pause()
        assert app.main.selected_id == "a1"
        app.main.tree_view.action_cursor_down()
        # No message in between: the transcript already shows the agent under the cursor.
        assert app.main.selected_id == "a2" and app.main.transcript_view.source == "a2"
        app.main.tree_view.action_cursor_down()
        assert app.main.selected_id == "a3" and app.main.transcript_view.source == "a3"


async def test_the_footer_is_rebuilt_only_when_its_keys_change() -> None:
    app = make_app("first", HOLD)
    async with app.run_test() as pilot:
        runtime = await runtime_of(pilot)
        runtime.start("second")
        await settle(pilot, lambda: len(app.main.tree_view._agent_nodes) == 2)
        await settle(pilot, has_status(app, "a2", AgentStatus.RUNNING))
        app.main.tree_view.focus()
        app.main.tree_view.select_agent("a1")
        await pilot.pause()
        footer = app.query_one(KeyFooter)
        keys = list(footer.children)
        assert keys
        app.main.tree_view.action_cursor_down()  # both run: the same keys apply
        await pilot.pause()
        assert app.main.selected_id == "a2"
        assert list(footer.children) == keys, "the same keys: nothing rebuilt"
        runtime.pause("a2")
        await settle(pilot, has_status(app, "a2", AgentStatus.PAUSED))
        # Resume applies now and pause does not: the same keys, drawn again in place.
        assert list(footer.children) == keys
        state = {k.action: k.has_class("-disabled") for k in footer.query(FooterKey)}
        assert state[pane_action("pause")] and not state[pane_action("resume")]
        runtime.resume("a2")
        await settle(pilot, has_status(app, "a2", AgentStatus.RUNNING))
        state = {k.action: k.has_class("-disabled") for k in footer.query(FooterKey)}
        assert not state[pane_action("pause")] and state[pane_action("resume")]
        app.main.prompt_view.focus()  # other keys apply in the prompt: the footer is rebuilt
        await pilot.pause()
        assert list(footer.children) != keys
        assert pane_action("pause") not in {k.action for k in footer.query(FooterKey)}


async def test_an_agent_key_is_run_as_it_arrives_not_after_the_trees_queue() -> None:
    app = make_app("first", HOLD)
    async with app.run_test() as pilot:
        await settle(pilot, has_status(app, "a1", AgentStatus.RUNNING))
        tree = app.main.tree_view
        tree.focus()
        await pilot.pause()
        # Keys forwarded to the tree are held back, as if its queue were busy with a flush.
        held: list[object] = []
        forward = tree.post_message
        tree.post_message = lambda m: (
            held.append(m) or True if isinstance(m, events.Key) else forward(m)
        )  # type: ignore[method-assign]
        await pilot.press("p")
        await settle(pilot, has_status(app, "a1", AgentStatus.PAUSED))
        assert not [m for m in held if getattr(m, "key", None) == "p"]
        await pilot.press("down")  # the tree's own keys still go through its queue
        assert [m for m in held if getattr(m, "key", None) == "down"]
