"""A resume checkpoint's conversations (checkpoint.py keeps them after the plan), read at first
use: when the runtime adopts the plan (`ResumePlan.adopt_into`, after the first frame), or
sooner, when anything reads one. No frame shows them, and unpickling them made a third of a
1,000-agent plan's objects (~11 ms before its first frame; issue 36)."""

from __future__ import annotations

import copy
import pickle
import threading
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from agentui.core.session.errors import SessionError

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
        self._set_aside: Callable[[], None] = lambda: None  # the checkpoint, when unreadable
        self._lock = threading.Lock()  # read by the loop, or the thread that loads core

    def standing_for(self, agent_id: str) -> ConversationToCome:
        standing = self._standing.get(agent_id)
        if standing is None:
            standing = self._standing[agent_id] = ConversationToCome(self, agent_id)
        return standing

    def hold(
        self,
        rest: pickle.Unpickler,
        agents: Mapping[str, AgentState],
        set_aside: Callable[[], None],
    ) -> None:
        """`set_aside` drops the checkpoint if its conversations cannot be read."""
        self._rest = rest
        self._agents = agents
        self._set_aside = set_aside

    def restore(self) -> dict[str, Conversation]:
        """Every agent's own conversation in its place (once); the conversations by agent."""
        with self._lock:
            if self._read is None:
                rest, self._rest = self._rest, None
                if rest is None:
                    raise self._unreadable("it was read already and failed")
                try:
                    read: dict[str, Conversation] = rest.load()  # checked with the plan
                except Exception as error:  # signed, so only a bug or no memory gets here
                    raise self._unreadable(repr(error)) from error
                for agent_id, conversation in read.items():
                    agent = self._agents.get(agent_id)
                    # In the model's own dict: no field is marked set that was not.
                    if agent is not None and type(agent.__dict__.get("conversation")) is (
                        ConversationToCome
                    ):
                        agent.__dict__["conversation"] = conversation
                self._read = read
            return self._read

    def _unreadable(self, why: str) -> SessionError:
        """The checkpoint is set aside: resumed again, the session reads its log, as after a
        crash (nothing in the log is lost)."""
        self._set_aside()
        return SessionError(
            f"this session's checkpoint could not be read ({why}); it is set aside: resume the"
            " session again and it is read from its log"
        )


class ConversationToCome:
    """An agent's conversation until its checkpoint's are read (KeptConversations): any use of
    it reads them all, and is that of the agent's own conversation.

    It is not a Conversation: `isinstance`, iterating it and `Conversation.model_validate` see
    the stand-in. Nothing does that before the runtime adopts the plan (which puts the real
    ones in place); code that would must call `own()` first."""

    __slots__ = ("_agent_id", "_kept")
    _agent_id: str
    _kept: KeptConversations

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
