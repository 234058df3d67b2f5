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
"""

from __future__ import annotations

from agentui.core.agent.agent_run import AgentRun
from agentui.core.agent.loop import AgenticLoop, LoopResult
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
    def __init__(self, agent: AgentRun, loop: AgenticLoop) -> None:
        self._agent = agent
        self._loop = loop
        self._decisions = DecisionMaker(agent, loop)
        self._questions: list[QuestionReport] = []
        self._children: list[str] = []
        self._skipped: list[str] = []
        self._outcomes: dict[str, SubagentOutcome] = {}
        self.report: WorkflowReport | None = None

    async def run(self, task: str) -> LoopResult:
        await self._loop.begin(task)
        try:
            await self._step(1, "clarify")
            await self._clarify()
            await self._step(2, "questions")
            await self._blocking_questions()
            await self._step(3, "subquestions")
            await self._subquestions(task)
            await self._step(4, "execute")
            own = await self._loop.iterate()
            await self._step(6, "summary")
            final = await self._resolve(own)
        except BaseException:
            # Failed or stopped: subagents working for this run have no one to report to.
            for handle in self._children:
                self._agent.stop_subagent(handle, "its parent stopped before it finished")
            raise
        answer = await self._loop.finish(final.text)
        self.report = self._build_report(answer)
        await self._agent.emit(WorkflowCompleted, report=self.report)
        return LoopResult(answer, self._loop.iteration, final.stop_reason)

    async def _step(self, number: int, name: str) -> None:
        await self._agent.emit(WorkflowStepStarted, step=number, name=name)

    async def _ask(self, step: QuestionStep, question: str, kind: str) -> str | None:
        """Ask the person and put the exchange into the conversation, answered or declined."""
        answer = await self._agent.ask_user(question, kind)
        self._questions.append(QuestionReport(step=step, question=question, answer=answer))
        self._loop.conversation.add_user_note(answer_note(PersonAnswer(question, answer)))
        return answer

    # -- steps -----------------------------------------------------------------------------

    async def _clarify(self) -> None:
        decision = await self._decisions.decide(ClarifyDecision, prompts.CLARIFY)
        if decision.ambiguous and decision.question:
            await self._ask("clarify", decision.question, "clarification")

    async def _blocking_questions(self) -> None:
        for round_number in range(1, MAX_ROUNDS + 1):
            prompt = prompts.QUESTIONS.format(
                round=round_number, rounds=MAX_ROUNDS, most=MAX_QUESTIONS_PER_ROUND
            )
            decision = await self._decisions.decide(QuestionsDecision, prompt)
            if not decision.questions:
                return
            for question in decision.questions:
                if await self._ask("questions", question, "blocking") is None:
                    return  # the person would rather not: go on with what we have

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

    async def _resolve(self, own: LoopResult) -> LoopResult:
        sources: list[str] = []
        for handle in self._children:
            self._outcomes[handle] = await self._agent.join(handle)
        outcomes = list(self._outcomes.values())
        if outcomes:
            self._loop.conversation.add_user_note(
                results_note([SubagentResult(o.name, o.status, o.describe()) for o in outcomes])
            )
            sources.append("your subagents' results")
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
