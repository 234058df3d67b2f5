"""A click on a tree row's label selects its agent and never folds its subtree; only a click on
the ▶/▼ before it folds or unfolds. (Textual's Tree folds a node on any click that selects it:
auto_expand.)"""

from __future__ import annotations

import pytest

from agentui.core.agent.tree import AgentStatus as S
from agentui.core.providers.scripted.script import Script, Turn
from agentui.tui.app.app import AgentUIApp

from .helpers import has_status, make_app, settle

pytestmark = [pytest.mark.anyio, pytest.mark.painted]

HOLD = Script(agents={"*": [Turn(text="one two three", hang_after_chunks=2)]})


def _with_a_subagent(app: AgentUIApp) -> bool:
    runtime = app.host.runtime
    if runtime is not None and "a1" in app.main.model.agents and "a2" not in app.main.model.agents:
        runtime.start("look around", parent_id="a1")
    return has_status(app, "a2", S.RUNNING)()


async def test_a_click_on_a_label_selects_and_only_the_toggle_folds() -> None:
    app = make_app("hold", HOLD)
    async with app.run_test(size=(100, 24)) as pilot:
        await settle(pilot, lambda: _with_a_subagent(app))
        tree = app.main.tree_view
        root = tree.root.children[0]
        await settle(pilot, lambda: root.line == 0 and tree.get_node_at_line(1) is not None)
        subagent = tree.get_node_at_line(1)
        assert subagent is not None and subagent.data == "a2"
        # Offsets from the tree's content, inside its border.
        left = tree.content_region.x - tree.region.x
        top = tree.content_region.y - tree.region.y

        async def click(column: int, line: int) -> None:
            await pilot.click(tree, offset=(left + column, top + line))
            await pilot.pause()

        # The subagent's label, then the root's label ("▼ ● main": the name from column 4).
        await click(6, 1)
        assert app.main.selected_id == "a2"
        await click(6, 0)
        assert app.main.selected_id == "a1"
        assert root.is_expanded, "a click on the label selects; the subtree stays open"
        await click(0, 0)  # the ▼
        assert not root.is_expanded, "the toggle folds"
        await click(0, 0)
        assert root.is_expanded, "and unfolds"
