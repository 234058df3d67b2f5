"""Rewind and fork over the HTTP API: POST /agent/{id}/rewind and /agent/{id}/fork, refused
with a 409 in the runtime's words; the client's `rewind` and `fork_from` call them."""

from __future__ import annotations

import anyio
import pytest

from agentui.core.protocol.agent_status import AgentStatus
from agentui.core.protocol.commands import Command
from agentui.core.providers.scripted.script import Script, Turn
from agentui.core.remote.client import RemoteError

from ..remote.server_fixture import served_runtime
from .session_helpers import SAFETY_NET_S

pytestmark = pytest.mark.anyio


async def test_an_agent_is_rewound_and_forked_over_http() -> None:
    script = Script(agents={"main": [Turn(text="first")], "main~1": [Turn(text="forked")]})
    async with served_runtime(script=script) as server, server.client() as client:
        runtime = server.runtime
        root = runtime.start("task")
        await runtime.wait(root)

        listed = await client._http.get(f"/agent/{root}/steps")
        assert [(row["step"], row["kind"]) for row in listed.json()] == [(0, "task"), (1, "model")]

        await client.rewind(root, 0)
        assert runtime.node(root).status is AgentStatus.PAUSED
        assert len(runtime.node(root).conversation.messages) == 1
        with pytest.raises(RemoteError) as refused:
            await client.rewind(root, 7)
        assert (refused.value.status, refused.value.message) == (
            409,
            "main has no step 7; its steps are 0 to 1",
        )

        fork_id = await client.fork_from(root, 1, instructions="Be brief.")
        with anyio.fail_after(SAFETY_NET_S):
            await runtime.wait(fork_id)
        fork = runtime.node(fork_id)
        assert (fork.name, fork.result) == ("main~1", "forked")
        assert fork.conversation.instructions == "Be brief."


async def test_a_deleted_agent_is_refused_a_fork_over_http_as_the_table_refuses_it() -> None:
    async with (
        served_runtime(script=Script.for_all(Turn(text="done"))) as server,
        server.client() as client,
    ):
        runtime = server.runtime
        root = runtime.start("task")
        await runtime.wait(root)
        runtime.delete(root)
        assert Command.FORK not in runtime.allowed(root)
        with pytest.raises(RemoteError) as refused:
            await client.fork_from(root, 0)
        assert (refused.value.status, refused.value.message) == (
            409,
            "cannot fork main: it is deleted",
        )
        assert runtime.snapshot()["roots"] == [root], "no fork"
