"""A resumed session gives an agent back live in the run it was in: that run goes on, under
the same run number and on the same task, not as a message of the person. The log of the
resumed run, folded, is the runtime's state."""

from __future__ import annotations

from pathlib import Path

import pytest

from agentui.core.protocol.agent_status import AgentStatus as S
from agentui.core.providers.scripted.script import Script, ScriptedToolCall, Turn

from .helpers import Recorder, deploy_tool, is_type
from .session_helpers import recorded_runtime
from .test_inbox_resume import ENDINGS, Ending, agrees, ended, only_row, resumed, saved

pytestmark = pytest.mark.anyio


@pytest.mark.parametrize("ending", ENDINGS)
async def test_a_follow_up_run_given_back_goes_on_with_its_words(
    tmp_path: Path, ending: Ending
) -> None:
    """Ended while its follow-up run waited on an approval: resumed, it is that run (the
    second) on the follow-up's words, and the approval allowed ends it."""
    runs: list[str] = []
    deploys = Turn(tool_calls=[ScriptedToolCall(name="deploy", arguments={"target": "prod"})])
    script = Script(agents={"main": [Turn(text="Ready."), deploys]})
    runtime = recorded_runtime(tmp_path, script=script, tools=[deploy_tool(runs)])
    async with runtime:
        rec = Recorder(runtime)
        root = runtime.start("Ship it")
        await runtime.wait(root)
        runtime.send(root, "Deploy it now")
        await rec.wait_for(
            lambda e: e.agent_id == root and getattr(e, "new", "") == "awaiting_user"
        )
        await ended(runtime, rec, ending, tmp_path)

    plan = saved(runtime)
    row = only_row(plan, "approval")
    again = resumed(plan, Script.for_all(Turn(text="Deployed.")), [deploy_tool(runs)])
    async with again:
        rec = Recorder(again)
        (started,) = await rec.wait_for(is_type("execution:start", root))
        assert (started.run, started.task) == (2, "Deploy it now")  # type: ignore[attr-defined]
        again.approve(row.query_ids[0], "once")
        node = await again.wait(root)
        assert (node.status, node.result, node.runs) == (S.COMPLETED, "Deployed.", 2)
        assert runs == ["prod"]
        agrees(plan, rec, again)
