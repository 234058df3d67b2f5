"""Events -> ACP session updates: what a client that knows nothing of agentui is shown.

A root agent (the one a prompt starts or continues) speaks for the session: its text streams as
agent message chunks, its thinking as thought chunks, the six-step workflow's steps as thought
lines. Its tool calls are ACP tool calls (pending when the model asks for them, in progress
when they run, completed or failed with their result).

Every other agent is a subagent and is one tool call of its own (kind "think", titled with its
name and task, `_meta` naming it and its parent: tool_calls.py): pending when started, in
progress while it works, its replies as the call's content, completed or failed when it ends.
Its own tool calls show too, titled with its name. A plan lists the turn's subagents (plan.py).
For a client that takes child sessions (`child_sessions`), a subagent instead speaks as a root
does, in a session of its own that the ACP session routes its updates to (child_sessions.py).

A question the person must answer is a tool call the permission request or elicitation points
at: an `ask_user` call's own, else one made for it; an approval points at the call it is about.

A budget's stop is said in the conversation (an agent message: what was spent of which limit,
who is paused, why the turn waits); a budget continued past its limit and an agent stalled
(silent past [attention] stalled_after_s) are thought lines. Everything that waits on the
person also goes to the client as agentui's `_agentui/inbox` extension (inbox.py).

`echo_prompts` (a loaded session's replay) also sends what the person asked, as user message
chunks; live, the client shows its own prompt. The translator folds every event into its own
RunState first (names, parents, statuses), so it needs nothing but the events.

Every event type is handled by a case of `apply` or named in `PASSED_OVER`; any other lands in
`unfolded`, which a test over every type keeps empty.
"""

from __future__ import annotations

from acp.helpers import (
    start_tool_call,
    text_block,
    tool_content,
    update_agent_message_text,
    update_agent_thought_text,
    update_tool_call,
    update_user_message_text,
)
from acp.schema import (
    AgentMessageChunk,
    AgentPlanUpdate,
    AgentThoughtChunk,
    ContentToolCallContent,
    SessionInfoUpdate,
    ToolCallProgress,
    ToolCallStart,
    ToolCallStatus,
    UserMessageChunk,
)

from agentui.core.acp.markdown import one_line
from agentui.core.acp.plan import SubagentPlan
from agentui.core.acp.tool_calls import (
    agent_meta,
    question_call_id,
    subagent_call_id,
    tool_call_id,
    tool_kind,
)
from agentui.core.agent.budget import describe_amount, stop_words
from agentui.core.protocol import events as ev
from agentui.core.protocol.agent_status import AgentStatus
from agentui.core.state import RunState
from agentui.core.state.agent_state import AgentState
from agentui.core.state.scene_items import scene_line, scene_line_events
from agentui.core.state.transcript import REDACTED_THINKING
from agentui.core.support.markdown_fence import fenced

SessionUpdate = (
    UserMessageChunk
    | AgentMessageChunk
    | AgentThoughtChunk
    | ToolCallStart
    | ToolCallProgress
    | AgentPlanUpdate
    | SessionInfoUpdate
)

# Types nothing is sent for. The others are sent by a case of `apply` (some for a root only,
# some for a subagent only: see _HANDLED at the end).
PASSED_OVER = frozenset({
    "answer:validated", "approval:decided", "conversation:changed", "execution:complete",
    "execution:paused", "execution:resumed", "hook:error", "intervention:applied",
    "intervention:unused", "iteration:complete", "iteration:start", "llm:request",
    "monologue", "monologue:error", "note:delivered", "note:queued", "usage:updated",
    "workflow:deciding", "workflow:decision", "workflow:result", "director:start",
    "character:start",
    "mcp:server",  # the runtime's MCP servers: `agentui mcp list` and the tool calls tell
    "run:resumed",  # the runtime's: a loaded session's replay ends before it
    "session:error",  # the runtime's own log (agentui's session file, not the client's)
    "budget:set",  # a budget set or raised: its stop, if it comes, is said
    "tool:progress",  # a running call's progress: its tool_call_update says how it ended
    # Time travel: ACP has no command for it; in a loaded session's replay the conversation it
    # put back and the agents after it show as any others do.
    "agent:rewound", "agent:forked",
})  # fmt: skip


