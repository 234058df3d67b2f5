"""An MCP server over stdio written as plain JSON-RPC lines (protocol 2025-11-25), so that it
can send what the SDK's own servers never would: a tools/list with a malformed tool in it, a
tool whose calls must run as tasks, and progress notifications whose pace the test sets.

Tools: echo (text back), steps (a progress notification per step, `steps` of them, when the
call carries a progress token, then "done after N steps"), research (taskSupport "required"),
and broken, whose inputSchema is not an object (malformed: a client skips it).
"""

from __future__ import annotations

import json
import sys
from typing import Any

PROTOCOL = "2025-11-25"

TOOLS: list[dict[str, Any]] = [
    {
        "name": "echo",
        "description": "Say the text back.",
        "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}},
    },
    {
        "name": "steps",
        "description": "Report progress for each step, then say how many there were.",
        "inputSchema": {"type": "object", "properties": {"steps": {"type": "integer"}}},
    },
    {
        "name": "research",
        "description": "A long job that runs only as a task.",
        "inputSchema": {"type": "object"},
        "execution": {"taskSupport": "required"},
    },
    {"name": "broken", "description": "Its input schema is a string.", "inputSchema": "nope"},
]


def send(message: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps({"jsonrpc": "2.0", **message}) + "\n")
    sys.stdout.flush()


def answer(request_id: Any, result: dict[str, Any]) -> None:
    send({"id": request_id, "result": result})


def text(value: str) -> dict[str, Any]:
    return {"content": [{"type": "text", "text": value}], "isError": False}


def call(request_id: Any, params: dict[str, Any]) -> None:
    name, arguments = params.get("name"), params.get("arguments") or {}
    if name == "echo":
        answer(request_id, text(str(arguments.get("text", ""))))
        return
    if name == "steps":
        count = int(arguments.get("steps", 3))
        token = (params.get("_meta") or {}).get("progressToken")
        for step in range(1, count + 1):
            if token is not None:
                notice = {"progressToken": token, "progress": step, "total": count}
                notice["message"] = f"step {step}"
                send({"method": "notifications/progress", "params": notice})
        answer(request_id, text(f"done after {count} steps (token: {token is not None})"))
        return
    send({"id": request_id, "error": {"code": -32602, "message": f"no tool {name}"}})


def main() -> None:
    for line in sys.stdin:
        if not line.strip():
            continue
        message = json.loads(line)
        method, request_id = message.get("method"), message.get("id")
        if request_id is None:
            continue  # a notification
        if method == "initialize":
            answer(request_id, {
                "protocolVersion": PROTOCOL,
                "capabilities": {"tools": {}},
                "serverInfo": {"name": "listing", "version": "1"},
            })  # fmt: skip
        elif method == "tools/list":
            answer(request_id, {"tools": TOOLS})
        elif method == "tools/call":
            call(request_id, message.get("params") or {})
        elif method == "ping":
            answer(request_id, {})
        else:
            send({"id": request_id, "error": {"code": -32601, "message": f"no {method}"}})


if __name__ == "__main__":
    main()
