"""Runtime assembly: settings -> a provider, tools and a Runtime.

The app and `agentui run` get their runtimes from here; cli.py parses arguments into the
settings (core/config/settings.py) and a run's own `RunOptions`, and dispatches.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from agentui.core.providers.anthropic import defaults as claude
from agentui.core.providers.factory import make_provider, openai_base_url
from agentui.core.providers.model_aliases import resolve_model
from agentui.core.providers.openai import defaults as openai_defaults
from agentui.tui.cli.provider_choice import choose_provider
from agentui.tui.cli.provider_choice import status_notice as status_notice  # still found here

if TYPE_CHECKING:  # validated settings load pydantic: the app's first frame comes before
    from agentui.core.config.settings import LoadedConfig
    from agentui.core.monologue.config import MonologueConfig
    from agentui.core.providers.base import Provider
    from agentui.core.runtime import Runtime
    from agentui.core.session.resume import ResumePlan


@dataclass(frozen=True, slots=True)
class RunOptions:
    """A run's own options: given on the command line, never in the config file."""

    script: str | None = None
    pace_s: float = 0.0
    thinking_budget: int | None = None  # Claude's thinking, OpenAI's reasoning room; None: default
    timeout_s: float | None = None  # the network providers'; None: their default
    record: str | None = None  # save every model exchange in this directory
    keep_session: bool = True  # record the run as a session (`--no-session` turns it off)
    session_id: str | None = None  # a new session's id, drawn before its first event (acp)


@dataclass(frozen=True, slots=True)
class Assembly:
    """What a runtime is built from: the settings, the provider they settle on, the options."""

    loaded: LoadedConfig
    options: RunOptions
    provider: str  # a name for make_provider: scripted, anthropic, openai, google, replay:DIR
    model: str | None  # None: the provider's default
    narrator_model: str | None  # None: the monologue config's own model
    notice: str | None = None  # to tell the person (the offline model runs for want of a key)
    chosen_by: str | None = None  # the key variable that picked the provider, if one did
    resume: ResumePlan | None = None  # continue this session instead of starting one


def settle(
    loaded: LoadedConfig, options: RunOptions, environ: Mapping[str, str] = os.environ
) -> Assembly:
    """Which provider, model and narrator model the settings and options come to."""
    config = loaded.config
    choice = choose_provider(
        config.provider,
        given_as_flag=loaded.source("provider") == "flag --provider",
        script=options.script,
        environ=environ,
    )
    provider = choice.provider
    narrator_model: str | None = None
    if config.narrator_model is not None:
        narrator_model = resolve_model(provider, config.narrator_model)
    elif loaded.source("monologue.model") == "default":
        narrator_model = default_narrator_model(provider, config.model, config.base_url, environ)
    return Assembly(
        loaded=loaded,
        options=options,
        provider=provider,
        model=config.model,
        narrator_model=narrator_model,
        notice=choice.notice,
        chosen_by=choice.chosen_by,
    )


def default_narrator_model(
    provider: str,
    model: str | None,
    base_url: str | None,
    environ: Mapping[str, str] = os.environ,
) -> str | None:
    """The narrator's model on `provider` when no setting names one: the provider's cheap
    model; on a local OpenAI-compatible server the agents' own (it may serve no other); None
    for the offline model and a replay (the monologue config's own)."""
    if provider == "anthropic":
        return claude.DEFAULT_NARRATOR_MODEL
    if provider == "openai":
        local = not openai_defaults.is_openai(openai_base_url(base_url, environ))
        return model if local else openai_defaults.DEFAULT_NARRATOR_MODEL
    if provider == "google":
        from agentui.core.providers.google import defaults as gemini

        return gemini.DEFAULT_NARRATOR_MODEL
    return None


class ProviderOnce:
    """The assembly's provider, built the first time it is asked for and the same one after.

    The app asks first from the thread that loads the runtime's modules after the first frame:
    an SDK is slow to import, and built on the event loop it would hold every key
    typed meanwhile. The runtime, started on the loop once that thread is done, gets that one.
    """

    def __init__(self, assembly: Assembly, built: Callable[[Provider], None] | None = None) -> None:
        self._assembly = assembly
        self._built = built  # told of the provider once it exists (the palette's switch)
        self._provider: Provider | None = None

    def get(self) -> Provider:
        """Raises AgentUIError for a bad script or option, or a key that is not set."""
        if self._provider is None:
            self._provider = build_provider(self._assembly)
            if self._built is not None:
                self._built(self._provider)
        return self._provider


