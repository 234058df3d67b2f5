"""[mcp.servers.NAME]: an MCP server whose tools agents get, and how their calls are approved.

    [mcp.servers.files]                  # a stdio server: agentui starts the command
    command = "npx"
    args = ["-y", "@modelcontextprotocol/server-filesystem", "/home/me/notes"]
    env = { LOG_LEVEL = "warn", GITHUB_TOKEN = "${GITHUB_TOKEN}" }
    approval = "ask"                     # ask (the default) | always | never
    timeout_s = 60                       # a call's limit; default: [limits] tool_timeout_s
    startup_timeout_s = 30               # connecting and listing the tools, at most
    ping_interval_s = 30                 # a ready server is pinged this often, and has hung
    ping_timeout_s = 10                  # when it does not answer within this
    max_result_bytes = 100000            # a longer result keeps its head and tail

    [mcp.servers.files.tools.read_file]  # one tool's own approval (and timeout_s)
    approval = "always"

    [mcp.servers.docs]                   # a streamable HTTP server
    url = "https://example.com/mcp"
    headers = { Authorization = "Bearer ${DOCS_TOKEN}" }

`${NAME}` in `env` and `headers` is the variable NAME of agentui's environment, so secrets stay
out of the file. A stdio server's environment is only a small base (PATH, HOME, LANG, ...) and
what `env` lists: never the provider API keys unless `env` names them.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from agentui.core.tools.mcp.environment import only_references

# ask: the person approves each call (once, always, or reject), as for the python tool;
# always: calls run without asking; never: the tool is not offered to agents at all.
Approval = Literal["ask", "always", "never"]
# A server's name starts its tools' names (NAME__tool), which every provider must accept.
SERVER_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_-]{0,31}")
# Between a server's name and its tool's in the names agents call: SERVER__tool.
TOOL_SEPARATOR = "__"
# A day at most, as [limits] tool_timeout_s: past that a limit no longer limits anything.
DAY_S = 24 * 3600.0
Seconds = Annotated[float, Field(gt=0, le=DAY_S, allow_inf_nan=False)]
# A result's size in UTF-8 bytes, past which its middle is cut (head and tail kept, the size cut
# said), as python's output is. The default is about 25,000 tokens, the cap Claude Code puts on
# an MCP result; the bounds keep a result readable and a session line of sane size.
ResultBytes = Annotated[int, Field(ge=100, le=10_000_000)]
DEFAULT_MAX_RESULT_BYTES = 100_000


class McpToolConfig(BaseModel):
    """[mcp.servers.NAME.tools.TOOL]: one tool's own settings over its server's."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    approval: Approval | None = Field(
        default=None, description="This tool's approval (ask, always, never); unset: the server's."
    )
    timeout_s: Seconds | None = Field(
        default=None, description="A call of this tool's limit in seconds; unset: the server's."
    )
    max_result_bytes: ResultBytes | None = Field(
        default=None,
        description="This tool's result size in UTF-8 bytes past which its middle is cut; "
        "unset: the server's.",
    )


