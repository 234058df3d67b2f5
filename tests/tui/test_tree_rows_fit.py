"""The tree's rows fit their pane: on a narrow one the task shortens, then goes, and the tokens
and elapsed time stay whole; a number is never cut at the pane's edge (`34` for 354)."""

from __future__ import annotations

import pytest
from textual.app import App, ComposeResult

from agentui.core.protocol.agent_status import AgentStatus
from agentui.core.protocol.usage import Usage
from agentui.core.state import AgentState
from agentui.tui.app.widgets.agent_tree import AgentTree, format_tokens

pytestmark = [pytest.mark.anyio, pytest.mark.painted]

NOW = 22.0  # every agent started at 10.0: "12s"


def agent(agent_id: str, name: str, tokens: int, parent: str | None = None) -> AgentState:
    state = AgentState(
        id=agent_id,
        name=name,
        task="Compare the catering offers of every venue in Lisbon",
        status=AgentStatus.RUNNING,
        created_at=0.0,
        parent_id=parent,
    )
    state.usage = Usage(input_tokens=tokens, output_tokens=0)
    state.first_started_at = 10.0
    return state


AGENTS = [
    agent("a1", "main", 354),
    agent("a2", "main.1", 1_234_567, parent="a1"),
    agent("a3", "main.1.1", 98_765, parent="a2"),
]


class TreeApp(App[None]):
    def compose(self) -> ComposeResult:
        yield AgentTree(lambda: NOW)


async def rows_at(width: int) -> list[str]:
    app = TreeApp()
    async with app.run_test(size=(width, 8)) as pilot:
        tree = app.query_one(AgentTree)
        tree.add_agents(AGENTS)
        await pilot.pause()
        rows = [tree.render_line(y).text.rstrip() for y in range(len(AGENTS))]
    assert all(len(row) <= width for row in rows)
    return rows


@pytest.mark.parametrize("width", [12, 16, 20, 24, 28, 32, 40, 60, 100])
async def test_a_row_never_cuts_a_number_and_keeps_its_tokens_before_its_task(width: int) -> None:
    for state, row in zip(AGENTS, await rows_at(width), strict=True):
        tokens = format_tokens(state.tokens)
        label = row[row.index(state.name) :] if state.name in row else row  # a name cut last
        if f"{state.name}  {tokens} 12s" in label or label.endswith(f"  {tokens} 12s"):
            continue  # the task shortened or went; the numbers are whole
        if label.endswith(f"  {tokens}"):
            continue  # no room for the clock: it went, whole
        # No room even for the tokens: they went whole, never a part of them.
        assert not any(label.endswith(" " + tokens[:cut]) for cut in range(1, len(tokens))), row
        assert tokens not in label


async def test_a_wide_pane_shows_the_whole_task_and_a_narrow_one_shortens_it() -> None:
    wide = await rows_at(100)
    assert wide[0].endswith("main Compare the catering offers…  354 12s"), "capped as before"
    narrow = await rows_at(28)
    assert narrow[0].endswith("  354 12s") and "…" in narrow[0], narrow[0]
    assert narrow[1].endswith("  1234.6k 12s"), narrow[1]
