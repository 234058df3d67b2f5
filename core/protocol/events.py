"""The typed event vocabulary: every change of state in the runtime is one of these events.

Each has a `seq` that grows by one per event within a runtime, a wall-clock `ts` and the
`agent_id` it concerns. The bus that carries them is core/bus.py.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

# Events a folded agent holds, with their base, are in modules of their own (a resumed session's
# first frame unpickles its agents without the whole vocabulary); they are named here too.
from agentui.core.protocol.budget_events import BudgetContinued as BudgetContinued
from agentui.core.protocol.budget_events import BudgetReached as BudgetReached
from agentui.core.protocol.budget_events import BudgetSet as BudgetSet
from agentui.core.protocol.conversation import Message
from agentui.core.protocol.director_payloads import CharacterGuidance, DirectorDecision, PlannedTurn
from agentui.core.protocol.event_base import Event as Event
from agentui.core.protocol.fork_event import AgentForked as AgentForked
from agentui.core.protocol.intervention_kinds import InterventionKind as InterventionKind
from agentui.core.protocol.intervention_kinds import ModifiedPart as ModifiedPart
from agentui.core.protocol.narrative import NarrativeEntry
from agentui.core.protocol.usage import Usage
from agentui.core.protocol.workflow_report import WorkflowReport


class ToolCallInfo(BaseModel):
    model_config = ConfigDict(frozen=True, defer_build=True)

    id: str
    name: str
    arguments: dict[str, Any]


# -- execution ---------------------------------------------------------------------------


class ExecutionStarted(Event):
    """An agent's run began: its first, or a later one continuing its conversation."""

    type: Literal["execution:start"] = "execution:start"
    execution_id: str
    task: str
    run: int  # 1 for an agent's first run, 2 when it continues its conversation, ...


class ExecutionCompleted(Event):
    """An agent's run ended with its answer (`result`)."""

    type: Literal["execution:complete"] = "execution:complete"
    execution_id: str
    result: str
    iterations: int
    duration_s: float
    stop_reason: str | None = None


class ExecutionFailed(Event):
    """An agent's run ended failed: a limit, the provider, a tool, a decision, its contract."""

    type: Literal["execution:error"] = "execution:error"
    execution_id: str
    error: str
    kind: str  # limit name, "provider", "tool", "decision", "contract", "internal"


class ExecutionPaused(Event):
    """An agent paused (`reason` says why); it waits until resumed."""

    type: Literal["execution:paused"] = "execution:paused"
    reason: str


class ExecutionResumed(Event):
    """A paused agent goes on."""

    type: Literal["execution:resumed"] = "execution:resumed"


class ExecutionCancelled(Event):
    """An agent's run was cancelled (or interrupted); the text it had streamed is kept."""

    type: Literal["execution:cancelled"] = "execution:cancelled"
    reason: str
    partial_text: str = ""  # the assistant text streamed before the cut, kept as interrupted


# -- iterations and the model --------------------------------------------------------------


class IterationStarted(Event):
    """One turn of an agent's loop began: a model call and the tools it asks for."""

    type: Literal["iteration:start"] = "iteration:start"
    iteration: int


class IterationCompleted(Event):
    """One turn of an agent's loop ended, with the number of tool calls it made."""

    type: Literal["iteration:complete"] = "iteration:complete"
    iteration: int
    tool_calls: int


class LLMRequested(Event):
    """A model call was sent: the model, how many messages and which tools."""

    type: Literal["llm:request"] = "llm:request"
    iteration: int
    model: str
    message_count: int
    tool_names: list[str]


class LLMResponded(Event):
    """A model call answered: its text, tool calls, usage and stop reason."""

    type: Literal["llm:response"] = "llm:response"
    iteration: int
    text: str
    stop_reason: str | None
    tool_calls: list[ToolCallInfo]
    usage: Usage
    duration_s: float
    skipped: bool = False  # a before:llm hook answered instead of the model


