"""A session as Markdown (to read) or JSON (to process): the tree, every transcript, the monologue;
or (`rounds`) the per-round timeline of the directed scenes it played.

Both come from the same fold (fold.py). Markdown keeps each agent's own text verbatim (it is
usually Markdown already); thinking, tool results and questions are quoted around it. Markdown
is read in a terminal, so its control characters are made visible; JSON keeps exact strings.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, Literal

from agentui.core.agent.tree import AgentNode
from agentui.core.session.fold import fold_session
from agentui.core.session.reader import SessionLog
from agentui.core.state import AgentState, RunState
from agentui.core.state.transcript import TranscriptItem
from agentui.core.support.markdown_fence import fenced
from agentui.core.support.terminal_json import terminal_json
from agentui.core.support.terminal_text import visible_controls
from agentui.core.support.utf8 import encodable

ExportFormat = Literal["md", "json", "rounds"]
EXPORT_FORMATS: tuple[ExportFormat, ...] = ("md", "json", "rounds")
JSON_EXPORT_VERSION = 1


def export_session(log: SessionLog, fmt: ExportFormat) -> str:
    state = fold_session(log)
    if fmt == "md":
        text = to_markdown(log, state)
    elif fmt == "rounds":
        text = to_rounds(log, state)
    else:
        text = to_json(log, state)
    return encodable(text)  # written to a file or a pipe as UTF-8


# -- rounds ----------------------------------------------------------------------------------


def to_rounds(log: SessionLog, state: RunState) -> str:
    """The per-round timeline of the session's directed scenes (core/scene/timeline.py)."""
    from agentui.core.scene.timeline import rounds_timeline

    out = [f"# Rounds of session {log.id}"]
    lines = rounds_timeline(state)
    out += lines if lines else ["", "This session played no scene (agentui --scene NAME)."]
    return visible_controls("\n".join(out).rstrip("\n") + "\n")


# -- JSON ------------------------------------------------------------------------------------


def to_json(log: SessionLog, state: RunState) -> str:
    agents: dict[str, Any] = {}
    for node in state.agents.values():
        data = node.with_history()
        data["transcript"] = [_item_json(i) for i in node.entries]
        agents[node.id] = data
    document = {
        "format": "agentui-export",
        "version": JSON_EXPORT_VERSION,
        "session": log.header.model_dump(mode="json", exclude={"record"}),
        "status": state.status,
        "tokens": state.tokens,
        "narrator_tokens": state.narrator_usage.total_tokens,
        "roots": [n.id for n in state.roots()],
        "agents": agents,
        "monologue": [
            {"agent_id": line.agent_id, **line.entry.model_dump(mode="json")}
            for line in state.monologue
        ],
        "warnings": list(log.warnings),
    }
    return terminal_json(document, indent=2) + "\n"  # printed on a terminal as often as saved


def _item_json(item: TranscriptItem) -> dict[str, Any]:
    return {
        "kind": item.kind,
        "text": item.text,
        "ts": item.ts,
        "title": item.title,
        "key": item.key,
        "iteration": item.iteration,
        "detail": item.detail,
        "failed": item.failed,
        "open": item.open,
        "interrupted": item.interrupted,
        "settled_ts": item.settled_ts,
    }


# -- Markdown --------------------------------------------------------------------------------


def to_markdown(log: SessionLog, state: RunState) -> str:
    header = log.header
    # Named as it was opened: a copy's own name (a note below gives the id inside it).
    out: list[str] = [f"# Session {log.id}", ""]
    out.append(f"- Task: {_one_line(header.task)}")
    out.append(f"- Started: {_when(header.started)}")
    out.append(f"- Status: {state.status}")
    out.append(f"- Agents: {len(state.agents)} · tokens: {state.tokens:,}")
    out.append(f"- Model: {header.provider} {header.model} · agentui {header.agentui}")
    for warning in log.warnings:
        out.append(f"- Note: {warning}")
    out += ["", "## Agent tree", ""]
    # A session that ended mid-run leaves live agents behind: they were cut off (as --resume
    # shows them), not still working or waiting.
    cut_off = state.status == "interrupted"
    for node, depth in _walk(state):
        out.append(f"{'  ' * depth}- {_node_line(node, cut_off)}")
    for node, _ in _walk(state):
        out += ["", f"## {node.name}", ""]
        out.append(f"Status: {_status(node, cut_off)} · tokens: {node.usage.total_tokens:,}")
        if node.error:
            out.append(f"Error: {node.error}")
        out.append("")
        items = node.entries
        for item in items:
            out += [*item_markdown(item, node.name), ""]
        said_last = next((i.text for i in reversed(items) if i.kind == "text"), None)
        if node.result is not None and node.result.strip() != (said_last or "").strip():
            out += ["**Result:**", "", _nested(node.result), ""]
    if state.monologue:
        out += ["", "## Monologue", ""]
        for line in state.monologue:
            entry = line.entry
            out.append(
                f"- {_when(entry.timestamp, time_only=True)} **{entry.agent_name}**: "
                f"{_one_line(entry.text)}"
            )
    # Once over the whole document: every piece in it came from the log, hence from the data.
    return visible_controls("\n".join(out).rstrip("\n") + "\n")


