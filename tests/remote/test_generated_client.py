"""A client generated from `/openapi.json` by openapi-python-client drives a task end to end:
it starts it, answers its question, reads its end, and reads a refusal as `ErrorBody`.

Skipped where openapi-python-client, or httpx (what the clients it writes call with), is not
installed: neither is in the test extra (the generator pins its own tools; the document's own
test, test_openapi_document.py, always runs)."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType

import httpx2
import pytest

from agentui.core.providers.scripted.provider import ScriptedProvider
from agentui.core.providers.scripted.script import Script, ScriptedToolCall, Turn
from agentui.core.runtime import Runtime
from agentui.core.support.clock import FrozenClock
from agentui.core.tools.ask_user import ASK_USER
from agentui.core.tools.registry import ToolRegistry

from .event_reader import EventReader, of_type
from .server_fixture import TOKEN, served_runtime

pytest.importorskip("openapi_python_client", reason="openapi-python-client is not installed")
pytest.importorskip("httpx", reason="httpx, which generated clients call with, is not installed")

pytestmark = pytest.mark.anyio

PACKAGE = "agentui_generated_api"  # a name no other module has
GENERATE_S = 300  # a guard against a hung generator, never a measurement


@contextmanager
def generated_client(document: dict[str, object], where: Path) -> Iterator[ModuleType]:
    """The package openapi-python-client writes for `document`, imported from `where`."""
    (where / "openapi.json").write_text(json.dumps(document))
    (where / "config.json").write_text(json.dumps({"post_hooks": []}))  # no formatter run
    subprocess.run(
        [
            sys.executable, "-m", "openapi_python_client", "generate",
            "--path", str(where / "openapi.json"), "--output-path", str(where / PACKAGE),
            "--meta", "none", "--config", str(where / "config.json"),
        ],
        check=True, capture_output=True, timeout=GENERATE_S,
    )  # fmt: skip
    sys.path.insert(0, str(where))
    try:
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(where))
        for name in [name for name in sys.modules if name.split(".")[0] == PACKAGE]:
            del sys.modules[name]


async def test_a_generated_client_starts_answers_and_reads_a_task(tmp_path: Path) -> None:
    ask = ScriptedToolCall(name="ask_user", arguments={"question": "Which city?"})
    script = Script(agents={"*": [Turn(tool_calls=[ask]), Turn(text="Lisbon it is.")]})
    runtime = Runtime(ScriptedProvider(script), tools=ToolRegistry([ASK_USER]), clock=FrozenClock())
    async with served_runtime(runtime=runtime) as server, server.client() as viewer:
        async with httpx2.AsyncClient(
            base_url=server.base_url, headers={"Authorization": f"Bearer {TOKEN}"}
        ) as http:
            document = (await http.get("/openapi.json")).json()
        with generated_client(document, tmp_path) as package:
            calls = importlib.import_module(f"{PACKAGE}.api.default")
            models = importlib.import_module(f"{PACKAGE}.models")
            for name in ("start", "inbox_rows", "answer", "agent"):
                importlib.import_module(f"{PACKAGE}.api.default.{name}")
            client = package.AuthenticatedClient(base_url=server.base_url, token=TOKEN)
            async with client:
                reader = EventReader(viewer)
                started = await calls.start.asyncio(
                    client=client, body=models.StartTask(task="Where shall we go?")
                )
                await reader.until(of_type("query:raised"))
                await reader.aclose()
                (row,) = await calls.inbox_rows.asyncio(client=client)
                assert (row.kind, row.text) == ("question", "Which city?")
                answered = await calls.answer.asyncio(
                    row.query_ids[0], client=client, body=models.Answer(text="Lisbon")
                )
                assert answered.success is True
                await runtime.wait(started.agent_id)
                agent = await calls.agent.asyncio(started.agent_id, client=client)
                assert (agent.status, agent.result) == ("completed", "Lisbon it is.")
                refused = await calls.agent.asyncio("nope", client=client)
                assert isinstance(refused, models.ErrorBody) and refused.error == "Not found"
