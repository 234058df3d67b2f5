"""What every `agentui` command loads before doing anything: the cli module and its parser only.

The runtime and its assembly, sessions' resume and export, the headless printer, the app and
Textual, and the Claude SDK are loaded by the command that uses them. A fresh interpreter is
asked, so nothing loaded by other tests counts.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest

from ..forks import FORKS

LOADED_BY_THEIR_COMMAND = (
    "agentui.core.runtime",
    "agentui.tui.cli.assemble",
    "agentui.core.session.resume",
    "agentui.core.session.export",
    "agentui.core.session.writer",
    "agentui.tui.headless.run",
    "agentui.tui.app.app",
    "agentui.core.monologue.service",
    "agentui.core.tools.builtin",
    "textual",
    "anthropic",
)

PROBE = """
import json, sys
from agentui.tui.cli import main as cli
from agentui.tui.cli.app_command import app_parser
from agentui.tui.cli.run import run_parser
app_parser().parse_args(["--no-session", "a task"])
run_parser().parse_args(["a task"])
print(json.dumps(sorted(sys.modules)))
"""


def test_the_cli_and_its_parsers_load_no_command_of_their_own() -> None:
    out = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, check=True, timeout=60
    )
    loaded = set(json.loads(out.stdout))
    assert "agentui.tui.cli.main" in loaded
    assert [name for name in LOADED_BY_THEIR_COMMAND if name in loaded] == []


def test_importing_one_session_module_does_not_load_the_others() -> None:
    probe = "import json, sys; import agentui.core.session.errors; print(json.dumps(sorted(sys.modules)))"
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=60
    )
    loaded = set(json.loads(out.stdout))
    session = sorted(m for m in loaded if m.startswith("agentui.core.session."))
    assert session == ["agentui.core.session.errors"]


FIRST_FRAME_PROBE = """
import json, sys
from agentui.tui.app.app import AgentUIApp
from agentui.tui.app.runtime_host import LocalHost

def loaded_at_the_first_frame(self):
    print(json.dumps(sorted(sys.modules)))
    self.app.exit()

