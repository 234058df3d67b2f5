"""Shared test set-up: anyio on asyncio (Textual's loop), and no API key from the environment."""

from __future__ import annotations

import os
import tempfile
import time

import pytest
from hypothesis import HealthCheck, settings

# The suite must pass while other processes load both cores: no per-example deadline, and no
# failing because generating inputs was slow (what a loaded machine makes of it).
settings.register_profile(
    "loaded-machine", deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("loaded-machine")

# Tests never reach a real model: strip keys the developer's shell may have.
for _name in (
    "ANTHROPIC_API_KEY",
    "ANTHROPIC_AUTH_TOKEN",
    "ANTHROPIC_BASE_URL",
    "OPENAI_API_KEY",
    "OPENAI_BASE_URL",
    "GEMINI_API_KEY",
    "GOOGLE_API_KEY",
    "GOOGLE_GEMINI_BASE_URL",
):
    os.environ.pop(_name, None)
os.environ.setdefault("TEXTUAL_ANIMATIONS", "none")
# Snapshots show clock times: render them in one zone on every machine.
os.environ["TZ"] = "UTC"
time.tzset()
# Exact-script command tests play the bare loop; the six-step default is tested on its own
# (tests/core/test_workflow.py, test_demo_workflow.py, and the workflow e2e test).
os.environ["AGENTUI_WORKFLOW"] = "plain"
# Never read or write the developer's own config, sessions or remembered theme.
_sandbox = tempfile.mkdtemp(prefix="agentui-tests-")
for _name, _sub in (
    ("AGENTUI_CONFIG_DIR", "config"),
    ("AGENTUI_DATA_DIR", "data"),
    ("AGENTUI_STATE_DIR", "state"),
):
    os.environ[_name] = os.path.join(_sandbox, _sub)


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"
