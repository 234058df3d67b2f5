"""Tools: the @tool decorator, Tool.from_model, the ToolRegistry, and sample_arguments."""

from __future__ import annotations

import json
from datetime import date, datetime
from enum import Enum, IntEnum
from typing import Annotated, Any, Literal

import pytest
from pydantic import BaseModel, Field

from agentui.core.providers.scripted.sample_args import sample_arguments
from agentui.core.tools.ask_user import ASK_USER
from agentui.core.tools.registry import ToolOutcome, ToolRegistry
from agentui.core.tools.tool import Tool, ToolArgumentError, ToolContext, ToolError, tool


class NoServices:
    """Stands in for the agent where no tool asks the person anything."""

    async def ask_user(self, prompt: str, kind: str = "question") -> str | None:
        raise AssertionError("no tool in these tests asks the person")


def make_context(call_id: str = "call-1") -> ToolContext:
    return ToolContext(agent_id="a1", call_id=call_id, iteration=3, services=NoServices())


# -- tools used below (module level, so their annotations resolve) ---------------------------


@tool
async def add(a: int, b: int = 2) -> int:
    """Add two integers."""
    return a + b


@tool(name="lookup", description="Look a word up.", timeout_s=4.0)
async def lookup_word(
    word: Annotated[str, Field(description="The word to look up.", min_length=1)],
    context: ToolContext,
    limit: int | None = None,
) -> dict[str, Any]:
    return {
        "word": word,
        "limit": limit,
        "agent": context.agent_id,
        "call": context.call_id,
        "iteration": context.iteration,
    }


class Forecast(BaseModel):
    city: str
    degrees: float


@tool
async def forecast(city: str) -> Forecast:
    return Forecast(city=city, degrees=21.5)


@tool
async def listing(count: int) -> list[str]:
    return [f"item {i}" for i in range(count)]


@tool
async def undocumented(x: int) -> str:
    return str(x)


@tool
async def explode(reason: str) -> str:
    raise ValueError(reason)


@tool
async def refuse(reason: str) -> str:
    raise ToolError(f"cannot do that: {reason}")


# -- @tool -----------------------------------------------------------------------------------


def test_tool_decorator_builds_schema_from_type_hints() -> None:
    spec = add.spec
    assert isinstance(add, Tool)
    assert spec.name == "add"
    assert spec.description == "Add two integers."
    schema = spec.input_schema
    assert "title" not in schema  # the generated model's name never reaches the model
    assert schema["type"] == "object"
    assert schema["properties"]["a"]["type"] == "integer"
    assert schema["properties"]["b"]["type"] == "integer"
    assert schema["properties"]["b"]["default"] == 2
    assert schema["required"] == ["a"]
    assert schema["additionalProperties"] is False


def test_tool_decorator_options_and_annotated_fields() -> None:
    spec = lookup_word.spec
    assert lookup_word.name == "lookup"
    assert spec.description == "Look a word up."
    assert lookup_word.timeout_s == 4.0
    assert lookup_word.no_timeout is False
    properties = spec.input_schema["properties"]
    assert properties["word"]["description"] == "The word to look up."
    assert properties["word"]["minLength"] == 1
    # Optional[int] with a default: in the schema, not required.
    assert {"type": "null"} in properties["limit"]["anyOf"]
    assert spec.input_schema["required"] == ["word"]


def test_tool_context_is_injected_and_excluded_from_the_schema() -> None:
    assert "context" not in lookup_word.spec.input_schema["properties"]
    assert set(lookup_word.input_model.model_fields) == {"word", "limit"}


@pytest.mark.anyio
async def test_tool_context_reaches_the_handler() -> None:
    result = await lookup_word.run({"word": "ohm"}, make_context("call-7"))
    assert json.loads(result) == {
        "word": "ohm",
        "limit": None,
        "agent": "a1",
        "call": "call-7",
        "iteration": 3,
    }


@pytest.mark.anyio
async def test_tool_refuses_extra_arguments() -> None:
    with pytest.raises(ToolArgumentError) as caught:
        await add.run({"a": 1, "c": 5}, make_context())
    message = str(caught.value)
    assert message.startswith("invalid arguments for add: ")
    assert "c: Extra inputs are not permitted" in message


@pytest.mark.anyio
async def test_tool_reports_every_invalid_argument() -> None:
    with pytest.raises(ToolArgumentError) as caught:
        await lookup_word.run({"word": "", "limit": "many"}, make_context())
    message = str(caught.value)
    assert "word: String should have at least 1 character" in message
    assert "limit" in message
    assert isinstance(caught.value, ToolError)  # the registry turns it into an error outcome


