"""Budget amounts are typed as the labels write them: `5k`, `1.5M`."""

from __future__ import annotations

import pytest

from agentui.core.agent.budget import Budget


def test_thousands_and_millions_are_read_as_the_labels_write_them() -> None:
    assert Budget.parse("tokens=5k,usd=2") == Budget(tokens=5000, usd=2)
    assert Budget.parse("tokens=1.5M, tool_calls=2K") == Budget(tokens=1_500_000, tool_calls=2000)


@pytest.mark.parametrize("written", ["tokens=5x", "tokens=k", "tokens=1.5k5"])
def test_anything_else_is_one_clear_message(written: str) -> None:
    with pytest.raises(ValueError, match="budget tokens"):
        Budget.parse(written)
