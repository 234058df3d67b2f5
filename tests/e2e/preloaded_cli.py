"""`agentui ARGS` run to its end in a child process, as a person runs it, without paying the
command's imports for each run: the children fork from one process per test worker that has
imported them (cli_zygote.py). Each child has its own environment, directory, stdin, stdout
and stderr, and exits as `python -m agentui.tui.cli.main` would; a run whose environment
changes how the interpreter itself starts (PYTHON*, the locale) gets a fresh interpreter.

What a fork cannot show, the start of the command itself (what it imports, how long the first
frame takes), is tested with real processes: tests/tui/test_start_loads_little.py,
tests/e2e/test_app_terminal.py.
"""

from __future__ import annotations

import atexit
import io
import json
import os
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

ZYGOTE = Path(__file__).with_name("cli_zygote.py")
COMMAND = [sys.executable, "-m", "agentui.tui.cli.main"]
# Variables the interpreter reads as it starts: a child whose values differ needs its own.
STARTUP_VARIABLES = (
    "PYTHONPATH", "PYTHONHOME", "PYTHONIOENCODING", "PYTHONUTF8", "PYTHONDONTWRITEBYTECODE",
    "PYTHONOPTIMIZE", "PYTHONWARNINGS", "PYTHONDEVMODE", "PYTHONSAFEPATH", "PYTHONHASHSEED",
    "PYTHONMALLOC", "PYTHONFAULTHANDLER", "LANG", "LC_ALL", "LC_CTYPE",
)  # fmt: skip
FRESH_TIMEOUT_S = 60  # a safety net against a hung child, never a measurement


class PreloadedCli:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._zygote: subprocess.Popen[bytes] | None = None
        self._startup: dict[str, str | None] = {}

    def run(
        self, args: list[str], *, env: dict[str, str], cwd: Path | None, stdin: str = ""
    ) -> tuple[int, bytes, bytes]:
        """Its exit status, stdout and stderr (as bytes: the caller decodes as it needs)."""
        with self._lock:
            zygote = self._started()
            if {name: env.get(name) for name in STARTUP_VARIABLES} != self._startup:
                return self._fresh(args, env=env, cwd=cwd, stdin=stdin)
            with tempfile.TemporaryDirectory(prefix="agentui-cli-") as folder:
                files = {name: os.path.join(folder, name) for name in ("in", "out", "err")}
                Path(files["in"]).write_text(stdin, encoding="utf-8")
                request = {
                    "argv": args,
                    "env": env,
                    "cwd": str(cwd if cwd is not None else Path.cwd()),
                    "stdin": files["in"],
                    "stdout": files["out"],
                    "stderr": files["err"],
                }
                assert zygote.stdin is not None and zygote.stdout is not None
                zygote.stdin.write(json.dumps(request).encode() + b"\n")
                zygote.stdin.flush()
                reply = zygote.stdout.readline()
                if not reply:
                    raise RuntimeError("the preloaded agentui process ended")
                code = json.loads(reply)["code"]
                return code, Path(files["out"]).read_bytes(), Path(files["err"]).read_bytes()

    def _started(self) -> subprocess.Popen[bytes]:
        if self._zygote is None:
            env = dict(os.environ)
            self._startup = {name: env.get(name) for name in STARTUP_VARIABLES}
            self._zygote = subprocess.Popen(
                [sys.executable, str(ZYGOTE)],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                env=env,
            )
            atexit.register(self.close)
        return self._zygote

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

    def close(self) -> None:
        zygote, self._zygote = self._zygote, None
        if zygote is not None and zygote.stdin is not None:
            zygote.stdin.close()  # its loop ends
            zygote.wait()


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
