"""The six-step workflow: clarify, ask, split, work, (listen throughout), resolve.

1. Clarification: the model judges whether the task is ambiguous; if so the agent asks the
   person and waits (`awaiting_user`). A decline means: go on with a stated assumption.
2. Blocking questions: up to MAX_ROUNDS rounds in which the model may ask about critical
   missing information. A decline ends the questions; the agent goes on with what it has.
3. Subquestions: the model proposes 0 to 4 independent subquestions; each becomes a subagent
   (the plain loop), within the runtime's depth and live-children limits.
4. Execution: the agent's own agentic loop, with its tools, while the subagents run.
5. Interventions, throughout: the runtime's delete, modify and comment reach every model call
   here (decisions included): delete ends the agent and tells its parent, modify replaces its
   instructions or task, a comment arrives as a note from the person.
6. Summary and resolution: the subagents' results are collected; if an uncertainty remains
   the agent asks one final question; when anything new came in, one more turn of the loop
   writes the final answer. A WorkflowReport goes out as a `workflow:result` event.

Steps 1, 2, 3 and 6 are structured decisions (structured.py). One the model gives no valid
answer to goes on with its neutral answer, with a notice; only a failed answer (steps 4 and
6's last turn) fails the agent.

A rewound root takes its workflow up at the phase of the step it went back to (its TakeUp:
core/agent/workflow_trail.py says where, phase by phase), with the questions it had asked and
the subagents it had started by then. A resumed session's agent goes on in the phase it was in
when the session ended (its TakeUp `resumed`, that phase not begun again): a question of the
workflow it waited on is asked again (the same query, reopened by the resume) and its answer
goes on from there as it would have, the rest of a round of questions after it.
"""

from __future__ import annotations

from agentui.core.agent.agent_run import AgentRun
from agentui.core.agent.loop import AgenticLoop, LoopResult
from agentui.core.agent.workflow_trail import (
    CLARIFY,
    EXECUTE,
    PHASE_NAMES,
    QUESTIONS,
    SUBQUESTIONS,
    SUMMARY,
    TakeUp,
    WaitingQuestion,
)
from agentui.core.protocol.events import WorkflowCompleted, WorkflowStepStarted
from agentui.core.protocol.subagent import SubagentOutcome
from agentui.core.protocol.usage import Usage
from agentui.core.protocol.workflow_notes import (
    PersonAnswer,
    StartedSubagent,
    SubagentResult,
    answer_note,
    results_note,
    started_note,
)
from agentui.core.support.errors import AgentUIError
from agentui.core.workflow import prompts
from agentui.core.workflow.decisions import (
    MAX_QUESTIONS_PER_ROUND,
    MAX_SUBQUESTIONS,
    ClarifyDecision,
    QuestionsDecision,
    ResolutionDecision,
    SubquestionsDecision,
)
from agentui.core.workflow.report import ChildReport, QuestionReport, QuestionStep, WorkflowReport
from agentui.core.workflow.structured import DecisionMaker

MAX_ROUNDS = 3  # of blocking questions (step 2)


