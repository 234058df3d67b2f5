"""An ACP client for the tests, on the SDK's client side: `agentui acp` in a child process over
stdio, every update it sends recorded, its permission requests and forms answered as a test
says (or held until the prompt is cancelled).

The client also checks what the protocol promises, whatever a test looks at: no tool call is
created twice or updated before it was created, a plan update carries the whole plan, a
permission request or form points at a call the client was shown, a form goes only to a client
that declared forms, and no text holds a terminal control or a lone surrogate. `agentui_acp`
fails the test on any breach.

The SDK is imported where it is used: the test modules import this one, and collecting them
imports no SDK (tests/core/test_collection_imports.py)."""

from __future__ import annotations

import asyncio
import os
import re
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import anyio

if TYPE_CHECKING:
    from acp.client.connection import ClientSideConnection
    from acp.schema import (
        ClientCapabilities,
        CreateElicitationResponse,
        ElicitationFormSessionMode,
        PermissionOption,
        ToolCallUpdate,
    )

from ..forks import FORKS

TIMEOUT_S = 60  # a safety net against a hung child, never a measurement
CLEARED = ("ANTHROPIC_", "OPENAI_", "GEMINI_", "GOOGLE_", "AGENTUI_")
# What no text may carry to a client: C0 bar tab and newline, DEL, C1, bidi controls, lone
# surrogates.
UNSAFE_TEXT = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")
# Choices a test may script besides an option id.
CANCELLED = "<cancelled>"  # the client's own "cancelled" outcome
MALFORMED = "<malformed>"  # an answer the protocol has no reading of


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
    with the next of `choices` (holding them when it runs out) and forms with `answers`;
    `problems` lists every breach of the protocol seen."""

    def __init__(self, choices: list[str] | None = None, answers: list[str] | None = None):
        self.updates: list[dict[str, Any]] = []
        self.session_ids: list[str] = []  # each update's session
        self.permissions: list[tuple[ToolCallUpdate, list[PermissionOption]]] = []
        self.forms: list[tuple[str, ElicitationFormSessionMode]] = []
        self.problems: list[str] = []
        self.notifications: list[tuple[str, dict[str, Any]]] = []  # agentui's extensions'
        self.takes_forms = False  # as declared at initialize (agentui_acp sets it)
        self._choices = list(choices or [])
        self._answers = list(answers or [])
        self._created: dict[str, set[str]] = {}  # per session, the tool calls shown
        self._plans: dict[str, list[dict[str, Any]]] = {}  # per session, the plan shown
        self._changed = anyio.Event()
        self.release = anyio.Event()  # a held permission request answers "cancelled" once set

    # -- the client side of the protocol ---------------------------------------------------

    async def session_update(self, session_id: str, update: Any, **kwargs: Any) -> None:
        data = update.model_dump(mode="json", by_alias=True, exclude_none=True)
        self._check_update(session_id, data)
        self.updates.append(data)
        self.session_ids.append(session_id)
        self._notify()

    async def request_permission(
        self, session_id: str, tool_call: ToolCallUpdate, options: list[PermissionOption], **kw: Any
    ) -> Any:
        from acp.schema import AllowedOutcome, DeniedOutcome, RequestPermissionResponse

        self._check_points_at(session_id, tool_call.tool_call_id, "a permission request")
        self._check_text(tool_call.model_dump(mode="json"), "a permission request")
        self.permissions.append((tool_call, options))
        self._notify()
        if not self._choices:
            await self.release.wait()  # as a client does: a cancelled prompt's requests end
        chosen = self._choices.pop(0) if self._choices else CANCELLED
        if chosen == CANCELLED:
            return RequestPermissionResponse(outcome=DeniedOutcome(outcome="cancelled"))
        if chosen == MALFORMED:
            return {"outcome": {"outcome": "maybe"}}  # sent as it is: no model checks it
        return RequestPermissionResponse(
            outcome=AllowedOutcome(outcome="selected", option_id=chosen)
        )

    async def create_elicitation(
        self, message: str, mode: ElicitationFormSessionMode, **kwargs: Any
    ) -> CreateElicitationResponse:
        from acp.schema import AcceptElicitationResponse

        if not self.takes_forms:
            self.problems.append("a form was asked of a client that declared no forms")
        self._check_points_at(mode.session_id, mode.tool_call_id or "", "a form")
        self._check_text([message, mode.model_dump(mode="json")], "a form")
        self.forms.append((message, mode))
        self._notify()
        answer = self._answers.pop(0)
        if answer == MALFORMED:
            return {"action": "accept", "content": "not an object"}  # type: ignore[return-value]
        return AcceptElicitationResponse(action="accept", content={"answer": answer})

    async def ext_notification(self, method: str, params: dict[str, Any]) -> None:
        """An extension's notification (`_agentui/inbox`), as the SDK hands it over: its name
        without the leading underscore."""
        self._check_text(params, method)
        self.notifications.append((method, params))
        self._notify()

    def answer_held(self, *choices: str) -> None:
        """Answer the held permission requests with `choices` (then "cancelled")."""
        self._choices.extend(choices)
        self.release.set()

    def forget(self, session_id: str) -> None:
        """Before a session/load: the client shows the session afresh, from its replay."""
        self._created.pop(session_id, None)
        self._plans.pop(session_id, None)

    # -- what the protocol promises --------------------------------------------------------

    def _check_update(self, session_id: str, data: dict[str, Any]) -> None:
        kind = data["sessionUpdate"]
        self._check_text(data, kind)
        created = self._created.setdefault(session_id, set())
        if kind == "tool_call":
            if data["toolCallId"] in created:
                self.problems.append(f"tool call {data['toolCallId']} created twice")
            created.add(data["toolCallId"])
        elif kind == "tool_call_update" and data["toolCallId"] not in created:
            self.problems.append(f"tool call {data['toolCallId']} updated before it was created")
        elif kind == "plan":
            entries = data["entries"]
            shown = [entry["content"] for entry in self._plans.get(session_id, [])]
            if entries and [entry["content"] for entry in entries][: len(shown)] != shown:
                self.problems.append(f"a plan update that is not the whole plan: {entries}")
            self._plans[session_id] = entries

    def _check_points_at(self, session_id: str, tool_call_id: str, what: str) -> None:
        if tool_call_id not in self._created.get(session_id, set()):
            self.problems.append(f"{what} for tool call {tool_call_id!r}, never shown")

    def _check_text(self, value: Any, where: str) -> None:
        match value:
            case str() if UNSAFE_TEXT.search(value):
                self.problems.append(f"a control or lone surrogate in {where}: {value!r}")
            case dict():
                for key, item in value.items():
                    self._check_text(key, where)
                    self._check_text(item, where)
            case list():
                for item in value:
                    self._check_text(item, where)

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

    def unfinished_calls(self) -> list[str]:
        """The tool calls shown whose last status is pending or in progress."""
        ids = [u["toolCallId"] for u in self.of_kind("tool_call")]
        return [i for i in ids if self.statuses(i)[-1] in ("pending", "in_progress")]

    async def wait_for(self, condition: Callable[[RecordingClient], bool]) -> None:
        with anyio.fail_after(TIMEOUT_S):
            while not condition(self):
                self._changed = anyio.Event()
                await self._changed.wait()

    def _notify(self) -> None:
        self._changed.set()


def forms() -> ClientCapabilities:
    """A client's capabilities declaring forms (elicitation)."""
    from acp.schema import (
        ClientCapabilities,
        ElicitationCapabilities,
        ElicitationFormCapabilities,
    )

    return ClientCapabilities(
        elicitation=ElicitationCapabilities(form=ElicitationFormCapabilities())
    )


