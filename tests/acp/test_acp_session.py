"""An ACP session in this process, on the scripted model, where the test can order what happens
exactly: a cancel that comes before a continued root is live again, a turn that stays open while
a subagent its root left behind still works, "Stop the task" at that subagent's question, and a
session whose host dies while a prompt runs."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any

import anyio
import pytest

from agentui.core.agent.tree import AgentStatus
from agentui.core.protocol.events import Event, StatusChanged
from agentui.core.providers.scripted.script import Script
from agentui.core.runtime import Runtime
from agentui.core.session.resume import ResumePlan
from agentui.core.tools.ask_user import ASK_USER
from agentui.core.tools.fork import FORK, WAIT
from agentui.core.tools.registry import ToolRegistry

from ..core.helpers import Recorder, scripted_runtime
from .acp_client import TIMEOUT_S, RecordingClient

if TYPE_CHECKING:
    from acp import RequestError
    from acp.schema import PromptResponse, ToolCallUpdate

    from agentui.core.acp.session import AcpSession

# The SDKs (and the agentui modules that import them) are imported where used: collecting
# this module imports no SDK (tests/core/test_collection_imports.py).

pytestmark = pytest.mark.anyio

ROOT, SUBAGENT = "a1", "a2"


def runtime_for(agents: dict[str, list[dict[str, Any]]]) -> Runtime:
    script = Script.model_validate({"agents": agents})
    return scripted_runtime(script=script, tools=ToolRegistry([ASK_USER, FORK, WAIT]))


def ended(agent_id: str, status: AgentStatus) -> Callable[[Event], bool]:
    return lambda e: (
        isinstance(e, StatusChanged) and e.agent_id == agent_id and e.new == status.value
    )


class Prompts:
    """The session's prompts, each in a task of its own; their answers (or errors) in order."""

    def __init__(self, session: AcpSession, group: anyio.abc.TaskGroup) -> None:
        self.session, self.group = session, group
        self.answers: list[PromptResponse | RequestError] = []
        self._answered = anyio.Event()

    def send(self, text: str) -> None:
        self.group.start_soon(self._prompt, text)

    async def answered(self, count: int) -> None:
        while len(self.answers) < count:
            self._answered = anyio.Event()
            await self._answered.wait()

    async def _prompt(self, text: str) -> None:
        from acp import RequestError, text_block

        try:
            self.answers.append(await self.session.prompt([text_block(text)]))
        except RequestError as exc:
            self.answers.append(exc)
        self._answered.set()

    def stop_reasons(self) -> list[str]:
        from acp.schema import PromptResponse

        return [a.stop_reason if isinstance(a, PromptResponse) else repr(a) for a in self.answers]


@asynccontextmanager
async def hosted(runtime: Runtime, client: Any) -> AsyncIterator[Prompts]:
    from agentui.core.acp.modes import ASK
    from agentui.core.acp.session import AcpSession

    session = AcpSession("s1", runtime, client, mode=ASK, forms=False)
    with anyio.fail_after(TIMEOUT_S):  # a failure guard only
        async with anyio.create_task_group() as group:
            await group.start(session.host)
            yield Prompts(session, group)
            await session.close()


async def test_a_cancel_before_the_continued_root_is_live_again_still_cancels_it() -> None:
    runtime = runtime_for(
        {"main": [{"text": "First turn done."}, {"text": "streams, then", "hang_after_chunks": 1}]}
    )
    client = RecordingClient()
    async with hosted(runtime, client) as prompts:
        prompts.send("hi")
        await client.wait_for(lambda c: c.text() == "First turn done.")
        await anyio.wait_all_tasks_blocked()
        assert prompts.stop_reasons() == ["end_turn"]

        async def cancel_at_once() -> None:
            # Queued right behind the prompt: the root's new run has not started yet, and
            # the runtime would refuse to cancel it (it is still `completed`).
            assert runtime.node(ROOT).status is AgentStatus.COMPLETED
            assert prompts.session.busy
            prompts.session.cancel()

        prompts.send("go on")
        prompts.group.start_soon(cancel_at_once)
        await prompts.answered(2)
    assert prompts.stop_reasons() == ["end_turn", "cancelled"]
    assert runtime.node(ROOT).status is AgentStatus.CANCELLED
    assert client.problems == []


FORK_AND_LEAVE = {
    "main": [
        {"text": "Forking.", "tool_calls": [{"name": "fork", "arguments": {"prompt": "Dig"}}]},
        {"text": "I am done; my subagent goes on."},
    ],
}


