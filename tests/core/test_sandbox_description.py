"""What the approval block and `config show` say of the sandbox: what it blocks, from what was
measured, and one line for what this kernel lacks."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from agentui.core.tools import sandbox_mode
from agentui.core.tools.sandbox_mode import NO_CAPABILITIES, SandboxChoice, choose_sandbox
from agentui.core.tools.sandbox_probe import Protections

FULL = Protections(
    landlock_abi=7,
    network_rules=("bind_tcp", "connect_tcp"),
    scoped=("abstract_unix_socket", "signal"),
    namespaces=True,
    hidden=True,
    capabilities=NO_CAPABILITIES,
    process_cap="rlimit",
    tree_memory=False,
)


def test_a_full_sandbox_says_what_it_blocks_in_one_line() -> None:
    said = SandboxChoice(bwrap="/usr/bin/bwrap", protections=FULL).describe()
    assert said == (
        "sandbox: bubblewrap + Landlock ABI 7: no files but system files (read-only) and its "
        "own directory, no network, no capabilities, even as root, no signals, ptrace or mounts "
        "beyond its own processes, a cap on its processes (RLIMIT_NPROC in its own user "
        "namespace), a memory limit per process (no cgroup for all of it)"
    )


def test_an_old_kernel_without_namespaces_says_what_is_missing_in_one_line() -> None:
    old = Protections(
        landlock_abi=3,
        network_rules=(),
        scoped=(),
        namespaces=False,
        hidden=False,
        capabilities=NO_CAPABILITIES,
        process_cap="",
        tree_memory=False,
    )
    first, missing = SandboxChoice(protections=old).describe().splitlines()
    assert first.startswith("sandbox: Landlock ABI 3: no files but system files")
    assert "no network" not in first and "no signals" not in first
    assert missing == (
        "sandbox: missing here: TCP rules (Landlock ABI 4; here 3): local TCP is open; "
        "signal and abstract-socket scoping (Landlock ABI 6): agentui can be signalled; "
        "user namespaces (refused here): UDP is open; "
        "unix socket rules (Landlock ABI 9): sockets in /tmp and /run open; "
        "a cap on processes (no cgroup can be made here; root is exempt from rlimits)"
    )


def test_capabilities_left_are_said() -> None:
    kept = dataclasses.replace(FULL, capabilities="00000000a80425fb")
    (_, missing) = SandboxChoice(protections=kept).describe().splitlines()
    assert missing == "sandbox: missing here: dropping capabilities (left: 00000000a80425fb)"


def test_limited_says_the_code_runs_as_you(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sandbox_mode, "_euid", lambda: 1000)
    said = SandboxChoice(reason="AGENTUI_SANDBOX=limited").describe()
    assert said == (
        "sandbox: limited (AGENTUI_SANDBOX=limited): the code runs as you, with your files"
    )


def test_limited_as_root_says_the_code_runs_as_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sandbox_mode, "_euid", lambda: 0)
    said = SandboxChoice(reason="AGENTUI_SANDBOX=limited").describe()
    assert said == (
        "sandbox: limited (AGENTUI_SANDBOX=limited): "
        "the code runs as root, with every capability and every file"
    )


# A kernel before 5.13 (no Landlock) that allows user namespaces, as the probe would find it.
NAMESPACES_WITHOUT_LANDLOCK = Protections(
    landlock_abi=0,
    network_rules=(),
    scoped=(),
    namespaces=True,
    hidden=True,
    capabilities=NO_CAPABILITIES,
    process_cap="rlimit",
    tree_memory=False,
)


def test_namespaces_without_landlock_are_limited_and_say_why(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def measured(mode: str, *_: Any) -> Protections:
        assert mode == "landlock"
        return NAMESPACES_WITHOUT_LANDLOCK

    monkeypatch.setattr(sandbox_mode.shutil, "which", lambda _: None)
    monkeypatch.setattr(sandbox_mode, "measure", measured)
    choice = choose_sandbox("auto")
    assert choice.limited and choice.mode == "limited"
    assert choice.reason == "bubblewrap not found; no Landlock"
    assert choice.describe().startswith("sandbox: limited (bubblewrap not found; no Landlock): ")


def test_without_landlock_nothing_is_claimed_read_only_but_under_bubblewrap() -> None:
    alone = SandboxChoice(protections=NAMESPACES_WITHOUT_LANDLOCK).describe()
    assert "read-only" not in alone.splitlines()[0]
    assert "Landlock: no file is read-only" in alone.splitlines()[1]
    under_bwrap = SandboxChoice(bwrap="/usr/bin/bwrap", protections=NAMESPACES_WITHOUT_LANDLOCK)
    first, missing = under_bwrap.describe().splitlines()
    assert first.startswith("sandbox: bubblewrap: no files but system files (read-only)")
    assert "Landlock (files are hidden by bubblewrap only)" in missing


def test_an_approval_gets_one_line_and_config_show_the_whole() -> None:
    full = SandboxChoice(bwrap="/usr/bin/bwrap", protections=FULL)
    assert full.summary() == (
        "sandbox: bubblewrap + Landlock ABI 7: only its own folder writable, no network, no "
        "reach into other processes (agentui config show tells all)"
    )
    old = dataclasses.replace(FULL, namespaces=False, network_rules=(), scoped=())
    gaps = SandboxChoice(protections=old).summary()
    assert (
        "\n" not in gaps and "missing here: TCP rules, signal and abstract-socket scoping" in gaps
    )
    limited = SandboxChoice(reason="AGENTUI_SANDBOX=limited")
    assert limited.summary() == limited.describe()
