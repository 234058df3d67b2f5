"""The palette's "Switch provider/model…": which providers it offers, and a switch driven as a
person does it (the next task runs on the new choice). No request leaves the machine."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.command import CommandInput, CommandList, CommandPalette
from textual.pilot import Pilot

from agentui.core.config.settings import load_config
from agentui.core.providers.scripted.provider import ScriptedProvider
from agentui.tui.app.app import AgentUIApp
from agentui.tui.app.provider_switch import TITLE, ProviderSwitch
from agentui.tui.cli.assemble import Assembly, RunOptions, settle

from .helpers import make_app, notifications, runtime_of
from .helpers import settle as settle_app

# The SDKs (and the agentui modules that import them) are imported where used: collecting
# this module imports no SDK (tests/core/test_collection_imports.py).

pytestmark = pytest.mark.anyio

SECRET = "sk-test-switch-SECRET"


def assembly_for(tmp_path: Path, environ: dict[str, str], config: str = "") -> Assembly:
    path = tmp_path / "config.toml"
    path.write_text(config)
    return settle(load_config(environ={}, path=path), RunOptions(), environ)


def switch_for(tmp_path: Path, environ: dict[str, str], config: str = "") -> ProviderSwitch:
    return ProviderSwitch(assembly_for(tmp_path, environ, config), environ)


@pytest.mark.parametrize(
    ("environ", "config", "offered"),
    [
        ({}, "", ["scripted"]),
        ({"OPENAI_API_KEY": SECRET}, "", ["openai", "scripted"]),
        (
            {"ANTHROPIC_API_KEY": "a", "OPENAI_API_KEY": "o", "GEMINI_API_KEY": "g"},
            "",
            ["anthropic", "openai", "google", "scripted"],
        ),
        (
            {},
            'provider = "openai"\nbase_url = "http://127.0.0.1:11434/v1"\n',
            ["openai", "scripted"],
        ),
        ({"OPENAI_BASE_URL": "http://127.0.0.1:8000/v1"}, "", ["openai", "scripted"]),
    ],
    ids=["no key", "openai key", "every key", "a local server in the config", "OPENAI_BASE_URL"],
)
def test_the_providers_offered_are_those_that_can_run_now(
    tmp_path: Path, environ: dict[str, str], config: str, offered: list[str]
) -> None:
    assert [o.name for o in switch_for(tmp_path, environ, config).options()] == offered


def test_each_provider_offers_its_models_the_current_one_first(tmp_path: Path) -> None:
    config = 'provider = "openai"\nmodel = "gpt-5.5"\n'
    options = {
        o.name: o
        for o in switch_for(
            tmp_path, {"OPENAI_API_KEY": "o", "ANTHROPIC_API_KEY": "a"}, config
        ).options()
    }
    assert options["openai"].models[:2] == ("gpt-5.5", "gpt-5.4")
    assert options["openai"].why == "OPENAI_API_KEY is set"
    assert "claude-sonnet-4-6" in options["anthropic"].models
    local = switch_for(
        tmp_path,
        {},
        'provider = "openai"\nbase_url = "http://127.0.0.1:11434/v1"\nmodel = "qwen3:8b"\n',
    ).options()[0]
    assert (local.why, local.models) == ("the server at http://127.0.0.1:11434/v1", ("qwen3:8b",))


def test_the_base_url_setting_stays_with_the_provider_it_was_set_for(tmp_path: Path) -> None:
    from agentui.core.providers.openai.provider import OpenAIProvider

    switch = switch_for(
        tmp_path,
        {"OPENAI_API_KEY": SECRET},
        'provider = "openai"\nbase_url = "http://127.0.0.1:11434/v1"\n',
    )
    local = switch.build("openai", "llama3.1")
    assert isinstance(local, OpenAIProvider) and local.base_url == "http://127.0.0.1:11434/v1"
    assert switch.build("scripted", "scripted-9").model == "scripted-9"


def searched(palette: CommandPalette, typed: str) -> bool:
    """The palette lists what `typed` finds, whole: its first hit names it and no search is
    still gathering (the list fills in from a worker, in batches)."""
    commands = palette.query_one(CommandList)
    if not commands.option_count:
        return False
    first = str(commands.get_option_at_index(0).prompt).lower()
    gathering = [
        worker
        for worker in palette.app.workers
        if worker.group == palette._GATHER_COMMANDS_GROUP and not worker.is_finished
    ]
    return typed.lower() in first and not gathering


async def choose(pilot: Pilot[int], typed: str, *, opens_another: bool = True) -> list[str]:
    """Search the open palette for `typed` (put in its box: what is typed is not the subject
    here); what it offered; then enter, and wait until that palette has gone (and the next
    one, when the choice opens one, is open): conditions, not a count of pauses."""
    app = pilot.app
    palette = app.screen
    assert isinstance(palette, CommandPalette)
    await settle_app(pilot, lambda: bool(palette.query(CommandInput)))  # composed
    palette.query_one(CommandInput).value = typed
    await settle_app(pilot, lambda: searched(palette, typed))
    commands = palette.query_one(CommandList)
    offered = [str(commands.get_option_at_index(i).prompt) for i in range(commands.option_count)]
    await pilot.press("enter")

    def done() -> bool:
        if palette in app.screen_stack:
            return False
        return isinstance(app.screen, CommandPalette) if opens_another else True

    await settle_app(pilot, done)
    return offered


async def test_switching_from_the_palette_runs_the_next_task_on_the_choice(tmp_path: Path) -> None:
    from agentui.core.providers.openai.provider import OpenAIProvider

    app = make_app(provider_switch=switch_for(tmp_path, {"OPENAI_API_KEY": SECRET}))
    async with app.run_test() as pilot:
        runtime = await runtime_of(pilot)
        first = runtime.provider
        titles = {command.title for command in app.get_system_commands(app.screen)}
        assert TITLE in titles

        app.action_command_palette()
        await choose(pilot, "Switch provider")
        providers = await choose(pilot, "scripted")
        assert providers[0].startswith("scripted")
        models = await choose(pilot, "scripted-2", opens_another=False)
        assert models[-1].startswith("use 'scripted-2'"), "any id can be typed"

        await settle_app(pilot, lambda: runtime.provider is not first)
        chosen = runtime.provider
        assert isinstance(chosen, ScriptedProvider) and chosen is not first
        assert chosen.model == "scripted-2"
        assert "scripted-2" in str(app.main.status_view.render())
        app.main.prompt_view.focus()
        app.main.prompt_view.insert("A new task")  # what is typed is not this test's subject
        await pilot.press("enter")
        await settle_app(pilot, lambda: bool(chosen.requests))  # the demo then asks a question
        assert [r.model for r in chosen.requests][:1] == ["scripted-2"]
        assert not getattr(first, "requests", None), "the first provider was not asked"

        app.action_command_palette()
        await choose(pilot, "Switch provider")
        await choose(pilot, "openai")
        await choose(pilot, "gpt-5.4-mini", opens_another=False)
        await settle_app(pilot, lambda: isinstance(runtime.provider, OpenAIProvider))
        assert runtime.provider.model == "gpt-5.4-mini"
        assert "openai" in str(app.main.status_view.render())

        app.action_command_palette()
        await choose(pilot, "Switch provider")
        await choose(pilot, "scripted")
        await choose(pilot, "scripted-2", opens_another=False)
        await settle_app(pilot, lambda: runtime.provider is chosen)
        assert runtime.provider is chosen, "switching back reuses the provider built"
        assert isinstance(app, AgentUIApp) and app.is_running


async def test_a_provider_is_built_once_per_name_and_model(tmp_path: Path) -> None:
    environ = {"ANTHROPIC_API_KEY": SECRET}
    started = ScriptedProvider()
    switch = ProviderSwitch(assembly_for(tmp_path, environ), environ, started_with=started)
    assert switch.build("scripted", "scripted-1") is started, "the one the run started on"
    haiku = switch.build("anthropic", "haiku")
    sonnet = switch.build("anthropic", "sonnet")
    try:
        assert switch.build("anthropic", "claude-haiku-4-5") is haiku, "an alias is its model"
        assert sonnet is not haiku
    finally:
        await haiku.aclose()
        await sonnet.aclose()


async def test_a_provider_that_cannot_start_says_why_and_nothing_changes(tmp_path: Path) -> None:
    assembly = assembly_for(tmp_path, {"OPENAI_API_KEY": SECRET})
    app = make_app(provider_switch=ProviderSwitch(assembly, {}))  # the key went away since
    async with app.run_test() as pilot:
        runtime = await runtime_of(pilot)
        before = runtime.provider
        app.commands.switch_to("openai", "gpt-5.4")
        await pilot.pause()
        assert runtime.provider is before
        (toast,) = [n for n in notifications(app) if n.title == "Cannot switch"]
        assert "OPENAI_API_KEY is not set" in toast.message


async def test_a_servers_url_in_the_palette_prints_as_it_is(tmp_path: Path) -> None:
    url = "http://127.0.0.1:8000/[b]v1"
    environ = {"OPENAI_BASE_URL": url}
    app = make_app(provider_switch=switch_for(tmp_path, environ))
    async with app.run_test() as pilot:
        await runtime_of(pilot)
        app.action_command_palette()
        await choose(pilot, "Switch provider")
        offered = await choose(pilot, "openai")
    assert offered[0] == f"openai\nthe server at {url}", "markup in the URL is text"


async def test_a_switch_replaces_why_the_provider_runs_and_keeps_the_resume_notice(
    tmp_path: Path,
) -> None:
    app = make_app(
        provider_switch=switch_for(tmp_path, {"OPENAI_API_KEY": SECRET}),
        provider_notice="picked by OPENAI_API_KEY",
        notice="resumed s-1",
    )
    async with app.run_test() as pilot:
        await runtime_of(pilot)
        assert "picked by OPENAI_API_KEY · resumed s-1" in str(app.main.status_view.render())
        app.commands.switch_to("scripted", "scripted-2")
        await pilot.pause()
        shown = str(app.main.status_view.render())
    assert "switched: new tasks run on it · resumed s-1" in shown
    assert "picked by" not in shown


async def test_the_app_from_the_command_line_gets_the_switch_and_narrator_after_its_frame(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its settings are validated after the first frame (tui/app/runtime_start.py): the palette's
    switch and the narrator's settings come from there, before the runtime has started."""
    from agentui.tui.cli.app_command import app_parser, build_app

    config_dir = tmp_path / "config"
    config_dir.mkdir()
    (config_dir / "config.toml").write_text("[monologue]\nmax_buffer = 3\n")
    monkeypatch.setenv("AGENTUI_CONFIG_DIR", str(config_dir))
    app = build_app(app_parser().parse_args(["--no-session", "--pace", "0"]))
    assert app.host.monologue_config is None, "not validated before the first frame"
    async with app.run_test() as pilot:
        await runtime_of(pilot)
        assert TITLE in {command.title for command in app.get_system_commands(app.screen)}
        assert app.host.monologue_config is not None and app.host.monologue_config.max_buffer == 3


