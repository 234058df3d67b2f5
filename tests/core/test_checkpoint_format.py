"""A resume checkpoint of the earlier format (its MAC a keyed BLAKE2b, format 1) is not loaded
by this agentui (an HMAC-SHA256, format 2, checked faster: issue 36): the log is read whole,
as for any checkpoint that does not stand, and the session comes back the same."""

from __future__ import annotations

from pathlib import Path

import pytest

from agentui.core.agent.tree import AgentStatus as S
from agentui.core.session import checkpoint
from agentui.core.session.checkpoint import checkpoint_path, load_checkpoint
from agentui.core.session.resume_open import open_to_show

from .test_session_checkpoint import _quit_while_asking, every_log  # noqa: F401  (a fixture)

pytestmark = pytest.mark.anyio


async def test_a_format_1_checkpoint_is_not_loaded(tmp_path: Path, every_log: None) -> None:  # noqa: F811
    path, root = await _quit_while_asking(tmp_path)
    assert load_checkpoint(path) is not None  # this agentui's own stands
    target = checkpoint_path(path)
    data = target.read_bytes()
    assert data.startswith(checkpoint.MAGIC) and checkpoint.MAGIC.endswith(b" 2\n")
    target.write_bytes(b"agentui resume checkpoint 1\n" + data[len(checkpoint.MAGIC) :])

    assert load_checkpoint(path) is None
    plan = open_to_show(str(path))
    assert plan.state.agents[root].status is S.AWAITING_USER
