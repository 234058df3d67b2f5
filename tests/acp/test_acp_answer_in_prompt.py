"""A question put to a client without forms (Toad) is answered in the person's next prompt:
"Answer it in your next prompt" ends the turn with the question open and shown, the next prompt
is the answer, and its turn lasts until the asker's work has ended. Several such questions are
answered one prompt each, oldest first; a cancel while none runs cancels the waiting agents."""

from __future__ import annotations

import anyio
import pytest

from agentui.core.agent.tree import AgentStatus

from ..core.helpers import Recorder
from .acp_client import RecordingClient
from .test_acp_session import FORK_AND_LEAVE, ROOT, SUBAGENT, ended, hosted, runtime_for

# The SDKs (and the agentui modules that import them) are imported where used: collecting
# this module imports no SDK (tests/core/test_collection_imports.py).

pytestmark = pytest.mark.anyio


def asks(question: str) -> dict[str, object]:
    return {"tool_calls": [{"name": "ask_user", "arguments": {"question": question}}]}


def tool_output(client: RecordingClient, title: str) -> str:
    (call,) = [u for u in client.of_kind("tool_call") if u["title"] == title]
    return client.call(call["toolCallId"])[-1]["rawOutput"]


# The root forks a subagent and ends (a later prompt continues it); the subagent asks.
LEFT_SUBAGENT_ASKS = {
    "main": [*FORK_AND_LEAVE["main"], {"text": "Fresh."}],
    "main.1": [asks("Which colour?"), {"text": "never reached"}],
}


async def test_the_next_prompt_answers_a_question_the_person_chose_to_answer() -> None:
    runtime = runtime_for({"main": [asks("Which colour?"), {"text": "Blue it is."}]})
    client = RecordingClient(choices=["answer"])
    async with hosted(runtime, client) as prompts:
        prompts.send("paint it")
        await prompts.answered(1)
        # The turn ended for the answer; the root still waits, the question shown.
        assert prompts.stop_reasons() == ["end_turn"]
        assert runtime.node(ROOT).status is AgentStatus.AWAITING_USER
        ((_, options),) = client.permissions
        assert [o.option_id for o in options] == ["answer", "proceed", "stop"]
        assert "**main asks:** Which colour?" in client.text()
        assert "Your next prompt is the answer." in client.text()

        prompts.send("Blue")
        await prompts.answered(2)
    assert prompts.stop_reasons() == ["end_turn", "end_turn"]
    assert tool_output(client, "ask_user") == "Blue"
    assert client.text().endswith("Blue it is.")
    assert runtime.node(ROOT).status is AgentStatus.COMPLETED
    assert client.unfinished_calls() == []
    assert client.problems == []


async def test_questions_of_two_agents_are_answered_one_prompt_each_oldest_first() -> None:
    # A root that forks a subagent and asks; the subagent asks too.
    runtime = runtime_for(
        {
            "main": [
                {"tool_calls": [{"name": "fork", "arguments": {"prompt": "size it"}}]},
                asks("Which colour?"),
                {"text": "Painted."},
            ],
            "main.1": [asks("Which size?"), {"text": "Sized."}],
        }
    )
    recorder = Recorder(runtime)
    client = RecordingClient(choices=["answer", "answer"])
    async with hosted(runtime, client) as prompts:
        prompts.send("paint and size it")
        await prompts.answered(1)
        await client.wait_for(lambda c: len(c.permissions) == 2)
        await anyio.wait_all_tasks_blocked()
        first, second = (asked.title for asked, _ in client.permissions)
        assert client.text().count("asks:**") == 1, "only the question answered next shows"

        prompts.send("answer one")
        await prompts.answered(2)  # at once: the other question waits for the next prompt
        assert client.text().count("asks:**") == 2
        prompts.send("answer two")
        await prompts.answered(3)
        await recorder.wait_for(ended(ROOT, AgentStatus.COMPLETED))
    assert prompts.stop_reasons() == ["end_turn"] * 3
    answers = {tool_output(client, t) for t in ("ask_user", "main.1 › ask_user")}
    assert answers == {"answer one", "answer two"}
    assert first is not None and second is not None
    assert client.problems == []


async def test_a_cancel_while_a_question_waits_for_a_prompt_cancels_its_agents() -> None:
    runtime = runtime_for(LEFT_SUBAGENT_ASKS)
    recorder = Recorder(runtime)
    client = RecordingClient(choices=["answer"])
    async with hosted(runtime, client) as prompts:
        prompts.send("go")
        await prompts.answered(1)
        assert prompts.stop_reasons() == ["end_turn"]
        assert runtime.node(SUBAGENT).status is AgentStatus.AWAITING_USER

        prompts.session.cancel()  # no turn runs: the parked one's agents are cancelled
        await recorder.wait_for(ended(SUBAGENT, AgentStatus.CANCELLED))
        await anyio.wait_all_tasks_blocked()
        assert runtime.open_queries() == []

        prompts.send("something new")  # continues the root, answering nothing
        await prompts.answered(2)
    assert prompts.stop_reasons() == ["end_turn", "end_turn"]
    assert client.text().endswith("Fresh.")
    assert client.problems == []