LocalHost.start = loaded_at_the_first_frame
run = AgentUIApp.run
AgentUIApp.run = lambda self, **options: run(self, headless=True)
from agentui.tui.cli import main as cli
cli.main(["--no-session"])
"""

NOT_FOR_THE_FIRST_FRAME = (
    # The fold and its event models: the first frame has no agent to draw.
    "agentui.core.state",
    "agentui.core.protocol.events",
    "agentui.core.runtime",
    "agentui.core.agent.agent_run",
    "agentui.core.session.writer",
    "agentui.core.session.recording",
    "agentui.core.monologue.service",
    "agentui.core.tools.builtin",
    "agentui.core.tools.sandbox",
    # The sandbox is measured and described when a python call asks for approval.
    "agentui.core.tools.sandbox_mode",
    "landlockpy",
    # The overlays and the search bar are made when they open.
    "agentui.tui.app.screens.modify",
    "agentui.tui.app.screens.confirm",
    "agentui.tui.app.screens.help",
    "agentui.tui.app.screens.scene_state",
    "agentui.core.profiles.contract",
    "jsonschema",
    "anthropic",
    # The provider itself: built in the loading thread (an SDK is slow to import).
    "agentui.core.providers.scripted.provider",
    "agentui.core.providers.base",  # and the conversation's models it brings
    "agentui.core.protocol.conversation",
    "rich.markdown",
    "markdown_it",
    # The settings are validated after it (tui/cli/first_frame.py reads what it needs as given).
    "pydantic",
    "agentui.core.config.settings",
    # The assembly settles on a provider with them: the first frame names the provider from
    # provider_choice.py; the assembly and the model aliases load in the loading thread.
    "agentui.tui.cli.assemble",
    "agentui.core.providers.model_aliases",
    # The search bar is made at the first `/`; anyio waits for the runtime or a replay; the
    # theme files are read from the package's folder, without importlib.resources (nor zipfile).
    "agentui.tui.app.widgets.search_bar",
    "anyio",
    "importlib.resources",
    "zipfile",
)


def _scratch_env(home: Path) -> dict[str, str]:
    """The offline model (no API key) with settings, sessions and state under `home`."""
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
    return env | {
        "AGENTUI_CONFIG_DIR": str(home / "config"),
        "AGENTUI_DATA_DIR": str(home / "data"),
        "AGENTUI_STATE_DIR": str(home / "state"),
        "AGENTUI_CACHE_DIR": str(home / "cache"),  # Textual's parsed CSS (parsed_css_cache.py)
        # The probes run the app headless, with no terminal: a driver named is not refused.
        "TEXTUAL_DRIVER": "textual.drivers.headless_driver:HeadlessDriver",
    }


def _probe(code: str, home: Path, **variables: str) -> Any:
    """The JSON `code` prints last, run in a fresh interpreter on the offline model (no API
    key, unless `variables` set one) with scratch settings."""
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
        env=_scratch_env(home) | variables,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def _modules_probe(code: str, home: Path, **variables: str) -> list[str]:
    """The module names `code` prints last."""
    names: list[str] = _probe(code, home, **variables)
    return names


def test_the_app_draws_its_first_frame_before_loading_the_runtime(tmp_path: Path) -> None:
    """The app's screen comes first; the runtime and what only it needs load after the first
    frame (the app starts it then)."""
    loaded = set(_modules_probe(FIRST_FRAME_PROBE, tmp_path))
    assert "agentui.tui.app.app" in loaded and "textual" in loaded
    assert [name for name in NOT_FOR_THE_FIRST_FRAME if name in loaded] == []


# What an empty transcript does not draw: its entry blocks (and what only they bring) load with
# its first entry.
ENTRY_BLOCKS = (
    "agentui.tui.app.widgets.blocks",
    "agentui.tui.app.widgets.frozen_chunks",
    "agentui.tui.app.widgets.search_highlight",
)


@pytest.mark.xfail(
    strict=True, reason="transcript.py still imports the blocks at the top (issue 36)"
)
def test_an_empty_app_s_first_frame_loads_no_entry_block(tmp_path: Path) -> None:
    loaded = set(_modules_probe(FIRST_FRAME_PROBE, tmp_path))
    assert "agentui.tui.app.widgets.transcript" in loaded
    assert [name for name in ENTRY_BLOCKS if name in loaded] == []


RESUMED_FIRST_FRAME_PROBE = FIRST_FRAME_PROBE.replace('["--no-session"]', '["--resume", "last"]')

# A resume reads and folds its session before the screen opens; the runtime that adopts it, the
# writer that continues the file and what they bring load after the first frame, as for a new run.
NOT_FOR_A_RESUMED_FIRST_FRAME = (
    "agentui.core.runtime",
    "agentui.core.agent.agent_run",
    "agentui.core.session.writer",
    "agentui.core.session.recording",
    "agentui.core.scene.scene_run",
    "jsonschema",
    "anthropic",
)


def test_a_resumed_session_draws_its_first_frame_before_loading_the_runtime(
    tmp_path: Path,
) -> None:
    from .saved_runs import LEFT, saved_run

    folder = tmp_path / "data" / "sessions"
    folder.mkdir(parents=True)
    anyio.run(saved_run, folder, "20260101T000000Z-aaaa", LEFT)
    loaded = set(_modules_probe(RESUMED_FIRST_FRAME_PROBE, tmp_path))
    assert "agentui.core.session.resume" in loaded and "agentui.tui.app.app" in loaded
    assert [name for name in NOT_FOR_A_RESUMED_FIRST_FRAME if name in loaded] == []


@pytest.mark.parametrize(
    ("variable", "sdk"),
    [
        ("ANTHROPIC_API_KEY", "anthropic"),
        ("OPENAI_API_KEY", "openai"),
        ("GEMINI_API_KEY", "google.genai"),
    ],
)
def test_a_key_s_sdk_loads_after_the_first_frame(tmp_path: Path, variable: str, sdk: str) -> None:
    """With a key set its provider runs, but its SDK (0.3 to 0.7 s to import) loads after the
    first frame, in the thread that loads the runtime's modules; the status bar names the
    provider from the settings meanwhile."""
    loaded = set(_modules_probe(FIRST_FRAME_PROBE, tmp_path, **{variable: "not-a-real-key"}))
    assert "agentui.tui.app.app" in loaded
    assert sdk not in loaded
    assert [
        name
        for name in loaded
        if name.startswith("agentui.core.providers.") and name.endswith(".provider")
    ] == []


@pytest.mark.anyio
async def test_the_first_frame_offers_no_jump_to_a_waiting_agent() -> None:
    """Before the runtime runs nobody can be waiting: the footer must not show ctrl+n for a
    frame and then drop it."""
    from agentui.core.monologue.config import MonologueConfig
    from agentui.tui.app.app import AgentUIApp

    app = AgentUIApp(lambda: None, remember_theme=False, monologue=MonologueConfig(enabled=False))  # type: ignore[arg-type, return-value]
    app.host._start_runtime = lambda: None  # type: ignore[method-assign]  # the first frame only
    async with app.run_test():
        assert not app.host.started
        assert app.check_action("next_question", ()) is False
        assert app.check_action("new_task", ()) is True


RUNTIME_START_PROBE = """
import json, sys
from agentui.tui.app.app import AgentUIApp
from agentui.tui.app.runtime_host import LocalHost