def _walk(state: RunState) -> list[tuple[AgentState, int]]:
    """Every agent, depth first in spawn order, with its depth."""
    out: list[tuple[AgentState, int]] = []
    stack = [(n, 0) for n in reversed(state.roots())]
    while stack:
        node, depth = stack.pop()
        out.append((node, depth))
        children = [state.agents[c] for c in node.children if c in state.agents]
        stack.extend((c, depth + 1) for c in reversed(children))
    return out


def _status(node: AgentNode, cut_off: bool) -> str:
    if cut_off and node.status.is_live:
        return f"{node.status.value}, interrupted when the session ended"
    return node.status.value


def _node_line(node: AgentNode, cut_off: bool) -> str:
    line = f"**{node.name}** · {_status(node, cut_off)} · {_one_line(node.task)}"
    if node.usage.total_tokens:
        line += f" · {node.usage.total_tokens:,} tokens"
    return line


def item_markdown(item: TranscriptItem, agent_name: str) -> list[str]:
    """One transcript block as Markdown lines (also the app's copy of a transcript)."""
    match item.kind:
        case "steer":  # the person's message for the agent's next model call
            when = f" at {_when(item.settled_ts, time_only=True)}" if item.settled_ts else ""
            return [f"**You → {agent_name}:** {item.text}", "", f"*{item.detail}{when}*"]
        case "task":  # the task, or a follow-up message that continued the agent
            return [f"**{(item.title or 'task').capitalize()}:**", "", item.text]
        case "text":
            return [_nested(item.text) + _cut_mark(item)]
        case "thinking":
            return ["*Thinking:*", "", _quote(item.text) + _cut_mark(item)]
        case "tool":
            call = f"**Tool** `{item.title}`" + (f" ({item.text})" if item.text else "")
            if not item.detail:
                return [call]
            label = "failed" if item.failed else "result"
            return [call, "", f"{label}:", "", fenced(item.detail)]
        case "question" if item.title == "approval":
            # The code asked about, as code: its lines must not run together.
            question, _, shown = item.text.partition("\n")
            decision = item.detail if not item.open else "(not decided)"
            body = [fenced(shown), ""] if shown else []
            return [f"**Approval:** {question}", "", *body, f"**Decision:** {decision}"]
        case "question":
            answer = item.detail if not item.open else "(not answered)"
            return [f"**Question ({item.title}):** {item.text}", "", f"**Answer:** {answer}"]
        case "error":
            return [f"**{item.title.capitalize() or 'Error'}:** {item.text}"]
        case "line":  # a character's turn in a directed scene
            return [f"**{item.title}:**", "", _quote(item.text)]
        case _:
            return [f"*{item.title.capitalize() or 'Notice'}:* {item.text}"]


def _cut_mark(item: TranscriptItem) -> str:
    """Where a streamed text or thinking stopped, when a cancel or failure cut it there."""
    return " *[cut short]*" if item.interrupted else ""


def _nested(text: str) -> str:
    """An agent's Markdown inside this document: its headings moved two levels down, so its
    '# Plan' does not stand beside the document's '## main' (code blocks left alone)."""
    out: list[str] = []
    fence: str | None = None
    for line in text.split("\n"):
        marker = line.lstrip()[:3]
        if marker in ("```", "~~~"):
            fence = None if fence == marker else (fence or marker)
        elif fence is None and line.startswith("#"):
            level = len(line) - len(line.lstrip("#"))
            if line[level : level + 1] in (" ", ""):
                line = "#" * min(6, level + 2) + line[level:]
        out.append(line)
    return "\n".join(out)


def _quote(text: str) -> str:
    # Only newlines break lines: a lone CR (or VT, FF, ...) stays in, to be shown visibly.
    lines = text.removesuffix("\n").split("\n")
    return "\n".join(f"> {line}" if line else ">" for line in lines)


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _when(ts: float, *, time_only: bool = False) -> str:
    moment = datetime.fromtimestamp(ts, UTC)
    return moment.strftime("%H:%M:%S") if time_only else moment.strftime("%Y-%m-%d %H:%M:%S UTC")
