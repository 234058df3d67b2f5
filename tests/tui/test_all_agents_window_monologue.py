"""The monologue's every-agent view shows the newest MAX_SHOWN lines of every agent; switching
the filter redraws the lines shown in place and mounts or removes only the difference."""

from __future__ import annotations

import pytest
from textual.app import App, ComposeResult
from textual.widgets import Static

from agentui.core.protocol.narrative import NarrativeEntry, NarrativeMetadata
from agentui.tui.app.widgets.monologue import MAX_SHOWN, MonologueSidebar

pytestmark = pytest.mark.anyio

METADATA = NarrativeMetadata(
    event_count=4, history_length=0, is_final=False, model="scripted", latency_ms=1.0
)


def narratives(count: int, agents: int) -> list[tuple[str, NarrativeEntry]]:
    lines = []
    for n in range(count):
        agent_id = f"a{n % agents}"
        entry = NarrativeEntry(
            timestamp=0.0, agent_name=agent_id, task_id=agent_id, text=f"line {n}",
            metadata=METADATA,
        )  # fmt: skip
        lines.append((agent_id, entry))
    return lines


class MonologueApp(App[None]):
    def compose(self) -> ComposeResult:
        yield MonologueSidebar()


def shown(sidebar: MonologueSidebar) -> list[str]:
    return [str(s.render()).rsplit("\n", 1)[-1] for s in sidebar.query(Static) if s.display]


async def test_switching_the_filter_shows_the_newest_lines_of_whom_it_names() -> None:
    lines = narratives(MAX_SHOWN * 3, agents=10)
    app = MonologueApp()
    async with app.run_test(size=(60, 30)) as pilot:
        sidebar = app.query_one(MonologueSidebar)
        sidebar.show(lines, None)
        await pilot.pause()
        assert shown(sidebar) == [e.text for _, e in lines[-MAX_SHOWN:]]
        first = sidebar.query(Static)[1]  # after the empty hint
        sidebar.show(lines, "a3")
        await pilot.pause()
        assert shown(sidebar) == [e.text for a, e in lines if a == "a3"]
        assert sidebar.query(Static)[1] is first, "a line shown is redrawn, not mounted again"
        sidebar.show(lines, None)
        await pilot.pause()
        assert shown(sidebar) == [e.text for _, e in lines[-MAX_SHOWN:]]
        assert len(sidebar.query(Static)) == MAX_SHOWN + 1  # and the hidden empty hint
        sidebar.show([], "a3")
        await pilot.pause()
        assert shown(sidebar) == [str(sidebar.query(Static)[0].render())]  # the empty hint
