"""The offline demo: turns the scripted model plays when it has no script.

Deterministic from the request: it asks the person one clarifying question (when `ask_user` is
offered), calls each other offered tool once with valid example arguments, then writes an answer
that uses what it learned.
"""

from __future__ import annotations

from ..conversation import Message, ToolResultBlock, ToolUseBlock
from ..tools.ask_user import DECLINED
from .base import ProviderRequest
from .sample_args import sample_arguments
from .script import ScriptedToolCall, Turn

ASK_TOOL = "ask_user"


def _short(task: str, limit: int = 60) -> str:
    line = " ".join(task.split())
    return line if len(line) <= limit else line[: limit - 1] + "…"


def _used_tools(messages: list[Message]) -> set[str]:
    return {b.name for m in messages for b in m.content if isinstance(b, ToolUseBlock)}


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
    return None


def _task(messages: list[Message]) -> str:
    for message in messages:
        if message.role == "user" and message.text:
            return message.text
    return "the task"


def demo_turn(request: ProviderRequest) -> Turn:
    messages = request.messages
    task = _task(messages)
    short = _short(task)
    used = _used_tools(messages)
    offered = [t for t in request.tools if t.name not in used]
    asked = ASK_TOOL in used
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
    others = [t for t in offered if t.name != ASK_TOOL]
    if others:
        return Turn(
            thinking="I know what to aim for. Next I gather what my tools can tell me.",
            text=f"Gathering what I need with {', '.join(t.name for t in others)}.",
            tool_calls=[
                ScriptedToolCall(name=t.name, arguments=sample_arguments(t.input_schema))
                for t in others
            ],
        )
    answer = _answer_from_person(messages)
    focus = (
        f"You asked me to focus on: *{_short(answer, 80)}*."
        if answer
        else "You left the focus to me, so I kept to the essentials."
    )
    return Turn(
        thinking="I have enough to answer. I'll structure it so it is easy to check.",
        text=(
            f"## {short}\n\n"
            f"{focus}\n\n"
            "How I went about it:\n\n"
            "1. I clarified the goal.\n"
            "2. I worked through the parts one at a time.\n"
            "3. I checked the result against the task.\n\n"
            "**Result:** this is the offline scripted model, so the answer is a demonstration "
            "of the flow rather than real work. Set `ANTHROPIC_API_KEY` to run on Claude."
        ),
    )
