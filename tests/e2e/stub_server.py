"""A stand-in for the Messages API on 127.0.0.1, for the real anthropic SDK. Standard-library asyncio.

Each test scripts the replies, in order: JSON (`json_reply`, `error_reply`) or a server-sent
event stream (`sse_reply`), chunked or close-delimited. A stream is a list of steps: an event,
a pause, a wait for the test's signal or a signal to it, a hold (send nothing more until the client goes away: a slow stream to cancel), or a
drop (cut the connection). The server keeps every request it got, headers included, and counts
clients that went away in the middle of a reply.

A request with no reply scripted goes to the server's `responder`, when it has one: a model
that answers from the request itself. `MinimalModel` is such a model, independent of ours: it
answers a request that asks for structured output (`output_config.format`) with the smallest
instance of the declared JSON Schema, and anything else with a short plain text.

It speaks just enough HTTP/1.1 for httpx2: keep-alive, Content-Length request bodies.
"""

from __future__ import annotations

import asyncio
import json
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from http import HTTPStatus
from typing import Any

# -- what a test scripts -------------------------------------------------------------------------


@dataclass(frozen=True)
class Sse:
    """One server-sent event: `event: NAME` and its JSON data."""

    name: str
    data: dict[str, Any]

    def encode(self) -> bytes:
        return f"event: {self.name}\ndata: {json.dumps(self.data)}\n\n".encode()


@dataclass(frozen=True)
class Pause:
    seconds: float


@dataclass(frozen=True)
class Wait:
    """Send nothing more until the test sets this event."""

    event: asyncio.Event


@dataclass(frozen=True)
class Signal:
    """Tell the test the stream got this far (everything before it is sent)."""

    event: asyncio.Event


@dataclass(frozen=True)
class Hold:
    """Send nothing more; wait until the client disconnects."""


@dataclass(frozen=True)
class Drop:
    """Cut the connection here, mid-reply."""


Step = Sse | Pause | Wait | Signal | Hold | Drop


@dataclass
class Reply:
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    body: bytes = b""  # a JSON reply's body
    steps: list[Step] | None = None  # a stream's steps (None: a JSON reply)
    chunked: bool = True  # a stream's framing: chunked, or ended by closing the connection
    after: asyncio.Event | None = None  # send nothing until the test sets it


def json_reply(status: int, body: dict[str, Any], headers: dict[str, str] | None = None) -> Reply:
    return Reply(status, dict(headers or {}), json.dumps(body).encode())


def error_reply(
    status: int, error_type: str, message: str, headers: dict[str, str] | None = None
) -> Reply:
    body = {"type": "error", "error": {"type": error_type, "message": message}}
    return json_reply(status, body, {"request-id": f"req_stub_{status}", **(headers or {})})


def sse_reply(steps: list[Step], *, chunked: bool = True) -> Reply:
    return Reply(200, {}, b"", list(steps), chunked)


# -- what the server saw -------------------------------------------------------------------------


@dataclass
class SeenRequest:
    method: str
    path: str
    headers: dict[str, str]  # names in lower case
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)


class _ClientGone(Exception):
    pass


# -- the server ------------------------------------------------------------------------------------


Responder = Callable[[SeenRequest], Reply]


