"""The offline demo: turns the scripted model plays when it has no script.

Deterministic from the request. A root agent asks the person one clarifying question (through
`ask_user` when it is offered, unless the conversation already holds the person's answer to a
question), calls each other offered tool once with valid example arguments, then writes an
answer that uses what it learned, and what its subagents found when they reported back. A
subagent answers at once.

It reads the conversation's structure (roles, tool calls and results) and the workflow's notes
as values (core/protocol/workflow_notes.py), never the workflow's wording. A structured decision is
answered from what the request declares, its name and JSON Schema: the demo says yes to
"clarify" and "subquestions", filling the schema with its own texts, and gives every other
decision the least its schema allows ("no"). Under the six-step workflow that makes: the task is
ambiguous (one question), nothing else is missing, two subquestions, no uncertainty at the end.
An agent whose answer must be JSON (an agent profile's contract, declared on the request)
answers at once with the declared example, or a value filled from the declared schema. A call
in a directed scene (the request declares its place, `request.scene`) is played by
scene_demo.py.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable

from agentui.core.protocol.conversation import Message, TextBlock, ToolResultBlock, ToolUseBlock
from agentui.core.protocol.person_words import DECLINED, FROM_THE_PERSON
from agentui.core.protocol.workflow_notes import read_notes
from agentui.core.providers.base import ProviderRequest
from agentui.core.providers.scripted.sample_args import (
    affirmative_instance,
    minimal_instance,
    sample_arguments,
    sample_value,
)
from agentui.core.providers.scripted.scene_demo import scene_turn
from agentui.core.providers.scripted.script import ScriptedToolCall, Turn

ASK_TOOL = "ask_user"
# Tools the demo leaves alone: a handle for `wait` cannot be made up, and the workflow already
# shows subagents at work.
SKIPPED_TOOLS = {"fork", "wait"}


def _short(task: str, limit: int = 60) -> str:
    """The text on one line, cut at a word (not mid-word) with an ellipsis when too long."""
    line = " ".join(task.split())
    if len(line) <= limit:
        return line
    cut = line[: limit - 1]
    if " " in cut:
        cut = cut.rsplit(" ", 1)[0]
    return cut.rstrip(" .,;:!?-") + "…"


def _ended(text: str) -> str:
    """`text` as the end of a sentence: a full stop unless it ends with its own."""
    return text if text.endswith((".", "!", "?", "…")) else text + "."


# Words a person starts an answer to "what should I focus on?" with, that the demo's own
# "focusing on" would say twice.
_FOCUS_LEAD = re.compile(r"^(?:please\s+)?(?:i\s+want\s+you\s+to\s+)?focus(?:ing)?\s+on\s+", re.I)


def _emphasised_end(lead: str, words: str) -> str:
    """`lead` and the person's `words` in italics, ending the sentence once (no full stop
    after an ellipsis)."""
    return f"{lead} *{words}*" + ("" if words.endswith(("…", ".", "!", "?")) else ".")


def _focus(answer: str) -> str:
    """The person's answer as what to focus on, without a lead that repeats the question."""
    focus = _FOCUS_LEAD.sub("", " ".join(answer.split())).rstrip(" .")
    return _short(focus or answer, 80)


def _from_person(messages: list[Message]) -> list[str]:
    """What the person told the agent in steers, oldest first (as the model reads them)."""
    said: list[str] = []
    for message in messages:
        if message.role != "user":
            continue
        for block in message.content:
            if isinstance(block, TextBlock):
                said.extend(
                    line.removeprefix(FROM_THE_PERSON)
                    for line in block.text.splitlines()
                    if line.startswith(FROM_THE_PERSON)
                )
    return said


def _steered(messages: list[Message]) -> str:
    """A sentence that answers the person's latest steer, or "" when there was none."""
    said = _from_person(messages)
    return f"You told me: *{_short(said[-1], 80)}*, so I took it into account. " if said else ""


def _used_tools(messages: list[Message]) -> set[str]:
    return {b.name for m in messages for b in m.content if isinstance(b, ToolUseBlock)}


def _answer_from_person(messages: list[Message]) -> str | None:
    """What the person answered: to an `ask_user` call, else to a question a workflow asked."""
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
    answered = [a.answer for a in read_notes(messages).answers if a.answer is not None]
    return answered[0] if answered else None


