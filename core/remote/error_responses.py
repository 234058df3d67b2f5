"""What each refusal of the API answers: one JSON object `{"error": "<one sentence>"}` with a
4xx status, never a 500 for the client's mistakes.

An unknown agent or query is 404, a command that does not apply now 409, a body that is not
JSON 400, one that does not fit 422; anything else that goes wrong is logged and answered 500
with the exception's name only.
"""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException
from starlette.middleware.body_limit import MAX_BODY_SIZE_SCOPE_KEY

from agentui.core.remote.auth import too_large
from agentui.core.support.errors import (
    AgentUIError,
    UnknownAgentError,
    UnknownProfileError,
    UnknownQueryError,
)
from agentui.core.support.utf8 import json_text

log = logging.getLogger("agentui.remote")

# pydantic's error types for a body that is JSON but not an object
_NOT_AN_OBJECT = frozenset({"model_attributes_type", "model_type", "dict_type"})


class BadRequest(AgentUIError):
    """A body that parses but asks for nothing that can be done (422)."""


class JSONText(JSONResponse):
    """JSON that is always UTF-8: a model's lone surrogate becomes U+FFFD, never a 500."""

    def render(self, content: Any) -> bytes:
        return json_text(content, separators=(",", ":")).encode()


def install_error_handlers(app: FastAPI) -> None:
    async def refused(request: Request, exc: Exception) -> JSONResponse:
        return JSONText({"error": str(exc)}, status_code=_status_of(exc))

    async def invalid(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, RequestValidationError)
        status, message = validation_message(exc.errors())
        return JSONText({"error": message}, status_code=status)

    async def http_error(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, HTTPException)
        message = exc.detail
        if exc.status_code == 404 and message == "Not Found":
            message = f"no such endpoint: {request.method} {request.url.path}"
        elif exc.status_code == 405:
            message = f"{request.method} is not allowed on {request.url.path}"
        elif exc.status_code == 413:
            limit = request.scope.get(MAX_BODY_SIZE_SCOPE_KEY)
            message = (
                too_large(limit) if isinstance(limit, int) else "the request body is too large"
            )
        return JSONText({"error": message}, status_code=exc.status_code, headers=exc.headers)

    async def failed(request: Request, exc: Exception) -> JSONResponse:
        log.error("%s %s failed", request.method, request.url.path, exc_info=exc)
        return JSONText({"error": f"the server failed: {type(exc).__name__}"}, status_code=500)

    app.add_exception_handler(AgentUIError, refused)
    app.add_exception_handler(RequestValidationError, invalid)
    app.add_exception_handler(HTTPException, http_error)
    app.add_exception_handler(Exception, failed)


def _status_of(exc: Exception) -> int:
    if isinstance(exc, UnknownAgentError | UnknownQueryError):
        return 404
    if isinstance(exc, BadRequest | UnknownProfileError):
        return 422
    return 409  # the command does not apply to the agent as it is now


def validation_message(errors: Any) -> tuple[int, str]:
    """One sentence for FastAPI's validation errors: 400 for a body that is not JSON."""
    problems: list[str] = []
    for error in errors:
        kind = error.get("type")
        if kind == "json_invalid":
            return 400, f"the body is not valid JSON: {error.get('ctx', {}).get('error', '')}"
        where = [str(part) for part in error.get("loc", ())]
        place = "body"
        if where and where[0] in ("body", "query", "path", "header"):
            place, where = where[0], where[1:]
        message = str(error.get("msg", "invalid")).removeprefix("Value error, ")
        if place == "body" and not where:
            # About the body as a whole: absent, not an object, or its fields disagree.
            if kind == "missing":
                message = "the request needs a JSON body"
            elif kind in _NOT_AN_OBJECT:
                message = "the body must be a JSON object"
            if message not in problems:
                problems.append(message)
            continue
        problems.append(f"{place} {'.'.join(where)}: {message}")
    return 422, "; ".join(problems) or "the request is not valid"
