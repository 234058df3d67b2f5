"""A resume checkpoint keeps the agents' conversations after the plan, read at first use (the
runtime adopting the plan, after the first frame, or anything that reads one sooner): no frame
shows them, and they were a third of a 1,000-agent plan's objects (issue 36)."""

from __future__ import annotations

import copy
import pickle
from pathlib import Path

import pytest

from agentui.core.protocol.conversation import Conversation
from agentui.core.session import checkpoint
from agentui.core.session.checkpoint import checkpoint_path, load_checkpoint
from agentui.core.session.errors import SessionError
from agentui.core.session.kept_conversations import ConversationToCome
from agentui.core.session.reader import read_session
from agentui.core.session.resume import plan_resume

from .test_session_checkpoint import _quit_while_asking, every_log  # noqa: F401  (a fixture)

pytestmark = pytest.mark.anyio


def _held(plan: object) -> list[type]:
    return [type(agent.__dict__["conversation"]) for agent in plan.state.agents.values()]  # type: ignore[attr-defined]


async def test_conversations_are_read_at_first_use_and_are_the_log_s(
    tmp_path: Path,
    every_log: None,  # noqa: F811
) -> None:
    path, root = await _quit_while_asking(tmp_path)
    whole = plan_resume(read_session(path))
    kept = load_checkpoint(path)
    assert kept is not None
    assert _held(kept) == [ConversationToCome] * len(kept.state.agents)  # none read yet
    fields_set = kept.state.agents[root].__pydantic_fields_set__.copy()

    # One read reads them all, each the agent's own, as the log's fold has it.
    assert (
        kept.state.agents[root].conversation.messages
        == whole.state.agents[root].conversation.messages
    )
    assert _held(kept) == [Conversation] * len(kept.state.agents)
    for agent_id, agent in kept.state.agents.items():
        assert agent.conversation == whole.state.agents[agent_id].conversation
    assert kept.state.agents[root].__pydantic_fields_set__ == fields_set  # nothing marked set


async def test_a_conversation_to_come_copies_and_pickles_as_the_conversation(
    tmp_path: Path,
    every_log: None,  # noqa: F811
) -> None:
    path, root = await _quit_while_asking(tmp_path)
    whole = plan_resume(read_session(path)).state.agents[root].conversation
    for copied in (
        lambda c: pickle.loads(pickle.dumps(c)),
        copy.deepcopy,
        copy.copy,
    ):
        kept = load_checkpoint(path)
        assert kept is not None
        standing = kept.state.agents[root].__dict__["conversation"]
        assert type(standing) is ConversationToCome
        made = copied(standing)
        assert type(made) is Conversation and made == whole


async def test_adopting_the_plan_gives_the_runtime_each_agent_s_own_conversation(
    tmp_path: Path,
    every_log: None,  # noqa: F811
) -> None:
    path, _ = await _quit_while_asking(tmp_path)
    kept = load_checkpoint(path)
    assert kept is not None and kept.conversations is not None

    class Adopting:
        """Takes what a runtime takes, no more."""

        def __init__(self) -> None:
            self.conversations: list[object] = []

        def adopt(self, agent: object, **_: object) -> None:
            self.conversations.append(type(agent.__dict__["conversation"]))  # type: ignore[attr-defined]

        def recall_steps(self, *_: object) -> None:
            pass

        def hold_budget_stop(self, *_: object) -> None:
            pass

    runtime = Adopting()
    kept.adopt_into(runtime)  # type: ignore[arg-type]
    assert runtime.conversations == [Conversation] * len(kept.state.agents)


async def test_conversations_that_cannot_be_read_say_so_and_the_next_resume_reads_the_log(
    tmp_path: Path,
    every_log: None,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    path, root = await _quit_while_asking(tmp_path)
    kept = load_checkpoint(path)
    assert kept is not None and kept.conversations is not None

    def fails(self: pickle.Unpickler) -> object:
        raise MemoryError

    # The checkpoint's own loader, held at the conversations.
    monkeypatch.setattr(checkpoint._PlanLoader, "load", fails)
    for _ in range(2):  # the second use says it as well, never reads half a stream
        with pytest.raises(SessionError, match=r"checkpoint could not be read.*from its log"):
            kept.conversations.restore()
    monkeypatch.undo()
    assert not checkpoint_path(path).exists()
    assert load_checkpoint(path) is None  # the log is read instead, whole
    assert plan_resume(read_session(path)).state.agents[root].conversation.messages