async def test_a_palette_opened_before_the_runtime_ran_offers_the_switch_once_it_does(
    tmp_path: Path,
) -> None:
    """The search typed into it is run again when the runtime starts: the switch (and the
    agent commands) were not there to find a moment before."""
    import threading

    from agentui.core.monologue.config import MonologueConfig
    from agentui.tui.app.runtime_start import Prepared

    ready = threading.Event()
    switch = switch_for(tmp_path, {})

    def prepare() -> Prepared:  # in the app's loading thread: the settings take a moment
        ready.wait(30)
        return Prepared(MonologueConfig(enabled=False), switch)

    app = make_app(prepare_runtime=prepare)
    async with app.run_test() as pilot:
        await pilot.press("ctrl+p", *"switch")
        commands = app.screen.query_one(CommandList)
        await settle_app(pilot, lambda: commands.option_count > 0)  # the search has run
        assert not app.host.started
        assert TITLE not in _offered(commands)
        ready.set()
        await runtime_of(pilot)
        await settle_app(pilot, lambda: TITLE in _offered(commands))


def _offered(commands: CommandList) -> list[str]:
    """The titles listed (each option's first line; the second is its help)."""
    return [
        str(commands.get_option_at_index(i).prompt).split("\n")[0]
        for i in range(commands.option_count)
    ]