async def test_a_turn_stays_open_while_a_subagent_its_root_left_works() -> None:
    from acp import RequestError, text_block

    runtime = runtime_for({**FORK_AND_LEAVE, "main.1": [{"text": "dig", "hang_after_chunks": 1}]})
    recorder = Recorder(runtime)
    client = RecordingClient()
    async with hosted(runtime, client) as prompts:
        prompts.send("go")
        await recorder.wait_for(ended(ROOT, AgentStatus.COMPLETED))
        await anyio.wait_all_tasks_blocked()  # the session has shown all there is
        assert prompts.answers == [], "ACP: a turn ends once no tool call of it is pending"
        assert client.statuses(f"agent:{SUBAGENT}")[-1] == "in_progress"
        # The root could be continued, but the turn is not over: one prompt at a time.
        with pytest.raises(RequestError) as busy:
            await prompts.session.prompt([text_block("and now?")])
        assert "already running" in str(busy.value.data)

        prompts.session.cancel()  # the root has ended: its subagent is cancelled
        await prompts.answered(1)
        assert client.unfinished_calls() == [], "every call ended before the answer"
    assert prompts.stop_reasons() == ["cancelled"]
    assert runtime.node(SUBAGENT).status is AgentStatus.CANCELLED
    assert client.statuses(f"agent:{SUBAGENT}")[-1] == "failed"
    assert client.problems == []


async def test_stop_the_task_at_a_question_of_a_subagent_its_root_left_cancels_it() -> None:
    asks = {"tool_calls": [{"name": "ask_user", "arguments": {"question": "Which colour?"}}]}
    runtime = runtime_for({**FORK_AND_LEAVE, "main.1": [asks, {"text": "never reached"}]})
    recorder = Recorder(runtime)
    client = RecordingClient()  # holds the question until told
    async with hosted(runtime, client) as prompts:
        prompts.send("go")
        await recorder.wait_for(ended(ROOT, AgentStatus.COMPLETED))
        await client.wait_for(lambda c: len(c.permissions) == 1)
        await anyio.wait_all_tasks_blocked()
        assert prompts.answers == []
        asked, options = client.permissions[0]
        assert [o.option_id for o in options] == ["answer", "proceed", "stop"]
        # The question shows what it asks, not just the choices.
        assert asked.title == "main.1 asks: Which colour?"
        assert asked.content is not None
        assert asked.content[0].content.text == "Which colour?"  # type: ignore[union-attr]

        client.answer_held("stop")
        await prompts.answered(1)
    assert prompts.stop_reasons() == ["cancelled"]
    assert runtime.node(SUBAGENT).status is AgentStatus.CANCELLED
    assert runtime.open_queries() == []
    assert client.problems == []


class BrokenClient(RecordingClient):
    """A client whose permission requests fail in a way the session does not expect."""

    async def request_permission(
        self, session_id: str, tool_call: ToolCallUpdate, options: Any, **kw: Any
    ) -> Any:
        raise RuntimeError("the client broke")


async def test_a_session_whose_host_died_answers_its_prompt_and_is_forgotten() -> None:
    from acp import RequestError, text_block
    from acp.schema import ClientCapabilities

    from agentui.core.acp.agent import AgentuiAgent
    from agentui.core.acp.modes import ASK

    asks = {"tool_calls": [{"name": "ask_user", "arguments": {"question": "Which colour?"}}]}

    def open_runtime(*, session_id: str | None, resume: ResumePlan | None) -> Runtime:
        return runtime_for({"main": [asks, {"text": "done"}]})

    with anyio.fail_after(TIMEOUT_S):  # a failure guard only
        async with anyio.create_task_group() as sessions:
            agent = AgentuiAgent(open_runtime, sessions, mode=ASK)
            agent.on_connect(BrokenClient())  # type: ignore[arg-type]
            await agent.initialize(protocol_version=1, client_capabilities=ClientCapabilities())
            session = await agent.new_session(cwd="/", mcp_servers=[])
            with pytest.raises(RequestError) as failed:
                await agent.prompt(session.session_id, [text_block("go")])
            assert "session/load reopens it" in str(failed.value)
            with pytest.raises(RequestError) as gone:
                await agent.prompt(session.session_id, [text_block("again")])
            assert gone.value.code == -32002  # resource not found: the session is forgotten
            await agent.close()


async def test_a_new_session_id_is_none_open_here(monkeypatch: pytest.MonkeyPatch) -> None:
    from agentui.core.acp.agent import _fresh_session_id

    ids = iter(["20260101T000000Z-aaaa", "20260101T000000Z-bbbb"])
    monkeypatch.setattr("agentui.core.acp.agent.new_session_id", lambda _now: next(ids))
    assert _fresh_session_id(taken={"20260101T000000Z-aaaa"}) == "20260101T000000Z-bbbb"
