"""Export: Markdown that holds every agent's words, JSON that holds the whole fold."""

from __future__ import annotations

import json
from pathlib import Path

import anyio
import pytest

from agentui.core.monologue.attach import attach_monologue
from agentui.core.monologue.config import MonologueConfig
from agentui.core.protocol.events import LLMResponded
from agentui.core.providers.scripted.script import Script, ScriptedToolCall, Turn
from agentui.core.session.export import export_session
from agentui.core.session.reader import SessionLog, read_session

from .session_helpers import SAFETY_NET_S, echo_tool, gate_tool, recorded_runtime

pytestmark = pytest.mark.anyio

SCRIPT = Script(
    agents={
        "main": [
            Turn(
                thinking="First I echo.\nThen I answer.",
                text="Checking with **echo**.",
                tool_calls=[ScriptedToolCall(name="echo", arguments={"text": "```fenced```"})],
            ),
            Turn(text="# The plan\n\n1. Book Lisbon.\n2. Invite everyone."),
        ],
        "main.1": [Turn(text="Venues: the *Old Mill* and the harbour hall.")],
    }
)


async def _session(tmp_path: Path) -> SessionLog:
    runtime = recorded_runtime(tmp_path, script=SCRIPT, tools=[echo_tool()])
    async with runtime:
        narration = attach_monologue(runtime, runtime.provider, MonologueConfig())
        root = runtime.start("Plan the launch")
        child = runtime.start("Find venues", parent_id=root)
        await runtime.wait(child)
        await runtime.wait(root)
        with anyio.fail_after(SAFETY_NET_S):
            await narration.wait_idle()
    assert runtime.session.path is not None
    return read_session(runtime.session.path)


async def test_markdown_holds_every_agent_s_text(tmp_path: Path) -> None:
    log = await _session(tmp_path)
    exported = tmp_path / "session.md"
    exported.write_text(export_session(log, "md"), "utf-8")

    markdown = exported.read_text("utf-8")  # read back, as a person would open it
    said = [e.text for e in log.events if isinstance(e, LLMResponded) and e.text]
    assert len(said) == 3
    for text in said:
        assert text in markdown
    assert "## main\n" in markdown and "## main.1\n" in markdown
    assert "(a1)" not in markdown and "(a2)" not in markdown, "names, as on screen; ids in JSON"
    assert "  - **main.1** · completed · Find venues" in markdown, "the tree nests"
    assert "> First I echo.\n> Then I answer." in markdown
    assert "````\necho: ```fenced```\n````" in markdown, "a result never breaks its fence"
    assert "## Monologue" in markdown
    assert "\n### The plan\n" in markdown, "an agent's headings sit below its own section"
    assert "**Result:**" not in markdown, "an answer that is the result is written once"
    for line in [e for e in log.events if e.type == "monologue"]:
        assert line.entry.text.split()[0] in markdown  # type: ignore[attr-defined]


async def test_json_holds_the_tree_transcripts_conversations_and_monologue(
    tmp_path: Path,
) -> None:
    log = await _session(tmp_path)
    document = json.loads(export_session(log, "json"))

    assert document["format"] == "agentui-export"
    assert document["session"]["id"] == log.id
    assert document["roots"] == ["a1"]
    root = document["agents"]["a1"]
    assert root["children"] == ["a2"]
    assert root["status"] == "completed"
    assert root["result"] == "# The plan\n\n1. Book Lisbon.\n2. Invite everyone."
    kinds = [item["kind"] for item in root["transcript"]]
    assert kinds[:4] == ["task", "thinking", "text", "tool"]
    assert root["conversation"]["messages"][0]["content"][0]["text"] == "Plan the launch"
    assert document["monologue"] and document["monologue"][0]["agent_id"] in ("a1", "a2")
    assert document["narrator_tokens"] > 0


async def test_a_continued_agent_keeps_its_runs_apart(tmp_path: Path) -> None:
    script = Script.for_all(Turn(text="The first answer."), Turn(text="The second answer."))
    runtime = recorded_runtime(tmp_path, script=script)
    async with runtime:
        root = runtime.start("Plan the launch")
        with anyio.fail_after(SAFETY_NET_S):
            await runtime.wait(root)
            runtime.send(root, "Now the budget.")
            await runtime.wait(root)
    assert runtime.session.path is not None
    markdown = export_session(read_session(runtime.session.path), "md")
    first, follow_up, second = (
        markdown.index("The first answer."),
        markdown.index("**Follow-up:**\n\nNow the budget."),
        markdown.index("The second answer."),
    )
    assert first < follow_up < second
    assert "*[cut short]*" not in markdown


async def test_a_damaged_session_exports_everything_else_and_says_what_was_skipped(
    tmp_path: Path,
) -> None:
    whole = await _session(tmp_path)
    lines = whole.path.read_bytes().split(b"\n")
    spawned_child = next(i for i, line in enumerate(lines) if b'"agent_id":"a2"' in line)
    damaged = spawned_child + 3  # a line of the child's run, past its spawn
    lines[damaged] = b'{"type": "llm:response", "seq": 12, \xff'
    whole.path.write_bytes(b"\n".join(lines))

    log = read_session(whole.path)
    markdown = export_session(log, "md")
    document = json.loads(export_session(log, "json"))

    assert f"- Note: {whole.path}:{damaged + 1}: skipped a damaged line: not UTF-8" in markdown
    for text in [e.text for e in whole.events if isinstance(e, LLMResponded) and e.text]:
        assert text in markdown, "every answer is still there"
    assert document["warnings"] == log.warnings
    assert set(document["agents"]) == {"a1", "a2"}
    assert document["status"] == "completed"


async def test_a_steer_is_exported_with_when_the_model_read_it(tmp_path: Path) -> None:
    release = anyio.Event()
    script = Script.for_all(Turn(tool_calls=[ScriptedToolCall(name="gate")]), Turn(text="ok"))
    runtime = recorded_runtime(tmp_path, script=script, tools=[gate_tool(release)])
    async with runtime:
        events = runtime.subscribe(maxsize=None)
        root = runtime.start("Plan")
        with anyio.fail_after(SAFETY_NET_S):
            while not any(e.type == "tool:start" for e in await events.next_batch()):
                pass
        runtime.steer(root, "Prefer trains.")
        release.set()
        await runtime.wait(root)
    assert runtime.session.path is not None
    markdown = export_session(read_session(runtime.session.path), "md")
    assert "**You → main:** Prefer trains." in markdown
    assert "*delivered with its next model call at " in markdown


def test_an_approval_s_code_is_exported_as_code() -> None:
    from agentui.core.session.export import item_markdown
    from agentui.core.state.transcript import TranscriptItem

    item = TranscriptItem(
        "a1", "question", "Allow python to run?\nx = 1\nprint(x)", title="approval",
        detail="allowed once",
    )  # fmt: skip
    lines = item_markdown(item, "main")
    assert lines == [
        "**Approval:** Allow python to run?",
        "",
        "```\nx = 1\nprint(x)\n```",
        "",
        "**Decision:** allowed once",
    ]
