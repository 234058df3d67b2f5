"""Shared test set-up: anyio on asyncio (Textual's loop), and no API key from the environment."""

from __future__ import annotations

import os

import pytest

# Tests never reach a real model: strip keys the developer's shell may have.
for _name in ("ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "ANTHROPIC_BASE_URL"):
    os.environ.pop(_name, None)
os.environ.setdefault("TEXTUAL_ANIMATIONS", "none")


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"
