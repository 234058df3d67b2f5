"""`/openapi.json` as the server answers: FastAPI's document of the routes, completed with what
the routes alone do not say.

- Every call needs the bearer token (auth.py): a `bearer` security scheme, required globally.
- The two event streams answer `text/event-stream`, not JSON.
- Every refusal is `{"error": "<one sentence>"}` (error_responses.py, auth.py), 422 included
  (FastAPI would document its own `{"detail": [...]}`, which this server never sends).
- Each operation lists the refusals it can answer: 401 and 403 (auth.py) everywhere; 404 where
  the path names an agent or a query; 400, 413 and 422 where a body is read; 422 where query
  parameters are; 400 where a `Last-Event-ID` is read; 409 where the runtime may refuse the
  command as the agent is now (REFUSED_NOW).

    complete_document(app)  # once its routes are added
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi

from agentui.core.remote.api_models import ErrorBody

SCHEME = "bearer"
STREAMS = frozenset({("get", "/agent/stream"), ("get", "/events")})
# The operations whose command the runtime may refuse (409) for the agent's state or steps,
# or for a request_id that started another task.
_COMMANDS_REFUSED_NOW = (
    "pause", "resume", "cancel", "delete", "modify", "steer", "send", "budget", "past_budget",
    "rewind", "fork",
)  # fmt: skip
REFUSED_NOW = frozenset(
    {("get", "/agent/stream"), ("post", "/agent/{agent_id}/intervene")}
    | {("post", f"/agent/{{agent_id}}/{command}") for command in _COMMANDS_REFUSED_NOW}
    | {("post", "/queries/{query_id}/approval")}
)

REFUSALS = {
    400: "The body is not JSON, or a Last-Event-ID this server did not send",
    401: "No valid bearer token (`Authorization: Bearer TOKEN`)",
    403: "A page of another site (its Origin), or a Host this server does not answer to",
    404: "No such agent or query",
    409: "The command does not apply now (the agent's state, its steps, a request_id's task)",
    413: "The body is over the server's limit",
    422: "A parameter or body that does not fit, said in one sentence",
}
_STREAM_TEXT = (
    "Server-sent events: each message's `data` is one JSON object (an agentui event, or with "
    "`format=seed` one of the seed's chunks) and its `id` is where a reconnect resumes "
    "(`Last-Event-ID`)."
)


def complete_document(app: FastAPI) -> None:
    """Make `app.openapi()` (what `/openapi.json` answers) the completed document."""

    def document() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = completed(
                get_openapi(
                    title=app.title,
                    version=app.version,
                    summary=app.summary,
                    routes=app.routes,
                )
            )
        return app.openapi_schema

    app.openapi = document  # type: ignore[method-assign]  # FastAPI's documented extension point


def completed(document: dict[str, Any]) -> dict[str, Any]:
    """FastAPI's `document`, completed as the module docstring says."""
    components = document.setdefault("components", {})
    components["securitySchemes"] = {
        SCHEME: {
            "type": "http",
            "scheme": "bearer",
            "description": "The token `agentui serve` prints and keeps in its token file",
        }
    }
    document["security"] = [{SCHEME: []}]
    schemas = components.setdefault("schemas", {})
    schemas["ErrorBody"] = ErrorBody.model_json_schema(ref_template="#/components/schemas/{model}")
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            _complete_operation(method, path, operation)
    for unused in ("HTTPValidationError", "ValidationError"):
        schemas.pop(unused, None)  # FastAPI's 422 body, which no answer has
    return document


def _complete_operation(method: str, path: str, operation: dict[str, Any]) -> None:
    responses: dict[str, Any] = operation["responses"]
    if (method, path) in STREAMS:
        ok = responses["200"]
        ok["description"] = _STREAM_TEXT
        ok["content"] = {"text/event-stream": {"schema": {"type": "string"}}}
    for status in sorted(refusals_of(method, path, operation)):
        response = responses.setdefault(str(status), {"description": REFUSALS[status]})
        if response.get("description") in (None, "Validation Error"):
            response["description"] = REFUSALS[status]
        response["content"] = {
            "application/json": {"schema": {"$ref": "#/components/schemas/ErrorBody"}}
        }
    if "422" in responses and 422 not in refusals_of(method, path, operation):
        del responses["422"]  # FastAPI's, for a path parameter that takes any text


def refusals_of(method: str, path: str, operation: dict[str, Any]) -> set[int]:
    """The 4xx statuses the operation can answer (the module docstring's rules)."""
    statuses = {401, 403}
    parameters = operation.get("parameters", [])
    places = {parameter["in"] for parameter in parameters}
    if "path" in places:
        statuses.add(404)
    if "requestBody" in operation:
        statuses |= {400, 413, 422}
    if "query" in places:
        statuses.add(422)
    if any(p["in"] == "header" and p["name"] == "last-event-id" for p in parameters):
        statuses.add(400)
    if (method, path) in REFUSED_NOW:
        statuses.add(409)
    return statuses
