"""The transcript pane on its own: paging of old entries, folding, streamed markdown chunks."""

from __future__ import annotations

import pytest
from rich.console import Console
from rich.markdown import Markdown
from textual.app import App, ComposeResult
from textual.widgets import Button, Static

from agentui.core.state import TranscriptItem as Entry
from agentui.tui.app.widgets.blocks import (
    LINES_PER_CHUNK,
    PARAGRAPHS_PER_CHUNK,
    AnswerBlock,
    Cut,
    EntryBlock,
    FoldBlock,
    freeze_point,
)
from agentui.tui.app.widgets.transcript import MAX_BLOCKS, PAGE, STARTING_HINT, Transcript

pytestmark = pytest.mark.anyio


class TranscriptApp(App[None]):
    def compose(self) -> ComposeResult:
        yield Transcript()


def notes(count: int) -> list[Entry]:
    return [Entry("a1", "notice", f"note {i}") for i in range(count)]


async def test_old_entries_are_paged_but_still_reachable() -> None:
    app = TranscriptApp()
    entries = notes(MAX_BLOCKS + PAGE + 20)
    async with app.run_test() as pilot:
        transcript = app.query_one(Transcript)
        transcript.show("a1", entries)
        await pilot.pause()
        assert len(transcript.query(EntryBlock)) == MAX_BLOCKS
        button = transcript.query_one("#earlier", Button)
        assert button.display and f"of {PAGE + 20} hidden" in str(button.label)
        button.press()
        await pilot.pause()
        assert len(transcript.query(EntryBlock)) == MAX_BLOCKS + PAGE
        transcript.show_earlier()
        await pilot.pause()
        assert len(transcript.query(EntryBlock)) == len(entries), "every entry can be reached"
        assert not button.display


async def test_new_entries_are_trimmed_while_following_the_tail() -> None:
    app = TranscriptApp()
    entries = notes(MAX_BLOCKS)
    async with app.run_test() as pilot:
        transcript = app.query_one(Transcript)
        transcript.show("a1", entries)
        await pilot.pause()
        transcript.scroll_end(animate=False, immediate=True)
        await pilot.pause()
        entries.extend(notes(10))
        transcript.sync(set())
        await pilot.pause()
        assert len(transcript.query(EntryBlock)) == MAX_BLOCKS
        assert transcript.query_one("#earlier", Button).display


async def test_the_earlier_button_is_made_when_needed_and_stays_above_the_entries() -> None:
    """It is mounted when entries are first trimmed (their blocks still being removed), at
    the top, reachable by Tab while it shows; paging back and switching sources keep it there."""
    app = TranscriptApp()
    entries = notes(MAX_BLOCKS)
    async with app.run_test() as pilot:
        transcript = app.query_one(Transcript)
        transcript.show("a1", entries)
        await pilot.pause()
        assert not transcript.query("#earlier"), "nothing is hidden yet"
        transcript.scroll_end(animate=False, immediate=True)
        await pilot.pause()
        entries.extend(notes(10))
        transcript.sync(set())
        await pilot.pause()
        button = transcript.query_one("#earlier", Button)
        assert transcript.children[0] is button and button in app.screen.focus_chain
        transcript.show_earlier()
        await pilot.pause()
        assert transcript.children[0] is button and button not in app.screen.focus_chain
        transcript.show("a2", notes(MAX_BLOCKS + 5))
        await pilot.pause()
        assert transcript.children[0] is button and button.display


async def test_tool_calls_fold_and_errors_open_by_themselves() -> None:
    app = TranscriptApp()
    ok = Entry("a1", "tool", "a=1", title="add", key="c1", detail="2")
    bad = Entry("a1", "tool", "a=x", title="add", key="c2", detail="invalid", failed=True)
    async with app.run_test() as pilot:
        transcript = app.query_one(Transcript)
        transcript.show("a1", [ok, bad])
        await pilot.pause()
        folds = list(transcript.query(FoldBlock))
        assert [f.folded for f in folds] == [True, False]
        await pilot.click(folds[0])
        assert not folds[0].folded
        transcript.action_toggle_folds()
        assert all(f.folded for f in folds)