class LLMFailed(Event):
    """A model call failed; `retryable` says whether it is tried again."""

    type: Literal["llm:error"] = "llm:error"
    iteration: int
    error: str
    retryable: bool
    # False for a hidden call (a workflow decision): no text of it was shown, so none is cut.
    streamed: bool = True


class LLMAbandoned(Event):
    """The response being streamed was cut off on purpose and its request is sent again.

    A pause closes a stream that holds a network connection (the server would not wait);
    the request goes again from the start on resume, and is not a retry. Emitted on resume,
    before the new `llm:request`. The abandoned attempt's text never enters the conversation:
    show it as cut short, apart from the new response.
    """

    type: Literal["llm:abandoned"] = "llm:abandoned"
    iteration: int
    reason: str
    partial_text: str = ""  # the abandoned attempt's text, "" when it streamed none


class DeltaEvent(Event):
    """A piece of a response streaming in. Consecutive pieces of one kind (`type`), agent and
    iteration join into one by concatenating their `delta`s: a slow subscriber of the bus, the
    session log and the HTTP stream each merge them so."""

    iteration: int
    delta: str


class TextDelta(DeltaEvent):
    """A piece of the answer text an agent's model streams."""

    type: Literal["text:delta"] = "text:delta"


class ThinkingDelta(DeltaEvent):
    """A piece of the thinking an agent's model streams."""

    type: Literal["thinking:delta"] = "thinking:delta"


class ThinkingRedacted(Event):
    """The model thought, but the API sent that thinking encrypted: there is no text to show.

    The block itself is kept in the conversation and goes back to the model verbatim.
    """

    type: Literal["thinking:redacted"] = "thinking:redacted"
    iteration: int


# -- tools -----------------------------------------------------------------------------------


class ToolDetected(Event):
    """The model's answer asks for these tool calls."""

    type: Literal["tool:detected"] = "tool:detected"
    iteration: int
    calls: list[ToolCallInfo]


class ToolStarted(Event):
    """A tool call began."""

    type: Literal["tool:start"] = "tool:start"
    iteration: int
    call: ToolCallInfo


class ToolCompleted(Event):
    """A tool call finished, with its result."""

    type: Literal["tool:complete"] = "tool:complete"
    iteration: int
    call_id: str
    name: str
    result: str
    mocked: bool = False  # a before:tool hook supplied the result
    duration_s: float = 0.0


class ToolFailed(Event):
    """A tool call failed, with its error."""

    type: Literal["tool:error"] = "tool:error"
    iteration: int
    call_id: str
    name: str
    error: str


class ToolTimedOut(Event):
    """A tool call took longer than its timeout and was stopped."""

    type: Literal["tool:timeout"] = "tool:timeout"
    iteration: int
    call_id: str
    name: str
    timeout_s: float


class ToolProgressed(Event):
    """A running tool's progress, as the tool reports it (an MCP server's progress
    notifications, or the status of the MCP task it runs as): `progress` so far (None: a
    status without a count), of `total` when known, and what it is doing. Only the latest
    counts; the call's tool:complete or tool:error ends it."""

    type: Literal["tool:progress"] = "tool:progress"
    iteration: int
    call_id: str
    name: str
    progress: float | None = None
    total: float | None = None
    message: str = ""

    def line(self) -> str:
        """In words: "2/3 step two", "5 reading" without a total, "working: Analyzing
        content..." without a count (what the screens show)."""
        if self.progress is None:
            return self.message
        done = f"{self.progress:g}/{self.total:g}" if self.total else f"{self.progress:g}"
        return f"{done} {self.message}".strip()


class HookFailed(Event):
    """A hook raised an error (`hook` names it)."""

    type: Literal["hook:error"] = "hook:error"
    hook: str
    error: str


# -- the tree, the person, and bookkeeping ---------------------------------------------------


class AgentSpawned(Event):
    """An agent came into the tree: a root (a task) or a subagent of `parent_id`."""

    type: Literal["agent:spawned"] = "agent:spawned"
    parent_id: str | None
    name: str
    task: str
    profile: str | None = None  # the agent profile it runs with (core/profiles), if any
    # What runs it when agentui's own code does instead of a model ("scene", "round").
    driver: str | None = None


