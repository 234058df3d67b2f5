"""Shared test set-up: anyio on asyncio (Textual's loop), no API key from the environment, and
no other variable of the developer's shell that the code reads (a test sets what it needs)."""

from __future__ import annotations

import atexit
import gc
import os
import shutil
import signal
import sys
import tempfile
import time
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from textual.app import App
from textual.screen import Screen

from agentui.tui.cli import gc_policy

from . import css_parse_cache, forks

# The suite must pass while other processes load both cores: no per-example deadline, and no
# failing because generating inputs was slow (what a loaded machine makes of it). Its examples are
# the same at every run, so a run's result is the code's alone; `--hypothesis-profile=explore`
# draws new ones, to look for cases the fixed ones miss, and prints how to replay a failure.
_PATIENT = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("same-examples", _PATIENT, derandomize=True)
settings.register_profile("explore", _PATIENT, print_blob=True)
settings.load_profile("same-examples")

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
# A terminal's size and kind as a shell may export them (COLUMNS=80 LINES=24, TERM=dumb, or no
# TERM at all, as in CI): Textual and Rich read them, in this process and in the apps the tests
# start. A test that needs a size gives it (run_test(size=...), the pty's own size).
for _name in ("COLUMNS", "LINES"):
    os.environ.pop(_name, None)
os.environ["TERM"] = "xterm-256color"
os.environ["TEXTUAL_ANIMATIONS"] = "none"  # the pilot's keys wait for no animation (quick_keys)
# The suite starts hundreds of Python processes (apps, servers, CLIs) and each pytest-xdist worker
# imports every test module: with PYTHONDONTWRITEBYTECODE set, each of them compiles the whole
# package and pytest rewrites every test's asserts again, a minute of the suite's CPU. The caches
# go to the __pycache__ folders git ignores.
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
sys.dont_write_bytecode = False
# Folders of PATH this user cannot search (a PATH kept from another user, as `su` keeps root's)
# make a program that is missing "Permission denied" instead of "No such file or directory".
os.environ["PATH"] = os.pathsep.join(
    folder for folder in os.environ.get("PATH", "").split(os.pathsep) if os.access(folder, os.X_OK)
)
# A suite started in the background by a script (`cmd &`, nohup) has SIGINT, SIGQUIT and SIGHUP
# ignored, and a child inherits an ignored signal: an `agentui` a test interrupts would go on
# for ever. Caught and dropped here instead, they stay ignored by pytest itself, and a program
# it starts begins with the terminal's defaults (exec resets a caught signal, not an ignored one).


def _still_ignored(signum: int, frame: object) -> None:
    return None


for _signum in (signal.SIGINT, signal.SIGQUIT, signal.SIGHUP):
    if signal.getsignal(_signum) == signal.SIG_IGN:
        signal.signal(_signum, _still_ignored)
# Snapshots show clock times: render them in one zone on every machine.
os.environ["TZ"] = "UTC"
time.tzset()
# Exact-script command tests play the bare loop; the six-step default is tested on its own
# (tests/core/test_workflow.py, test_demo_workflow.py, and the workflow e2e test).
os.environ["AGENTUI_WORKFLOW"] = "plain"
# The offline model streams as fast as it can (the app's default paces it like a real model).
os.environ["AGENTUI_PACE"] = "0"
# Never read or write the developer's own config, sessions or remembered theme. One folder per
# test process (each pytest-xdist worker imports this file itself), removed when it exits.
_sandbox = tempfile.mkdtemp(prefix="agentui-tests-")
atexit.register(shutil.rmtree, _sandbox, ignore_errors=True)
# pytest-xdist's workers share one fork server (tests/forks.py), found in a folder this
# process makes (private, 0700) before it starts them: removed when the run ends.
if "PYTEST_XDIST_WORKER" not in os.environ:
    os.environ[forks.SHARED_FOLDER] = tempfile.mkdtemp(prefix="agentui-forks-")
    atexit.register(shutil.rmtree, os.environ[forks.SHARED_FOLDER], ignore_errors=True)