def _subagent_results(messages: list[Message]) -> list[str]:
    """One line per subagent from the workflow's results note, if it came."""
    return [
        f"- **{r.name}** ({r.status}): {_short(r.text, 80)}" for r in read_notes(messages).results
    ]


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
    return sample_arguments(schema)


# What the demo says yes to, with its own texts; any other decision gets "no".
_AFFIRMED: dict[str, Callable[[str], list[str]]] = {
    "clarify": lambda short: [f'For "{short}": what should I focus on, or avoid?'],
    "subquestions": lambda short: [
        f'What matters most for "{short}"?',
        f'What could go wrong with "{short}"?',
    ],
}


def demo_decision(request: ProviderRequest) -> Turn:
    """The demo's answer to a structured decision, from its name and JSON Schema."""
    schema = request.response_schema or {}
    texts = _AFFIRMED.get(request.decision)
    if texts is None:
        value = minimal_instance(schema)
    else:
        value = affirmative_instance(schema, texts(_short(_task(request.messages))))
    return Turn(text=json.dumps(value, separators=(",", ":")))


def _subagent_turn(messages: list[Message]) -> Turn:
    part = _short(_task(messages).splitlines()[0], 80)
    return Turn(
        thinking="A small part of a larger task: I answer it directly.",
        # Three findings, not one line: at the default pace a subagent then streams for about
        # ten seconds, time for a newcomer to select it and pause, steer or modify it.
        text=(
            f"My part: {_ended(part)} {_steered(messages)}This is the offline scripted model, "
            "so this is where a subagent's findings would be. Here is how I would go about "
            "it:\n\n- First, I would find out who this is for and what they need most.\n"
            "- Then I would list what could go wrong, and what each would cost.\n"
            "- Next, I would check each of those against what the task asks for.\n"
            "- Last, I would say which choice I would make, and why, in a few lines."
        ),
    )


def demo_json_answer(request: ProviderRequest) -> Turn | None:
    """The answer to a request that declares the JSON its answer must be (an agent profile's
    contract): the declared example, else a value filled from the schema; None when the
    request declares neither."""
    if request.response_example is not None:
        value = request.response_example
    elif request.response_schema is not None:
        value = sample_value(request.response_schema)
    else:
        return None
    return Turn(text=json.dumps(value, ensure_ascii=False, indent=2))


def demo_turn(request: ProviderRequest) -> Turn:
    if request.scene is not None:  # a director's or character's call in a directed scene
        return scene_turn(request)
    answer = demo_json_answer(request)
    if answer is not None:
        return answer
    messages = request.messages
    if _is_subagent(request):
        return _subagent_turn(messages)
    task = _task(messages)
    short = _short(task)
    used = _used_tools(messages)
    offered = [t for t in request.tools if t.name not in used]
    notes = read_notes(messages)
    asked = ASK_TOOL in used or bool(notes.answers)
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
    person_said = _answer_from_person(messages)
    focus = (
        _emphasised_end("You asked me to focus on:", _focus(person_said))
        if person_said
        else "You left the focus to me, so I kept to the essentials."
    )
    steered = _steered(messages)
    found = _subagent_results(messages)
    if not found and notes.started:
        # Step 4 of the workflow: the full answer comes once the subagents report back.
        return Turn(
            thinking="My subagents cover parts of this; I note my own part and wait for them.",
            text=(
                f"My own part of {short!r} is done"
                + (_emphasised_end(", focusing on", _focus(person_said)) if person_said else ".")
                + f" {_steered(messages)}I'll write the full answer once my subagents report "
                "back."
            ),
        )
    subagents = "What my subagents found:\n\n" + "\n".join(found) + "\n\n" if found else ""
    return Turn(
        thinking="I have enough to answer. I'll structure it so it is easy to check.",
        text=(
            f"## {short}\n\n"
            f"{focus}\n\n" + (f"{steered.rstrip()}\n\n" if steered else "") + f"{subagents}"
            "How I went about it:\n\n"
            "1. I clarified the goal.\n"
            "2. I worked through the parts one at a time.\n"
            "3. I checked the result against the task.\n\n"
            "**Result:** this is the offline scripted model, so the answer is a demonstration "
            "of the flow rather than real work. Set `ANTHROPIC_API_KEY`, `OPENAI_API_KEY` or "
            "`GEMINI_API_KEY` to run on a real model, or see the manual's Local models."
        ),
    )
