"""Third-party programs from npm the tests run agentui against (ACP clients, an MCP server),
installed before the suite into one folder, so no test reaches a registry itself.

`.ci/run` installs them (`python -m tests.third_party`); a test whose program is not there is
skipped and says how to install it. Versions are the ones agentui was tried with.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

FOLDER = Path(__file__).resolve().parents[1] / ".ci" / "third-party"
PACKAGES = (
    "acpx@0.1.15",  # an ACP client that ends the agent after every turn (tests/acp)
    "@agentclientprotocol/sdk@2.4.0",  # the ACP SDK's client, with its schema's validator
    "zod@4",  # the SDK's peer: its validator
    "@modelcontextprotocol/server-everything@2026.8.31",  # MCP's reference server (tests/mcp)
)
INSTALL = (
    f"python -m tests.third_party (npm install --prefix {FOLDER.relative_to(FOLDER.parents[1])})"
)


def node_modules() -> Path:
    """The installed packages' folder; skips the test, saying how to install them, when they
    (or node) are not there."""
    if shutil.which("node") is None:
        pytest.skip("node is not installed: the third-party clients and servers are npm packages")
    modules = FOLDER / "node_modules"
    if not modules.is_dir():
        pytest.skip(f"the npm packages the tests use are not installed: {INSTALL}")
    return modules


def program(name: str) -> Path:
    """An installed package's command (node_modules/.bin/NAME); skips the test without it."""
    found = node_modules() / ".bin" / name
    if not found.exists():
        pytest.skip(f"{name} is not installed: {INSTALL}")
    return found


def install() -> int:
    """Install PACKAGES into FOLDER with npm; says why on stderr when it cannot (the tests that
    need them then skip), and exits 0 either way: CI goes on without them."""
    npm = shutil.which("npm")
    if npm is None:
        print(
            "third-party: npm is not installed; the tests that need its packages skip",
            file=sys.stderr,
        )
        return 0
    FOLDER.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(
        [npm, "install", "--prefix", str(FOLDER), "--no-audit", "--no-fund", "--silent", *PACKAGES],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        print(
            f"third-party: npm could not install {' '.join(PACKAGES)}: {done.stderr[-500:]}",
            file=sys.stderr,
        )
    return 0


if __name__ == "__main__":
    sys.exit(install())