@asynccontextmanager
async def agentui_acp_process(
    client: RecordingClient,
    home: Path,
    *args: str,
    capabilities: ClientCapabilities | None = None,
) -> AsyncIterator[tuple[ClientSideConnection, asyncio.subprocess.Process]]:
    """`agentui acp ARGS` in a child process, initialized; its stderr in home/stderr.log.
    Fails the test if the client saw the protocol broken."""
    from acp import PROTOCOL_VERSION, spawn_agent_process
    from acp.schema import ClientCapabilities

    home.mkdir(parents=True, exist_ok=True)
    capabilities = capabilities or ClientCapabilities()
    client.takes_forms = capabilities.elicitation is not None
    with (home / "stderr.log").open("ab") as stderr, anyio.fail_after(TIMEOUT_S):
        async with spawn_agent_process(
            client,
            *FORKS.command("module", "agentui.tui.cli.main", "acp", *args),
            env=child_env(home),
            cwd=home,
            transport_kwargs={"stderr": stderr},
            use_unstable_protocol=True,  # forms (elicitation) are unstable in protocol 1
        ) as (conn, process):
            await conn.initialize(
                protocol_version=PROTOCOL_VERSION, client_capabilities=capabilities
            )
            yield conn, process
    assert client.problems == [], client.problems


@asynccontextmanager
async def agentui_acp(
    client: RecordingClient,
    home: Path,
    *args: str,
    capabilities: ClientCapabilities | None = None,
) -> AsyncIterator[ClientSideConnection]:
    """`agentui_acp_process` for the tests that need only the connection."""
    async with agentui_acp_process(client, home, *args, capabilities=capabilities) as (conn, _):
        yield conn
