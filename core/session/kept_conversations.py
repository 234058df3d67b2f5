"""A resume checkpoint's conversations (checkpoint.py keeps them after the plan), read at first
use: when the runtime adopts the plan (`ResumePlan.adopt_into`, after the first frame), or
sooner, when anything reads one. No frame shows them, and unpickling them made a third of a
1,000-agent plan's objects (~11 ms before its first frame; issue 36)."""

from __future__ import annotations

import copy
import pickle
import threading
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from agentui.core.protocol.conversation import Conversation
    from agentui.core.state import AgentState


class KeptConversations:
    """A plan's conversations as its checkpoint keeps them (after the plan in its pickle stream,
    checked with it). Until they are read each agent's `conversation` is a ConversationToCome."""

    def __init__(self) -> None:
        self._rest: pickle.Unpickler | None = None  # the plan's loader, at the conversations
        self._agents: Mapping[str, AgentState] = {}
        self._standing: dict[str, ConversationToCome] = {}
        self._read: dict[str, Conversation] | None = None
        self._lock = threading.Lock()  # read by the loop, or the thread that loads core

    def standing_for(self, agent_id: str) -> ConversationToCome:
        standing = self._standing.get(agent_id)
        if standing is None:
            standing = self._standing[agent_id] = ConversationToCome(self, agent_id)
        return standing

    def hold(self, rest: pickle.Unpickler, agents: Mapping[str, AgentState]) -> None:
        self._rest = rest
        self._agents = agents

    def restore(self) -> dict[str, Conversation]:
        """Every agent's own conversation in its place (once); the conversations by agent."""
        with self._lock:
            if self._read is None:
                assert self._rest is not None, "held before read"
                read: dict[str, Conversation] = self._rest.load()  # checked with the plan
                self._rest = None
                for agent_id, conversation in read.items():
                    agent = self._agents.get(agent_id)
                    # In the model's own dict: no field is marked set that was not.
                    if agent is not None and type(agent.__dict__.get("conversation")) is (
                        ConversationToCome
                    ):
                        agent.__dict__["conversation"] = conversation
                self._read = read
            return self._read


class ConversationToCome:
    """An agent's conversation until its checkpoint's are read (KeptConversations): any use of
    it reads them all, and is that of the agent's own conversation."""

    __slots__ = ("_agent_id", "_kept")

    def __init__(self, kept: KeptConversations, agent_id: str) -> None:
        object.__setattr__(self, "_kept", kept)
        object.__setattr__(self, "_agent_id", agent_id)

    def own(self) -> Conversation:
        return self._kept.restore()[self._agent_id]

    def __getattr__(self, name: str) -> Any:
        return getattr(self.own(), name)

    def __setattr__(self, name: str, value: Any) -> None:
        setattr(self.own(), name, value)

    def __eq__(self, other: object) -> bool:
        return self.own() == other

    __hash__ = None  # type: ignore[assignment]  # as the conversation's own

    def __reduce_ex__(self, protocol: Any) -> Any:  # pickled as the conversation itself
        return _the_conversation, (self.own(),)

    def __copy__(self) -> Conversation:
        return copy.copy(self.own())

    def __deepcopy__(self, memo: dict[int, Any]) -> Conversation:
        return copy.deepcopy(self.own(), memo)

    def __repr__(self) -> str:
        return repr(self.own())


def _the_conversation(conversation: Conversation) -> Conversation:
    return conversation
