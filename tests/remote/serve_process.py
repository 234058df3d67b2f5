"""`agentui serve` in a child process, as a person runs it: started on 127.0.0.1, port 0, its
address and token file read from the line it prints once it listens.

    async with serve_process(home, "--script", str(script)) as served:
        async with RemoteClient(served.url, served.token) as client: ...
        served.process.send_signal(signal.SIGTERM)
"""

from __future__ import annotations

import re
import signal
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

import anyio
from anyio.abc import Process
from anyio.streams.buffered import BufferedByteReceiveStream

from agentui.core.session.naming import SUFFIX
from tests.e2e.cli_runs import child_env

from ..forks import FORKS

FAIL_AFTER_S = 60  # a guard against a hung child, never a measurement
LISTENING = re.compile(r"^agentui serve: listening on (\S+) \(token in (.+)\)$")


@dataclass
class ServeProcess:
    process: Process
    url: str
    token_file: Path
    home: Path

    @property
    def token(self) -> str:
        return self.token_file.read_text().strip()

    async def stop(self, signum: int = signal.SIGTERM) -> tuple[int, str]:
        """Send `signum` and wait for the exit; its code and everything it wrote on stderr."""
        self.process.send_signal(signum)
        with anyio.fail_after(FAIL_AFTER_S):
            code = await self.process.wait()
            assert self.process.stderr is not None
            errors = b"".join([chunk async for chunk in self.process.stderr])
        return code, errors.decode()

    def session_files(self) -> list[Path]:
        return sorted((self.home / "data" / "sessions").glob(f"*{SUFFIX}"))


@asynccontextmanager
async def serve_process(home: Path, *options: str, **env: str) -> AsyncIterator[ServeProcess]:
    """Run `agentui serve --port 0 --pace 0 OPTIONS` with its config, data and state in
    `home`; killed at the end of the block if it still runs."""
    command = FORKS.command("module", "agentui.tui.cli.main", "serve", "--port", "0", "--pace", "0")
    process = await anyio.open_process([*command, *options], env=child_env(home, **env))
    try:
        assert process.stdout is not None
        lines = BufferedByteReceiveStream(process.stdout)
        with anyio.fail_after(FAIL_AFTER_S):
            first = (await lines.receive_until(b"\n", 4096)).decode()
        found = LISTENING.match(first)
        assert found, f"unexpected first line: {first!r}"
        yield ServeProcess(process, found[1], Path(found[2]), home)
    finally:
        if process.returncode is None:
            process.kill()
            with anyio.CancelScope(shield=True), anyio.fail_after(FAIL_AFTER_S):
                await process.wait()
        await process.aclose()
