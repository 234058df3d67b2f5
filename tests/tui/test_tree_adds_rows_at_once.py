"""Agents added to the tree at once (a resumed session's, a burst) cost the tree one drop of
its line caches and one layout, not one per row: Textual's Tree asks for both at every node it
adds (issue 36: ~8 ms of a 1,000-agent resume's first frame)."""

from __future__ import annotations

import pytest
from textual.widgets import Tree

from agentui.core.state import AgentState

from .test_tree_at_scale import CountingTree, TreeApp, agents

pytestmark = pytest.mark.anyio


async def test_agents_added_at_once_invalidate_the_tree_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    invalidated: list[Tree[str]] = []
    textuals = Tree._invalidate

    def invalidate(tree: Tree[str]) -> None:
        invalidated.append(tree)
        textuals(tree)

    app = TreeApp()
    async with app.run_test() as pilot:
        tree = app.query_one(CountingTree)
        monkeypatch.setattr(Tree, "_invalidate", invalidate)
        added = agents(50)
        children = [
            AgentState(id=f"c{i}", parent_id="a0", name=f"child-{i}", task="t", created_at=0.0)
            for i in range(3)
        ]
        tree.add_agents([*added, *children])
        assert len(invalidated) == 1
        await pilot.pause()
        # Every row is in the tree, the children under their parent, which may now unfold.
        assert tree.last_line == 50 + 3 - 1
        parent = tree._agent_nodes["a0"]
        assert [child.data for child in parent.children] == ["c0", "c1", "c2"]
        assert parent.allow_expand
        # One agent added later (a new run's) is drawn as before.
        tree.add_agents(agents(52)[51:])
        assert len(invalidated) == 2
        await pilot.pause()
        assert tree.last_line == 53