# The reason of every agent the runtime's shutdown stopped (not the person): its end's
# agent:status and execution:cancelled say it, so a resumed session can tell the two apart.
SHUTDOWN_REASON = "the runtime shut down"
# Why a query was declined: on its agent's behalf when it stopped waiting (a cancel, a quit's
# shutdown), or by the person. A resume gives back the first kind; a rerun replays the second.
AGENT_STOPPED_REASON = "the agent stopped"
PERSON_DECLINED_REASON = "declined by the person"


class StatusChanged(Event):
    """An agent's status changed (`old` to `new`), and why."""

    type: Literal["agent:status"] = "agent:status"
    old: str
    new: str
    reason: str


class QueryRaised(Event):
    """An agent asks the person: a question, a clarification, or a tool's approval."""

    type: Literal["query:raised"] = "query:raised"
    query_id: str
    prompt: str
    # "question" (ask_user), "clarification", "blocking", "final" (the workflow), "approval"
    kind: str
    # An approval names the tool call it is about and the answers it takes.
    tool: str | None = None
    arguments: dict[str, Any] | None = None
    choices: list[str] | None = None


class QueryAnswered(Event):
    """The person answered a question (or decided an approval)."""

    type: Literal["query:answered"] = "query:answered"
    query_id: str
    answer: str


class QueryDeclined(Event):
    """A question was declined (`reason` says why): it gets no answer."""

    type: Literal["query:declined"] = "query:declined"
    query_id: str
    reason: str


class ApprovalDecided(Event):
    """Whether a tool call that needs approval may run, and who decided."""

    type: Literal["approval:decided"] = "approval:decided"
    tool: str
    call_id: str | None = None
    decision: Literal["once", "always", "reject"]
    reason: str = ""  # a rejection's reason, which goes back to the model
    query_id: str | None = None  # the approval query, when the person was asked
    # person: answered now; remembered: an earlier "always"; policy: approvals are off (--yes)
    source: Literal["person", "remembered", "policy"] = "person"


class InterventionApplied(Event):
    """The person's intervention (`kind`: pause, resume, cancel, delete, modify, steer,
    comment) reached the agent."""

    type: Literal["intervention:applied"] = "intervention:applied"
    kind: InterventionKind
    detail: str = ""
    # A modify's new text, so every front end shows the new task at once (None: unchanged).
    instructions: str | None = None
    content: str | None = None


class NoteQueued(Event):
    """Text the agent will see in its next model call (a steer, a child's deletion, ...)."""

    type: Literal["note:queued"] = "note:queued"
    text: str
    note_id: str = ""
    from_person: bool = False  # a steer: the person's own words


class NotesDelivered(Event):
    """Queued notes and a pending modify went into the conversation for the next model call."""

    type: Literal["note:delivered"] = "note:delivered"
    note_ids: list[str] = Field(default_factory=list)
    modified: list[ModifiedPart] = Field(default_factory=list)


class InterventionsUnused(Event):
    """A run ended before the model read what the person queued (a steer, a modify): it is
    kept, and a continued run (`send`) delivers it."""

    type: Literal["intervention:unused"] = "intervention:unused"
    note_ids: list[str] = Field(default_factory=list)
    modified: list[ModifiedPart] = Field(default_factory=list)


class UsageUpdated(Event):
    """Tokens (and their cost) an agent's model call used, and its total so far."""

    type: Literal["usage:updated"] = "usage:updated"
    delta: Usage
    total: Usage
    # USD, from the runtime's price table; None when the model has no price there.
    cost_usd: float | None = None  # of `delta`
    total_cost_usd: float | None = None


class AgentStalled(Event):
    """A running agent has said nothing (no event) for `after_s` seconds, the inbox's threshold:
    it is listed as waiting on the person until its next event."""

    type: Literal["agent:stalled"] = "agent:stalled"
    since: float  # the time of its last event
    after_s: float


