"""A permission request says what it is about on its own (a client may show it apart from the
call): it carries the call's title, and an MCP tool's approval keeps the question as text, only
the arguments fenced (as JSON)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from agentui.core.agent.approval import prompt
from agentui.core.protocol import events as ev

if TYPE_CHECKING:
    from acp.schema import ToolCallUpdate

# The SDKs (and the agentui modules that import them) are imported where used: collecting
# this module imports no SDK (tests/core/test_collection_imports.py).


def approval(tool: str, arguments: dict[str, Any], agent_id: str = "a1") -> ev.QueryRaised:
    return ev.QueryRaised(
        seq=1, ts=0.0, agent_id=agent_id, query_id="q1", kind="approval", tool=tool,
        arguments=arguments, prompt=prompt(tool, arguments, sandbox="sandboxed"),
    )  # fmt: skip


def texts(asked: ToolCallUpdate) -> list[str]:
    assert asked.content is not None
    return [block.content.text for block in asked.content]


def test_an_mcp_approval_asks_in_text_and_fences_only_the_arguments() -> None:
    from agentui.core.acp.questions import approval_call

    asked = approval_call("a1:t1", "echo__echo", approval("echo__echo", {"text": "hi ```"}))
    assert asked.title == "echo__echo"
    question, arguments = texts(asked)
    assert question == "Allow echo__echo to run?\nsandboxed"
    assert arguments == '````json\n{"text": "hi ```"}\n````'


def test_a_python_approval_is_titled_and_keeps_its_code_as_python() -> None:
    from agentui.core.acp.questions import approval_call

    asked = approval_call("a1:t1", "python", approval("python", {"code": "print(1)\n"}))
    assert asked.title == "python"
    assert texts(asked) == ["Allow python to run?\nsandboxed", "```python\nprint(1)\n```"]


def test_a_subagents_call_is_titled_with_its_name_as_its_tool_call_is() -> None:
    from agentui.core.acp.updates import UpdateTranslator

    translator = UpdateTranslator()
    for event in (
        ev.AgentSpawned(seq=1, ts=0.0, agent_id="a1", name="main", task="go", parent_id=None),
        ev.AgentSpawned(seq=2, ts=0.0, agent_id="a2", name="scout", task="look", parent_id="a1"),
    ):
        translator.apply(event)
    assert translator.call_title("a1", "python") == "python"
    assert translator.call_title("a2", "echo__echo") == "scout › echo__echo"
