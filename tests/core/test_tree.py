"""The agent tree: the status state machine, subtree order, and the snapshots front ends read."""

from __future__ import annotations

import itertools
import json

import pytest

from agentui.core.agent.tree import ALLOWED, AgentNode, AgentStatus, AgentTree, check_transition
from agentui.core.providers.scripted.script import Turn
from agentui.core.support.errors import AgentUIError, IllegalTransitionError, UnknownAgentError

from .helpers import scripted_runtime

S = AgentStatus
PAIRS = list(itertools.product(AgentStatus, AgentStatus))
ALLOWED_PAIRS = [(old, new) for old, new in PAIRS if new in ALLOWED[old]]
ILLEGAL_PAIRS = [(old, new) for old, new in PAIRS if new not in ALLOWED[old]]


def node(agent_id: str, parent_id: str | None = None) -> AgentNode:
    return AgentNode(
        id=agent_id, parent_id=parent_id, name=agent_id, task=f"task {agent_id}", created_at=0.0
    )


def tree_with(status: AgentStatus) -> AgentTree:
    tree = AgentTree()
    tree.add(node("a1"))
    tree.get("a1").status = status
    return tree


def pair_id(pair: tuple[AgentStatus, AgentStatus]) -> str:
    return f"{pair[0].value}->{pair[1].value}"


# -- the state machine ---------------------------------------------------------------------


def test_allowed_covers_every_status() -> None:
    assert set(ALLOWED) == set(AgentStatus)
    assert len(PAIRS) == len(ALLOWED_PAIRS) + len(ILLEGAL_PAIRS) == 81
    for old, targets in ALLOWED.items():
        assert old not in targets, f"{old} -> {old} should not be a transition"


@pytest.mark.parametrize("pair", ALLOWED_PAIRS, ids=pair_id)
def test_every_allowed_transition_succeeds(pair: tuple[AgentStatus, AgentStatus]) -> None:
    old, new = pair
    tree = tree_with(old)
    check_transition("a1", old, new)  # does not raise
    assert tree.set_status("a1", new) is old
    assert tree.get("a1").status is new


@pytest.mark.parametrize("pair", ILLEGAL_PAIRS, ids=pair_id)
def test_every_other_transition_raises(pair: tuple[AgentStatus, AgentStatus]) -> None:
    old, new = pair
    tree = tree_with(old)
    with pytest.raises(IllegalTransitionError) as info:
        tree.set_status("a1", new)
    assert (info.value.agent_id, info.value.old, info.value.new) == ("a1", old.value, new.value)
    assert isinstance(info.value, AgentUIError)
    assert tree.get("a1").status is old  # an illegal change leaves the node as it was
    with pytest.raises(IllegalTransitionError):
        check_transition("a1", old, new)


def test_the_documented_paths_are_allowed() -> None:
    # DESIGN.md: pending -> running <-> paused, running -> awaiting_user -> running, the ends.
    path = [S.PENDING, S.RUNNING, S.PAUSED, S.RUNNING, S.AWAITING_USER, S.RUNNING]
    path += [S.MODIFIED, S.RUNNING, S.COMPLETED, S.DELETED]
    tree = tree_with(S.PENDING)
    for new in path[1:]:
        tree.set_status("a1", new)
    assert tree.get("a1").status is S.DELETED
    for end in (S.COMPLETED, S.ERROR, S.CANCELLED):
        # Delete, continue the conversation, or rewind it to a step (it then waits, paused).
        assert ALLOWED[end] == {S.DELETED, S.RUNNING, S.PAUSED}


def test_deleted_is_final() -> None:
    assert ALLOWED[S.DELETED] == frozenset()
    assert S.DELETED.is_final and not S.DELETED.is_live
    tree = tree_with(S.DELETED)
    for new in AgentStatus:
        with pytest.raises(IllegalTransitionError):
            tree.set_status("a1", new)
    assert tree.get("a1").status is S.DELETED


def test_live_and_final_statuses() -> None:
    live = {s for s in AgentStatus if s.is_live}
    assert live == {S.PENDING, S.RUNNING, S.PAUSED, S.AWAITING_USER, S.MODIFIED}
    assert {s for s in AgentStatus if s.is_final} == set(AgentStatus) - live
    # Back to pending only from paused or modified (changed before the run began).
    assert {s for s in live if S.PENDING in ALLOWED[s]} == {S.PAUSED, S.MODIFIED}


# -- structure -----------------------------------------------------------------------------


