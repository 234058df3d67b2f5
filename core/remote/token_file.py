"""The token `agentui serve` accepts, kept in a file its owner alone may read.

By default one token lives in the state directory's `serve/token` and is used again at every
start, so a screen still attached across a restart goes on with it; `--new-token` makes a new
one. A server writes the file only once it listens (`ServerToken.save`): a second server that
cannot bind its port leaves the first one's token alone. Two servers that share the default
file share its token, which is fine: they are the same person's.

A token file others may read is not trusted, as ssh refuses such a key: the default one is
replaced by a new token (its old token may have leaked), a `--token-file` is refused with what
to do (it is the person's own file: agentui does not change its mode behind their back).

    token = server_token(None, new=False)     # before binding: it may refuse
    listener = listen(host, port)
    token.save()                              # after: nothing written by a server that failed
"""

from __future__ import annotations

import os
import re
import secrets
import stat
import tempfile
from dataclasses import dataclass
from pathlib import Path

from agentui.core.support.errors import AgentUIError
from agentui.core.support.paths import state_dir

# RFC 6750's b64token: what an `Authorization: Bearer` header can carry as it is.
_TOKEN_SYNTAX = re.compile(r"[A-Za-z0-9._~+/-]+=*")
SHORTEST_TOKEN = 16  # a shorter one could be guessed by a client that keeps trying


def default_token_path() -> Path:
    """Where `agentui serve` keeps its token unless `--token-file` says otherwise."""
    return state_dir() / "serve" / "token"


def read_token_file(path: Path) -> str:
    """The token in `path`; AgentUIError naming the file when it is missing or empty."""
    try:
        token = path.read_text(encoding="utf-8").strip()
    except FileNotFoundError:
        raise AgentUIError(
            f"no token file {path}: is `agentui serve` running? Give the file it printed "
            "with --token-file, or its token in AGENTUI_TOKEN"
        ) from None
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
        raise AgentUIError(f"cannot read the token file {path}: {reason}") from None
    if not token:
        raise AgentUIError(f"the token file {path} is empty")
    return token


def token_problem(token: str) -> str | None:
    """Why `token` cannot guard a server, or None when it can."""
    if not token:
        return "is empty"
    if _TOKEN_SYNTAX.fullmatch(token) is None:
        return "is not one word of letters, digits and -._~+/ (as a bearer token must be)"
    if len(token) < SHORTEST_TOKEN:
        return f"is too short ({len(token)} characters; at least {SHORTEST_TOKEN})"
    return None


def others_may_read(path: Path) -> str | None:
    """What makes `path` readable by someone else (its mode, its owner), or None."""
    info = path.stat()
    mode = stat.S_IMODE(info.st_mode)
    if mode & 0o077:
        return f"its mode is {mode:04o}"
    if hasattr(os, "getuid") and info.st_uid != os.getuid():
        return "another user owns it"
    return None


def write_token_file(path: Path, token: str) -> None:
    """Write `token` readable by its owner alone (0600), replacing the file at once, so a
    client reading it meanwhile sees the old token or the new one, never half of one."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        descriptor, temporary = tempfile.mkstemp(dir=path.parent, prefix=".token-")  # 0600
        try:
            with os.fdopen(descriptor, "w", encoding="utf-8") as file:
                file.write(token + "\n")
            os.replace(temporary, path)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
    except OSError as exc:
        raise AgentUIError(f"cannot write the token file {path}: {exc.strerror or exc}") from None


@dataclass(frozen=True, slots=True)
class ServerToken:
    token: str
    path: Path
    reused: bool  # read from `path`, which is left as it is
    replaced_because: str | None = None  # why a default file's token was not used again

    def save(self) -> None:
        """Write a new token to its file (call it once the server listens)."""
        if not self.reused:
            write_token_file(self.path, self.token)


def server_token(token_file: Path | None, *, new: bool = False) -> ServerToken:
    """The token a server will accept and the file that holds (or will hold) it.

    `token_file` given: its token when the file exists (AgentUIError saying what to do when
    others may read it or its token is unusable), else a new one for it. None: the default
    file's token when only its owner may read it and it is usable, else a new one. `new`:
    always a new one.
    """
    path = token_file if token_file is not None else default_token_path()
    if new or not path.exists():
        return ServerToken(secrets.token_urlsafe(32), path, reused=False)
    problem = _unusable(path)
    if problem is None:
        return ServerToken(read_token_file(path), path, reused=True)
    reason, remedy = problem
    if token_file is not None:
        raise AgentUIError(f"cannot use the token file {path}: {reason}; {remedy}")
    return ServerToken(secrets.token_urlsafe(32), path, reused=False, replaced_because=reason)


def _unusable(path: Path) -> tuple[str, str] | None:
    """Why the token in `path` cannot be used, and what to do; None when it can."""
    remove = "remove it for a new token"
    try:
        exposed = others_may_read(path)
        token = path.read_text(encoding="utf-8").strip()
    except OSError as exc:
        return f"it cannot be read ({exc.strerror or exc})", remove
    except UnicodeDecodeError:
        return "it is not text", remove
    if exposed is not None:
        return f"others may read it ({exposed})", f"run `chmod 600 {path}`, or {remove}"
    problem = token_problem(token)
    if problem is not None:
        return f"its token {problem}", remove
    return None