class StubServer:
    """`async with StubServer() as stub:` then point the SDK at `stub.url`."""

    def __init__(self, responder: Responder | None = None) -> None:
        self.replies: deque[Reply] = deque()
        self.responder = responder  # answers what no scripted reply does
        self.requests: list[SeenRequest] = []
        self.disconnects = 0  # clients that went away in the middle of a reply
        self._disconnected = asyncio.Event()
        self._server: asyncio.Server | None = None
        self._writers: set[asyncio.StreamWriter] = set()
        self._handlers: set[asyncio.Task[None]] = set()

    async def __aenter__(self) -> StubServer:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        assert self._server is not None
        self._server.close()
        # Cutting every connection ends each handler on its own (its read fails); cancelling
        # them instead would make asyncio log the cancellation as an error.
        for writer in list(self._writers):
            writer.transport.abort()
        await asyncio.gather(*self._handlers, return_exceptions=True)
        await self._server.wait_closed()

    @property
    def url(self) -> str:
        assert self._server is not None
        port = self._server.sockets[0].getsockname()[1]
        return f"http://127.0.0.1:{port}"

    def reply(self, *replies: Reply) -> None:
        """Queue replies; each request takes the next one."""
        self.replies.extend(replies)

    async def wait_for_disconnect(self) -> None:
        await self._disconnected.wait()

    # -- one connection ------------------------------------------------------------------------

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._handlers.add(task)
        self._writers.add(writer)
        try:
            while (request := await self._read_request(reader)) is not None:
                self.requests.append(request)
                reply = self._reply_to(request)
                if not await self._send(reply, reader, writer):
                    break
        except _ClientGone:
            self._went_away()
        except (ConnectionError, asyncio.IncompleteReadError):
            pass
        finally:
            self._writers.discard(writer)
            self._handlers.discard(task)
            writer.transport.abort()

    def _reply_to(self, request: SeenRequest) -> Reply:
        if self.replies:
            return self.replies.popleft()
        if self.responder is not None:
            return self.responder(request)
        return _unscripted()

    def _went_away(self) -> None:
        self.disconnects += 1
        self._disconnected.set()

    async def _read_request(self, reader: asyncio.StreamReader) -> SeenRequest | None:
        try:
            head = await reader.readuntil(b"\r\n\r\n")
        except asyncio.IncompleteReadError:
            return None  # the client closed an idle keep-alive connection
        request_line, *header_lines = head.decode("latin-1").split("\r\n")
        method, path, _version = request_line.split(" ", 2)
        headers: dict[str, str] = {}
        for line in header_lines:
            if line:
                name, _, value = line.partition(":")
                headers[name.strip().lower()] = value.strip()
        body = await reader.readexactly(int(headers.get("content-length", "0")))
        return SeenRequest(method, path, headers, body)

    async def _send(
        self, reply: Reply, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> bool:
        """Send one reply; False when the connection is done for."""
        if reply.after is not None:
            await reply.after.wait()
        lines = [f"HTTP/1.1 {reply.status} {_reason(reply.status)}"]
        if reply.steps is None:
            headers = {
                "content-type": "application/json",
                "content-length": str(len(reply.body)),
                **reply.headers,
            }
            lines += [f"{k}: {v}" for k, v in headers.items()]
            writer.write(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + reply.body)
            await writer.drain()
            return True
        framing = {"transfer-encoding": "chunked"} if reply.chunked else {"connection": "close"}
        headers = {"content-type": "text/event-stream", "cache-control": "no-cache", **framing}
        headers.update(reply.headers)
        lines += [f"{k}: {v}" for k, v in headers.items()]
        writer.write(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1"))
        for step in reply.steps:
            match step:
                case Sse():
                    await self._write(writer, step.encode(), chunked=reply.chunked)
                case Pause(seconds=seconds):
                    await asyncio.sleep(seconds)
                case Wait(event=event):
                    await writer.drain()
                    await event.wait()
                case Signal(event=event):
                    await writer.drain()
                    event.set()
                case Hold():
                    await writer.drain()
                    if await reader.read(1) == b"":
                        raise _ClientGone
                    raise AssertionError("the client sent data in the middle of a reply")
                case Drop():
                    writer.transport.abort()
                    return False
        if reply.chunked:
            await self._write(writer, b"", chunked=True)  # the last chunk
            return True
        return False  # close-delimited: closing the connection ends the body

    @staticmethod
    async def _write(writer: asyncio.StreamWriter, data: bytes, *, chunked: bool) -> None:
        if chunked:
            data = f"{len(data):x}\r\n".encode() + data + b"\r\n"
        try:
            writer.write(data)
            await writer.drain()
        except ConnectionError:
            raise _ClientGone from None


def _reason(status: int) -> str:
    try:
        return HTTPStatus(status).phrase
    except ValueError:  # 529 and other codes the standard library does not name
        return "Error"


def _unscripted() -> Reply:
    return error_reply(500, "api_error", "the stub server has no reply scripted for this request")


# -- a model that answers from the request -------------------------------------------------------


def minimal_instance(schema: dict[str, Any], defs: dict[str, Any] | None = None) -> Any:
    """The smallest value valid for a JSON Schema: required properties only, empty strings and
    arrays (or as short as `minLength`/`minItems` allow), the lowest number, false, the first
    enum value, the first option of an `anyOf`."""
    defs = schema.get("$defs", {}) if defs is None else defs
    if "$ref" in schema:
        return minimal_instance(defs[schema["$ref"].split("/")[-1]], defs)
    if "const" in schema:
        return schema["const"]
    if "enum" in schema:
        return schema["enum"][0]
    for combined in ("anyOf", "oneOf", "allOf"):
        if combined in schema:
            return minimal_instance(schema[combined][0], defs)
    kind = schema.get("type", "object")
    if isinstance(kind, list):
        kind = kind[0]
    match kind:
        case "object":
            properties = schema.get("properties", {})
            return {
                name: minimal_instance(properties.get(name, {}), defs)
                for name in schema.get("required", [])
            }
        case "array":
            return [minimal_instance(schema.get("items", {}), defs)] * schema.get("minItems", 0)
        case "string":
            return "x" * schema.get("minLength", 0)
        case "integer" | "number":
            return schema.get("minimum", schema.get("exclusiveMinimum", -1) + 1)
        case "boolean":
            return False
    return None


def held_to(value: Any, schema: dict[str, Any], defs: dict[str, Any] | None = None) -> Any:
    """What a model held to `schema` by constrained decoding gives when it means `value`: every
    property the schema requires is there (decoding cannot close an object before them), one
    it had nothing to say for made up: a string says so, anything else is its smallest
    instance; all the way down."""
    defs = schema.get("$defs", {}) if defs is None else defs
    if "$ref" in schema:
        return held_to(value, defs[schema["$ref"].split("/")[-1]], defs)
    if isinstance(value, dict):
        properties = schema.get("properties", {})
        held = {name: held_to(v, properties.get(name, {}), defs) for name, v in value.items()}
        for name in schema.get("required", []):
            if name not in held:
                inner = properties.get(name, {})
                made_up = f"made-up {name}" if inner.get("type") == "string" else None
                held[name] = made_up or minimal_instance(inner, defs)
        return held
    if isinstance(value, list):
        return [held_to(item, schema.get("items", {}), defs) for item in value]
    return value


@dataclass
class MinimalModel:
    """Answers structured requests with the smallest valid instance of their schema."""

    plain_text: str = "Done."

    def answer(self, body: dict[str, Any]) -> str:
        output_format = (body.get("output_config") or {}).get("format") or {}
        if output_format.get("type") == "json_schema":
            return json.dumps(minimal_instance(output_format["schema"]))
        return self.plain_text

    def __call__(self, request: SeenRequest) -> Reply:
        from .messages_api import response, text  # messages_api imports this module

        answer = self.answer(request.json())
        middle = len(answer) // 2
        return sse_reply(response(text(answer[:middle], answer[middle:])))