class SixStepWorkflow:
    def __init__(self, agent: AgentRun, loop: AgenticLoop, take_up: TakeUp | None = None) -> None:
        """`take_up`: a rewound root's workflow goes on where it says (workflow_trail.py)."""
        self._agent = agent
        self._loop = loop
        self._take_up = take_up
        self._decisions = DecisionMaker(agent, loop)
        self._questions: list[QuestionReport] = list(take_up.questions) if take_up else []
        self._children: list[str] = list(take_up.subagents) if take_up else []
        self._skipped: list[str] = []
        self._outcomes: dict[str, SubagentOutcome] = {}
        # A resumed one's question, asked again first (taken once).
        self._waiting: WaitingQuestion | None = take_up.waiting if take_up else None
        self.report: WorkflowReport | None = None

    async def run(self, task: str) -> LoopResult:
        await self._loop.begin(task)
        take_up = self._take_up
        begin = take_up.phase if take_up is not None else CLARIFY
        try:
            if begin <= CLARIFY:
                await self._begin(CLARIFY)
                await self._clarify()
            if begin <= QUESTIONS:
                await self._begin(QUESTIONS)
                await self._blocking_questions()
            if begin <= SUBQUESTIONS:
                await self._begin(SUBQUESTIONS)
                await self._subquestions(task)
            if take_up is not None and begin > EXECUTE:  # its own work's answer was kept
                own = LoopResult(take_up.own or "", self._loop.iteration, None)
            else:
                await self._begin(EXECUTE)
                own = await self._loop.iterate()
            await self._begin(SUMMARY)
            if take_up is not None and (take_up.last_turn or take_up.final is not None):
                final = await self._last_turn(take_up.final)
            else:
                final = await self._resolve(own)
        except BaseException:
            # Failed or stopped: subagents working for this run have no one to report to. A
            # rewind is the exception: its next run takes them up (those started after its
            # step, the runtime stopped and set aside).
            if self._agent.rewinding is None:
                for handle in self._children:
                    self._agent.stop_subagent(handle, "its parent stopped before it finished")
            raise
        answer = await self._loop.finish(final.text)
        self.report = self._build_report(answer)
        self._agent.steps.apply(await self._agent.emit(WorkflowCompleted, report=self.report))
        return LoopResult(answer, self._loop.iteration, final.stop_reason)

    async def _begin(self, number: int) -> None:
        """Begin a phase, unless a resumed session's agent was in it already."""
        take_up = self._take_up
        if take_up is None or not take_up.resumed or take_up.phase != number:
            await self._step(number)

    def _waiting_on(self, kind: str) -> WaitingQuestion | None:
        """The question of that kind a resumed session's agent waits on again, taken once."""
        waiting = self._waiting
        if waiting is None or waiting.kind != kind:
            return None
        self._waiting = None
        return waiting

    async def _step(self, number: int) -> None:
        event = await self._agent.emit(WorkflowStepStarted, step=number, name=PHASE_NAMES[number])
        self._agent.steps.apply(event)  # where a rewind takes the workflow up (steps.py)

    async def _ask(self, step: QuestionStep, question: str, kind: str) -> str | None:
        """Ask the person and put the exchange into the conversation, answered or declined."""
        answer = await self._agent.ask_user(question, kind)
        self._questions.append(QuestionReport(step=step, question=question, answer=answer))
        trail = self._agent.steps.workflow
        trail.asked(step, question, answer, self._agent.steps.changes())
        self._loop.conversation.add_user_note(answer_note(PersonAnswer(question, answer)))
        return answer

    # -- steps -----------------------------------------------------------------------------

    async def _clarify(self) -> None:
        waiting = self._waiting_on("clarification")
        if waiting is not None:  # decided before the session ended: its question waits
            await self._ask("clarify", waiting.prompt, "clarification")
            return
        decision = await self._decisions.decide(ClarifyDecision, prompts.CLARIFY)
        if decision.ambiguous and decision.question:
            await self._ask("clarify", decision.question, "clarification")

    async def _blocking_questions(self) -> None:
        take_up = self._take_up
        first = take_up.round if take_up is not None and take_up.resumed else 1
        waiting = self._waiting_on("blocking")
        if waiting is not None:  # its round's question waits, the rest of the round after it
            if not await self._ask_round([waiting.prompt, *waiting.rest]):
                return
            first = waiting.round + 1
        for round_number in range(first, MAX_ROUNDS + 1):
            prompt = prompts.QUESTIONS.format(
                round=round_number, rounds=MAX_ROUNDS, most=MAX_QUESTIONS_PER_ROUND
            )
            decision = await self._decisions.decide(QuestionsDecision, prompt)
            if not decision.questions or not await self._ask_round(decision.questions):
                return

    async def _ask_round(self, questions: list[str]) -> bool:
        """Ask a round's questions in turn; False once one is declined."""
        for question in questions:
            if await self._ask("questions", question, "blocking") is None:
                return False  # the person would rather not: go on with what we have
        return True

    async def _subquestions(self, task: str) -> None:
        prompt = prompts.SUBQUESTIONS.format(most=MAX_SUBQUESTIONS)
        decision = await self._decisions.decide(SubquestionsDecision, prompt)
        # The task as it stands now: a modify may have replaced it since the start.
        current = self._agent.node.user_content or task
        started: list[StartedSubagent] = []
        for subquestion in decision.subquestions:
            child_task = prompts.CHILD_TASK.format(subquestion=subquestion, task=current)
            try:
                handle = self._agent.fork(child_task)
            except AgentUIError:
                self._skipped.append(subquestion)  # a limit said no; the agent does it itself
                continue
            self._children.append(handle)
            started.append(StartedSubagent(self._agent.descendant(handle).name, subquestion))
        if started:
            self._loop.conversation.add_user_note(started_note(started))

    async def _collect(self) -> list[SubagentOutcome]:
        for handle in self._children:
            self._outcomes[handle] = await self._agent.join(handle)
        return list(self._outcomes.values())

    async def _last_turn(self, answer: str | None) -> LoopResult:
        """A rewound summary: its results and answers are in the conversation already; its
        last turn goes on (or, rewound to that turn's answer, stands)."""
        await self._collect()
        if answer is not None:
            return LoopResult(answer, self._loop.iteration, None)
        return await self._loop.iterate()

    async def _resolve(self, own: LoopResult) -> LoopResult:
        sources: list[str] = []
        # A resumed session's: its results note may be in the conversation already.
        waiting = self._waiting_on("final")
        noted = self._take_up is not None and self._take_up.resumed and self._take_up.noted
        outcomes = await self._collect()
        if outcomes:
            if not noted:
                results = [SubagentResult(o.name, o.status, o.describe()) for o in outcomes]
                self._loop.conversation.add_user_note(results_note(results))
            sources.append("your subagents' results")
        if waiting is not None:
            question: str | None = waiting.prompt
        else:
            decision = await self._decisions.decide(ResolutionDecision, prompts.RESOLUTION)
            question = decision.question if decision.uncertain else None
        if question and await self._ask("resolution", question, "final") is not None:
            sources.append("the person's answer")
        if not sources:
            return own  # nothing new came in: the agent's own answer stands
        self._loop.conversation.add_user_note(
            prompts.SYNTHESIS.format(sources=" and ".join(sources))
        )
        return await self._loop.iterate()

    # -- the report ------------------------------------------------------------------------

    def _build_report(self, answer: str) -> WorkflowReport:
        node = self._agent.node
        children = [self._child_report(handle) for handle in self._children]
        total = Usage()
        for member in self._agent.subtree():
            total = total + member.usage
        return WorkflowReport(
            answer=answer,
            children=children,
            questions=list(self._questions),
            skipped_subquestions=list(self._skipped),
            fallback_decisions=list(self._decisions.fallbacks),
            usage=node.usage,
            total_usage=total,
            duration_s=self._agent.active_seconds(),
            interventions=list(self._agent.interventions),
        )

    def _child_report(self, handle: str) -> ChildReport:
        node = self._agent.descendant(handle)
        outcome = self._outcomes[handle]
        return ChildReport(
            id=handle,
            name=node.name,
            task=node.task,
            status=outcome.status,
            result=outcome.result,
            error=None if outcome.ok else outcome.describe(),
        )