@pytest.mark.anyio
async def test_tool_with_defaults_runs() -> None:
    assert await add.run({"a": 40}, make_context()) == "42"
    assert await add.run({"a": 1, "b": 1}, make_context()) == "2"


def test_tool_decorator_refuses_sync_functions() -> None:
    def not_async(a: int) -> int:
        return a

    with pytest.raises(TypeError, match="tool not_async must be an async function"):
        tool(not_async)
    with pytest.raises(TypeError, match="must be an async function"):
        tool(name="x")(not_async)


def test_tool_without_docstring_has_empty_description() -> None:
    assert undocumented.description == ""


def test_ask_user_is_interactive_and_never_times_out() -> None:
    assert ASK_USER.name == "ask_user"
    assert ASK_USER.no_timeout is True
    assert ASK_USER.interactive is True
    assert ASK_USER.spec.input_schema["required"] == ["question"]
    assert "context" not in ASK_USER.spec.input_schema["properties"]


# -- Tool.from_model -------------------------------------------------------------------------


class SearchArgs(BaseModel):
    """Search the notes for a phrase."""

    phrase: str
    max_hits: int = 5


class BareArgs(BaseModel):
    value: int


async def search_handler(arguments: SearchArgs, context: ToolContext) -> str:
    return f"{arguments.phrase}:{arguments.max_hits}:{context.call_id}"


async def bare_handler(arguments: BareArgs, context: ToolContext) -> int:
    return arguments.value * 2


@pytest.mark.anyio
async def test_from_model_takes_name_and_description_from_the_model() -> None:
    search = Tool.from_model(SearchArgs, search_handler)  # type: ignore[arg-type]
    assert search.name == "SearchArgs"
    assert search.description == "Search the notes for a phrase."
    schema = search.spec.input_schema
    assert "title" not in schema
    assert schema["required"] == ["phrase"]
    assert await search.run({"phrase": "tea"}, make_context("c9")) == "tea:5:c9"


@pytest.mark.anyio
async def test_from_model_with_overrides_and_options() -> None:
    search = Tool.from_model(
        SearchArgs,
        search_handler,  # type: ignore[arg-type]
        name="search",
        description="Find things.",
        timeout_s=2.5,
        needs_approval=True,
    )
    assert (search.name, search.description) == ("search", "Find things.")
    assert search.timeout_s == 2.5
    assert search.needs_approval is True
    with pytest.raises(
        ToolArgumentError, match="invalid arguments for search: phrase: Field required"
    ):
        await search.run({}, make_context())


def test_from_model_without_docstring_has_empty_description() -> None:
    bare = Tool.from_model(BareArgs, bare_handler)  # type: ignore[arg-type]
    assert bare.description == ""


# -- ToolRegistry ----------------------------------------------------------------------------


def test_registry_refuses_duplicate_names() -> None:
    registry = ToolRegistry([add])
    other_add = Tool.from_model(SearchArgs, search_handler, name="add")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="a tool named 'add' is already registered"):
        registry.register(other_add)
    with pytest.raises(ValueError, match="already registered"):
        ToolRegistry([add, add])
    assert registry.names() == ["add"]


def test_registry_lookup_and_specs() -> None:
    registry = ToolRegistry([add, lookup_word])
    assert len(registry) == 2
    assert registry.names() == ["add", "lookup"]
    assert registry.get("lookup") is lookup_word
    assert registry.get("missing") is None
    assert [spec.name for spec in registry.specs()] == ["add", "lookup"]
    assert list(registry) == [add, lookup_word]


@pytest.mark.anyio
async def test_registry_unknown_tool_is_an_error_outcome() -> None:
    registry = ToolRegistry([add, lookup_word])
    outcome = await registry.execute("subtract", {"a": 1}, make_context())
    assert outcome == ToolOutcome("unknown tool 'subtract'; available tools: add, lookup", True)
    empty = await ToolRegistry().execute("x", {}, make_context())
    assert empty == ToolOutcome("unknown tool 'x'; available tools: none", True)


