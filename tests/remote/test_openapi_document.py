"""`/openapi.json` (core/remote/api_document.py): a valid OpenAPI document that says the token,
the event streams' media type and every refusal as the server answers them; each status it
documents is what a real call of that operation answers."""

from __future__ import annotations

from typing import Any

import httpx2
import pytest

from agentui.core.providers.scripted.provider import ScriptedProvider
from agentui.core.providers.scripted.script import Script, ScriptedToolCall, Turn
from agentui.core.remote.server import MAX_BODY_BYTES
from agentui.core.runtime import Runtime
from agentui.core.support.clock import FrozenClock
from agentui.core.tools.ask_user import ASK_USER
from agentui.core.tools.registry import ToolRegistry

from .event_reader import FAIL_AFTER_S, EventReader, of_type
from .server_fixture import TOKEN, served_runtime

openapi_spec_validator = pytest.importorskip(
    "openapi_spec_validator", reason="openapi-spec-validator is in the test extra"
)

pytestmark = pytest.mark.anyio

AUTH = {"Authorization": f"Bearer {TOKEN}"}
ERROR_REF = {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorBody"}}}
# A body each operation takes, for the calls that must get past its body to be refused.
VALID_BODIES: dict[str, Any] = {
    "/tasks": {"task": "say hi"},
    "/agent/{agent_id}/intervene": {"userComment": "unchanged"},
    "/agent/{agent_id}/pause": {"subtree": False},
    "/agent/{agent_id}/resume": {"subtree": False},
    "/agent/{agent_id}/cancel": {"reason": "enough"},
    "/agent/{agent_id}/modify": {"instructions": "Be brief."},
    "/agent/{agent_id}/steer": {"text": "Prefer trains."},
    "/agent/{agent_id}/send": {"text": "And more?"},
    "/agent/{agent_id}/budget": {"limits": {}},
    "/queries/{query_id}/answer": {"text": "Lisbon"},
    "/queries/{query_id}/approval": {"choice": "once"},
    "/agent/{agent_id}/rewind": {"step": 0},
    "/agent/{agent_id}/fork": {"step": 0},
}
# Documented successes this test does not reach (each needs a state of its own, and
# test_commands.py calls them): a budget's stop, and an approval.
NOT_CALLED = {
    ("post", "/agent/{agent_id}/past_budget", 200),
    ("post", "/queries/{query_id}/approval", 200),
}


def asking_runtime() -> Runtime:
    """The first root answers "hi" (then "more" when continued); the second asks the person
    a question; every other agent answers "hi"."""
    script = Script(
        agents={
            "main": [Turn(text="hi"), Turn(text="more")],
            "main-2": [
                Turn(
                    tool_calls=[ScriptedToolCall(name="ask_user", arguments={"question": "Where?"})]
                ),
                Turn(text="ok"),
            ],
            "*": [Turn(text="hi")],
        }
    )
    registry = ToolRegistry([ASK_USER])
    return Runtime(ScriptedProvider(script), tools=registry, clock=FrozenClock())


class Caller:
    """Real calls, each checked for its status and recorded as (method, template, status)."""

    def __init__(self, http: httpx2.AsyncClient) -> None:
        self.http = http
        self.seen: set[tuple[str, str, int]] = set()

    async def expect(
        self,
        status: int,
        method: str,
        template: str,
        path: str | None = None,
        *,
        stream_to_end: bool = False,
        **request: Any,
    ) -> httpx2.Response:
        url = path if path is not None else template
        async with self.http.stream(method.upper(), url, **request) as response:
            if stream_to_end and response.status_code == 200:
                async for _ in response.aiter_bytes():
                    pass  # the stream ends with its task
            elif response.status_code != 200 or not _is_stream(response):
                await response.aread()
        assert response.status_code == status, (method, url, response.text)
        if status >= 400:
            assert set(response.json()) == {"error"}, response.text
        self.seen.add((method, template, status))
        return response


def _is_stream(response: httpx2.Response) -> bool:
    return response.headers.get("content-type", "").startswith("text/event-stream")


def _concrete(template: str, agent_id: str, query_id: str) -> str:
    return template.replace("{agent_id}", agent_id).replace("{query_id}", query_id)


async def test_the_document_is_valid_and_says_the_token_the_streams_and_the_errors() -> None:
    async with (
        served_runtime(Turn(text="hi")) as server,
        httpx2.AsyncClient(base_url=server.base_url, headers=AUTH) as http,
    ):
        document = (await http.get("/openapi.json")).json()
    openapi_spec_validator.validate(document)
    schemes = document["components"]["securitySchemes"]
    assert schemes == {
        "bearer": {
            "type": "http",
            "scheme": "bearer",
            "description": schemes["bearer"]["description"],
        }
    }
    assert document["security"] == [{"bearer": []}]
    for path in ("/agent/stream", "/events"):
        assert list(document["paths"][path]["get"]["responses"]["200"]["content"]) == [
            "text/event-stream"
        ]
    schemas = document["components"]["schemas"]
    assert "HTTPValidationError" not in schemas and "ValidationError" not in schemas
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            for status, response in operation["responses"].items():
                if int(status) >= 400:
                    assert response["content"] == ERROR_REF, (method, path, status)
            assert {"401", "403"} <= set(operation["responses"]), (method, path)


async def test_every_documented_status_is_what_a_real_call_answers() -> None:
    runtime = asking_runtime()
    async with (
        served_runtime(runtime=runtime) as server,
        server.client() as client,
        httpx2.AsyncClient(base_url=server.base_url, headers=AUTH, timeout=FAIL_AFTER_S) as http,
    ):
        document = (await http.get("/openapi.json")).json()
        documented = {
            (method, path, int(status))
            for path, operations in document["paths"].items()
            for method, operation in operations.items()
            for status in operation["responses"]
        }
        calls = Caller(http)
        reader = EventReader(client)

        # Two roots: a1 completed, a2 waiting on its question.
        done = (await calls.expect(200, "post", "/tasks", json={"task": "say hi"})).json()
        await runtime.wait(done["agent_id"])
        asking = (await calls.expect(200, "post", "/tasks", json={"task": "ask"})).json()
        (raised,) = await reader.until(of_type("query:raised"))
        await reader.aclose()
        a1, a2, question = done["agent_id"], asking["agent_id"], raised.query_id  # type: ignore[attr-defined]
        assert (a1, a2) == ("a1", "a2")

        # Refusals any operation can answer, made the same way for each.
        for method, template, status in sorted(documented):
            path = _concrete(template, a1, question)
            body = VALID_BODIES.get(template)
            has_body = "requestBody" in document["paths"][template][method]
            if status == 401:
                await calls.expect(
                    401, method, template, path, headers={"Authorization": "Bearer wrong"}
                )
            elif status == 403:
                await calls.expect(
                    403, method, template, path, headers={"Origin": "https://elsewhere.example"}
                )
            elif status == 404:
                await calls.expect(
                    404, method, template, _concrete(template, "nope", "nope"), json=body
                )
            elif status == 413:
                too_big = b" " * (MAX_BODY_BYTES + 1)
                await calls.expect(413, method, template, path, content=too_big)
            elif status == 400 and has_body:
                await calls.expect(
                    400,
                    method,
                    template,
                    path,
                    content=b"{",
                    headers={"Content-Type": "application/json"},
                )
            elif status == 400:
                params = {"prompt": "x"} if template == "/agent/stream" else {}
                await calls.expect(
                    400, method, template, path, params=params, headers={"Last-Event-ID": "garbage"}
                )
            elif status == 422 and has_body:
                await calls.expect(422, method, template, path, json={"unexpected": 1})
        await calls.expect(422, "get", "/agent/stream")  # no prompt
        await calls.expect(422, "get", "/events", params={"since": -1})

        # What the runtime refuses as the agents are now (409).
        agent = "/agent/{agent_id}"
        for command, body in [
            ("pause", {}), ("resume", {}), ("cancel", {}), ("modify", {"content": "x"}),
            ("steer", {"text": "x"}), ("past_budget", None), ("rewind", {"step": 999}),
            ("fork", {"step": 999}), ("intervene", {"userComment": "modify", "userContent": "x"}),
        ]:  # fmt: skip
            await calls.expect(
                409, "post", f"{agent}/{command}", f"/agent/{a1}/{command}", json=body
            )
        await calls.expect(409, "post", f"{agent}/send", f"/agent/{a2}/send", json={"text": "x"})
        await calls.expect(
            409,
            "post",
            "/queries/{query_id}/approval",
            f"/queries/{question}/approval",
            json={"choice": "once"},
        )
        stream, started = "/agent/stream", {"prompt": "say hi", "request_id": "r1"}
        await calls.expect(200, "get", stream, params=started, stream_to_end=True)
        await calls.expect(409, "get", stream, params={"prompt": "another", "request_id": "r1"})
        await calls.expect(
            204, "get", stream, params={"prompt": "x"}, headers={"Last-Event-ID": f"{a1}@999999"}
        )

        # Successes.
        for template in (
            "/agent/tree",
            "/info",
            "/snapshot",
            "/inbox",
            "/sessions",
            "/events",
            agent,
            f"{agent}/steps",
        ):
            await calls.expect(200, "get", template, _concrete(template, a1, question))
        for command in ("intervene", "pause", "resume", "steer", "modify", "budget"):
            template = f"{agent}/{command}"
            await calls.expect(
                200, "post", template, f"/agent/{a2}/{command}", json=VALID_BODIES[template]
            )
        await calls.expect(
            200,
            "post",
            "/queries/{query_id}/answer",
            f"/queries/{question}/answer",
            json={"text": "Lisbon"},
        )
        await runtime.wait(a2)
        await calls.expect(
            200, "post", f"{agent}/send", f"/agent/{a1}/send", json={"text": "And more?"}
        )
        await runtime.wait(a1)
        await calls.expect(200, "post", f"{agent}/fork", f"/agent/{a1}/fork", json={"step": 0})
        await calls.expect(200, "post", f"{agent}/rewind", f"/agent/{a1}/rewind", json={"step": 0})
        await calls.expect(
            200, "post", f"{agent}/cancel", f"/agent/{a1}/cancel", json={"reason": "enough"}
        )
        await calls.expect(200, "post", f"{agent}/delete", f"/agent/{a1}/delete")
        for command, body in [("delete", None), ("budget", {"limits": {}})]:  # a deleted agent
            await calls.expect(
                409, "post", f"{agent}/{command}", f"/agent/{a1}/{command}", json=body
            )

    assert documented - NOT_CALLED == calls.seen  # every documented status, and none other