class UpdateTranslator:
    def __init__(self, *, child_sessions: bool = False) -> None:
        """`child_sessions`: every subagent speaks in a session of its own (child_sessions.py),
        as a root does in the client's; none is a tool call or a plan entry of its parent's."""
        self.child_sessions = child_sessions
        self.echo_prompts = False
        self.state = RunState(transcripts=False)
        self.plan = SubagentPlan()
        self.unfolded: set[str] = set()
        # Per agent, its tool calls not ended yet (ACP id -> the call), and those running.
        self._open: dict[str, dict[str, ev.ToolCallInfo]] = {}
        self._running: set[str] = set()
        self._replies: dict[str, list[str]] = {}  # a subagent's replies, its call's content
        self._working: set[str] = set()  # subagents whose call is in progress
        # Per agent, its newest run: a resume goes on with the run it was in, announcing it again.
        self._runs: dict[str, int] = {}
        self._why_ended: dict[str, str] = {}  # a subagent's error or cancel reason
        self._query_calls: dict[str, str] = {}  # query id -> the tool call it points at
        self._own_question_calls: set[str] = set()  # query ids with a call made for them
        self._spoke: set[str] = set()  # roots whose last reply streamed text (a break is due)
        # A model call's ACP id by (agent, its id), and every model call id shown so far.
        self._call_ids: dict[tuple[str, str], str] = {}
        self._shown_calls: set[str] = set()

    # -- reading -------------------------------------------------------------------------

    def call_title(self, agent_id: str, tool: str) -> str:
        """A tool call's title: the tool's name, after its agent's for a subagent's."""
        agent = self.state.agents.get(agent_id)
        if agent is None or agent.parent_id is None:
            return tool
        return f"{agent.name} › {tool}"

    def call_for_query(self, query_id: str) -> str:
        """The tool call a permission request or elicitation for the query points at."""
        return self._query_calls.get(query_id, question_call_id(query_id))

    # -- folding -------------------------------------------------------------------------

    def apply(self, event: ev.Event) -> list[SessionUpdate]:
        self.state.apply(event)
        agent = self.state.agents.get(event.agent_id)
        if agent is None:  # an event of an agent never introduced: nothing to attach it to
            self._note_unknown_type(event)
            return []
        if agent.parent_id is None:
            return self._root(agent, event)
        if self.child_sessions:  # its session's title and task: its announcement says them
            if isinstance(event, ev.AgentSpawned | ev.ExecutionStarted):
                return []
            return self._root(agent, event)
        return self._subagent(agent, event)

    def _root(self, agent: AgentState, event: ev.Event) -> list[SessionUpdate]:
        match event:
            case ev.AgentSpawned(task=task):
                title = SessionInfoUpdate(
                    session_update="session_info_update", title=one_line(task)
                )
                return [update_user_message_text(task), title] if self.echo_prompts else [title]
            case ev.ExecutionStarted(run=run, task=task):
                self._spoke.discard(agent.id)
                updates: list[SessionUpdate] = []
                if run > self._runs.get(agent.id, 1) and self.echo_prompts:
                    updates.append(update_user_message_text(task))
                self._runs[agent.id] = max(run, self._runs.get(agent.id, 1))
                emptied = self.plan.clear()  # a new prompt: a plan of its own subagents
                return [*updates, emptied] if emptied is not None else updates
            case ev.TextDelta(delta=delta):
                if agent.id in self._spoke:  # a new reply after one that said something
                    self._spoke.discard(agent.id)
                    delta = "\n\n" + delta
                return [update_agent_message_text(delta)]
            case ev.LLMResponded(text=text, tool_calls=calls):
                if text and not calls:
                    self._spoke.add(agent.id)
                return []
            case ev.ThinkingDelta(delta=delta):
                return [update_agent_thought_text(delta)]
            case ev.ThinkingRedacted():
                return [_thought_line(f"(thinking {REDACTED_THINKING})")]
            case ev.WorkflowStepStarted(step=step, name=name):
                return [_thought_line(f"[step {step} of 6: {name}]")]
            case ev.LLMFailed(error=error, retryable=retryable):
                again = "; trying again" if retryable else ""
                return [_thought_line(f"(the model call failed: {error}{again})")]
            case ev.LLMAbandoned(reason=reason):
                return [_thought_line(f"(reply cut short: {reason}; asked again)")]
            case _ if isinstance(event, scene_line_events()):
                line = scene_line(event)
                if line is None:
                    return []
                return [update_agent_message_text(f"\n\n**{line.title}**: {line.text}")]
        return self._any_agent(agent, event)

    def _subagent(self, agent: AgentState, event: ev.Event) -> list[SessionUpdate]:
        call_id = subagent_call_id(agent.id)
        match event:
            case ev.AgentSpawned(task=task, profile=profile):
                self._replies[agent.id] = []
                start = start_tool_call(
                    call_id,
                    f"{agent.name}: {one_line(task)}",
                    kind="think",
                    status="pending",
                    raw_input={"task": task, "profile": profile},
                )
                start.field_meta = agent_meta(agent.id, agent.name, agent.parent_id)
                return [start, self.plan.add(agent.id, agent.name, agent.parent_id, task)]
            case ev.LLMResponded(text=text) if text.strip():
                self._replies.setdefault(agent.id, []).append(text)
                return [update_tool_call(call_id, content=self._reply_content(agent.id))]
            case ev.ExecutionFailed(error=error):
                self._why_ended[agent.id] = f"failed: {error}"
                return []
            case ev.ExecutionCancelled(reason=reason):
                self._why_ended[agent.id] = f"{agent.status}: {reason}"
                return []
            case ev.StatusChanged(new=new):
                return self._subagent_status(agent, AgentStatus(new))
        return self._any_agent(agent, event)

    def _subagent_status(self, agent: AgentState, status: AgentStatus) -> list[SessionUpdate]:
        call_id = subagent_call_id(agent.id)
        updates: list[SessionUpdate] = []
        if status.is_final:
            updates += self._close_calls(agent, f"not finished: {agent.name} ended as {status}")
            self._working.discard(agent.id)
            content = self._reply_content(agent.id)
            why = self._why_ended.pop(agent.id, None)
            if status is not AgentStatus.COMPLETED:
                content.append(tool_content(text_block(why or f"{agent.name} ended as {status}")))
            ended: ToolCallStatus = "completed" if status is AgentStatus.COMPLETED else "failed"
            updates.append(
                update_tool_call(call_id, status=ended, content=content, raw_output=agent.result)
            )
        elif status is not AgentStatus.PENDING and agent.id not in self._working:
            self._working.add(agent.id)  # running again after a pause or question: no news
            updates.append(update_tool_call(call_id, status="in_progress"))
        plan = self.plan.set_status(agent.id, status)
        return [*updates, plan] if plan is not None else updates

    def _any_agent(self, agent: AgentState, event: ev.Event) -> list[SessionUpdate]:
        """What shows the same for a root and a subagent: tool calls and questions."""
        match event:
            case ev.ToolDetected(calls=calls):
                self._spoke.discard(agent.id)
                return [self._detected(agent, call) for call in calls]
            case ev.ToolStarted(call=call):
                acp_id = self._call_ids.get((agent.id, call.id), tool_call_id(agent.id, call.id))
                self._running.add(acp_id)
                return [update_tool_call(acp_id, status="in_progress")]
            case ev.ToolCompleted(call_id=call, result=result):
                return self._tool_ended(agent, call, "completed", fenced(result), result)
            case ev.ToolFailed(call_id=call, error=error):
                return self._tool_ended(agent, call, "failed", error, None)
            case ev.ToolTimedOut(call_id=call, timeout_s=timeout):
                return self._tool_ended(agent, call, "failed", f"timed out after {timeout:g} s")
            case ev.QueryRaised():
                return self._question(agent, event)
            case ev.QueryAnswered(query_id=query_id, answer=answer):
                return self._question_closed(query_id, "completed", answer)
            case ev.QueryDeclined(query_id=query_id, reason=reason):
                return self._question_closed(query_id, "failed", f"no answer: {reason}")
            case ev.StatusChanged(new=new) if AgentStatus(new).is_final:
                return self._close_calls(agent, f"not finished: {agent.name} ended as {new}")
            case ev.BudgetReached():
                return [update_agent_message_text(self._budget_stop(agent, event))]
            case ev.BudgetContinued():
                return [_thought_line(f"({agent.name} goes on for one more step past its budget)")]
            case ev.AgentStalled(since=since):
                silent = describe_amount("minutes", (event.ts - since) / 60)
                return [_thought_line(f"({agent.name} has said nothing for {silent})")]
        self._note_unknown_type(event)  # else handled for the other kind of agent, or passed over
        return []

    def _budget_stop(self, agent: AgentState, stop: ev.BudgetReached) -> str:
        """Why the agents stopped, said in the conversation: a client shows a turn that waits
        with nothing new, and ACP has no way to ask for more budget."""
        said = stop_words(stop.measure, stop.limit, stop.spent, stop.over)
        stopped = self.state.agents.get(stop.stopped_agent)
        who = stopped.name if stopped is not None else stop.stopped_agent
        return (
            f"\n\n**Budget reached** ({agent.name}): {said}. {who} is paused until its budget "
            "is raised or continued once, which ACP has no request for: cancel the prompt to "
            "stop here.\n\n"
        )

    def _note_unknown_type(self, event: ev.Event) -> None:
        if event.type not in PASSED_OVER and not isinstance(event, _HANDLED):
            self.unfolded.add(event.type)  # a type this translator has not been taught

    # -- tool calls ----------------------------------------------------------------------

    def _detected(self, agent: AgentState, call: ev.ToolCallInfo) -> ToolCallStart:
        acp_id = self._new_call_id(agent.id, call.id)
        self._open.setdefault(agent.id, {})[acp_id] = call
        title = self.call_title(agent.id, call.name)
        code = call.arguments.get("code") if call.name == "python" else None
        content = (
            [tool_content(text_block(fenced(code, "python")))] if isinstance(code, str) else None
        )
        start = start_tool_call(
            acp_id,
            title,
            kind=tool_kind(call.name),
            status="pending",
            content=content,
            raw_input=call.arguments,
        )
        start.field_meta = agent_meta(agent.id, agent.name, agent.parent_id, tool=call.name)
        return start

    def _new_call_id(self, agent_id: str, call_id: str) -> str:
        """The ACP id of a model's new call: a model's ids are its own (the scripted model's
        start again in every process), so one a session showed before gets a suffix."""
        acp_id = base = tool_call_id(agent_id, call_id)
        again = 1
        while acp_id in self._shown_calls:
            again += 1
            acp_id = f"{base}~{again}"
        self._shown_calls.add(acp_id)
        self._call_ids[(agent_id, call_id)] = acp_id
        return acp_id

    def _tool_ended(
        self,
        agent: AgentState,
        call_id: str,
        status: ToolCallStatus,
        text: str,
        raw_output: str | None = None,
    ) -> list[SessionUpdate]:
        acp_id = self._call_ids.get((agent.id, call_id), tool_call_id(agent.id, call_id))
        self._open.get(agent.id, {}).pop(acp_id, None)
        self._running.discard(acp_id)
        return [
            update_tool_call(
                acp_id,
                status=status,
                content=[tool_content(text_block(text))],
                raw_output=raw_output,
            )
        ]

    def _close_calls(self, agent: AgentState, why: str) -> list[SessionUpdate]:
        """The agent ended: its calls that never finished fail, saying so."""
        calls = self._open.pop(agent.id, {})
        self._running.difference_update(calls)
        return [
            update_tool_call(acp_id, status="failed", content=[tool_content(text_block(why))])
            for acp_id in calls
        ]

    def _reply_content(self, agent_id: str) -> list[ContentToolCallContent]:
        return [tool_content(text_block(reply)) for reply in self._replies.get(agent_id, [])]

    # -- questions -----------------------------------------------------------------------

    def _question(self, agent: AgentState, event: ev.QueryRaised) -> list[SessionUpdate]:
        """Point the query at its call: an approval at the call it is about, an `ask_user`
        question at that call; any other (a workflow's) gets a call made for it."""
        linked = self._linked_call(agent.id, event)
        if linked is not None:
            self._query_calls[event.query_id] = linked
            return []
        acp_id = question_call_id(event.query_id)
        self._query_calls[event.query_id] = acp_id
        self._own_question_calls.add(event.query_id)
        start = start_tool_call(
            acp_id,
            f"{agent.name} asks: {one_line(event.prompt)}",
            kind="think",
            status="pending",
            content=[tool_content(text_block(event.prompt))],
            raw_input={"question": event.prompt, "kind": event.kind},
        )
        start.field_meta = agent_meta(agent.id, agent.name, agent.parent_id, query=event.query_id)
        return [start]

    def _linked_call(self, agent_id: str, event: ev.QueryRaised) -> str | None:
        linked = set(self._query_calls.values())
        for acp_id, call in self._open.get(agent_id, {}).items():
            if acp_id in linked:
                continue
            if event.kind == "approval":
                waiting = acp_id not in self._running
                if waiting and call.name == event.tool and call.arguments == event.arguments:
                    return acp_id
            elif acp_id in self._running and call.name == "ask_user":
                return acp_id
        return None

    def _question_closed(
        self, query_id: str, status: ToolCallStatus, text: str
    ) -> list[SessionUpdate]:
        if query_id not in self._own_question_calls:
            return []  # an approval's or ask_user's call goes on (or fails) as its tool does
        self._own_question_calls.discard(query_id)
        acp_id = question_call_id(query_id)
        return [update_tool_call(acp_id, status=status, content=[tool_content(text_block(text))])]


def _thought_line(line: str) -> AgentThoughtChunk:
    """A line of agentui's own among the model's thoughts: a paragraph of its own, since
    clients render thoughts as Markdown, where a single newline joins lines."""
    return update_agent_thought_text(f"\n\n{line}\n\n")


_HANDLED: tuple[type[ev.Event], ...] = (
    ev.AgentSpawned, ev.ExecutionStarted, ev.TextDelta, ev.LLMResponded, ev.ThinkingDelta,
    ev.ThinkingRedacted, ev.WorkflowStepStarted, ev.LLMFailed, ev.LLMAbandoned,
    ev.ExecutionFailed, ev.ExecutionCancelled, ev.StatusChanged, ev.ToolDetected,
    ev.ToolStarted, ev.ToolCompleted, ev.ToolFailed, ev.ToolTimedOut, ev.QueryRaised,
    ev.QueryAnswered, ev.QueryDeclined, ev.BudgetReached, ev.BudgetContinued, ev.AgentStalled,
    *scene_line_events(),
)  # fmt: skip