async def test_a_long_answer_freezes_into_chunks_and_keeps_every_character() -> None:
    app = TranscriptApp()
    paragraphs = [
        f"Paragraph {i} with `[bold]` inside." for i in range(PARAGRAPHS_PER_CHUNK * 3 + 5)
    ]
    entry = Entry("a1", "text", "")
    async with app.run_test() as pilot:
        transcript = app.query_one(Transcript)
        transcript.show("a1", [entry])
        await pilot.pause()
        for paragraph in paragraphs:  # streamed a paragraph per flush
            entry.text += paragraph + "\n\n"
            transcript.sync({entry.uid})
        await pilot.pause()
        block = transcript.query_one(AnswerBlock)
        chunks = block.frozen_chunks.chunks
        assert len(chunks) == 3
        starts = [chunk.start for chunk in chunks]
        assert starts == [0, chunks[0].end, chunks[1].end], "each follows the one before"
        drawn = "".join(block.frozen_chunks.markdown_of(i) for i in range(3))
        drawn += block._tail_drawn[1]  # the text the tail shows
        assert all(paragraph in drawn for paragraph in paragraphs)


async def test_an_answer_that_arrives_long_in_one_batch_is_shown_whole() -> None:
    # A resumed session's backlog or a fast replay: the entry is new and already past a chunk
    # when the flush both mounts it and reports it changed.
    app = TranscriptApp()
    text = "".join(f"Paragraph {i}.\n\n" for i in range(PARAGRAPHS_PER_CHUNK * 2 + 3))
    entries: list[Entry] = []
    async with app.run_test() as pilot:
        transcript = app.query_one(Transcript)
        transcript.show("a1", entries)
        await pilot.pause()
        entry = Entry("a1", "text", text)
        entries.append(entry)
        transcript.sync({entry.uid})
        await pilot.pause()
        block = transcript.query_one(AnswerBlock)
        assert len(block.frozen_chunks.chunks) == 2
        assert block._shown_length == len(text)


def test_freeze_point_cuts_between_paragraphs_outside_code() -> None:
    text = "a\n\n```\nx\n\ny\n\nz\n```\n\nb\n\nc"
    cut = freeze_point(text, 2)
    assert cut is not None and cut.fence is None
    assert text[: cut.at].count("```") % 2 == 0
    assert freeze_point("one paragraph, unfinished", 1) is None


def test_a_long_code_block_is_cut_by_lines_and_the_fence_carried_over() -> None:
    code = "".join(f"line {i}\n" for i in range(10))
    text = f"Intro\n~~~~python\n{code}~~~~\nafter\n"
    cut = freeze_point(text, 24, max_lines=5)
    assert cut is not None and cut.fence == "~~~~python"
    assert text[: cut.at] == "Intro\n~~~~python\nline 0\nline 1\nline 2\n"
    rest = freeze_point(text[cut.at :], 24, cut.fence, max_lines=5)
    assert rest is not None and rest.fence == "~~~~python"
    assert freeze_point("unfinished line without its newline", 1, max_lines=1) is None


def test_a_line_longer_than_a_chunk_is_cut_between_words_or_where_it_has_none() -> None:
    words = "word " * 3000  # 15,000 characters, no newline: a chunk is 4,000 at most
    cut = freeze_point(words, 24, line_chars=4000)
    assert cut is not None and cut.at <= 4000 and words[: cut.at].endswith(" ")
    blob = "A" * 9000
    assert freeze_point(blob, 24, line_chars=4000) == Cut(4000)
    assert freeze_point("x" * 3999, 24, line_chars=4000) is None, "a line being written"
    inside = freeze_point("```\n" + blob, 24, line_chars=4000)
    assert inside == Cut(4 + 4000, "```"), "in code: the fence carried over"