def build_tree() -> AgentTree:
    """a1 -> (a2 -> (a4, a5 -> a7), a3 -> a6); a8 is a second root.

    Ids are added out of order so that subtree order cannot come from insertion order.
    """
    tree = AgentTree()
    tree.add(node("a1"))
    tree.add(node("a8"))
    tree.add(node("a2", "a1"))
    tree.add(node("a3", "a1"))
    tree.add(node("a6", "a3"))
    tree.add(node("a4", "a2"))
    tree.add(node("a5", "a2"))
    tree.add(node("a7", "a5"))
    return tree


def test_subtree_lists_parents_before_children_in_child_order() -> None:
    tree = build_tree()
    assert [n.id for n in tree.subtree("a1")] == ["a1", "a2", "a4", "a5", "a7", "a3", "a6"]
    assert [n.id for n in tree.subtree("a2")] == ["a2", "a4", "a5", "a7"]
    assert [n.id for n in tree.subtree("a7")] == ["a7"]
    assert [n.id for n in tree.subtree("a8")] == ["a8"]
    for agent_id in ("a1", "a2", "a3"):
        ids = [n.id for n in tree.subtree(agent_id)]
        for member in tree.subtree(agent_id)[1:]:
            assert ids.index(member.parent_id) < ids.index(member.id)  # type: ignore[arg-type]


def test_tree_structure_queries() -> None:
    tree = build_tree()
    assert len(tree) == 8
    assert "a5" in tree and "a9" not in tree
    assert [n.id for n in tree.roots()] == ["a1", "a8"]
    assert tree.get("a2").children == ["a4", "a5"]
    assert [tree.depth(i) for i in ("a1", "a2", "a5", "a7", "a8")] == [0, 1, 2, 3, 0]
    with pytest.raises(UnknownAgentError):
        tree.get("a9")
    with pytest.raises(UnknownAgentError):
        tree.subtree("a9")
    with pytest.raises(UnknownAgentError):
        tree.set_status("a9", S.RUNNING)
    with pytest.raises(UnknownAgentError):
        tree.add(node("a10", "a9"))  # a parent that does not exist
    with pytest.raises(ValueError):
        tree.add(node("a3"))  # duplicate id
    assert len(tree) == 8


def test_tree_snapshot_is_json_ready_without_histories() -> None:
    tree = build_tree()
    tree.get("a2").conversation.instructions = "secret instructions"
    snapshot = tree.snapshot()
    text = json.dumps(snapshot)
    assert "conversation" not in text and "secret instructions" not in text
    assert snapshot["roots"] == ["a1", "a8"]
    assert set(snapshot["agents"]) == {f"a{i}" for i in range(1, 9)}
    assert snapshot["agents"]["a2"]["children"] == ["a4", "a5"]
    assert snapshot["agents"]["a2"]["status"] == "pending"
    assert json.loads(text) == snapshot


# -- through the runtime -------------------------------------------------------------------


@pytest.mark.anyio
async def test_runtime_tree_and_agent_views() -> None:
    runtime = scripted_runtime(Turn(thinking="Let me think.", text="All done."))
    async with runtime:
        root = runtime.start("root task")
        child = runtime.start("child task", parent_id=root)
        await runtime.wait(root)
        await runtime.wait(child)

        snapshot = runtime.tree()
        text = json.dumps(snapshot)  # JSON-serialisable as is
        assert json.loads(text) == snapshot
        assert "conversation" not in text
        assert "messages" not in text
        assert snapshot["roots"] == [root]
        agents = snapshot["agents"]
        assert set(agents) == {root, child}
        assert agents[root]["children"] == [child]
        assert agents[child]["parent_id"] == root
        assert agents[child]["name"] == "main.1"
        assert agents[root]["status"] == agents[child]["status"] == "completed"
        assert agents[root]["result"] == "All done."
        assert agents[root]["usage"]["output_tokens"] > 0

        full = runtime.agent(root)
        json.dumps(full)
        conversation = full["conversation"]
        assert conversation["instructions"] == runtime.instructions
        messages = conversation["messages"]
        assert [m["role"] for m in messages] == ["user", "assistant"]
        assert messages[0]["content"] == [{"type": "text", "text": "root task"}]
        kinds = [block["type"] for block in messages[1]["content"]]
        assert kinds == ["thinking", "text"]
        assert messages[1]["content"][1]["text"] == "All done."
        assert {k: v for k, v in full.items() if k != "conversation"} == agents[root]
