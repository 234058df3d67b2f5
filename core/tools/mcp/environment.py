"""What a stdio MCP server is started with: a small base of agentui's environment and what its
`env` lists, with `${NAME}` replaced by agentui's variable NAME (also in an HTTP server's
`headers`). Nothing else passes: the provider API keys reach a server only when named."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping

from agentui.core.support.errors import AgentUIError

# What programs commonly need to run at all, and no secret: where to find programs and home,
# who and where the user is, the language and the terminal.
BASE_VARIABLES = (
    "PATH", "HOME", "USER", "LOGNAME", "SHELL", "TERM", "LANG", "LC_ALL", "LC_CTYPE", "TZ",
    "TMPDIR",
)  # fmt: skip

_REFERENCE = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")


class MissingVariableError(AgentUIError):
    """A setting names an environment variable that is not set."""


def only_references(value: str) -> bool:
    """True when `value` is nothing but ${NAME} references (and spaces): no secret in itself."""
    return bool(_REFERENCE.search(value)) and not _REFERENCE.sub("", value).strip()


def expand(value: str, environ: Mapping[str, str], where: str) -> str:
    """`value` with each ${NAME} replaced by that variable; `where` names the setting."""

    def variable(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in environ:
            raise MissingVariableError(f"{where} names ${{{name}}}, which is not set")
        return environ[name]

    return _REFERENCE.sub(variable, value)


def expand_all(table: Mapping[str, str], environ: Mapping[str, str], where: str) -> dict[str, str]:
    return {name: expand(value, environ, f"{where}.{name}") for name, value in table.items()}


def server_environment(
    env: Mapping[str, str], environ: Mapping[str, str] = os.environ
) -> dict[str, str]:
    """The whole environment of a stdio server whose `env` setting is `env`."""
    base = {name: environ[name] for name in BASE_VARIABLES if name in environ}
    return base | expand_all(env, environ, "env")
