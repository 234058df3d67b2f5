"""The narrator's prompts: the system prompt presets and the rendering of actions and history.

The system prompt sets the voice (a preset, or the config's own text with {{agentName}},
{{events}} and {{history}} filled in). The user message always carries the history and the
recent actions, so a custom prompt without placeholders still sees them. `subject` gives the
same actions and history as data, cut the same way, for the request to declare beside its prose.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from agentui.core.monologue.action import Action, ActionKind
from agentui.core.monologue.config import MonologueConfig, PresetName
from agentui.core.providers.narration_subject import NarrationSubject, Step, StepKind

# What the narrator answers when it would rather see more before speaking.
WAIT_SIGNAL = "..."

DEFAULT_PROMPT = """\
You are the inner voice of {{agentName}}, an AI agent at work. A person follows the agent \
through your lines in a sidebar instead of reading every tool call.

Each time, you are shown what {{agentName}} did since your last line. Say what it would think \
to itself about it:
- in the first person ("I'm checking...", "I found...", "That failed, so I...");
- in one or two short sentences of plain words;
- about the point of the step and what came of it, not the mechanics: "I found the port in \
the config", not "I called read_file and it returned text";
- carrying on from your earlier lines rather than repeating them; failures are said plainly.

When the actions do not add up to anything worth saying yet (a tool was called and its result \
has not come back, or a thought is only half formed), reply with exactly ... and nothing else. \
You will be shown more soon. When you do write, make the line count."""

TERSE_PROMPT = """\
You are the inner voice of {{agentName}}. Sum up what it just did in six words or fewer, in \
the first person: "Reading the config." or "Tests pass now." Reply with exactly ... when \
nothing is clear yet."""

VERBOSE_PROMPT = """\
You are {{agentName}}, talking a newer colleague through your work as it happens. In two or \
three first-person sentences, say what you just did, why you did it, and what you decided \
because of it, carrying on from what you said before. When there is not enough to explain yet, \
reply with exactly ... and nothing else."""

PRESETS: dict[PresetName, str] = {
    "default": DEFAULT_PROMPT,
    "terse": TERSE_PROMPT,
    "verbose": VERBOSE_PROMPT,
}

FORCED_NOTE = "This time you may not wait: write a line now, however short."
FINAL_NOTE = (
    "{{agentName}} has stopped working ({status}). Write its closing line now: what it did "
    "and how it ended. You may not wait."
)

# How much of each action the narrator sees: enough to tell what happened, little enough that
# a narrator call stays cheap.
RESULT_CHARS = 120
THOUGHT_CHARS = 100
TEXT_CHARS = 100
ARGUMENT_CHARS = 80
MAX_PROMPT_ACTIONS = 40  # newest first kept; a long-failing narrator's buffer can grow past it


def truncate(text: str, limit: int) -> str:
    """One line of at most `limit` characters; cut text ends with an ellipsis."""
    line = " ".join(text.split())
    return line if len(line) <= limit else line[: limit - 1] + "…"


def clock_time(ts: float) -> str:
    return time.strftime("%H:%M:%S", time.gmtime(ts))


_DETAIL_CHARS = {
    ActionKind.TOOL_CALL: ARGUMENT_CHARS,
    ActionKind.TOOL_RESULT: RESULT_CHARS,
    ActionKind.THINKING: THOUGHT_CHARS,
    ActionKind.TEXT: TEXT_CHARS,
}
_STEP_KINDS = {
    ActionKind.TOOL_CALL: StepKind.CALL,
    ActionKind.TOOL_RESULT: StepKind.RESULT,
    ActionKind.THINKING: StepKind.THOUGHT,
    ActionKind.TEXT: StepKind.TEXT,
}


def _detail(action: Action) -> str:
    return truncate(action.detail, _DETAIL_CHARS[action.kind])


def describe(action: Action) -> str:
    """What the action was, in a few words, without its time."""
    match action.kind:
        case ActionKind.TOOL_CALL:
            return f"called {action.tool} {_detail(action)}".rstrip()
        case ActionKind.TOOL_RESULT:
            verb = "failed" if action.is_error else "returned"
            return f"{action.tool} {verb}: {_detail(action)}"
        case ActionKind.THINKING:
            return f"thought: {_detail(action)}"
        case ActionKind.TEXT:
            return f"wrote: {_detail(action)}"


def shown_actions(actions: Sequence[Action]) -> Sequence[Action]:
    """The newest actions, as many as a prompt shows."""
    return actions[-MAX_PROMPT_ACTIONS:]


def format_actions(actions: Sequence[Action]) -> str:
    shown = shown_actions(actions)
    lines = [f"[{clock_time(a.ts)}] {describe(a)}" for a in shown]
    hidden = len(actions) - len(shown)
    if hidden:
        lines.insert(0, f"({hidden} earlier actions not shown)")
    return "\n".join(lines)


def format_history(history: Sequence[str]) -> str:
    return "\n".join(f"{n}. {line}" for n, line in enumerate(history, 1))


def _fill(template: str, agent_name: str, actions: Sequence[Action], history: Sequence[str]) -> str:
    # Plain replacement, not str.format: a custom prompt may contain braces of its own.
    return (
        template.replace("{{agentName}}", agent_name)
        .replace("{{events}}", format_actions(actions))
        .replace("{{history}}", format_history(history) or "(nothing yet)")
    )


def system_prompt(
    config: MonologueConfig,
    *,
    agent_name: str,
    actions: Sequence[Action],
    history: Sequence[str],
    forced: bool = False,
    final_status: str | None = None,
) -> str:
    base = config.system_prompt if config.system_prompt is not None else PRESETS[config.preset]
    parts = [_fill(base, agent_name, actions, history)]
    # The service's promise (a final or forced call never waits) holds for custom prompts too.
    if final_status is not None:
        note = FINAL_NOTE.replace("{status}", final_status)
        parts.append(note.replace("{{agentName}}", agent_name))
    elif forced:
        parts.append(FORCED_NOTE)
    return "\n\n".join(parts)


def user_prompt(
    actions: Sequence[Action],
    history: Sequence[str],
    *,
    forced: bool = False,
    final_status: str | None = None,
) -> str:
    sections: list[str] = []
    if history:
        sections.append(f"What you said before, oldest first:\n{format_history(history)}")
    heading = "What you did since (times UTC):" if history else "What you did (times UTC):"
    sections.append(f"{heading}\n{format_actions(actions)}")
    if final_status is not None:
        ask = f"Your closing line; the run has ended ({final_status}) and you cannot wait:"
    elif forced:
        ask = "Your next line; you cannot wait this time:"
    else:
        ask = f"Your next line, or only {WAIT_SIGNAL} if there is nothing worth saying yet:"
    sections.append(ask)
    return "\n\n".join(sections)


def subject(
    actions: Sequence[Action],
    history: Sequence[str],
    *,
    forced: bool = False,
    final_status: str | None = None,
) -> NarrationSubject:
    """What `user_prompt` tells, as data: the same actions, cut the same way."""
    steps = tuple(
        Step(
            kind=_STEP_KINDS[a.kind],
            detail=_detail(a),
            tool=a.tool,
            failed=a.is_error,
        )
        for a in shown_actions(actions)
    )
    return NarrationSubject(
        steps=steps,
        earlier=tuple(history),
        may_wait=not forced and final_status is None,
        ended=final_status,
    )
