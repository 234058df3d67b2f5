"""An ACP client for the tests, on the SDK's client side: `agentui acp` in a child process over
stdio, every update it sends recorded, its permission requests and forms answered as a test
says (or held until the prompt is cancelled)."""

from __future__ import annotations

import os
import sys
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
from acp import PROTOCOL_VERSION, spawn_agent_process
from acp.client.connection import ClientSideConnection
from acp.schema import (
    AcceptElicitationResponse,
    AllowedOutcome,
    ClientCapabilities,
    CreateElicitationResponse,
    DeniedOutcome,
    ElicitationCapabilities,
    ElicitationFormCapabilities,
    ElicitationFormSessionMode,
    PermissionOption,
    RequestPermissionResponse,
    ToolCallUpdate,
)

TIMEOUT_S = 60  # a safety net against a hung child, never a measurement
CLEARED = ("ANTHROPIC_", "OPENAI_", "GEMINI_", "GOOGLE_", "AGENTUI_")


def child_env(home: Path) -> dict[str, str]:
    """No key or setting from the developer's shell; config, sessions and state in `home`."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(CLEARED)}
    env.update(
        PYTHONUNBUFFERED="1",
        AGENTUI_DATA_DIR=str(home / "data"),
        AGENTUI_CONFIG_DIR=str(home / "config"),
        AGENTUI_STATE_DIR=str(home / "state"),
    )
    return env


def sessions_dir(home: Path) -> Path:
    return home / "data" / "sessions"


class RecordingClient:
    """Records every update as JSON (as it went over the wire); answers permission requests
    with the next of `choices` (holding them when it runs out) and forms with `answers`."""

    def __init__(self, choices: list[str] | None = None, answers: list[str] | None = None):
        self.updates: list[dict[str, Any]] = []
        self.permissions: list[tuple[ToolCallUpdate, list[PermissionOption]]] = []
        self.forms: list[tuple[str, ElicitationFormSessionMode]] = []
        self._choices = list(choices or [])
        self._answers = list(answers or [])
        self._changed = anyio.Event()
        self.release = anyio.Event()  # a held permission request answers "cancelled" once set

    # -- the client side of the protocol ---------------------------------------------------

    async def session_update(self, session_id: str, update: Any, **kwargs: Any) -> None:
        self.updates.append(update.model_dump(mode="json", by_alias=True, exclude_none=True))
        self._notify()

    async def request_permission(
        self, session_id: str, tool_call: ToolCallUpdate, options: list[PermissionOption], **kw: Any
    ) -> RequestPermissionResponse:
        self.permissions.append((tool_call, options))
        self._notify()
        if not self._choices:
            await self.release.wait()  # as a client does: a cancelled prompt's requests end
            return RequestPermissionResponse(outcome=DeniedOutcome(outcome="cancelled"))
        chosen = self._choices.pop(0)
        return RequestPermissionResponse(
            outcome=AllowedOutcome(outcome="selected", option_id=chosen)
        )

    async def create_elicitation(
        self, message: str, mode: ElicitationFormSessionMode, **kwargs: Any
    ) -> CreateElicitationResponse:
        self.forms.append((message, mode))
        self._notify()
        return AcceptElicitationResponse(action="accept", content={"answer": self._answers.pop(0)})

    # -- reading -------------------------------------------------------------------------

    def of_kind(self, kind: str) -> list[dict[str, Any]]:
        return [u for u in self.updates if u["sessionUpdate"] == kind]

    def text(self, kind: str = "agent_message_chunk") -> str:
        return "".join(u["content"]["text"] for u in self.of_kind(kind))

    def call(self, tool_call_id: str) -> list[dict[str, Any]]:
        """The tool call's start and updates, in order."""
        return [
            u
            for u in self.updates
            if u["sessionUpdate"] in ("tool_call", "tool_call_update")
            and u["toolCallId"] == tool_call_id
        ]

    def statuses(self, tool_call_id: str) -> list[str]:
        return [u["status"] for u in self.call(tool_call_id) if "status" in u]

    async def wait_for(self, condition: Callable[[RecordingClient], bool]) -> None:
        with anyio.fail_after(TIMEOUT_S):
            while not condition(self):
                self._changed = anyio.Event()
                await self._changed.wait()

    def _notify(self) -> None:
        self._changed.set()


FORMS = ClientCapabilities(elicitation=ElicitationCapabilities(form=ElicitationFormCapabilities()))


@asynccontextmanager
async def agentui_acp(
    client: RecordingClient,
    home: Path,
    *args: str,
    capabilities: ClientCapabilities | None = None,
) -> AsyncIterator[ClientSideConnection]:
    """`agentui acp ARGS` in a child process, initialized; its stderr in home/stderr.log."""
    home.mkdir(parents=True, exist_ok=True)
    with (home / "stderr.log").open("ab") as stderr, anyio.fail_after(TIMEOUT_S):
        async with spawn_agent_process(
            client,
            sys.executable,
            "-m",
            "agentui.tui.cli",
            "acp",
            *args,
            env=child_env(home),
            cwd=home,
            transport_kwargs={"stderr": stderr},
            use_unstable_protocol=True,  # forms (elicitation) are unstable in protocol 1
        ) as (conn, _process):
            await conn.initialize(
                protocol_version=PROTOCOL_VERSION,
                client_capabilities=capabilities or ClientCapabilities(),
            )
            yield conn