start = LocalHost._start_runtime
host = LocalHost._host_runtime
loaded = {}

def start_after_the_thread(self):
    loaded["before"] = set(sys.modules)
    start(self)

async def host_then_report(self, runtime):
    def report():
        print(json.dumps(sorted(set(sys.modules) - loaded["before"])))
        self.app.exit()
    self.app.call_later(report)
    await host(self, runtime)

LocalHost._start_runtime = start_after_the_thread
LocalHost._host_runtime = host_then_report
run = AgentUIApp.run
AgentUIApp.run = lambda self, **options: run(self, headless=True)
from agentui.tui.cli import main as cli
cli.main(["--no-session"])
"""


def test_the_runtime_s_modules_load_in_the_thread_before_it_starts(tmp_path: Path) -> None:
    """core_loading's list is whole: starting the runtime (and its narrator) on the event loop
    imports no agentui module the thread did not (one would hold the keys typed meanwhile)."""
    on_the_loop = _modules_probe(RUNTIME_START_PROBE, tmp_path)
    assert [name for name in on_the_loop if name.startswith("agentui")] == []


COLLECTOR_PROBE = """
import gc, json, sys
from agentui.tui.app.app import AgentUIApp
from agentui.tui.app.runtime_host import LocalHost

seen = {}
start = LocalHost._start_runtime

def start_and_look(self):
    seen["before the runtime"] = gc.isenabled()
    start(self)
    self.app.call_later(report, self.app)

def report(self):
    seen["after it started"] = gc.isenabled()
    seen["frozen"] = gc.get_freeze_count() > 0
    print(json.dumps(seen))
    self.exit()

LocalHost._start_runtime = start_and_look
run = AgentUIApp.run
AgentUIApp.run = lambda self, **options: run(self, headless=True)
sys.argv = ["agentui", "--no-session"]
from agentui.tui.cli import launch
launch.main()
"""


def test_the_collector_is_off_until_the_app_s_runtime_runs(tmp_path: Path) -> None:
    """`agentui` starts with the garbage collector off (start-up's objects live as long as the
    app); it comes back, with them frozen out of its way, once the runtime has started."""
    seen = _probe(COLLECTOR_PROBE, tmp_path)
    assert seen == {"before the runtime": False, "after it started": True, "frozen": True}


def test_other_commands_turn_the_collector_on_before_their_work(tmp_path: Path) -> None:
    probe = (
        "import gc, json, sys; sys.argv = ['agentui', 'config', 'path']\n"
        "from agentui.tui.cli import main as cli\n"
        "import agentui.tui.cli.launch as launch\n"
        "launch.main()\n"
        "print(json.dumps(gc.isenabled()))\n"
    )
    assert _probe(probe, tmp_path) is True


HEADLESS_APP = """
import sys, threading
from agentui.tui.app.app import AgentUIApp
from agentui.tui.app.runtime_host import LocalHost

