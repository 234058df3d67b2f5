"""An MCP server over stdio written as plain JSON-RPC lines (protocol 2025-11-25), so that it
can send what the SDK's own servers never would: a tools/list with a malformed tool in it,
progress notifications, and a tool that runs only as a task, whose state the test steps through
(each tasks/get moves it on one stage, no clock involved).

Tools: echo (text back), steps (a progress notification per step, `steps` of them, when the
call carries a progress token, then "done after N steps"), research (taskSupport "required":
two stages, then "a report on TOPIC"; with `hold` it stays at its first stage until
cancelled), cancelled (the ids of the tasks cancelled so far), and broken, whose inputSchema is
not an object (malformed: a client skips it). With `--no-tasks` the server does not offer
tasks, so research cannot be called.
"""

from __future__ import annotations

import json
import sys
from typing import Any

PROTOCOL = "2025-11-25"
TASKS = "--no-tasks" not in sys.argv
STAGES = ["stage 1 of 2", "stage 2 of 2"]
WHEN = "2026-01-01T00:00:00Z"
tasks: dict[str, dict[str, Any]] = {}  # id -> its state, as the protocol shows it
held: set[str] = set()  # tasks that stay at their first stage
failing: set[str] = set()  # tasks whose polls fail (the server cannot say how they are)
cancelled: list[str] = []

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
    {
        "name": "cancelled",
        "description": "The ids of the tasks cancelled so far.",
        "inputSchema": {"type": "object"},
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
    if name == "cancelled":
        answer(request_id, text(" ".join(cancelled) or "none"))
        return
    if name == "research" and "task" in params:
        task_id = f"task-{len(tasks) + 1}"
        tasks[task_id] = {
            "taskId": task_id, "status": "working", "statusMessage": STAGES[0], "stage": 0,
            "topic": arguments.get("topic", ""), "createdAt": WHEN, "lastUpdatedAt": WHEN,
            "ttl": params["task"].get("ttl"), "pollInterval": 10,
        }  # fmt: skip
        if arguments.get("hold"):
            held.add(task_id)
        if arguments.get("fail_polls"):
            failing.add(task_id)
        answer(request_id, {"task": shown(task_id)})
        return
    if name == "research":
        send({"id": request_id, "error": {"code": -32600, "message": "research runs as a task"}})
        return
    send({"id": request_id, "error": {"code": -32602, "message": f"no tool {name}"}})


def shown(task_id: str) -> dict[str, Any]:
    """A task as tasks/get and tasks/cancel answer it."""
    task = tasks[task_id]
    return {key: value for key, value in task.items() if key not in ("stage", "topic")}


def step(task_id: str) -> None:
    """The task's next stage, or its end (each tasks/get moves it on)."""
    task = tasks[task_id]
    if task["status"] != "working" or task_id in held:
        return
    task["stage"] += 1
    if task["stage"] < len(STAGES):
        task["statusMessage"] = STAGES[task["stage"]]
    else:
        task["status"], task["statusMessage"] = "completed", "the report is ready"


def on_task(request_id: Any, method: str, params: dict[str, Any]) -> None:
    task_id = params.get("taskId", "")
    if task_id not in tasks:
        send({"id": request_id, "error": {"code": -32602, "message": f"no task {task_id}"}})
    elif method == "tasks/get" and task_id in failing:
        send({"id": request_id, "error": {"code": -32603, "message": "the task store is down"}})
    elif method == "tasks/get":
        step(task_id)
        answer(request_id, shown(task_id))
    elif method == "tasks/cancel":
        tasks[task_id]["status"] = "cancelled"
        cancelled.append(task_id)
        answer(request_id, shown(task_id))
    else:  # tasks/result
        related = {"io.modelcontextprotocol/related-task": {"taskId": task_id}}
        report = text(f"a report on {tasks[task_id]['topic']}")
        answer(request_id, {**report, "_meta": related})


def main() -> None:
    for line in sys.stdin:
        if not line.strip():
            continue
        message = json.loads(line)
        method, request_id = message.get("method"), message.get("id")
        if request_id is None:
            continue  # a notification
        if method == "initialize":
            capabilities: dict[str, Any] = {"tools": {}}
            if TASKS:
                capabilities["tasks"] = {"cancel": {}, "requests": {"tools": {"call": {}}}}
            answer(request_id, {
                "protocolVersion": PROTOCOL,
                "capabilities": capabilities,
                "serverInfo": {"name": "listing", "version": "1"},
            })  # fmt: skip
        elif method == "tools/list":
            answer(request_id, {"tools": TOOLS})
        elif method == "tools/call":
            call(request_id, message.get("params") or {})
        elif method in ("tasks/get", "tasks/cancel", "tasks/result"):
            on_task(request_id, method, message.get("params") or {})
        elif method == "ping":
            answer(request_id, {})
        else:
            send({"id": request_id, "error": {"code": -32601, "message": f"no {method}"}})


if __name__ == "__main__":
    main()