def build_provider(assembly: Assembly) -> Provider:
    """The provider the assembly names; raises AgentUIError for a bad script or option."""
    options = assembly.options
    return make_provider(
        assembly.provider,
        model=assembly.model,
        base_url=assembly.loaded.config.base_url,
        script=options.script,
        pace_s=options.pace_s,
        thinking_budget=options.thinking_budget,
        timeout_s=options.timeout_s,
        record=options.record,
    )


def monologue_config(assembly: Assembly, *, enabled: bool) -> MonologueConfig:
    """The settings' [monologue], with the settled narrator model."""
    config = assembly.loaded.config.monologue_config()
    update: dict[str, Any] = {"enabled": enabled}
    if assembly.narrator_model is not None:
        update["model"] = assembly.narrator_model
    return config.model_copy(update=update)


def build_runtime(assembly: Assembly, provider: Provider | None = None) -> Runtime:
    """A runtime as the assembly says, recording a session unless the options say not to.

    `provider`: one already built from the assembly (the runtime closes it when it ends).
    With `assembly.resume` it continues that session: numbering, ids, its agents adopted
    (which needs the running event loop: call it from the app or inside `anyio.run`).
    """
    # Loaded here, not with the module: the app builds its runtime after its first frame.
    from agentui.core.profiles.catalog import load_catalog
    from agentui.core.runtime import Runtime
    from agentui.core.session.recording import RecordingRuntime
    from agentui.core.session.writer import NewSession, SessionWriter
    from agentui.core.tools.builtin import builtin_tools
    from agentui.core.tools.python import PythonToolConfig

    provider = provider if provider is not None else build_provider(assembly)
    config = assembly.loaded.config
    sandbox = config.sandbox  # the limits on a python call's whole tree
    tools = builtin_tools(
        PythonToolConfig(max_processes=sandbox.max_processes, tree_memory_mb=sandbox.memory_mb)
    )
    services: list[Callable[[Runtime], None]] = []
    if config.mcp.servers:  # the MCP SDK is loaded only when a server is configured
        from agentui.core.tools.mcp.manager import McpManager

        # The servers start with the runtime, in the background; their tools join `tools`.
        services.append(McpManager(config.mcp, tools).attach)
    if config.attention.stall_watch_on:  # every front end's inbox lists silent agents
        from agentui.core.attention.stall_watch import StallWatch

        services.append(StallWatch(config.attention.stalled_after_s).attach)
    profiles = load_catalog()
    # An MCP server's tools are not there until it is ready: pending, not missing.
    profiles.problems += profiles.naming_missing_tools(tools.names(), config.mcp.may_offer)
    settings: dict[str, Any] = {
        "limits": config.limits,
        "prices": config.price_table(),
        "workflow": config.workflow,
        "approve_all": config.approval.policy == "yes",
        # ask_user, fork, wait and the sandboxed python tool under either workflow: the
        # workflow decides the steps around the loop, not what the loop may call.
        "tools": tools,
        # The built-in agent profiles and the person's own (a bad file, or a profile naming a
        # tool there is not, is in its problems).
        "profiles": profiles,
        "budget": config.budget,  # every root's ([budget], --budget); children get a share
        "profile_settings": config.profiles,
        "services": services,
    }
    plan = assembly.resume
    if plan is not None:
        settings.update(last_seq=plan.last_seq, ids=plan.id_source())
    runtime: Runtime
    if not assembly.options.keep_session:
        runtime = Runtime(provider, **settings)
    else:
        target = (
            plan.continued_session()
            if plan is not None
            else NewSession(
                provider=provider.name,
                model=provider.model,
                session_id=assembly.options.session_id,
            )
        )
        runtime = RecordingRuntime(provider, session=SessionWriter(target), **settings)
    if plan is not None:
        plan.adopt_into(runtime)
    return runtime
