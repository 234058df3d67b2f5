"""The profiles a runtime knows, by name: agentui's built-ins, then the person's own.

The person's live in `<config dir>/agents/*.toml` and `*.json` (AGENTUI_CONFIG_DIR moves the
config dir) and replace a built-in of the same name. A bad file is skipped with one message
(`problems`); it never stops the others from loading. A scene's own profiles (inline tables)
are not added here: its loading resolves each of its agents' profiles itself
(core/scene/scene_loading.py) and starts the agent with the profile whole.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Iterator
from functools import cache
from importlib import resources
from pathlib import Path

from agentui.core.profiles.loading import (
    SUFFIXES,
    load_profile_file,
    profile_from_data,
    read_profile_data,
)
from agentui.core.profiles.profile import AgentProfile, ProfileOrigin
from agentui.core.support.errors import ProfileError, UnknownProfileError
from agentui.core.support.paths import config_dir

AGENTS_DIR = "agents"
BUILTIN_DIR = "builtin"


class ProfileCatalog:
    """Profiles by name (a later one replaces an earlier one of the same name), and the
    messages of the files that could not be loaded."""

    def __init__(self, profiles: Iterable[AgentProfile] = (), problems: Iterable[str] = ()):
        self._profiles: dict[str, AgentProfile] = {}
        for profile in profiles:
            self._profiles[profile.name] = profile
        self.problems: list[str] = list(problems)

    def get(self, name: str) -> AgentProfile:
        profile = self._profiles.get(name)
        if profile is None:
            raise UnknownProfileError(name, self.names())
        return profile

    def names(self) -> list[str]:
        return sorted(self._profiles)

    def naming_missing_tools(
        self, tools: Collection[str], pending: Callable[[str], bool] = lambda _: False
    ) -> list[str]:
        """A message for each profile that names a tool not among `tools`: an agent could not
        start with it, so the person hears of it where bad files are reported. A tool that is
        `pending` (SERVER__tool of a configured MCP server, there once it is ready) is not
        missing: its agent waits for it."""
        messages = []
        for profile in self:
            missing = [
                name for name in profile.tools or () if name not in tools and not pending(name)
            ]
            if missing:
                messages.append(
                    f"{profile.origin.describe()}: profile {profile.name!r} names tools agentui "
                    f"does not have: {', '.join(missing)} (it has: {', '.join(sorted(tools))})"
                )
        return messages

    def __iter__(self) -> Iterator[AgentProfile]:
        return (self._profiles[name] for name in self.names())

    def __contains__(self, name: object) -> bool:
        return name in self._profiles

    def __len__(self) -> int:
        return len(self._profiles)


def agents_dir() -> Path:
    return config_dir() / AGENTS_DIR


@cache  # package data does not change while agentui runs; every runtime starts from them
def builtin_profiles() -> tuple[AgentProfile, ...]:
    """The profiles agentui ships (package data)."""
    folder = resources.files(__package__).joinpath(BUILTIN_DIR)
    found: list[AgentProfile] = []
    for item in sorted(folder.iterdir(), key=lambda entry: entry.name):
        name = item.name
        if not name.endswith(SUFFIXES):
            continue
        where = f"{BUILTIN_DIR}/{name}"
        data = read_profile_data(item.read_text("utf-8"), Path(name).suffix, where)
        origin = ProfileOrigin(source="built-in", where=where)
        found.append(profile_from_data(data, origin, default_name=Path(name).stem))
    return tuple(found)


def user_profiles(directory: Path) -> tuple[list[AgentProfile], list[str]]:
    """The person's profiles in `directory` (missing: none), and one message per bad file."""
    if not directory.is_dir():
        return [], []
    profiles: list[AgentProfile] = []
    problems: list[str] = []
    defined: dict[str, Path] = {}
    for path in sorted(directory.iterdir()):
        if path.suffix.lower() not in SUFFIXES or not path.is_file():
            continue
        try:
            profile = load_profile_file(path)
        except ProfileError as exc:
            problems.append(str(exc))
            continue
        if profile.name in defined:
            problems.append(
                f"{path}: profile {profile.name!r} is already defined in "
                f"{defined[profile.name]}; this file is skipped"
            )
            continue
        defined[profile.name] = path
        profiles.append(profile)
    return profiles, problems


def load_catalog(directory: Path | None = None) -> ProfileCatalog:
    """The built-ins, then the person's own from `directory` (default: `agents_dir()`)."""
    mine, problems = user_profiles(directory if directory is not None else agents_dir())
    return ProfileCatalog([*builtin_profiles(), *mine], problems)
