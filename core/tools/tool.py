"""A tool: a name, a description, a pydantic model for its arguments, and an async handler.

A tool from elsewhere (an MCP server's) carries the JSON Schema it was given instead of a model:
the schema is what the model sees, and arguments are checked against it with `jsonschema`.
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any, Protocol, get_type_hints, overload

from pydantic import BaseModel, ConfigDict, ValidationError, create_model

from agentui.core.protocol.subagent import SubagentOutcome
from agentui.core.providers.base import ToolSpec
from agentui.core.support.utf8 import model_json
from agentui.core.support.validation import describe_errors

if TYPE_CHECKING:
    from jsonschema.protocols import Validator


class AgentServices(Protocol):
    """What a running tool may ask of the agent that called it (implemented by AgentRun)."""

    async def ask_user(self, prompt: str, kind: str = "question") -> str | None:
        """Ask the person and wait; None when they decline."""
        ...

    def fork(self, prompt: str, *, profile: str | None = None) -> str:
        """Start a subagent on `prompt`, with the named agent profile if any; its handle.
        Raises AgentUIError when a limit (depth, live children) refuses it, or no profile has
        that name (the message lists the names)."""
        ...

    async def join(self, handle: str) -> SubagentOutcome:
        """Wait for a subagent of this agent to end. Raises AgentUIError for a bad handle."""
        ...

    def watch_pause(self, listener: Callable[[bool], None]) -> Callable[[], None]:
        """Be told (True/False) when the agent pauses and resumes; returns the unsubscribe."""
        ...


@dataclass(frozen=True, slots=True)
class ToolContext:
    agent_id: str
    call_id: str
    iteration: int
    services: AgentServices


class ToolError(Exception):
    """Raise from a tool to fail with exactly this message shown to the model."""


class ToolArgumentError(ToolError):
    pass


Handler = Callable[[Any, ToolContext], Awaitable[Any]]


def _format_validation_error(tool_name: str, exc: ValidationError) -> str:
    return f"invalid arguments for {tool_name}: " + describe_errors(exc, "(arguments)")


def render_result(value: Any) -> str:
    """Tool results go to the model as text: strings as they are, the rest as JSON."""
    if isinstance(value, str):
        return value
    if isinstance(value, BaseModel):
        return model_json(value)
    return json.dumps(value, default=str, ensure_ascii=False)


# Arguments wrong everywhere: the first few problems are enough for the model to fix them by.
MAX_ARGUMENT_ERRORS = 10


@dataclass(frozen=True)
class Tool:
    name: str
    description: str
    input_model: type[BaseModel] | None  # None: `input_schema` describes the arguments
    handler: Handler
    # None: the loop's default tool timeout applies. Tools that wait for a person opt out.
    timeout_s: float | None = None
    no_timeout: bool = False
    needs_approval: bool = False
    # True for tools that wait on the person (the scripted demo avoids calling them unasked).
    interactive: bool = False
    # The arguments' JSON Schema as given (an MCP server's tool); the handler gets the dict.
    input_schema: dict[str, Any] | None = None

    @property
    def spec(self) -> ToolSpec:
        if self.input_schema is not None:
            return ToolSpec(self.name, self.description, self.input_schema)
        assert self.input_model is not None
        schema = self.input_model.model_json_schema()
        schema.pop("title", None)
        return ToolSpec(self.name, self.description, schema)

    @cached_property
    def _schema_validator(self) -> Validator:
        """Checks arguments against `input_schema`, in the draft its `$schema` names (2020-12,
        MCP's default, when it names none)."""
        from jsonschema import validators  # loaded by the first such tool, not the first frame

        assert self.input_schema is not None
        cls = validators.validator_for(self.input_schema)
        return cls(self.input_schema)

    def parse(self, arguments: dict[str, Any]) -> Any:
        """The handler's arguments: the input model's instance, or the dict itself once it
        holds to `input_schema`. ToolArgumentError says what is wrong."""
        if self.input_schema is not None:
            from jsonschema.exceptions import SchemaError

            try:
                found = list(self._schema_validator.iter_errors(arguments))
            except SchemaError as exc:  # the server's schema itself is broken: say so
                message = f"{self.name} has an invalid input schema: {exc.message}"
                raise ToolArgumentError(message) from None
            if found:
                found.sort(key=lambda error: error.json_path)
                problems = "; ".join(
                    f"{error.json_path}: {error.message}" for error in found[:MAX_ARGUMENT_ERRORS]
                )
                raise ToolArgumentError(f"invalid arguments for {self.name}: {problems}")
            return arguments
        assert self.input_model is not None
        try:
            return self.input_model.model_validate(arguments)
        except ValidationError as exc:
            raise ToolArgumentError(_format_validation_error(self.name, exc)) from None

    async def run(self, arguments: dict[str, Any], context: ToolContext) -> str:
        parsed = self.parse(arguments)
        return render_result(await self.handler(parsed, context))

    @classmethod
    def from_schema(
        cls,
        name: str,
        description: str,
        input_schema: dict[str, Any],
        handler: Handler,
        **options: Any,
    ) -> Tool:
        """A tool whose arguments a JSON Schema describes; `handler` gets them as a dict."""
        return cls(name, description, None, handler, input_schema=input_schema, **options)

    @classmethod
    def from_model(
        cls,
        input_model: type[BaseModel],
        handler: Handler,
        *,
        name: str | None = None,
        description: str | None = None,
        **options: Any,
    ) -> Tool:
        return cls(
            name=name or input_model.__name__,
            # The model's own docstring only: getdoc would inherit pydantic's BaseModel text.
            description=description or inspect.cleandoc(input_model.__dict__.get("__doc__") or ""),
            input_model=input_model,
            handler=handler,
            **options,
        )


ToolFunction = Callable[..., Awaitable[Any]]


@overload
def tool(function: ToolFunction, /) -> Tool: ...


@overload
def tool(function: None = None, /, **options: Any) -> Callable[[ToolFunction], Tool]: ...


def tool(
    function: ToolFunction | None = None, /, **options: Any
) -> Tool | Callable[[ToolFunction], Tool]:
    """Make a Tool from a typed async function. A parameter typed ToolContext receives it.

    @tool
    async def add(a: int, b: int) -> int:
        "Add two integers."
    """

    def build(func: ToolFunction) -> Tool:
        if not inspect.iscoroutinefunction(func):
            raise TypeError(f"tool {func.__name__} must be an async function")
        hints = get_type_hints(func, include_extras=True)
        context_param: str | None = None
        fields: dict[str, Any] = {}
        for param in inspect.signature(func).parameters.values():
            annotation = hints.get(param.name, Any)
            if annotation is ToolContext:
                context_param = param.name
                continue
            default = ... if param.default is inspect.Parameter.empty else param.default
            fields[param.name] = (annotation, default)
        model = create_model(
            f"{func.__name__}_arguments",
            __config__=ConfigDict(extra="forbid"),
            **fields,
        )

        async def handler(arguments: BaseModel, context: ToolContext) -> Any:
            kwargs = {name: getattr(arguments, name) for name in fields}
            if context_param is not None:
                kwargs[context_param] = context
            return await func(**kwargs)

        return Tool(
            name=options.pop("name", func.__name__),
            description=options.pop("description", inspect.getdoc(func) or ""),
            input_model=model,
            handler=handler,
            **options,
        )

    if function is not None:
        return build(function)
    return build
