"""The offline demo: turns the scripted model plays when it has no script.

Deterministic from the request. A root agent asks the person one clarifying question (through
`ask_user` when it is offered, unless the six-step workflow already asked), calls each other
offered tool once with valid example arguments, then writes an answer that uses what it
learned, and what its subagents found when they reported back. A subagent answers at once.

Under the six-step workflow the demo decides: the task is ambiguous (one question), nothing
else is missing, two subquestions, and no uncertainty at the end.
"""

from __future__ import annotations

import re

from ...conversation import Message, TextBlock, ToolResultBlock, ToolUseBlock
from ...tools.ask_user import DECLINED
from ...workflow import prompts as workflow_prompts
from ...workflow.decisions import ClarifyDecision, Decision, SubquestionsDecision
from ..base import ProviderRequest
from .sample_args import sample_arguments
from .script import ScriptedToolCall, Turn

ASK_TOOL = "ask_user"
# Tools the demo leaves alone: a handle for `wait` cannot be made up, and the workflow already
# shows subagents at work.
SKIPPED_TOOLS = {"fork", "wait"}
_RESULT_HEADING = re.compile(r"^### (?P<name>\S+) \((?P<status>\w+)\)$")


def _short(task: str, limit: int = 60) -> str:
    line = " ".join(task.split())
    return line if len(line) <= limit else line[: limit - 1] + "…"


def _used_tools(messages: list[Message]) -> set[str]:
    return {b.name for m in messages for b in m.content if isinstance(b, ToolUseBlock)}


def _user_texts(messages: list[Message]) -> list[str]:
    return [
        b.text for m in messages if m.role == "user" for b in m.content if isinstance(b, TextBlock)
    ]


def _workflow_asked(messages: list[Message]) -> bool:
    return any(text.startswith(workflow_prompts.ASKED) for text in _user_texts(messages))


def _answer_from_person(messages: list[Message]) -> str | None:
    ask_ids = {
        b.id
        for m in messages
        for b in m.content
        if isinstance(b, ToolUseBlock) and b.name == ASK_TOOL
    }
    for message in messages:
        for block in message.content:
            if (
                isinstance(block, ToolResultBlock)
                and block.tool_use_id in ask_ids
                and not block.is_error
                and block.content != DECLINED
            ):
                return block.content
            if isinstance(block, TextBlock) and message.role == "user":
                for line in block.text.splitlines():
                    if line.startswith(workflow_prompts.ANSWERED):
                        return line.removeprefix(workflow_prompts.ANSWERED)
    return None


def _subagents_working(messages: list[Message]) -> bool:
    started = workflow_prompts.SUBAGENTS_STARTED.partition("{")[0]
    return any(text.startswith(started) for text in _user_texts(messages))


def _subagent_results(messages: list[Message]) -> list[str]:
    """One line per subagent from the workflow's results note, if it came."""
    lines: list[str] = []
    for text in _user_texts(messages):
        if not text.startswith(workflow_prompts.RESULTS_HEADER):
            continue
        for section in text.split("\n\n")[1:]:
            heading, _, body = section.partition("\n")
            match = _RESULT_HEADING.match(heading)
            if match:
                lines.append(f"- **{match['name']}** ({match['status']}): {_short(body, 80)}")
    return lines


def _task(messages: list[Message]) -> str:
    # The first text block only: notes (comments, the workflow's) join the task's message.
    for message in messages:
        if message.role == "user":
            for block in message.content:
                if isinstance(block, TextBlock) and block.text:
                    return block.text
    return "the task"


def _is_subagent(request: ProviderRequest) -> bool:
    return "." in request.agent_name  # subagents are named after their parent: main.1


def _demo_arguments(name: str, schema: dict[str, object], short: str) -> dict[str, object]:
    if name == "python":
        code = (
            f"task = {short!r}\n"
            "words = task.split()\n"
            'print(f"{len(words)} words; the longest is {max(words, key=len)!r}")'
        )
        return {"code": code}
    return sample_arguments(schema)  # type: ignore[arg-type]


def demo_decision(request: ProviderRequest) -> Turn:
    """The demo's answer to one of the workflow's structured decisions."""
    short = _short(_task(request.messages))
    decision: Decision | None = None
    if request.decision == "clarify":
        question = f'For "{short}": what should I focus on, or avoid?'
        decision = ClarifyDecision(ambiguous=True, question=question)
    elif request.decision == "subquestions":
        decision = SubquestionsDecision(
            subquestions=[
                f'What matters most for "{short}"?',
                f'What could go wrong with "{short}"?',
            ]
        )
    # Anything else (blocking questions, the final resolution): nothing to ask.
    return Turn(text=decision.model_dump_json(exclude_none=True) if decision else "{}")


def _subagent_turn(messages: list[Message]) -> Turn:
    part = _short(_task(messages).splitlines()[0], 80)
    return Turn(
        thinking="A small part of a larger task: I answer it directly.",
        text=(
            f"On {part} — this is the offline scripted model, so this is where a subagent's "
            "findings would be."
        ),
    )


def demo_turn(request: ProviderRequest) -> Turn:
    messages = request.messages
    if _is_subagent(request):
        return _subagent_turn(messages)
    task = _task(messages)
    short = _short(task)
    used = _used_tools(messages)
    offered = [t for t in request.tools if t.name not in used]
    asked = ASK_TOOL in used or _workflow_asked(messages)
    if not asked and any(t.name == ASK_TOOL for t in offered):
        return Turn(
            thinking=f"The task is: {short}. Before I commit to an approach I want to know "
            "what matters most to the person.",
            text="Before I start, one question so I aim at the right thing.",
            tool_calls=[
                ScriptedToolCall(
                    name=ASK_TOOL,
                    arguments={"question": f'For "{short}": what should I focus on, or avoid?'},
                )
            ],
        )
    others = [t for t in offered if t.name != ASK_TOOL and t.name not in SKIPPED_TOOLS]
    if others:
        return Turn(
            thinking="I know what to aim for. Next I gather what my tools can tell me.",
            text=f"Gathering what I need with {', '.join(t.name for t in others)}.",
            tool_calls=[
                ScriptedToolCall(
                    name=t.name, arguments=_demo_arguments(t.name, t.input_schema, short)
                )
                for t in others
            ],
        )
    answer = _answer_from_person(messages)
    focus = (
        f"You asked me to focus on: *{_short(answer, 80)}*."
        if answer
        else "You left the focus to me, so I kept to the essentials."
    )
    found = _subagent_results(messages)
    if not found and _subagents_working(messages):
        # Step 4 of the workflow: the full answer comes once the subagents report back.
        return Turn(
            thinking="My subagents cover parts of this; I note my own part and wait for them.",
            text=(
                f"My own part of {short!r} is done"
                + (f", focusing on *{_short(answer, 80)}*." if answer else ".")
                + " I'll write the full answer once my subagents report back."
            ),
        )
    subagents = "What my subagents found:\n\n" + "\n".join(found) + "\n\n" if found else ""
    return Turn(
        thinking="I have enough to answer. I'll structure it so it is easy to check.",
        text=(
            f"## {short}\n\n"
            f"{focus}\n\n"
            f"{subagents}"
            "How I went about it:\n\n"
            "1. I clarified the goal.\n"
            "2. I worked through the parts one at a time.\n"
            "3. I checked the result against the task.\n\n"
            "**Result:** this is the offline scripted model, so the answer is a demonstration "
            "of the flow rather than real work. Set `ANTHROPIC_API_KEY` to run on Claude."
        ),
    )
