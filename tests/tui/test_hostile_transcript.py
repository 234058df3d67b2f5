"""The transcript pane shows control characters from a model, a tool or a task visibly, and
markup-like text literally: every block, as drawn."""

from __future__ import annotations

import pytest
from textual.geometry import Region
from textual.widget import Widget

from agentui.core.agent.tree import AgentStatus as S
from agentui.core.providers.scripted.script import Script, ScriptedToolCall, Turn
from agentui.core.tools.tool import tool
from agentui.tui.app.screens.modify import ModifyScreen

from .helpers import app_when, has_status

pytestmark = pytest.mark.anyio

HOSTILE = "t\x1b]0;T\x07 c\x1b[2J m\x1b[5;5H b\x08 n\x00 r\rR \x9b \u202e [bold]x[/bold]"
FORBIDDEN = {*map(chr, range(0x20)), *map(chr, range(0x7F, 0xA0)), "\u202e"} - {"\n"}


@tool()
async def echo(text: str) -> str:
    """Say it back."""
    return f"result {text}"


SCRIPT = Script.for_all(
    Turn(
        thinking=f"thinking {HOSTILE}",
        text=f"said {HOSTILE}",
        tool_calls=[ScriptedToolCall(name="echo", arguments={"text": HOSTILE})],
    ),
    Turn(tool_calls=[ScriptedToolCall(name="ask_user", arguments={"question": f"q {HOSTILE}"})]),
    Turn(text=f"# answer\n\nfinal {HOSTILE}", hang_after_chunks=40),
)


def drawn(widget: Widget) -> str:
    strips = widget.render_lines(Region(0, 0, widget.size.width, widget.size.height))
    return "\n".join(strip.text for strip in strips)


async def test_every_transcript_block_shows_controls_visibly() -> None:
    async with app_when(
        lambda app: bool(app.main.model.open_queries), f"task {HOSTILE}", SCRIPT, tools=[echo]
    ) as (app, pilot):
        await pilot.press("x")  # unfold thinking and tool blocks: their whole text is drawn
        app.main.transcript_view.focus()
        await pilot.press("x")
        await pilot.pause()
        screen = "\n".join(drawn(w) for w in app.main.transcript_view.query("*") if w.size.area)
        title = str(app.main.transcript_view.border_title)
        for text in (screen, title):
            assert not FORBIDDEN & set(text.replace("\n", "")), repr(text)
        assert "␛]0;T␇" in screen and "␛[2J" in screen and "␈" in screen and "␀" in screen
        assert "[bold]x[/bold]" in screen, "markup-like text prints literally"
        assert "␛[2J" in title


async def test_the_modify_window_shows_the_task_visibly_and_unchanged_is_no_change() -> None:
    async with app_when(
        lambda app: has_status(app, "a1", S.AWAITING_USER)(),
        f"task {HOSTILE}",
        SCRIPT,
        tools=[echo],
    ) as (app, pilot):
        await pilot.press("ctrl+p", *"Modify", "enter")  # m on the tree would type the answer
        await pilot.pause()
        assert isinstance(app.screen, ModifyScreen)
        await pilot.pause()
        content = drawn(app.screen.query_one("#content"))
        assert "␛]0;T␇" in content and not FORBIDDEN & set(content.replace("\n", ""))
        await pilot.press("ctrl+s")  # nothing edited: nothing modified
        await pilot.pause()
        assert not [e for e in app.main.model.agents["a1"].entries if e.title == "modified"]