async def test_when_the_question_shown_is_withdrawn_the_next_one_waiting_shows() -> None:
    forks = [{"name": "fork", "arguments": {"prompt": p}} for p in ("colour", "size")]
    runtime = runtime_for(
        {
            "main": [{"tool_calls": forks}, {"text": "Both started."}],
            "main.1": [asks("Which colour?"), {"text": "Coloured."}],
            "main.2": [asks("Which size?"), {"text": "Sized."}],
        }
    )
    recorder = Recorder(runtime)
    client = RecordingClient(choices=["answer", "answer"])
    async with hosted(runtime, client) as prompts:
        prompts.send("go")
        await client.wait_for(lambda c: len(c.permissions) == 2)
        await prompts.answered(1)
        await anyio.wait_all_tasks_blocked()
        (shown,) = [q for q in runtime.open_queries() if q.prompt in client.text()]
        (other,) = [q for q in runtime.open_queries() if q is not shown]

        runtime.cancel(shown.agent_id)  # its question is withdrawn; the other's shows
        await recorder.wait_for(ended(shown.agent_id, AgentStatus.CANCELLED))
        await client.wait_for(lambda c: f"asks:** {other.prompt}" in c.text())

        prompts.send("an answer")
        await prompts.answered(2)
    assert prompts.stop_reasons() == ["end_turn", "end_turn"]
    assert runtime.node(other.agent_id).status is AgentStatus.COMPLETED
    assert runtime.node(shown.agent_id).status is AgentStatus.CANCELLED
    assert client.problems == []


async def test_when_the_only_question_waiting_is_withdrawn_the_client_is_told() -> None:
    runtime = runtime_for(LEFT_SUBAGENT_ASKS)
    client = RecordingClient(choices=["answer"])
    async with hosted(runtime, client) as prompts:
        prompts.send("go")
        await prompts.answered(1)
        assert "Your next prompt is the answer." in client.text()

        runtime.cancel(SUBAGENT)  # withdrawn elsewhere: no question waits for a prompt now
        await client.wait_for(lambda c: c.statuses(f"agent:{SUBAGENT}")[-1] == "failed")
        await anyio.wait_all_tasks_blocked()
        withdrawn = "(main.1's question was withdrawn; your next prompt goes to main)"
        assert withdrawn in client.text()

        prompts.send("something new")  # continues the root, as the client was told
        await prompts.answered(2)
    assert prompts.stop_reasons() == ["end_turn", "end_turn"]
    assert client.text().endswith("Fresh.")
    assert client.problems == []


@pytest.mark.parametrize(
    ("asker_ends", "outcome"),
    [({"text": "Coloured."}, "end_turn"), ({"error": {"message": "no paint"}}, "no paint")],
)
async def test_a_prompt_answering_an_agent_a_failed_root_left_ends_as_that_agent(
    asker_ends: dict[str, object], outcome: str
) -> None:
    # The root forks, then fails; the subagent it left asks, and the next prompt answers.
    from acp.schema import PromptResponse

    runtime = runtime_for(
        {
            "main": [
                {"tool_calls": [{"name": "fork", "arguments": {"prompt": "colour it"}}]},
                {"error": {"message": "the root broke"}},
            ],
            "main.1": [asks("Which colour?"), asker_ends],
        }
    )
    recorder = Recorder(runtime)
    client = RecordingClient(choices=["answer"])
    async with hosted(runtime, client) as prompts:
        prompts.send("go")
        await prompts.answered(1)
        await recorder.wait_for(ended(ROOT, AgentStatus.ERROR))
        await anyio.wait_all_tasks_blocked()  # the session has seen the root fail

        prompts.send("Blue")
        await prompts.answered(2)
    assert tool_output(client, "main.1 › ask_user") == "Blue"
    first, second = prompts.answers
    assert isinstance(first, PromptResponse) and first.stop_reason == "end_turn"
    if isinstance(second, PromptResponse):
        assert second.stop_reason == outcome
        assert second.field_meta == {
            "agentui": {"rootId": ROOT, "agentId": SUBAGENT, "status": "completed"}
        }
    else:
        assert str(second) == outcome
        assert second.data == {"agentId": SUBAGENT, "kind": "provider"}
    assert client.problems == []


async def test_a_cancel_while_parked_declines_the_questions_of_other_roots() -> None:
    runtime = runtime_for(
        {
            **FORK_AND_LEAVE,
            "main.1": [asks("Which colour?"), {"text": "never reached"}],
            "other": [asks("Which size?"), {"text": "Sized without an answer."}],
        }
    )
    recorder = Recorder(runtime)
    client = RecordingClient(choices=["answer", "answer"])
    async with hosted(runtime, client) as prompts:
        prompts.send("go")
        await prompts.answered(1)
        # A root outside the parked turn (as a loaded session can hold) asks too.
        other = runtime.start("size it", name="other")
        await client.wait_for(lambda c: len(c.permissions) == 2)
        await anyio.wait_all_tasks_blocked()

        prompts.session.cancel()  # cancels the parked turn's agents only
        await recorder.wait_for(ended(SUBAGENT, AgentStatus.CANCELLED))
        await anyio.wait_all_tasks_blocked()
        assert runtime.open_queries() == [], "no question is left open and never asked again"
        await recorder.wait_for(ended(other, AgentStatus.COMPLETED))  # declined, it went on
    assert client.problems == []