async def test_a_code_line_longer_than_a_chunk_is_cut_and_every_part_renders_as_code() -> None:
    app = TranscriptApp()
    line = "".join(f"v{i}=[{i}];" for i in range(1500))  # ~12,000 characters, no space
    entry = Entry("a1", "text", "")
    async with app.run_test(size=(120, 40)) as pilot:
        transcript = app.query_one(Transcript)
        transcript.show("a1", [entry])
        await pilot.pause()
        entry.text = f"Here:\n```\n{line}\n```\nDone.\n"
        transcript.sync({entry.uid})
        await pilot.pause()
        frozen = transcript.query_one(AnswerBlock).frozen_chunks
        assert len(frozen.chunks) >= 3
        console = Console(record=True, width=20000)  # no wrapping: the code's line as drawn
        for index in range(len(frozen.chunks)):
            console.print(Markdown(frozen.markdown_of(index)))
        shown = console.export_text()
        assert "```" not in shown, "each cut closes its fence on a line of its own"
        assert "".join(shown.split()).count(line[:40]) == 1


async def test_a_long_streamed_code_block_renders_as_code_in_every_chunk() -> None:
    app = TranscriptApp()
    lines = [f"value_{i} = {i}  # [bold]not markup[/]" for i in range(LINES_PER_CHUNK * 2 + 7)]
    entry = Entry("a1", "text", "")
    async with app.run_test(size=(120, 40)) as pilot:
        transcript = app.query_one(Transcript)
        transcript.show("a1", [entry])
        await pilot.pause()
        entry.text = "Here:\n```python\n"
        for line in lines:  # a line per flush, as a model streams code
            entry.text += line + "\n"
            transcript.sync({entry.uid})
        entry.text += "```\nDone.\n"
        transcript.sync({entry.uid})
        await pilot.pause()
        block = transcript.query_one(AnswerBlock)
        frozen = block.frozen_chunks
        assert len(frozen.chunks) == 2
        console = Console(record=True, width=110)
        for index in range(len(frozen.chunks)):
            console.print(Markdown(frozen.markdown_of(index)))
        console.print(block.query_one(".answer-tail", Static).content)
        shown = console.export_text()
        for line in lines:
            assert line in shown, "every line of code, literally"
        assert "```" not in shown, "the fences split across chunks never show as text"
        assert "Done." in shown


async def test_an_answer_s_head_is_covered_whole_by_its_label_and_chunks() -> None:
    # The head draws blank lines, not its styles line by line (AnswerHead.render_lines): what
    # it would draw never shows only while its label and chunks cover every cell of it.
    app = TranscriptApp()
    text = "".join(f"Paragraph {i} of an answer.\n\n" for i in range(PARAGRAPHS_PER_CHUNK * 3))
    async with app.run_test(size=(60, 20)) as pilot:
        transcript = app.query_one(Transcript)
        entry = Entry("a1", "text", text)
        transcript.show("*", [entry], label=lambda entry: "agent one")
        await pilot.pause()
        block = transcript.query_one(AnswerBlock)
        head, label, chunks = block.head, block._label, block.frozen_chunks
        assert label.is_mounted and chunks.chunks
        assert head.styles.gutter.width == head.styles.gutter.height == 0
        assert (label.region.width, chunks.region.width) == (head.region.width,) * 2
        assert label.outer_size.height + chunks.outer_size.height == head.outer_size.height
        assert label.region.y == head.region.y and chunks.region.y == label.region.bottom


async def test_an_empty_transcript_of_a_task_given_at_start_says_it_is_starting() -> None:
    app = TranscriptApp()
    async with app.run_test() as pilot:
        transcript = app.query_one(Transcript)
        hint = transcript.query_one(".empty", Static)
        assert "Type a task" in str(hint.render())
        transcript.hint_starting()
        await pilot.pause()
        assert str(hint.render()) == STARTING_HINT
        transcript.show("a1", notes(1))
        await pilot.pause()
        assert not transcript.query(".empty"), "gone with the first source shown"
