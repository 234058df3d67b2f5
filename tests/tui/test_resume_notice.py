"""The words a resumed session starts with (tui/cli/resume_notice.py): the agents its end
interrupted, and the inbox rows waiting for the person, so they know to open the inbox."""

from __future__ import annotations

from pathlib import Path

import anyio
import pytest

from agentui.core.providers.scripted.script import Script, ScriptedToolCall, Turn
from agentui.core.session.reader import read_session
from agentui.core.session.resume import plan_resume
from agentui.core.tools.fork import FORK, WAIT
from agentui.tui.cli.resume_notice import resume_outcome

from ..core.helpers import Recorder
from ..core.session_helpers import SAFETY_NET_S, recorded_runtime

pytestmark = pytest.mark.anyio


async def test_a_crash_says_what_it_interrupted_and_what_waits_for_the_person(
    tmp_path: Path,
) -> None:
    """main forked main.1 (streaming when killed) and asked a question: main.1 comes back
    interrupted, main's question waits again (one inbox row)."""
    asks = Turn(
        tool_calls=[
            ScriptedToolCall(name="fork", arguments={"prompt": "Count"}),
            ScriptedToolCall(name="ask_user", arguments={"question": "Which city?"}),
        ]
    )
    script = Script(agents={"main": [asks], "main.1": [Turn(text="one two", hang_after_chunks=1)]})
    runtime = recorded_runtime(tmp_path, script=script, tools=[FORK, WAIT])
    async with runtime:
        rec = Recorder(runtime)
        root = runtime.start("Plan a trip")
        await rec.wait_for(lambda e: e.type == "text:delta" and e.agent_id != root)
        await rec.wait_for(
            lambda e: e.agent_id == root and getattr(e, "new", "") == "awaiting_user"
        )
        with anyio.fail_after(SAFETY_NET_S):
            await runtime.session.wait_written(rec.events[-1].seq)
        assert runtime.session.path is not None
        crashed = tmp_path / "crashed.jsonl"
        crashed.write_bytes(runtime.session.path.read_bytes())

    plan = plan_resume(read_session(crashed))

    assert resume_outcome(plan) == "1 interrupted agent, 1 waiting for you"
    assert resume_outcome(plan, inbox_hint=" (GET /inbox)") == (
        "1 interrupted agent, 1 waiting for you (GET /inbox)"
    )
    # The app's status bar counts its inbox live beside the notice, which stays: no count.
    assert resume_outcome(plan, rows=False) == "1 interrupted agent"


async def test_a_session_that_ended_on_its_own_says_nothing_more(tmp_path: Path) -> None:
    runtime = recorded_runtime(tmp_path, Turn(text="Done."))
    async with runtime:
        rec = Recorder(runtime)
        root = runtime.start("Say done")
        await rec.wait_for(lambda e: e.agent_id == root and getattr(e, "new", "") == "completed")
        with anyio.fail_after(SAFETY_NET_S):
            await runtime.session.wait_written(rec.events[-1].seq)
    assert runtime.session.path is not None

    assert resume_outcome(plan_resume(read_session(runtime.session.path))) == ""