run, load = AgentUIApp.run, LocalHost._load_for_the_runtime
typed = threading.Event()

def load_once_typed(self):
    typed.wait(60)
    load(self)

def run_with_words_typed(self, **options):
    print("the screen opened")
    async def type_words(pilot):
        await pilot.press(*"fix it", "enter", *"and this")
        typed.set()
    return run(self, headless=True, auto_pilot=type_words)

LocalHost._load_for_the_runtime = load_once_typed
AgentUIApp.run = run_with_words_typed
from agentui.tui.cli import main as cli
sys.exit(cli.main(sys.argv[1:]))
"""


def run_forked(program: str, argv: list[str], env: dict[str, str], cwd: Path) -> Any:
    """`python -c PROGRAM ARGV...` run to its end, forked by the tests' fork server (tests/forks.py)
    where the environment allows: for what a program does once started (which message, when
    the screen opens), not for what it imports as it starts (the probes above need a fresh
    interpreter). As `subprocess.run(capture_output=True, text=True)` returns it."""
    script = cwd / "program.py"
    script.write_text(program, encoding="utf-8")
    paths = [cwd / name for name in ("stdin", "stdout", "stderr")]
    paths[0].write_text("", encoding="utf-8")
    files = (
        os.open(paths[0], os.O_RDONLY),
        os.open(paths[1], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600),
        os.open(paths[2], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600),
    )
    try:
        status = FORKS.run("path", str(script), argv, env=env, cwd=cwd, files=files)
    finally:
        for fd in files:
            os.close(fd)
    if status is None:  # an environment that needs an interpreter of its own
        return subprocess.run(
            [sys.executable, str(script), *argv],
            capture_output=True,
            text=True,
            timeout=120,
            env=env,
            cwd=cwd,
        )
    return subprocess.CompletedProcess(
        [str(script), *argv], status, paths[1].read_text(), paths[2].read_text()
    )


def _app_that_cannot_start(
    tmp_path: Path, *argv: str, config: str = "", **variables: str
) -> subprocess.CompletedProcess[str]:
    """The app started headless with `argv`, `config` as its config file and `variables` set;
    it types two tasks once the screen is open, and must end with exit 2."""
    (tmp_path / "config").mkdir(exist_ok=True)
    (tmp_path / "config" / "config.toml").write_text(config)
    out: subprocess.CompletedProcess[str] = run_forked(
        HEADLESS_APP, ["--no-session", *argv], _scratch_env(tmp_path) | variables, tmp_path
    )
    assert out.returncode == 2, out.stderr
    assert "Traceback" not in out.stderr
    return out


def test_a_key_that_is_not_set_is_said_before_the_screen_opens(tmp_path: Path) -> None:
    out = _app_that_cannot_start(tmp_path, "--provider", "anthropic")
    assert "the screen opened" not in out.stdout
    assert out.stderr.startswith("agentui: ANTHROPIC_API_KEY is not set")


def test_a_provider_that_cannot_be_built_closes_the_screen_keeping_the_words(
    tmp_path: Path,
) -> None:
    """The provider is built after the first frame: what stops it then (a script that is not
    JSON) closes the screen and is said on the shell, exit 2, with the words typed meanwhile."""
    (tmp_path / "broken.json").write_text("{")
    out = _app_that_cannot_start(tmp_path, "--script", "broken.json")
    assert "the screen opened" in out.stdout
    lines = out.stderr.strip().splitlines()
    assert lines[0].startswith("agentui: script broken.json is not valid json"), out.stderr
    assert lines[1:] == ["agentui: not sent: fix it", "agentui: not sent: and this"]


def test_a_script_that_cannot_be_read_is_said_before_the_screen_opens(tmp_path: Path) -> None:
    out = _app_that_cannot_start(tmp_path, "--script", "no-such-script.json")
    assert "the screen opened" not in out.stdout
    assert out.stderr.startswith(
        "agentui: cannot read script no-such-script.json: No such file or directory"
    )


def test_a_bad_setting_the_first_frame_does_not_need_closes_the_screen_keeping_the_words(
    tmp_path: Path,
) -> None:
    """Such settings are validated after the first frame: a bad one is said as before (where,
    which key, what is wrong), once the screen is closed, with the words typed meanwhile."""
    out = _app_that_cannot_start(tmp_path, config='[limits]\nmax_iterations = "many"\n')
    assert "the screen opened" in out.stdout
    lines = out.stderr.strip().splitlines()
    config_file = tmp_path / "config" / "config.toml"
    assert lines[0] == (
        f"agentui: config file {config_file}: limits.max_iterations: "
        "Input should be a valid integer, unable to parse string as an integer (got 'many')"
    )
    assert lines[1:] == ["agentui: not sent: fix it", "agentui: not sent: and this"]


@pytest.mark.parametrize(
    ("config", "variables", "said"),
    [
        ('theme = " "\n', {}, "theme: must not be empty"),
        ("", {"AGENTUI_MONOLOGUE": "maybe"}, "environment variable AGENTUI_MONOLOGUE: "),
        ("", {"AGENTUI_PROVIDER": "claude"}, "provider: must be scripted, anthropic"),
        ('base_url = "localhost"\n', {}, "base_url: must be an http:// or https:// address"),
        # The file's bad value under a variable: the file is checked on its own.
        ('model = " "\n', {"AGENTUI_MODEL": "sonnet"}, "model: must not be empty"),
    ],
)
def test_a_bad_setting_the_first_frame_needs_is_said_before_the_screen_opens(
    tmp_path: Path, config: str, variables: dict[str, str], said: str
) -> None:
    out = _app_that_cannot_start(tmp_path, config=config, **variables)
    assert "the screen opened" not in out.stdout
    assert said in out.stderr.splitlines()[0], out.stderr


QUIT_BEFORE_THE_CHECK = """
import sys
from agentui.tui.app.app import AgentUIApp
from agentui.tui.app.runtime_host import LocalHost

