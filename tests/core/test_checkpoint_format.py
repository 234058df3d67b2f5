"""A resume checkpoint of an earlier format (1: its MAC a keyed BLAKE2b; 2: the conversations
inside the plan; 3: the closing events inside it) is not loaded by this agentui (4: an
HMAC-SHA256, the conversations after the plan and the closing events apart, each read at first
use; issue 36): the log is read whole, as for any checkpoint that does not stand, and the
session comes back the same."""

from __future__ import annotations

from pathlib import Path

import pytest

from agentui.core.agent.tree import AgentStatus as S
from agentui.core.session import checkpoint
from agentui.core.session.checkpoint import checkpoint_path, load_checkpoint
from agentui.core.session.resume_open import open_to_show

from .test_session_checkpoint import _quit_while_asking, every_log  # noqa: F401  (a fixture)

pytestmark = pytest.mark.anyio


@pytest.mark.parametrize("earlier", [1, 2, 3])
async def test_an_earlier_format_s_checkpoint_is_not_loaded(
    tmp_path: Path,
    every_log: None,  # noqa: F811
    earlier: int,
) -> None:
    path, root = await _quit_while_asking(tmp_path)
    assert load_checkpoint(path) is not None  # this agentui's own stands
    target = checkpoint_path(path)
    data = target.read_bytes()
    assert data.startswith(checkpoint.MAGIC) and checkpoint.MAGIC.endswith(b" 4\n")
    old = f"agentui resume checkpoint {earlier}\n".encode()
    target.write_bytes(old + data[len(checkpoint.MAGIC) :])

    assert load_checkpoint(path) is None
    plan = open_to_show(str(path))
    assert plan.state.agents[root].status is S.AWAITING_USER
