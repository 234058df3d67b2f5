"""Third-party ACP clients from npm, installed into a temporary prefix for a test run; the test
is skipped, saying why, without npm or when the install fails (no registry)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

INSTALL_TIMEOUT_S = 300  # a safety net, never a measurement


def npm_install(prefix: Path, *packages: str) -> Path:
    """`packages` installed under `prefix`; its node_modules. Skips the test when it cannot."""
    npm = shutil.which("npm")
    if npm is None or shutil.which("node") is None:
        pytest.skip("npm or node is not installed: no third-party ACP client to run")
    installed = subprocess.run(
        [npm, "install", "--prefix", str(prefix), "--no-audit", "--no-fund", *packages],
        capture_output=True,
        text=True,
        timeout=INSTALL_TIMEOUT_S,
        check=False,
    )
    if installed.returncode != 0:
        pytest.skip(f"npm could not install {' '.join(packages)}: {installed.stderr[-300:]}")
    return prefix / "node_modules"