class ConversationChanged(Event):
    """The agent's conversation (what it sends its model next) changed: keep its first `keep`
    messages, then add `append`; `instructions` when they changed.

    Every change is one of these, in order, so the conversation is a fold over them: a session
    resumes from them and a viewer elsewhere can show what the model was sent. Messages are
    never changed in place once appended (a note joining the last user message replaces that
    message), so an event never changes after it is published.
    """

    type: Literal["conversation:changed"] = "conversation:changed"
    keep: int = Field(ge=0)
    append: list[Message] = Field(default_factory=list)
    instructions: str | None = None  # None: unchanged


# -- time travel (core/agent/steps.py) --------------------------------------------------------


class AgentRewound(Event):
    """The person took the agent back to one of its steps (core/agent/steps.py names them).

    The `conversation:changed` right after it puts the conversation back as it was at that
    step; what came later stays in the log, set aside. `set_aside`: the subagents it started
    after the step (the live ones are cancelled, with REWOUND in their reason). Then the agent
    waits for the person, paused: resume continues it, a steer or a modify goes with it."""

    type: Literal["agent:rewound"] = "agent:rewound"
    step: int
    step_seq: int  # the conversation:changed event that made the step
    set_aside: list[str] = Field(default_factory=list)


# -- the six-step workflow ------------------------------------------------------------------


class WorkflowStepStarted(Event):
    """The six-step workflow entered a step (1 to 6)."""

    type: Literal["workflow:step"] = "workflow:step"
    step: int  # 1 to 6
    name: str  # clarify, questions, subquestions, execute, summary


class DecisionStarted(Event):
    """An attempt at a structured decision was asked of the model. Its answer streams unseen
    (JSON, not the agent's text): this says the agent is at work meanwhile."""

    type: Literal["workflow:deciding"] = "workflow:deciding"
    decision: str  # clarify, questions, subquestions, resolution
    attempt: int


class DecisionMade(Event):
    """One attempt at a structured decision; a failed attempt is retried with its error."""

    type: Literal["workflow:decision"] = "workflow:decision"
    decision: str  # clarify, questions, subquestions, resolution
    attempt: int
    ok: bool
    value: dict[str, Any] | None = None
    error: str | None = None


class WorkflowCompleted(Event):
    """The six-step workflow ended, with its report."""

    type: Literal["workflow:result"] = "workflow:result"
    report: WorkflowReport


# -- agent profiles ---------------------------------------------------------------------------


class AnswerValidated(Event):
    """One check of a JSON agent's final answer against its profile's contract. A failed
    check is sent back to the model with `errors` (each `JSONPATH: problem`) while attempts
    are left; after the last one the agent ends failed."""

    type: Literal["answer:validated"] = "answer:validated"
    profile: str
    attempt: int
    attempts: int  # how many the contract allows (1 + profiles.json_retries)
    ok: bool
    errors: list[str] = Field(default_factory=list)
    # The validated payload, only with `profiles.log_payloads` (the result holds it anyway).
    payload: Any = None


# -- directed scenes (core/scene/rounds.py) ---------------------------------------------------
# A scene is a driven agent (its root) with one driven child per round; the director's and the
# characters' agents are children of their round. These events are the per-round timeline:
# SceneStarted on the scene's root, the others on their round's node.

SceneRequestKind = Literal["user_input", "continuation"]
StateSource = Literal["director", "inferred", "world"]
# skipped: the character left the scene before its planned turn; no agent ran, it did not act.
CharacterTurnEnd = Literal["completed", "error", "cancelled", "deleted", "skipped"]
RoundEnd = Literal["closed", "failed", "stopped"]
# The context envelope an agent call in a scene was given, per section (core/scene/settings.py):
# (tokens budgeted, tokens used). Its rolling record is the scene's (SceneState.context_usage).
ContextUsage = dict[str, tuple[int, int]]


class SceneStarted(Event):
    """A scene began (or went on, after a resume): everything it was started from."""

    type: Literal["scene:start"] = "scene:start"
    scene: dict[str, Any]  # the scene file's content, as validated (core/scene/scene_file.py)
    source: str  # a shipped scene's name or the file's path
    # The scene root this one continues (a resumed session's scene): its state carries over.
    continues: str | None = None