for _name, _sub in (
    ("AGENTUI_CONFIG_DIR", "config"),
    ("AGENTUI_DATA_DIR", "data"),
    ("AGENTUI_STATE_DIR", "state"),
    ("AGENTUI_CACHE_DIR", "cache"),  # the app's parsed CSS (tui/app/parsed_css_cache.py)
):
    os.environ[_name] = os.path.join(_sandbox, _sub)


# The app's collector policy is for a process that is one app (tui/cli/gc_policy.py): here,
# hundreds of apps run one after another, and each one's close would unfreeze the whole heap
# below. It has its own tests (tests/tui/test_tree_at_scale.py); the real-terminal tests run it.
gc_policy.POLICY_ON = False

css_parse_cache.install()


@pytest.hookimpl(trylast=True)
def pytest_collection_finish() -> None:
    """What collection made (every test module, the SDKs, Textual) lives as long as the
    process: frozen, full collections stop walking it. They took a quarter of the TUI tests'
    CPU."""
    gc.collect()
    gc.freeze()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol() -> object:
    """A test's garbage is collected after it (walking only what is not frozen), and what it
    left alive (caches, imported modules) frozen with the rest."""
    try:
        return (yield)
    finally:
        gc.collect()
        gc.freeze()


_PAINTING_REFRESH = Screen._compositor_refresh
_SHUTDOWN = App._shutdown
_EXIT = App.exit
_REPLACE_SCREEN = App._replace_screen


def _refresh_unpainted(screen: Screen[Any]) -> None:
    app = screen.app
    if not (app.is_headless and not app.is_inline and screen is app.screen):
        _PAINTING_REFRESH(screen)
        return
    screen._compositor._dirty_regions.clear()
    screen._dirty_widgets.clear()
    app._update_mouse_over(screen)


def _paint(screen: Screen[Any]) -> None:
    screen._compositor.render_update(full=True)


def _paint_the_screen_shown(app: App[Any]) -> None:
    if app.is_headless and app._running and app._screen_stack:
        _paint(app.screen)


async def _shutdown_after_painting_once(app: App[Any]) -> None:
    try:
        _paint_the_screen_shown(app)
    finally:
        await _SHUTDOWN(app)


def _exit_after_painting_once(app: App[Any], *args: Any, **kwargs: Any) -> None:
    try:
        _paint_the_screen_shown(app)
    finally:
        _EXIT(app, *args, **kwargs)


async def _replace_screen_after_painting_it(app: App[Any], screen: Screen[Any]) -> Screen[Any]:
    try:
        if app.is_headless:
            _paint(screen)
    finally:
        replaced: Screen[Any] = await _REPLACE_SCREEN(app, screen)
    return replaced


@pytest.fixture(autouse=True)
def _frames_unpainted(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """A headless app lays its screen out as ever (clicks, sizes, scrolling) but paints no
    frame: nothing shows it, and painting was a quarter of the TUI tests' CPU. Each screen is
    painted once as it goes (a dialog closed, the app exiting or shut down), so a widget that
    cannot draw still fails its test; snapshots paint their picture themselves. A test whose
    widgets do work as they are painted (the tree makes a row's label when it is drawn) is
    marked `painted`; AGENTUI_TEST_PAINT=1 paints every frame of every test."""
    if os.environ.get("AGENTUI_TEST_PAINT") == "1":
        return
    if request.node.get_closest_marker("painted") is not None:
        return
    monkeypatch.setattr(Screen, "_compositor_refresh", _refresh_unpainted)
    monkeypatch.setattr(App, "_shutdown", _shutdown_after_painting_once)
    monkeypatch.setattr(App, "exit", _exit_after_painting_once)
    monkeypatch.setattr(App, "_replace_screen", _replace_screen_after_painting_it)


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"
