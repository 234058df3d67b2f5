"""Loading a scene: a shipped scene by name or a TOML file by path, its profiles resolved.

    scene = load_scene("lighthouse", catalog)        # shipped (package data, scenes/*.toml)
    scene = load_scene("~/scenes/mine.toml", catalog)

A bad scene is refused with ONE message naming the file, then each problem as `field.path:
what is wrong` (`characters[1].name: ...`, `characters[0].profile: instructions: missing`).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from agentui.core.profiles.catalog import ProfileCatalog
from agentui.core.profiles.loading import profile_from_data
from agentui.core.profiles.profile import AgentProfile, ProfileOrigin
from agentui.core.scene.director_schema import with_character_names
from agentui.core.scene.errors import SceneFileError
from agentui.core.scene.scene_file import ProfileRef, SceneFile
from agentui.core.support.errors import ProfileError, UnknownProfileError
from agentui.core.support.validation import describe_problem

SHIPPED_DIR = "scenes"
SUFFIX = ".toml"


@dataclass(frozen=True, slots=True)
class LoadedScene:
    """A scene ready to play: its file and the profiles its agents run with."""

    file: SceneFile
    source: str  # the shipped scene's name, or the file's path
    director: AgentProfile  # its schema's names narrowed to this scene's characters
    characters: dict[str, AgentProfile]  # by character name
    world: AgentProfile | None  # only with options.world_agent


def scene_from_text(text: str, where: str) -> SceneFile:
    """The scene a TOML text declares; `where` names it in messages."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise SceneFileError(f"{where}: not valid TOML ({exc})") from None
    return scene_from_data(data, where)


def scene_from_data(data: dict[str, Any], where: str) -> SceneFile:
    try:
        return SceneFile.model_validate(data)
    except ValidationError as exc:
        problems = "; ".join(_problem(error) for error in exc.errors())
        raise SceneFileError(f"{where}: {problems}") from None


def _problem(error: Any) -> str:
    where = _path(error["loc"])
    if error["type"] == "extra_forbidden":
        return f"{where}: not a scene setting (a typo?)"
    if error["type"] == "missing":
        return f"{where}: missing"
    return f"{where}: {describe_problem(error)}" if where else describe_problem(error)


def _path(location: tuple[Any, ...]) -> str:
    """('characters', 1, 'name') -> 'characters[1].name'; a union's branch names are dropped."""
    out = ""
    for part in location:
        if isinstance(part, int):
            out += f"[{part}]"
        elif part in ("str", "dict[str,any]", "constrained-str"):
            continue
        else:
            out += f".{part}" if out else str(part)
    return out


@cache  # package data does not change while agentui runs
def shipped_scenes() -> dict[str, SceneFile]:
    """The scenes agentui ships, by name (the file's stem)."""
    folder = resources.files(__package__).joinpath(SHIPPED_DIR)
    found: dict[str, SceneFile] = {}
    for item in sorted(folder.iterdir(), key=lambda entry: entry.name):
        if item.name.endswith(SUFFIX):
            name = item.name.removesuffix(SUFFIX)
            found[name] = scene_from_text(item.read_text("utf-8"), f"{SHIPPED_DIR}/{item.name}")
    return found


def read_scene(reference: str) -> tuple[SceneFile, str]:
    """The scene `reference` names (a shipped scene's name, or a path) and its source."""
    path = Path(reference).expanduser()
    if reference.endswith(SUFFIX) or "/" in reference or path.is_file():
        try:
            text = path.read_text("utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            raise SceneFileError(f"{path}: cannot be read: {reason}") from None
        return scene_from_text(text, str(path)), str(path)
    shipped = shipped_scenes()
    if reference not in shipped:
        raise SceneFileError(
            f"no scene named {reference!r}; the shipped scenes are: {', '.join(shipped)} "
            f"(or give the path of a {SUFFIX} file)"
        )
    return shipped[reference], reference


def load_scene(reference: str, catalog: ProfileCatalog) -> LoadedScene:
    """The scene `reference` names, with its profiles from `catalog` or its own tables."""
    file, source = read_scene(reference)
    return resolve_scene(file, source, catalog)


def resolve_scene(file: SceneFile, source: str, catalog: ProfileCatalog) -> LoadedScene:
    """Look up or check every profile the scene names (a resumed session's scene too)."""
    names = [c.name for c in file.characters]
    director = _profile(file.director, "director", source, catalog)
    if not director.expects_json:
        raise SceneFileError(
            f"{source}: director: profile {director.name!r} answers in prose; a director "
            "answers in JSON (expects_json = true), like the built-in director"
        )
    if director.json_mode == "schema" and isinstance(director.json_schema, dict):
        director = director.model_copy(
            update={
                "json_schema": with_character_names(director.json_schema, names),
                "json_example": None,  # its names are another scene's; the schema says it all
            }
        )
    characters: dict[str, AgentProfile] = {}
    for index, entry in enumerate(file.characters):
        field = f"characters[{index}].profile"
        profile = _profile(entry.profile, field, source, catalog, default=entry.name.lower())
        if profile.expects_json:
            raise SceneFileError(
                f"{source}: {field}: profile {profile.name!r} answers in JSON; a character "
                "answers in prose"
            )
        characters[entry.name] = profile
    world = None
    if file.options.world_agent:
        world = _profile(file.world_profile, "world_profile", source, catalog)
        if not world.expects_json:
            raise SceneFileError(
                f"{source}: world_profile: profile {world.name!r} answers in prose; the world "
                "agent answers in JSON, like the built-in world profile"
            )
    return LoadedScene(file, source, director, characters, world)


def _profile(
    ref: ProfileRef, field: str, source: str, catalog: ProfileCatalog, *, default: str = ""
) -> AgentProfile:
    if isinstance(ref, str):
        try:
            return catalog.get(ref)
        except UnknownProfileError as exc:
            raise SceneFileError(f"{source}: {field}: {exc}") from None
    origin = ProfileOrigin(source="scene", where=f"{source}: {field}")
    try:
        return profile_from_data(ref, origin, default_name=default or field.split("[")[0])
    except ProfileError as exc:
        raise SceneFileError(str(exc)) from None