class RoundStarted(Event):
    """A directed scene's round began, from the person's input or a continuation."""

    type: Literal["round:start"] = "round:start"
    round: int
    request: SceneRequestKind
    text: str = ""  # the person's input; empty for a continuation
    resumed: bool = False  # the round was cut short by the session's end and goes on here


class DirectorPassStarted(Event):
    """The scene's director began a pass: before the characters act, or after."""

    type: Literal["director:start"] = "director:start"
    round: int
    director_pass: int  # 1: before the characters act; 2: reconciliation
    director_id: str
    context: ContextUsage = Field(default_factory=dict)


class DirectorPassCompleted(Event):
    """The director's answer for a pass (None when it gave none), the turns it makes in
    acting order, who leaves after their turn, and what of it could not be used.

    It also holds what the pass applies before anyone acts (the vetted state and world
    changes, who enters): the `state:updated` and `character:activated` events that follow
    apply it, and a round resumed after a crash between them applies what is left."""

    type: Literal["director:complete"] = "director:complete"
    round: int
    director_pass: int
    director_id: str
    decision: DirectorDecision | None = None
    turns: list[PlannedTurn] = Field(default_factory=list)
    leaving: dict[str, str] = Field(default_factory=dict)  # name -> exit guidance
    ignored: list[str] = Field(default_factory=list)  # `path: why`, for the audit
    error: str | None = None  # why there is no decision
    state_changes: dict[str, dict[str, str]] = Field(default_factory=dict)  # name -> changes
    world_changes: dict[str, str] = Field(default_factory=dict)
    entering: dict[str, str] = Field(default_factory=dict)  # name -> entry guidance


class CharacterStarted(Event):
    """A character began its turn in a round, with the director's guidance."""

    type: Literal["character:start"] = "character:start"
    round: int
    director_pass: int
    name: str
    character_id: str
    guidance: CharacterGuidance
    context: ContextUsage = Field(default_factory=dict)


class CharacterCompleted(Event):
    """A character's turn in a round ended, with what it said and did."""

    type: Literal["character:complete"] = "character:complete"
    round: int
    director_pass: int
    name: str
    character_id: str
    ended: CharacterTurnEnd
    text: str = ""  # what the character said and did (its answer), when it completed
    error: str | None = None


class StateUpdated(Event):
    """A character's state (or, with `character` None, the world's facts) changed."""

    type: Literal["state:updated"] = "state:updated"
    round: int
    character: str | None
    changes: dict[str, str]
    source: StateSource
    director_pass: int = 0  # the pass that set it (director); 0 otherwise


class CharacterActivated(Event):
    """The director brought a character into the scene."""

    type: Literal["character:activated"] = "character:activated"
    round: int
    director_pass: int
    name: str
    entry_guidance: str = ""


class CharacterDeactivated(Event):
    """A character left the scene (the director's choice, or the person deleted it)."""

    type: Literal["character:deactivated"] = "character:deactivated"
    round: int
    director_pass: int
    name: str
    exit_guidance: str = ""
    by: Literal["director", "person"] = "director"  # the person: they deleted its agent


class RoundCompleted(Event):
    """A directed scene's round ended: who acted, entered and left, the summary so far."""

    type: Literal["round:complete"] = "round:complete"
    round: int
    ended: RoundEnd
    director_passes: int
    acted: list[str] = Field(default_factory=list)  # in the order they first acted
    entered: list[str] = Field(default_factory=list)
    exited: list[str] = Field(default_factory=list)
    running_summary: str = ""  # the scene so far, this round included
    error: str | None = None  # why it failed or stopped


# The events of a scene's rounds: each is its round's node's, and the scene is that node's
# parent (the scene's root).
SceneEvent = (
    RoundStarted
    | DirectorPassStarted
    | DirectorPassCompleted
    | CharacterStarted
    | CharacterCompleted
    | StateUpdated
    | CharacterActivated
    | CharacterDeactivated
    | RoundCompleted
)


# -- the runtime's own (no agent's) ------------------------------------------------------------

