"""Golden recording: every narrator request and answer of one scripted run, compared exactly.

The run: one agent on the scripted provider asks the person a question, looks two things up,
calls a tool that fails, and answers; the scripted provider narrates it (default config).
The recording is tests/core/golden/monologue_scripted_run.json. After a deliberate change to
the prompts, the narration or the service, regenerate it and review the diff:

    AGENTUI_UPDATE_GOLDEN=1 /work/venv/bin/python -m pytest tests/core/test_monologue_golden.py
"""

from __future__ import annotations

import json
import os
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import anyio
import pytest

from agentui.core.monologue import MonologueConfig, attach_monologue
from agentui.core.protocol.events import MonologueFailed, MonologueGenerated, QueryRaised
from agentui.core.providers.base import ProviderRequest, StreamEvent, TextChunk
from agentui.core.providers.scripted.provider import ScriptedProvider
from agentui.core.providers.scripted.script import ScriptedToolCall, Turn
from agentui.core.tools.ask_user import ASK_USER
from agentui.core.tools.registry import ToolRegistry
from agentui.core.tools.tool import tool

from .helpers import scripted_runtime

pytestmark = pytest.mark.anyio

GOLDEN = Path(__file__).parent / "golden" / "monologue_scripted_run.json"
REGENERATE = "AGENTUI_UPDATE_GOLDEN=1 python -m pytest tests/core/test_monologue_golden.py"


@tool
async def lookup(query: str) -> str:
    """Look something up."""
    return {"port": "port = 8080", "host": "host = localhost"}.get(query, "nothing found")


@tool
async def deploy(target: str) -> str:
    """Deploy (always fails here)."""
    raise RuntimeError(f"no credentials for {target}")


SCRIPT = (
    Turn(tool_calls=[ScriptedToolCall(name="ask_user", arguments={"question": "Which service?"})]),
    Turn(
        thinking="The person wants the web service. I'll find its port and host.",
        text="Looking up the settings.",
        tool_calls=[
            ScriptedToolCall(name="lookup", arguments={"query": "port"}),
            ScriptedToolCall(name="lookup", arguments={"query": "host"}),
        ],
    ),
    Turn(
        thinking="Both found. Deploying would confirm it works.",
        tool_calls=[ScriptedToolCall(name="deploy", arguments={"target": "staging"})],
    ),
    Turn(text="The web service listens on localhost:8080. I could not deploy it to staging."),
)


class RecordingNarrator:
    """Wraps the scripted provider and records each narrator request with its whole answer."""

    def __init__(self, inner: ScriptedProvider) -> None:
        self.inner = inner
        self.name = inner.name
        self.model = inner.model
        self.calls: list[dict[str, Any]] = []

    async def aclose(self) -> None:
        await self.inner.aclose()

    def stream(self, request: ProviderRequest) -> AsyncIterator[StreamEvent]:
        return self._record(request)

    async def _record(self, request: ProviderRequest) -> AsyncIterator[StreamEvent]:
        answer: list[str] = []
        async for event in self.inner.stream(request):
            if isinstance(event, TextChunk):
                answer.append(event.text)
            yield event
        self.calls.append(
            {
                "agent": f"{request.agent_name} ({request.agent_id})",
                "purpose": request.purpose,
                "model": request.model,
                "max_tokens": request.max_tokens,
                "system": request.instructions,
                "user": [m.text for m in request.messages],
                "answer": "".join(answer),
            }
        )


async def record_run() -> dict[str, Any]:
    narrator = RecordingNarrator(ScriptedProvider())
    config = MonologueConfig()
    runtime = scripted_runtime(*SCRIPT, tools=ToolRegistry([ASK_USER, lookup, deploy]))
    published: list[dict[str, Any]] = []
    async with runtime:
        events = runtime.subscribe(maxsize=None)
        monologue = attach_monologue(runtime, narrator, config)
        agent = runtime.start("Find where the web service listens, then deploy it to staging.")
        with anyio.fail_after(5):
            async for event in events:
                if isinstance(event, QueryRaised):
                    runtime.answer(event.query_id, "The web service.")
                if isinstance(event, MonologueGenerated):
                    published.append(event.model_dump(mode="json", include={"entry", "usage"}))
                if isinstance(event, MonologueFailed):
                    published.append({"error": event.error})
                if event.type == "agent:status" and runtime.node(agent).status.is_final:
                    break
            await monologue.wait_idle()
        for event in events.drain():
            if isinstance(event, MonologueGenerated):
                published.append(event.model_dump(mode="json", include={"entry", "usage"}))
    return {
        "regenerate": REGENERATE,
        "config": config.model_dump(mode="json"),
        "calls": narrator.calls,
        "published": published,
    }


def as_text(data: dict[str, Any]) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


async def test_the_narrator_requests_and_answers_of_a_scripted_run_match_the_recording() -> None:
    recorded = await record_run()
    if os.environ.get("AGENTUI_UPDATE_GOLDEN") == "1":
        GOLDEN.parent.mkdir(parents=True, exist_ok=True)
        GOLDEN.write_text(as_text(recorded), encoding="utf-8")
    assert GOLDEN.exists(), f"no recording yet; create it with: {REGENERATE}"
    expected = GOLDEN.read_text(encoding="utf-8")
    assert recorded == json.loads(expected), f"the run differs from the recording ({REGENERATE})"
    assert as_text(recorded) == expected


async def test_the_recorded_run_is_the_same_every_time() -> None:
    assert as_text(await record_run()) == as_text(await record_run())
