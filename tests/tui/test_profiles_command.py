"""`agentui profiles` lists every profile with its kind and origin and each bad file with its
message; `agentui run` and the app say which profile files they left out."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agentui.core.agent.tree import AgentStatus
from agentui.core.profiles.catalog import load_catalog
from agentui.core.providers.scripted.provider import ScriptedProvider
from agentui.core.runtime import Runtime
from agentui.tui.app.app import AgentUIApp
from agentui.tui.cli.main import main

from .helpers import notifications, runtime_of, settle, toasts

CRITIC = """\
description = "My own critic"
instructions = "Be harsh."
expects_json = true
json_mode = "object"
json_example = { verdict = "no" }
"""
BROKEN = """\
instructions = "Score."
expects_json = true
json_mode = "schema"
json_schema = '{"type": "object", "properties": {"score": {"type": "integr"}}}'
"""


@pytest.fixture
def agents(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for variable in ("AGENTUI_PROVIDER", "AGENTUI_MODEL", "AGENTUI_WORKFLOW", "ANTHROPIC_API_KEY"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("AGENTUI_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("AGENTUI_DATA_DIR", str(tmp_path / "data"))
    folder = tmp_path / "config" / "agents"
    folder.mkdir(parents=True)
    (folder / "critic.toml").write_text(CRITIC, "utf-8")
    (folder / "scorer.toml").write_text(BROKEN, "utf-8")
    (folder / "note\x1b[2J.json").write_text("{", "utf-8")
    return folder


def test_the_listing_names_kind_and_origin_and_the_bad_files(
    agents: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["profiles"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0].split() == ["NAME", "KIND", "FROM", "DESCRIPTION"]
    rows = {line.split()[0]: line for line in lines[1:6]}
    assert list(rows) == ["character", "critic", "director", "summarizer", "worker"]
    assert rows["critic"].split()[1:5] == ["json", "object", "user", str(agents / "critic.toml")]
    assert rows["critic"].endswith("My own critic")
    assert rows["director"].split()[1:4] == ["json", "schema", "built-in"]
    assert rows["worker"].split()[1:3] == ["text", "built-in"]
    assert f"Your own profiles go in {agents} (*.toml or *.json)" in out
    not_loaded = out[out.index("Left out or unusable (2):") :].splitlines()[1:]
    assert not_loaded == [
        f"  {agents}/note␛[2J.json: not valid JSON (Expecting property name enclosed in double "
        "quotes at line 1 column 2)",
        f"  {agents}/scorer.toml: json_schema at $.properties.score.type: "
        "'integr' is not valid under any of the given schemas",
    ]


def test_a_run_says_which_profile_files_it_left_out(
    agents: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = agents.parent / "script.toml"
    script.write_text('[[agents."*"]]\ntext = "A picnic by the river."\n', "utf-8")
    argv = ["run", "--no-session", "--workflow", "plain", "--script", str(script), "Picnic"]
    assert main(argv) == 0
    out, err = capsys.readouterr()
    assert out == "A picnic by the river.\n"
    assert (
        f"agentui: warning: profile skipped: {agents}/scorer.toml: json_schema at "
        "$.properties.score.type: 'integr' is not valid under any of the given schemas\n"
    ) in err
    assert err.count("profile skipped") == 2


@pytest.mark.anyio
async def test_the_app_says_which_profile_files_it_left_out(agents: Path) -> None:
    app = AgentUIApp(
        lambda: Runtime(ScriptedProvider(), profiles=load_catalog()), remember_theme=False
    )
    async with app.run_test() as pilot:
        runtime = await runtime_of(pilot)
        assert "critic" in runtime.profiles  # the person's own, over the built-in
        skipped = [n.message for n in notifications(app) if n.title == "Profile file skipped"]
        assert [message.split(": ")[0] for message in skipped] == [
            f"{agents}/note␛[2J.json",
            f"{agents}/scorer.toml",
        ]


def test_a_run_starts_its_task_with_the_profile_named(
    agents: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--profile critic`: the person's own critic (an object-mode JSON profile) answers."""
    assert main(["run", "--no-session", "--profile", "critic", "Review the plan"]) == 0
    out, _ = capsys.readouterr()
    assert json.loads(out) == {"verdict": "no"}, "the offline model answers with the example"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--profile", "nosuch", "a task"], "agentui: unknown profile 'nosuch'; the profiles are:"),
        (["--profile", "critic", "--scene", "lighthouse"], "agentui: --profile names the profile"),
    ],
)
def test_a_run_with_a_profile_it_cannot_use_says_so_in_one_line(
    agents: Path, capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    assert main(["run", "--no-session", *argv]) == 2
    _, err = capsys.readouterr()
    (line,) = [line for line in err.splitlines() if not line.startswith("agentui: warning")][-1:]
    assert line.startswith(message)


@pytest.mark.anyio
async def test_the_app_starts_its_task_with_the_profile_named(agents: Path) -> None:
    from agentui.tui.cli.app_command import app_parser, build_app

    app = build_app(app_parser().parse_args(["--no-session", "--profile", "critic", "Review"]))
    async with app.run_test() as pilot:
        await runtime_of(pilot)
        await settle(pilot, lambda: any(a.status.is_final for a in app.main.model.agents.values()))
        (agent,) = app.main.model.agents.values()
        assert (agent.profile, agent.task) == ("critic", "Review")
        assert agent.status is AgentStatus.COMPLETED


@pytest.mark.anyio
async def test_a_task_whose_profile_is_unknown_stays_in_the_prompt(agents: Path) -> None:
    """The profiles load with the runtime, after the first frame: the name is found unknown
    then. The task typed on the command line is not lost: it waits in the prompt."""
    from agentui.tui.cli.app_command import app_parser, build_app

    app = build_app(app_parser().parse_args(["--no-session", "--profile", "nosuch", "Plan"]))
    async with app.run_test() as pilot:
        await runtime_of(pilot)
        await pilot.pause()
        assert app.main.prompt_view.value == "Plan"
        assert app.main.model.agents == {}
        said = toasts(app)
        assert any(m.startswith("unknown profile 'nosuch'; the profiles are:") for m in said)
        assert "A task did not start; what you were typing is in the prompt" in said
        assert str(app.main.transcript_view.border_title) == "transcript", "not 'starting' it"


@pytest.mark.anyio
async def test_many_bad_profile_files_are_one_toast_that_counts_them(agents: Path) -> None:
    for index in range(4):
        (agents / f"broken{index}.json").write_text("{", "utf-8")
    app = AgentUIApp(
        lambda: Runtime(ScriptedProvider(), profiles=load_catalog()), remember_theme=False
    )
    async with app.run_test() as pilot:
        await runtime_of(pilot)
        shown = [n for n in notifications(app) if n.title.startswith("Profile file")]
        assert [n.message for n in shown] == [
            "6 profile files were left out; `agentui profiles` says why."
        ]


def test_a_profile_naming_a_tool_there_is_not_is_reported_before_any_agent_uses_it(
    agents: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (agents / "browser.toml").write_text('instructions = "Browse."\ntools = ["browser"]\n')
    assert main(["profiles"]) == 0
    out, _ = capsys.readouterr()
    assert "profile 'browser' names tools agentui does not have: browser (it has: " in out
    script = agents.parent / "script.toml"
    script.write_text('[[agents."*"]]\ntext = "A picnic by the river."\n', "utf-8")
    argv = ["run", "--no-session", "--workflow", "plain", "--script", str(script), "Picnic"]
    assert main(argv) == 0
    _, err = capsys.readouterr()
    assert "agentui: warning: profile skipped: " in err and "does not have: browser" in err


def test_a_profile_naming_a_configured_mcp_servers_tool_is_not_reported_missing(
    agents: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (agents / "searcher.toml").write_text('instructions = "Search."\ntools = ["docs__search"]\n')
    assert main(["profiles"]) == 0
    out, _ = capsys.readouterr()
    assert "does not have: docs__search" in out  # no server named docs: it is missing
    config = agents.parent / "config.toml"
    config.write_text('[mcp.servers.docs]\ncommand = "docs-mcp-server"\n', "utf-8")
    assert main(["profiles"]) == 0
    out, _ = capsys.readouterr()
    assert "does not have: docs__search" not in out  # its server lists it once it runs
