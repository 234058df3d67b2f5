"""How a ready MCP server is found to hang: a ping without an answer in time (no server runs
here: tests/mcp/test_mcp_ping.py has a real one that stops answering)."""

from __future__ import annotations

from collections.abc import Callable

import anyio
import pytest

# The SDKs (and the agentui modules that import them) are imported where used: collecting
# this module imports no SDK (tests/core/test_collection_imports.py).

pytestmark = pytest.mark.anyio

GUARD_S = 30  # a failure guard only


class Session:
    """Answers pings as `answer` says, counting them."""

    def __init__(self, answer: BaseException | None = None, *, hang: bool = False) -> None:
        self.answer = answer
        self.hang = hang
        self.pings = 0
        self.three = anyio.Event()

    async def send_ping(self) -> None:
        self.pings += 1
        if self.pings == 3:
            self.three.set()
        if self.hang:
            await anyio.sleep_forever()
        if self.answer is not None:
            raise self.answer


async def test_a_server_that_answers_is_never_given_up_even_with_an_error() -> None:
    # The 2026-07-28 protocol has no ping: a current server answers "method not found".
    from mcp.shared.exceptions import MCPError
    from mcp_types import METHOD_NOT_FOUND

    from agentui.core.tools.mcp.ping import unanswered_ping

    session = Session(MCPError(METHOD_NOT_FOUND, "Method not found"))
    given_up: list[str] = []

    async def ping() -> None:
        given_up.append(await unanswered_ping(session, 0, GUARD_S))

    with anyio.fail_after(GUARD_S):
        async with anyio.create_task_group() as group:
            group.start_soon(ping)
            await session.three.wait()
            group.cancel_scope.cancel()
    assert given_up == []


def closed_connection() -> Session:
    from mcp.shared.exceptions import MCPError
    from mcp_types import CONNECTION_CLOSED

    return Session(MCPError(CONNECTION_CLOSED, "Connection closed"))


# Sessions are made by the test (the SDK's error is imported then, not at collection).
@pytest.mark.parametrize(
    ("make_session", "why"),
    [
        (lambda: Session(hang=True), "did not answer a ping within 0.01 s"),
        (closed_connection, "the server closed the connection"),
        (lambda: Session(OSError("broken pipe")), "a ping failed: OSError: broken pipe"),
    ],
    ids=["hangs", "closed", "fails"],
)
async def test_a_ping_without_an_answer_in_time_or_that_fails_says_why(
    make_session: Callable[[], Session], why: str
) -> None:
    from agentui.core.tools.mcp.ping import unanswered_ping

    session = make_session()

    with anyio.fail_after(GUARD_S):
        assert await unanswered_ping(session, 0, 0.01) == why
    assert session.pings == 1