class McpServerConfig(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    # stdio: agentui starts `command` with `args` and talks to it over its stdin and stdout.
    command: str | None = Field(
        default=None,
        description="The program that runs a stdio server (agentui starts it); give this or url.",
    )
    args: list[str] = Field(default_factory=list, description="The command's arguments.")
    env: dict[str, str] = Field(
        default_factory=dict,
        description="Variables for the command beside a small base (PATH, HOME, LANG...); "
        "${NAME} is agentui's variable NAME. Provider keys pass only when named here.",
    )
    cwd: str | None = Field(
        default=None, description="The command's working directory; unset: agentui's own."
    )
    # streamable HTTP: the server's endpoint, and headers sent with every request.
    url: str | None = Field(
        default=None,
        description="A streamable HTTP server's endpoint (http:// or https://); give this or "
        "command.",
    )
    headers: dict[str, str] = Field(
        default_factory=dict,
        description="Headers sent to a url server with every request; ${NAME} is agentui's "
        "variable NAME (keep secrets out of the file).",
    )
    approval: Approval = Field(
        default="ask",
        description="ask: the person approves each call; always: calls run without asking; "
        "never: the tools are not offered to agents.",
    )
    timeout_s: Seconds | None = Field(
        default=None, description="A call's limit in seconds; unset: [limits] tool_timeout_s."
    )
    startup_timeout_s: Seconds = Field(
        default=30.0,
        description="How long starting the server and listing its tools may take before the "
        "try counts as failed; agentui run waits at most this long before its first task.",
    )
    # A ready server is pinged this often; one that does not answer within ping_timeout_s
    # has hung, and is treated as a lost connection (started again).
    ping_interval_s: Seconds = Field(
        default=30.0, description="A ready server is pinged this often, in seconds."
    )
    ping_timeout_s: Seconds = Field(
        default=10.0,
        description="A ping unanswered this long means the server hung: it is started again.",
    )
    max_result_bytes: ResultBytes = Field(
        default=DEFAULT_MAX_RESULT_BYTES,
        description="A result longer than this in UTF-8 bytes keeps its head and tail, and says "
        "how much was cut.",
    )
    tools: dict[str, McpToolConfig] = Field(
        default_factory=dict,
        description="One tool's own settings ([mcp.servers.NAME.tools.TOOL]) over the server's.",
    )

    @field_validator("command")
    @classmethod
    def _not_blank(cls, value: str | None) -> str | None:
        if value is not None and not value.strip():
            raise ValueError("must not be empty: the program that runs the server")
        return value

    @field_validator("url")
    @classmethod
    def _web_address(cls, value: str | None) -> str | None:
        if value is None:
            return value
        scheme, _, rest = value.strip().partition("://")
        if scheme.lower() not in ("http", "https") or not rest.strip("/"):
            raise ValueError(
                "must be an http:// or https:// address, like http://127.0.0.1:8000/mcp"
            )
        return value.strip()

    @model_validator(mode="after")
    def _one_transport(self) -> McpServerConfig:
        if (self.command is None) == (self.url is None):
            raise ValueError(
                "give either command (a server agentui starts, over stdio) or url (a "
                "streamable HTTP server), not both or neither"
            )
        if self.url is not None and (self.args or self.env or self.cwd is not None):
            raise ValueError("args, env and cwd are for a command; a url server takes headers")
        if self.command is not None and self.headers:
            raise ValueError("headers are for a url server; a command takes env")
        return self

    @property
    def transport(self) -> Literal["stdio", "http"]:
        return "stdio" if self.command is not None else "http"

    def describe(self) -> str:
        """Where the server is, for listings: its command line or its address."""
        if self.command is not None:
            return " ".join([self.command, *self.args])
        assert self.url is not None
        return self.url

    def approval_for(self, tool: str) -> Approval:
        own = self.tools.get(tool)
        return own.approval if own is not None and own.approval is not None else self.approval

    def timeout_for(self, tool: str) -> float | None:
        own = self.tools.get(tool)
        return own.timeout_s if own is not None and own.timeout_s is not None else self.timeout_s

    def max_result_bytes_for(self, tool: str) -> int:
        own = self.tools.get(tool)
        if own is not None and own.max_result_bytes is not None:
            return own.max_result_bytes
        return self.max_result_bytes

    def shown(self) -> dict[str, Any]:
        """The settings for `agentui config show`, with the values of `env` and `headers`
        hidden unless they only name variables (${NAME}): they may hold secrets."""
        data = self.model_dump(mode="json", exclude_defaults=True)
        for table in ("env", "headers"):
            if table in data:
                data[table] = {
                    name: value if only_references(value) else "(hidden)"
                    for name, value in data[table].items()
                }
        return data


class McpConfig(BaseModel):
    """[mcp]: the servers, by name."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    servers: dict[str, McpServerConfig] = Field(
        default_factory=dict,
        description="The MCP servers whose tools agents get, by name ([mcp.servers.NAME]); "
        "agents call their tools NAME__tool.",
    )

    def server_of(self, tool: str) -> str | None:
        """The configured server whose tools are named like `tool` (SERVER__...), if any: the
        tool may join the registry once that server is ready."""
        named = [name for name in self.servers if tool.startswith(name + TOOL_SEPARATOR)]
        return max(named, key=len) if named else None  # docs__x__y is docs__x's, not docs'

    def may_offer(self, tool: str) -> bool:
        """`tool` is named like a configured server's tools (it may join the registry)."""
        return self.server_of(tool) is not None

    @field_validator("servers")
    @classmethod
    def _usable_names(cls, servers: dict[str, McpServerConfig]) -> dict[str, McpServerConfig]:
        for name in servers:
            if not SERVER_NAME.fullmatch(name):
                raise ValueError(
                    f"{name!r} cannot name a server: a letter, then letters, digits, _ and -, at most 32 "
                    "(the name starts its tools' names, NAME__tool)"
                )
        return servers