@pytest.mark.anyio
async def test_registry_turns_exceptions_into_error_outcomes() -> None:
    registry = ToolRegistry([explode, refuse, add])
    crashed = await registry.execute("explode", {"reason": "disk on fire"}, make_context())
    assert crashed == ToolOutcome("explode raised ValueError: disk on fire", True)
    refused = await registry.execute("refuse", {"reason": "no"}, make_context())
    # A ToolError's message reaches the model exactly as written.
    assert refused == ToolOutcome("cannot do that: no", True)
    invalid = await registry.execute("add", {"a": "one"}, make_context())
    assert invalid.is_error
    assert invalid.content.startswith(
        "invalid arguments for add: a: Input should be a valid integer"
    )


@pytest.mark.anyio
async def test_registry_renders_results() -> None:
    registry = ToolRegistry([add, lookup_word, forecast, listing, undocumented])
    context = make_context("c1")
    as_text = await registry.execute("undocumented", {"x": 5}, context)
    assert as_text == ToolOutcome("5", False)  # a str goes as it is, not JSON-quoted
    as_number = await registry.execute("add", {"a": 1}, context)
    assert as_number == ToolOutcome("3", False)
    as_dict = await registry.execute("lookup", {"word": "ünïcode"}, context)
    assert not as_dict.is_error
    assert "ünïcode" in as_dict.content  # JSON without ASCII escapes
    assert json.loads(as_dict.content)["call"] == "c1"
    as_model = await registry.execute("forecast", {"city": "Oslo"}, context)
    assert json.loads(as_model.content) == {"city": "Oslo", "degrees": 21.5}
    as_list = await registry.execute("listing", {"count": 2}, context)
    assert json.loads(as_list.content) == ["item 0", "item 1"]


# -- sample_arguments ------------------------------------------------------------------------


class Color(Enum):
    RED = "red"
    GREEN = "green"


class Priority(IntEnum):
    LOW = 1
    HIGH = 2


class Address(BaseModel):
    street: str
    number: int = Field(ge=1)
    postcode: str = Field(min_length=8, max_length=10)


class Person(BaseModel):
    name: str = Field(max_length=4)
    address: Address
    previous: list[Address]
    tags: list[str] = Field(min_length=2)
    nickname: str | None
    middle: Address | None = None
    color: Color
    priority: Priority
    mode: Literal["fast", "slow"]
    kind: Literal["person"]
    score: float = Field(ge=0.5)
    count: int = Field(gt=10)
    active: bool
    extra: dict[str, int]
    ratio: float


class Team(BaseModel):
    lead: Person
    members: list[Person]
    motto: str = "go"


@pytest.mark.parametrize("model", [Address, Person, Team])
def test_sample_arguments_validate(model: type[BaseModel]) -> None:
    arguments = sample_arguments(model.model_json_schema())
    model.model_validate(arguments)  # raises when they do not fit


def test_sample_arguments_details() -> None:
    arguments = sample_arguments(Person.model_json_schema())
    assert len(arguments["name"]) <= 4
    assert 8 <= len(arguments["address"]["postcode"]) <= 10
    assert len(arguments["previous"]) == 1
    assert len(arguments["tags"]) == 2
    assert arguments["nickname"] is not None  # required: a real value, not null
    assert arguments["middle"] is None  # its default
    assert arguments["color"] == "red"
    assert arguments["priority"] == 1
    assert arguments["mode"] == "fast"
    assert arguments["kind"] == "person"
    assert arguments["count"] > 10
    assert arguments["score"] >= 0.5
    team = sample_arguments(Team.model_json_schema())
    assert team["motto"] == "go"
    assert len(team["members"]) == 1


def test_sample_arguments_for_a_tool_schema() -> None:
    arguments = sample_arguments(lookup_word.spec.input_schema)
    lookup_word.input_model.model_validate(arguments)
    assert arguments["word"]
    assert sample_arguments({"type": "object"}) == {}
    assert sample_arguments({"type": "string"}) == {}  # arguments are always an object


class Bounded(BaseModel):
    above_five: float = Field(gt=5.0)
    negative: int = Field(le=-1)
    small: float = Field(lt=0.5)


class Dated(BaseModel):
    when: datetime
    day: date


class Paired(BaseModel):
    pair: tuple[int, str]


def test_sample_arguments_respect_numeric_bounds() -> None:
    Bounded.model_validate(sample_arguments(Bounded.model_json_schema()))


def test_sample_arguments_respect_string_formats() -> None:
    Dated.model_validate(sample_arguments(Dated.model_json_schema()))


def test_sample_arguments_for_tuples() -> None:
    Paired.model_validate(sample_arguments(Paired.model_json_schema()))
