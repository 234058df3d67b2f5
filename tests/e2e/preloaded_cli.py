"""`agentui ARGS` run to its end in a child process, as a person runs it, without paying the
command's imports for each run: the children fork from one process per test process that has
imported them (tests/fork_server.py). Each child has its own environment, directory, stdin,
stdout and stderr, and exits as `python -m agentui.tui.cli.main` would; a run whose environment
changes how the interpreter itself starts (PYTHON*, the locale) gets a fresh interpreter.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from ..forks import FORKS

MODULE = "agentui.tui.cli.main"
COMMAND = [sys.executable, "-m", MODULE]
FRESH_TIMEOUT_S = 60  # a safety net against a hung child, never a measurement


class PreloadedCli:
    def run(
        self, args: list[str], *, env: dict[str, str], cwd: Path | None, stdin: str = ""
    ) -> tuple[int, bytes, bytes]:
        """Its exit status, stdout and stderr (as bytes: the caller decodes as it needs)."""
        with tempfile.TemporaryDirectory(prefix="agentui-cli-") as folder:
            paths = [os.path.join(folder, name) for name in ("in", "out", "err")]
            Path(paths[0]).write_text(stdin, encoding="utf-8")
            opened = (
                os.open(paths[0], os.O_RDONLY),
                os.open(paths[1], os.O_WRONLY | os.O_CREAT, 0o600),
                os.open(paths[2], os.O_WRONLY | os.O_CREAT, 0o600),
            )
            try:
                code = FORKS.run(
                    "module", MODULE, args, env=env, cwd=cwd or Path.cwd(), files=opened
                )
            finally:
                for fd in opened:
                    os.close(fd)
            if code is None:
                return self._fresh(args, env=env, cwd=cwd, stdin=stdin)
            return code, Path(paths[1]).read_bytes(), Path(paths[2]).read_bytes()

    def _fresh(
        self, args: list[str], *, env: dict[str, str], cwd: Path | None, stdin: str
    ) -> tuple[int, bytes, bytes]:
        done = subprocess.run(
            [*COMMAND, *args],
            input=stdin.encode(),
            capture_output=True,
            env=env,
            cwd=cwd,
            timeout=FRESH_TIMEOUT_S,
            check=False,
        )
        return done.returncode, done.stdout, done.stderr


PRELOADED = PreloadedCli()


def as_text(data: bytes) -> str:
    """Decoded as `subprocess.run(text=True)` does: the locale's encoding, newlines made \\n."""
    return io.TextIOWrapper(io.BytesIO(data)).read()


def completed(
    args: list[str], *, env: dict[str, str], cwd: Path | None, stdin: str = ""
) -> subprocess.CompletedProcess[str]:
    """What `subprocess.run(text=True, capture_output=True)` of `agentui ARGS` returns."""
    code, out, err = PRELOADED.run(args, env=env, cwd=cwd, stdin=stdin)
    return subprocess.CompletedProcess([*COMMAND, *args], code, as_text(out), as_text(err))