# The agent_id of an event about the runtime itself, not about one agent: no agent id is empty.
RUNTIME_EVENT = ""

McpServerState = Literal["starting", "ready", "failed", "restarting"]


class McpServerChanged(Event):
    """An MCP server's state (core/tools/mcp): agents get its tools while it is ready. A runtime
    event (agent_id RUNTIME_EVENT): the servers belong to the runtime, not to one agent.

    starting (the first try) or restarting (a later one) -> ready, or -> failed (with `error`,
    and `retry_in_s` until the next try); a ready server that crashes or hangs -> failed."""

    type: Literal["mcp:server"] = "mcp:server"
    server: str
    state: McpServerState
    tools: list[str] = Field(default_factory=list)  # what agents call (SERVER__tool), when ready
    error: str = ""  # why it failed (failed; restarting says why the last try failed)
    retry_in_s: float | None = None  # failed: the wait before the next try


class RunResumed(Event):
    """A saved session goes on in a new runtime (agentui --resume, serve --resume). A runtime
    event. What lasted only for the life of the runtime before ends here: an "always" approval
    is asked for again."""

    type: Literal["run:resumed"] = "run:resumed"
    session_id: str


class SessionLogFailed(Event):
    """The session log stopped: writing its file failed (a full disk, a folder that cannot be
    written). A runtime event, published once by the session writer; the run goes on, unsaved
    from here, and every front end says so at once. `saved_until`: the time of the last event
    of this run the file holds whole; None when it holds none (a new session's file is then
    removed: nothing may claim a session that cannot be reopened)."""

    type: Literal["session:error"] = "session:error"
    path: str  # the session's file
    error: str  # what failed, whole: "cannot write PATH: No space left on device"
    reason: str  # why, alone: "No space left on device"
    saved_until: float | None = None


# -- the monologue (published by the narrator service, not by the agent) ---------------------


class MonologueGenerated(Event):
    """The narrator wrote an agent's first-person monologue entry."""

    type: Literal["monologue"] = "monologue"
    entry: NarrativeEntry
    usage: Usage  # the narrator's own tokens, counted apart from the agent's


class MonologueFailed(Event):
    """The narrator failed; the agent is never affected."""

    type: Literal["monologue:error"] = "monologue:error"
    error: str


AnyEvent = Annotated[
    ExecutionStarted
    | ExecutionCompleted
    | ExecutionFailed
    | ExecutionPaused
    | ExecutionResumed
    | ExecutionCancelled
    | IterationStarted
    | IterationCompleted
    | LLMRequested
    | LLMResponded
    | LLMFailed
    | LLMAbandoned
    | TextDelta
    | ThinkingDelta
    | ThinkingRedacted
    | ToolDetected
    | ToolStarted
    | ToolCompleted
    | ToolFailed
    | ToolTimedOut
    | ToolProgressed
    | HookFailed
    | AgentSpawned
    | StatusChanged
    | QueryRaised
    | QueryAnswered
    | QueryDeclined
    | ApprovalDecided
    | InterventionApplied
    | NoteQueued
    | NotesDelivered
    | InterventionsUnused
    | UsageUpdated
    | BudgetSet
    | BudgetReached
    | BudgetContinued
    | AgentStalled
    | ConversationChanged
    | AgentRewound
    | AgentForked
    | WorkflowStepStarted
    | DecisionStarted
    | DecisionMade
    | WorkflowCompleted
    | AnswerValidated
    | SceneStarted
    | SceneEvent
    | MonologueGenerated
    | MonologueFailed
    | McpServerChanged
    | RunResumed
    | SessionLogFailed,
    Field(discriminator="type"),
]

event_adapter: TypeAdapter[Event] = TypeAdapter(AnyEvent, config=ConfigDict(defer_build=True))


def parse_event(data: str | bytes | dict[str, Any]) -> Event:
    """Rebuild a typed event from its JSON text or dict (session logs, headless output)."""
    if isinstance(data, dict):
        return event_adapter.validate_python(data)
    return event_adapter.validate_json(data)


E = TypeVar("E", bound=Event)
