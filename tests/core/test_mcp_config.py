"""[mcp.servers.NAME]: a stdio or streamable HTTP server, approval per server and per tool,
one clear message naming the key for a bad section, and no secret in `agentui config show`."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from agentui.core.config.settings import ConfigError, format_settings, load_config

SERVERS = """
[mcp.servers.files]
command = "npx"
args = ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"]
env = { LOG_LEVEL = "warn", GITHUB_TOKEN = "${GITHUB_TOKEN}" }
timeout_s = 60

[mcp.servers.files.tools.read_file]
approval = "always"

[mcp.servers.files.tools.write_file]
approval = "never"
timeout_s = 5

[mcp.servers.files.tools.read_many]
max_result_bytes = 500000

[mcp.servers.docs]
url = "https://example.com/mcp"
headers = { Authorization = "Bearer abc123", X-Token = "${DOCS_TOKEN}" }
approval = "always"
"""


def _load(tmp_path: Path, text: str) -> object:
    path = tmp_path / "config.toml"
    path.write_text(text, "utf-8")
    return load_config(environ={}, path=path)


def test_servers_their_transport_and_approval_per_server_and_per_tool(tmp_path: Path) -> None:
    config = _load(tmp_path, SERVERS).config.mcp  # type: ignore[attr-defined]
    files, docs = config.servers["files"], config.servers["docs"]
    assert (files.transport, docs.transport) == ("stdio", "http")
    assert files.describe() == "npx -y @modelcontextprotocol/server-filesystem /tmp"
    assert files.approval == "ask", "MCP tools need approval by default"
    assert files.approval_for("read_file") == "always"
    assert files.approval_for("write_file") == "never"
    assert files.approval_for("list_directory") == "ask"
    assert (files.timeout_for("write_file"), files.timeout_for("read_file")) == (5, 60)
    assert docs.approval_for("search") == "always" and docs.timeout_for("search") is None
    assert docs.max_result_bytes_for("search") == 100_000, "about 25,000 tokens by default"
    assert files.max_result_bytes_for("read_many") == 500_000, "a tool's own cap"
    assert docs.startup_timeout_s == 30
    assert (docs.ping_interval_s, docs.ping_timeout_s) == (30, 10), "a hang is noticed"


@pytest.mark.parametrize(
    ("section", "message"),
    [
        (
            '[mcp.servers.docs]\nargs = ["x"]',
            "mcp.servers.docs: give either command (a server agentui starts, over stdio) or "
            "url (a streamable HTTP server), not both or neither",
        ),
        (
            '[mcp.servers.docs]\ncommand = "x"\nurl = "http://127.0.0.1:1/mcp"',
            "mcp.servers.docs: give either command",
        ),
        (
            '[mcp.servers.docs]\nurl = "ftp://example.com"',
            "mcp.servers.docs.url: must be an http:// or https:// address",
        ),
        (
            '[mcp.servers.docs]\nurl = "http://example.com/mcp"\nenv = { A = "1" }',
            "mcp.servers.docs: args, env and cwd are for a command; a url server takes headers",
        ),
        (
            '[mcp.servers.docs]\ncommand = "x"\napproval = "maybe"',
            "mcp.servers.docs.approval: Input should be 'ask', 'always' or 'never'",
        ),
        (
            '[mcp.servers.docs]\ncommand = "x"\n[mcp.servers.docs.tools.t]\napproval = "sure"',
            "mcp.servers.docs.tools.t.approval: Input should be 'ask', 'always' or 'never'",
        ),
        (
            '[mcp.servers.docs]\ncommand = "x"\ntimeout_s = 0',
            "mcp.servers.docs.timeout_s: Input should be greater than 0",
        ),
        (
            '[mcp.servers.docs]\ncommand = "x"\ntimeout_s = 1e308',
            "mcp.servers.docs.timeout_s: Input should be less than or equal to 86400 (got 1e+308)",
        ),
        (
            '[mcp.servers.docs]\ncommand = "x"\n[mcp.servers.docs.tools.t]\ntimeout_s = 86401',
            "mcp.servers.docs.tools.t.timeout_s: Input should be less than or equal to 86400 "
            "(got 86401)",
        ),
        (
            '[mcp.servers.docs]\ncommand = "x"\nstartup_timeout_s = 1e9',
            "mcp.servers.docs.startup_timeout_s: Input should be less than or equal to 86400 "
            "(got 1000000000.0)",
        ),
        (
            '[mcp.servers.docs]\ncommand = "x"\nping_interval_s = -1',
            "mcp.servers.docs.ping_interval_s: Input should be greater than 0",
        ),
        (
            '[mcp.servers.docs]\ncommand = "x"\nmax_result_bytes = 10',
            "mcp.servers.docs.max_result_bytes: Input should be greater than or equal to 100 "
            "(got 10)",
        ),
        (
            '[mcp.servers.docs]\ncommand = "x"\n[mcp.servers.docs.tools.t]\n'
            "max_result_bytes = 1e12",
            "mcp.servers.docs.tools.t.max_result_bytes: Input should be less than or equal to "
            "10000000",
        ),
        (
            '[mcp.servers.docs]\ncommand = "x"\nrestart = true',
            "mcp.servers.docs.restart: not a setting agentui knows",
        ),
        (
            '[mcp.servers."my docs"]\ncommand = "x"',
            "mcp.servers: 'my docs' cannot name a server: a letter, then letters, digits, _ "
            "and -, at most 32",
        ),
    ],
)
def test_a_bad_section_is_one_message_naming_the_key(
    tmp_path: Path, section: str, message: str
) -> None:
    with pytest.raises(ConfigError) as raised:
        _load(tmp_path, section)
    assert f"config file {tmp_path / 'config.toml'}: {message}" in str(raised.value)
    assert len(str(raised.value).splitlines()) == 1


def test_a_day_is_the_longest_timeout(tmp_path: Path) -> None:
    text = '[mcp.servers.docs]\ncommand = "x"\ntimeout_s = 86400\nstartup_timeout_s = 86400\n'
    docs = _load(tmp_path, text).config.mcp.servers["docs"]  # type: ignore[attr-defined]
    assert (docs.timeout_for("any"), docs.startup_timeout_s) == (86400, 86400)


def test_show_lists_each_server_and_hides_env_and_header_values(tmp_path: Path) -> None:
    shown = format_settings(_load(tmp_path, SERVERS), environ={})  # type: ignore[arg-type]
    assert "abc123" not in shown and '"warn"' not in shown
    line = next(x for x in shown.splitlines() if x.startswith("mcp.servers.docs"))
    assert line.split("#")[-1].strip() == "file"
    parsed = tomllib.loads(shown)  # still TOML
    files = parsed["mcp"]["servers"]["files"]
    assert files["env"] == {"LOG_LEVEL": "(hidden)", "GITHUB_TOKEN": "${GITHUB_TOKEN}"}
    assert files["tools"]["write_file"] == {"approval": "never", "timeout_s": 5.0}
    headers = parsed["mcp"]["servers"]["docs"]["headers"]
    assert headers == {"Authorization": "(hidden)", "X-Token": "${DOCS_TOKEN}"}
