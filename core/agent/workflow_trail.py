"""Where an agent's six-step workflow was at each of its steps, and where a rewind takes it up.

A WorkflowTrail is folded beside the agent's StepLog (steps.py), in a runtime (the workflow and
the runtime tell it) and from a saved session's log (`steps_in`, from the same events): the
phases as they began (`workflow:step`), the questions the workflow asked the person
(`query:raised` of kind clarification, blocking or final, then its answer or decline) and the
subagents started while its subquestions phase ran. Each is placed by how many conversation
changes came before it, as the StepLog places subagents; a rewind drops what came after its step.

A rewound six-step root takes its workflow up at the phase its step belongs to (the last phase
begun before the step's change), "as it was":

- before the first phase (step 0): the whole workflow again;
- clarify: its question answered by then, the questions phase next; else clarify again (a
  decision keeps nothing in the conversation: asked again, it reads the conversation at the step);
- questions: a new round of questions, from the conversation at the step (the answers it holds);
- subquestions: its subagents started by then (the rewind keeps them), execute next; else the
  subquestions again;
- execute: the agent's own loop goes on from the step (its final answer: the summary next);
- after its report (a follow-up message's run): None, the plain loop as for any agent;
- summary: once its last turn has begun (a model step in it), that turn goes on; before that
  (its results note, its final question) the summary cannot be taken up halfway: the agent goes
  back to the last step before the summary began, and the summary runs from its start; the
  notice says so.

A resumed session's agent that was in its workflow when the session ended goes on in the phase
it was in, that phase not begun again (`resumed`): waiting again on the workflow's question it
waited on (the clarify question, a round's question with the rest of its round after it, the
summary's final question); in its own work (execute, or the summary's last turn) when it
waited on its ask_user or an approval, or was held paused there; held paused in a decision (a
stall, a budget's stop), with that decision asked again.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Protocol

from agentui.core.protocol.conversation import Message
from agentui.core.protocol.workflow_report import QuestionReport, QuestionStep

# The query kinds the workflow asks with (six_step.py), and the phase each belongs to.
QUESTION_STEPS: dict[str, QuestionStep] = {
    "clarification": "clarify",
    "blocking": "questions",
    "final": "resolution",
}
CLARIFY, QUESTIONS, SUBQUESTIONS, EXECUTE, SUMMARY = 1, 2, 3, 4, 6
QUESTION_PHASES = {"clarification": CLARIFY, "blocking": QUESTIONS, "final": SUMMARY}
ENDED = 7  # its report went out: what follows (a follow-up message's run) is the plain loop
PHASE_NAMES = {
    CLARIFY: "clarify",
    QUESTIONS: "questions",
    SUBQUESTIONS: "subquestions",
    EXECUTE: "execute",
    SUMMARY: "summary",
}


@dataclass(frozen=True, slots=True)
class PhaseBegun:
    number: int  # the workflow's step number, 1 to 6
    changes: int  # conversation changes before it began


@dataclass(frozen=True, slots=True)
class QuestionAsked:
    report: QuestionReport
    changes: int  # conversation changes before its answer's note
    # Folded from a log (`settled`), to forget a quit's decline; the runtime's own has none.
    query_id: str | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class WaitingQuestion:
    """A question of the workflow its agent waited on when its session ended, asked again (the
    same query, reopened) by the resumed run before anything else."""

    kind: str  # clarification, blocking or final (QUESTION_STEPS)
    prompt: str
    round: int = 0  # a blocking question's round (1 to MAX_ROUNDS)
    rest: tuple[str, ...] = ()  # the questions of its round still to ask after it


class StepShape(Protocol):
    """What the trail reads of one of the agent's steps (steps.Step)."""

    @property
    def number(self) -> int: ...
    @property
    def kind(self) -> str: ...
    @property
    def change(self) -> int: ...
    @property
    def set_aside(self) -> bool: ...


