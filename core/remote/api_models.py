"""The HTTP API's request and response bodies, shared by the server and its client.

agentui's own endpoints speak snake_case like the rest of agentui; the seed's four
(`/agent/tree`, `/agent/{id}`, `/agent/{id}/intervene`, `/agent/stream`) keep the seed's
camelCase shapes (`agentId`, `parentId`, `userContent`, `subagents`, ...).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator
from pydantic.alias_generators import to_camel

from agentui.core.agent.tree import UserComment
from agentui.core.protocol.usage import Usage
from agentui.core.session.store import SessionInfo
from agentui.core.state.inbox import InboxRow


class _Body(BaseModel):
    # A misspelt field is a mistake to report, not to ignore.
    model_config = ConfigDict(extra="forbid")


def _not_blank(text: str) -> str:
    if not text.strip():
        raise ValueError("must not be empty")
    return text


# -- responses -----------------------------------------------------------------------------


class ServerInfo(BaseModel):
    """What `GET /info` says of the server (never a key).

    Fields added after the first version have defaults, so a client reads an older server's
    answer; fields it does not know (a newer server's) are ignored.
    """

    server: str = "agentui serve"
    version: str
    provider: str
    model: str
    workflow: str = "plain"
    session_id: str | None = None  # None when the run is not recorded (or nothing happened)
    last_seq: int  # the newest event's seq: `GET /events?since=last_seq` gets only new ones
    narrator: bool = False  # the monologue is written server-side, for every viewer
    heartbeat_s: float = 15.0  # an idle event stream gets a comment this often


class Success(BaseModel):
    success: bool = True


class StartedTask(BaseModel):
    agent_id: str


class InboxEntry(BaseModel):
    """One row of `GET /inbox`: something across the tree that waits on the person
    (core/state/inbox.py), first what holds up the most agents, then the oldest.

    `id` stays the same while the row stands. A question several siblings asked in the same
    words is one row: `query_ids` names each asker's query; to answer them all, answer each
    (`POST /queries/{id}/answer`), or only some of them. `text` is as the model or person wrote it:
    escape it before a terminal shows it."""

    id: str
    kind: Literal["question", "approval", "budget", "stalled", "steer"]
    agent_id: str  # the first asker, a budget's owner, the stalled or steered agent
    path: str  # the agent's names from its root, joined by inbox.PATH_SEPARATOR
    since: float  # when it began waiting (the event's time)
    waited_s: float  # how long it has waited, by the server's clock
    waiting: int  # the live agents it holds up
    text: str  # the question, the limit reached, the steer's words
    query_ids: list[str] = Field(default_factory=list)
    agent_ids: list[str] = Field(default_factory=list)
    tool: str | None = None  # an approval's tool call
    arguments: dict[str, Any] | None = None

    @classmethod
    def of(cls, row: InboxRow, now: float) -> InboxEntry:
        return cls(**row.as_json(), waited_s=row.waited_s(now))


class ErrorBody(BaseModel):
    """Every refusal: 4xx with one clear sentence."""

    error: str


# -- agentui's own requests ------------------------------------------------------------------


class StartTask(_Body):
    task: str
    profile: str | None = None

    _task_given = field_validator("task")(_not_blank)


class SubtreeOption(_Body):
    subtree: bool = False


class CancelOptions(_Body):
    reason: str | None = None


class Modification(_Body):
    instructions: str | None = None
    content: str | None = None


class Text(_Body):
    """A steer, or the message that continues an ended agent (`send`)."""

    text: str


class BudgetLimits(_Body):
    """A subtree's budget, measure -> limit (core/agent/budget.py); {} removes it."""

    limits: dict[str, float]


class Answer(_Body):
    text: str | None  # None declines the question


class ApprovalDecision(_Body):
    choice: Literal["once", "always", "reject"]
    reason: str | None = None


# -- the seed's shapes -----------------------------------------------------------------------


class _Seed(BaseModel):
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True)


class SeedAgent(_Seed):
    """One agent as the seed's `getAgentTree()` lists it: no message history."""

    agent_id: str
    parent_id: str | None
    user_content: str  # what the agent works on: its task, or the content a modify gave it
    # "unchanged", "delete", "modify", or the person's latest free-text comment (a steer)
    user_comment: str
    status: str
    subagents: list[str]
    name: str
    task: str
    profile: str | None
    result: str | None
    error: str | None
    usage: Usage
    cost_usd: float | None
    created_at: float
    started_at: float | None
    ended_at: float | None
    runs: int

    @classmethod
    def of(cls, agent: dict[str, Any]) -> SeedAgent:
        """From an agent of `Runtime.snapshot()` (or `Runtime.agent(id)`)."""
        comment = agent["user_comment"]
        if comment == UserComment.COMMENT and agent.get("comment") is not None:
            comment = agent["comment"]
        content = agent.get("user_content")
        return cls(
            agent_id=agent["id"],
            parent_id=agent["parent_id"],
            user_content=content if content is not None else agent["task"],
            user_comment=comment,
            status=agent["status"],
            subagents=agent["children"],
            **{name: agent[name] for name in _COPIED},
        )


_COPIED = (
    "name", "task", "profile", "result", "error", "usage", "cost_usd", "created_at",
    "started_at", "ended_at", "runs",
)  # fmt: skip


class SeedAgentWithHistory(SeedAgent):
    """The seed's `getAgent(id)`: the agent with its full message history."""

    instructions: str
    messages: list[dict[str, Any]]

    @classmethod
    def of(cls, agent: dict[str, Any]) -> SeedAgentWithHistory:
        """From `Runtime.agent(id)`."""
        conversation = agent["conversation"]
        return cls(
            **SeedAgent.of(agent).model_dump(),
            instructions=conversation.get("instructions") or "",
            messages=conversation.get("messages", []),
        )


InterventionStatus = Literal["paused", "running", "cancelled", "modified", "deleted"]


class Intervention(_Seed):
    """The seed's `userIntervention(agentId, overrides)` body.

    `userComment`: "delete", "modify" (with `userContent`, the new task content), "unchanged"
    (nothing), or free text, which steers the agent (its next model call reads it).
    `status`: "paused" pauses, "running" resumes, "cancelled" cancels, "deleted" deletes;
    "modified" goes with a modify and changes nothing more. A body whose parts disagree is
    refused whole (422) before anything is done.
    """

    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, extra="forbid")

    user_comment: str | None = None
    user_content: str | None = None
    status: InterventionStatus | None = None

    @model_validator(mode="after")
    def _consistent(self) -> Intervention:
        comment, status = self.user_comment, self.status
        if comment is not None and not comment.strip():
            raise ValueError("userComment is empty: give a comment, or leave it out")
        if comment == "modify" and self.user_content is None:
            raise ValueError("userComment 'modify' needs userContent, the new task content")
        if comment != "modify" and self.user_content is not None:
            raise ValueError("userContent goes with userComment 'modify'")
        if status == "modified" and comment != "modify":
            raise ValueError("status 'modified' goes with userComment 'modify'")
        deletes = comment == "delete" or status == "deleted"
        if deletes and status not in (None, "deleted"):
            raise ValueError(f"a delete ends the agent: status {status!r} cannot go with it")
        if deletes and comment not in (None, "delete", "unchanged"):
            raise ValueError(
                "status 'deleted' deletes the agent: no other userComment goes with it"
            )
        return self


def session_row(info: SessionInfo) -> dict[str, Any]:
    """One saved session as `agentui sessions --json` prints it."""
    return info.row()
