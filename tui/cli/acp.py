"""`agentui acp`: agentui as an ACP (Agent Client Protocol) agent on stdio, for Zed and Toad.

    agentui acp [--workflow six-step|plain] [--yes] [--provider ...] [--model ...]

The same provider options as `agentui run`. Each ACP session is an agentui session (recorded
unless --no-session) with the same id, so `session/load`, `agentui --resume ID` and
`agentui export ID` all open it. Stdout is the protocol's alone; logs go to stderr.
"""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Sequence
from dataclasses import replace

import anyio

from agentui.core.support.errors import AgentUIError
from agentui.core.support.terminal_text import visible_controls
from agentui.tui.cli.options import add_provider_options, assembly_from, fail


class _VisibleControls(logging.Formatter):
    """Log lines may quote a model or a tool: their controls reach the terminal visible."""

    def format(self, record: logging.LogRecord) -> str:
        return visible_controls(super().format(record))


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="agentui acp",
        description="Serve agentui as an ACP agent on stdin/stdout (Zed's agent_servers, "
        '`toad acp "agentui acp"`). Modes: ask (tools that need approval ask first) and '
        "yes (they run at once; --yes starts there).",
    )
    add_provider_options(parser, default_pace=0.0)
    return parser


def main(argv: Sequence[str]) -> int:
    args = _parser().parse_args(argv)
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(_VisibleControls("agentui acp: %(levelname)s: %(message)s"))
    logging.basicConfig(level=logging.WARNING, handlers=[handler], force=True)
    from agentui.core.acp.modes import ASK, YES
    from agentui.core.acp.server import serve_stdio
    from agentui.core.runtime import Runtime
    from agentui.core.session.resume import ResumePlan
    from agentui.core.support.termination import end_on_termination_signals
    from agentui.tui.cli.assemble import build_provider, build_runtime

    try:
        assembly = assembly_from(args)
        probe = build_provider(assembly)  # fails fast on a bad script or option, before any client
    except AgentUIError as exc:
        return fail(str(exc))
    if assembly.notice:
        print(f"agentui: {assembly.notice}", file=sys.stderr)
    config = assembly.loaded.config
    mode = YES if config.approval.policy == "yes" else ASK
    # Approvals are always asked of the session, which answers them itself in the "yes" mode:
    # a client may switch modes at any time, and a runtime's policy is fixed for its life.
    asking = config.model_copy(
        update={"approval": config.approval.model_copy(update={"policy": "ask"})}
    )
    assembly = replace(assembly, loaded=replace(assembly.loaded, config=asking))

    def open_runtime(*, session_id: str | None, resume: ResumePlan | None) -> Runtime:
        options = replace(assembly.options, session_id=session_id)
        return build_runtime(replace(assembly, options=options, resume=resume))

    async def serve() -> None:
        await probe.aclose()  # each session builds its own provider (its runtime closes it)
        await serve_stdio(open_runtime, mode=mode)

    end_on_termination_signals()  # SIGTERM, SIGHUP: the same orderly end as Ctrl+C
    try:
        anyio.run(serve)
    except KeyboardInterrupt:
        return 130
    return 0