@dataclass(frozen=True, slots=True)
class TakeUp:
    """Where a rewound six-step root's workflow goes on (execution.py hands it the workflow)."""

    phase: int  # the workflow step it begins with (1, 2, 3, 4 or 6)
    step: int  # the agent's step the rewind goes back to
    notice: str  # one sentence for the person: where the workflow goes on
    subagents: tuple[str, ...] = ()  # its subquestions' subagents the rewind keeps
    questions: tuple[QuestionReport, ...] = ()  # asked and answered up to the step
    own: str | None = None  # the execute phase's answer, when the summary is next
    last_turn: bool = False  # the summary's last turn goes on from the step
    final: str | None = None  # that turn's answer, when the step is it: only the end is left
    # A resumed session's: its phase had begun (no workflow:step again), and the question of
    # the workflow it waits on again, if any.
    resumed: bool = False
    waiting: WaitingQuestion | None = None
    round: int = 1  # the round of questions it begins with (a resumed one's next)
    noted: bool = False  # its summary's results note is in its conversation already


@dataclass(slots=True)
class WorkflowTrail:
    phases: list[PhaseBegun] = field(default_factory=list)
    questions: list[QuestionAsked] = field(default_factory=list)
    subagents: list[tuple[str, int]] = field(default_factory=list)  # (id, changes before)
    _raised: dict[str, tuple[QuestionStep, str]] = field(default_factory=dict)  # by query id

    # -- folding -------------------------------------------------------------------------

    def phase_begun(self, number: int, changes: int) -> None:
        self.phases.append(PhaseBegun(number, changes))

    def raised(self, query_id: str, kind: str, prompt: str) -> None:
        if kind in QUESTION_STEPS:
            self._raised[query_id] = (QUESTION_STEPS[kind], prompt)

    def settled(self, query_id: str, answer: str | None, changes: int) -> None:
        """A question `raised` was answered (or declined: None)."""
        asked = self._raised.pop(query_id, None)
        if asked is not None:
            report = QuestionReport(step=asked[0], question=asked[1], answer=answer)
            self.questions.append(QuestionAsked(report, changes, query_id))

    def withdrawn(self, query_id: str) -> None:
        """A question settled as declined was withdrawn because its agent stopped (a quit):
        the workflow never had that decline (its run was cancelled while it waited)."""
        self.questions = [q for q in self.questions if q.query_id != query_id]

    def asked(self, step: QuestionStep, question: str, answer: str | None, changes: int) -> None:
        report = QuestionReport(step=step, question=question, answer=answer)
        self.questions.append(QuestionAsked(report, changes))

    def child_started(self, child_id: str, changes: int) -> None:
        if self.phases and self.phases[-1].number == SUBQUESTIONS:
            self.subagents.append((child_id, changes))

    def rewound(self, change: int) -> None:
        """Back to the step of that change: what began or was asked after it is dropped (its
        steps are set aside, never taken up again)."""
        self.phases = [p for p in self.phases if p.changes <= change]
        self.questions = [q for q in self.questions if q.changes <= change]
        self.subagents = [(c, before) for c, before in self.subagents if before <= change]
        self._raised.clear()

    # -- reading -------------------------------------------------------------------------

    def take_up(
        self,
        target: StepShape,
        steps: Sequence[StepShape],
        conversation_at: Callable[[int], list[Message]],
    ) -> TakeUp | None:
        """Where a rewind to `target` takes the workflow up; None for an agent that never ran
        it. `conversation_at(number)`: the messages right after a step."""
        begun = [p for p in self.phases if p.changes <= target.change]
        phase = begun[-1].number if begun else 0
        if not self.phases or phase == ENDED:
            return None
        answer = _final_answer(target, conversation_at)
        here = self._kept(target)
        if phase == 0:
            return replace(here, phase=CLARIFY, notice="its six-step workflow begins again")
        if phase == CLARIFY:
            answered = any(q.step == "clarify" for q in here.questions)
            return _begin(here, QUESTIONS if answered else CLARIFY)
        if phase == QUESTIONS:
            notice = "its workflow asks a new round of questions, with the answers it has"
            return replace(here, phase=QUESTIONS, notice=notice)
        if phase == SUBQUESTIONS:
            return _begin(here, EXECUTE if here.subagents else SUBQUESTIONS)
        if phase == EXECUTE:
            if answer is not None:  # its own work's answer: the summary is next
                return replace(_begin(here, SUMMARY), own=answer)
            return replace(here, phase=EXECUTE, notice="its workflow goes on with its own work")
        summary = begun[-1]
        if any(s.kind == "model" and summary.changes <= s.change <= target.change for s in steps):
            if answer is not None:
                notice = "its workflow ends with that step's answer"
                return replace(here, phase=SUMMARY, notice=notice, final=answer)
            notice = "its workflow goes on with its summary's last turn"
            return replace(here, phase=SUMMARY, notice=notice, last_turn=True)
        # Halfway through the summary's notes: back to the last step before it began.
        start = max(
            (s for s in steps if s.change < summary.changes and not s.set_aside),
            key=lambda s: s.change,
        )
        own = next(
            (m.text for m in reversed(conversation_at(start.number)) if m.role == "assistant"), ""
        )
        notice = (
            f"step {target.number} is halfway through its workflow's summary, which cannot be "
            f"taken up there: it went back to step {start.number}, before the summary began, "
            "and the summary runs again from its start"
        )
        return replace(self._kept(start), phase=SUMMARY, notice=notice, own=own)

    def resumed(
        self,
        messages: list[Message],
        steps: Sequence[StepShape],
        waiting: WaitingQuestion | None = None,
        next_round: int = 1,
    ) -> TakeUp | None:
        """Where a resumed session's agent goes on with its workflow, in the phase it was in
        when the session ended (`messages`: its conversation as it waited): asking `waiting`
        again, or (None) going on from where it was held (its own work, or a decision of the
        phase, asked again: a decision keeps nothing in the conversation; `next_round`: the
        round of questions whose decision that is). None when it runs no workflow now."""
        if not self.phases or self.phases[-1].number == ENDED:
            return None
        phase = self.phases[-1]
        here = TakeUp(
            phase=phase.number,
            step=steps[-1].number if steps else 0,
            notice="its workflow goes on where the session ended",
            subagents=tuple(child for child, _ in self.subagents),
            questions=tuple(q.report for q in self.questions),
            resumed=True,
            waiting=waiting,
            round=next_round,
            # In its summary, its results note came before its decision and its question, once
            # it has any; before its summary (its own work), the note is still to come.
            noted=phase.number == SUMMARY and bool(self.subagents),
        )
        if waiting is not None and QUESTION_PHASES[waiting.kind] != phase.number:
            return None
        if phase.number == SUBQUESTIONS and here.subagents:  # started them: its own work next
            return replace(here, phase=EXECUTE, resumed=False)
        if phase.number != SUMMARY:
            return here
        # Past its resolution (a model step, or a note after its results note: the answer to
        # its final question, the synthesis), only its last turn is left.
        notes = [st for st in steps if st.change >= phase.changes and not st.set_aside]
        if waiting is None and (
            any(st.kind == "model" for st in notes) or len(notes) > int(here.noted)
        ):
            return replace(here, last_turn=True)
        # Its resolution's decision or question: its own work's answer is before its notes.
        own = next((m.text for m in reversed(messages) if m.role == "assistant"), "")
        return replace(here, own=own)

    def _kept(self, target: StepShape) -> TakeUp:
        """A take-up at `target` with what the rewind keeps; its phase and notice to fill in."""
        return TakeUp(
            phase=0,
            step=target.number,
            notice="",
            subagents=tuple(c for c, before in self.subagents if before <= target.change),
            questions=tuple(q.report for q in self.questions if q.changes <= target.change),
        )


def _begin(here: TakeUp, phase: int) -> TakeUp:
    return replace(
        here, phase=phase, notice=f"its workflow goes on with its {PHASE_NAMES[phase]} step"
    )


def _final_answer(target: StepShape, conversation_at: Callable[[int], list[Message]]) -> str | None:
    """The text of the target step when it is a model's answer that calls no tool (the end of a
    loop), else None."""
    if target.kind != "model":
        return None
    messages = conversation_at(target.number)
    last = messages[-1] if messages else None
    return last.text if last is not None and not last.tool_uses else None
