"""A screen attached to `agentui serve` outlives the server: killed, then started again with
`--resume`, the server is attached again and the screen goes on from where it was."""

from __future__ import annotations

from pathlib import Path

import anyio
import pytest

from agentui.core.agent.tree import AgentStatus
from agentui.core.remote.client import RemoteClient
from agentui.core.remote.remote_runtime import RemoteProvider, RemoteRuntime
from agentui.tui.app.app import AgentUIApp

from ..tui.helpers import toasts
from .cuttable_proxy import CuttableProxy
from .serve_process import serve_process
from .test_attach import SIZE, status, type_task, until
from .test_serve_command import saved_up_to

pytestmark = pytest.mark.anyio


HELLO = """
[[agents."*"]]
text = "Hello from the server."
"""


def _port(url: str) -> int:
    return int(url.rsplit(":", 1)[1])


async def test_a_killed_server_resumed_is_attached_again(tmp_path: Path) -> None:
    token_file = tmp_path / "token"  # the same token across the restart
    hello = tmp_path / "hello.toml"
    hello.write_text(HELLO)
    options = ("--token-file", str(token_file), "--script", str(hello))
    async with (
        serve_process(tmp_path, *options) as first,
        CuttableProxy(_port(first.url)) as proxy,
    ):

        def runtime() -> RemoteRuntime:
            client = RemoteClient(proxy.url, token_file.read_text().strip())
            return RemoteRuntime(client, RemoteProvider("scripted", ""), first_retry_s=0.01)

        app = AgentUIApp(runtime, attached_to=proxy.url, remember_theme=False)  # type: ignore[arg-type]
        async with app.run_test(size=SIZE) as pilot:
            await until([pilot], lambda: app.host.started and app.host.runtime.connected)  # type: ignore[union-attr]
            remote = app.host.runtime
            assert isinstance(remote, RemoteRuntime)
            await type_task(pilot, "say hello")
            await until([pilot], lambda: status(app, "a1") is AgentStatus.COMPLETED)
            await saved_up_to(tmp_path, remote.last_seq)  # nothing the screen saw is unsaved

            first.process.kill()  # SIGKILL: no orderly end
            with anyio.fail_after(60):
                await first.process.wait()
            await until([pilot], lambda: not remote.connected)

            async with serve_process(tmp_path, *options, "--resume") as second:
                proxy.retarget(_port(second.url))
                await until([pilot], lambda: remote.connected)
                assert status(app, "a1") is AgentStatus.COMPLETED
                assert not toasts(app)  # no event was lost in the restart
                await type_task(pilot, "say hello again")
                await until([pilot], lambda: status(app, "a2") is AgentStatus.COMPLETED)
                async with RemoteClient(second.url, second.token) as client:
                    tree = await client.tree()
                assert {tree["a1"]["status"], tree["a2"]["status"]} == {"completed"}