run = AgentUIApp.run
LocalHost.start = lambda self: None  # the person quits before the settings are checked

async def quit_at_once(pilot):
    await pilot.press("ctrl+q")

AgentUIApp.run = lambda self, **options: run(self, headless=True, auto_pilot=quit_at_once)
from agentui.tui.cli import main as cli
sys.exit(cli.main(sys.argv[1:]))
"""


@pytest.mark.parametrize(
    ("config", "code"),
    [("[limits]\nmax_iterations = 0\n", 2), ("[limits]\nmax_iterations = 5\n", 0)],
)
def test_a_quit_before_the_settings_were_checked_still_says_a_bad_one(
    tmp_path: Path, config: str, code: int
) -> None:
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "config.toml").write_text(config)
    out = run_forked(QUIT_BEFORE_THE_CHECK, ["--no-session"], _scratch_env(tmp_path), tmp_path)
    assert out.returncode == code, out.stderr
    said = [line for line in out.stderr.splitlines() if line.startswith("agentui: ")]
    if code:
        assert said == [
            f"agentui: config file {tmp_path / 'config' / 'config.toml'}: limits.max_iterations: "
            "Input should be greater than or equal to 1 (got 0)"
        ]
    else:
        assert said == []


@pytest.mark.anyio
async def test_the_first_frame_names_a_task_given_on_the_command_line() -> None:
    """Its agent shows once the runtime has started: meanwhile the transcript's title says
    which task is starting (the empty prompt alone looked like nothing was)."""
    from agentui.core.monologue.config import MonologueConfig
    from agentui.tui.app.app import AgentUIApp

    app = AgentUIApp(
        lambda: None,  # type: ignore[arg-type, return-value]
        initial_task="Plan a\x1b[2J picnic\n",
        remember_theme=False,
        monologue=MonologueConfig(enabled=False),
    )
    app.host._start_runtime = lambda: None  # type: ignore[method-assign]  # the first frame only
    async with app.run_test():
        assert (
            str(app.main.transcript_view.border_title)
            == "transcript · starting · Plan a␛[2J picnic"
        )
