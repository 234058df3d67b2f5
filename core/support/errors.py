"""One exception hierarchy for everything the runtime raises on purpose."""

from __future__ import annotations


class AgentUIError(Exception):
    """Base of every error agentui raises deliberately."""


class UnknownAgentError(AgentUIError, KeyError):
    def __init__(self, agent_id: str) -> None:
        super().__init__(agent_id)
        self.agent_id = agent_id

    def __str__(self) -> str:
        return f"no agent with id {self.agent_id!r}"


class UnknownQueryError(AgentUIError, KeyError):
    def __init__(self, query_id: str) -> None:
        super().__init__(query_id)
        self.query_id = query_id

    def __str__(self) -> str:
        return f"no open query with id {self.query_id!r}"


class IllegalTransitionError(AgentUIError):
    """An agent status change that the state machine in tree.py does not allow."""

    def __init__(self, agent_id: str, old: str, new: str) -> None:
        super().__init__(f"agent {agent_id}: illegal status change {old} -> {new}")
        self.agent_id = agent_id
        self.old = old
        self.new = new


class CommandRefusedError(AgentUIError):
    """A runtime command that does not apply to the agent in its current state."""


class AgentEndedError(CommandRefusedError):
    """A message for an agent that will make no further model call (continue it instead)."""


class LimitExceededError(AgentUIError):
    """An agent ran into one of its limits (iterations, tool calls, duration)."""

    def __init__(self, limit: str, message: str) -> None:
        super().__init__(message)
        self.limit = limit


class ProviderError(AgentUIError):
    """The model backend failed. `retryable` says whether trying again may help."""

    def __init__(self, message: str, *, retryable: bool = False) -> None:
        super().__init__(message)
        self.retryable = retryable


class ToolFailedError(AgentUIError):
    """A tool failed while the agent's tool failure mode is `fail`."""

    def __init__(self, tool_name: str, message: str) -> None:
        super().__init__(f"tool {tool_name} failed: {message}")
        self.tool_name = tool_name
        self.error = message


class ScriptError(AgentUIError):
    """A scripted-provider script file is malformed or ran out of turns."""


class DecisionError(AgentUIError):
    """The model gave no valid structured answer to a workflow decision, even after retries."""

    def __init__(self, decision: str, attempts: int, last_error: str) -> None:
        super().__init__(
            f"the model gave no valid answer to the {decision!r} decision "
            f"in {attempts} attempt{'s' if attempts != 1 else ''}: {last_error}"
        )
        self.decision = decision
        self.attempts = attempts
        self.last_error = last_error


class ProfileError(AgentUIError):
    """A profile (a file, or a scene's table) is invalid; the message names where and why."""


class UnknownProfileError(AgentUIError):
    """No profile has this name; the message lists the known ones."""

    def __init__(self, name: str, known: list[str]) -> None:
        super().__init__(
            f"unknown profile {name!r}; the profiles are: {', '.join(known) or 'none'}"
        )
        self.name = name


class ContractError(AgentUIError):
    """A JSON agent's answer did not hold to its profile's contract, even after retries."""

    def __init__(self, profile: str, attempts: int, errors: tuple[str, ...]) -> None:
        super().__init__(
            f"the answer is not valid for profile {profile!r}'s JSON contract after "
            f"{attempts} attempt{'s' if attempts != 1 else ''}: {'; '.join(errors)}"
        )
        self.profile = profile
        self.errors = errors


class DriverError(AgentUIError):
    """Code that runs an agent instead of a model (a scene's round) cannot go on; the message
    says why, and `kind` names what failed for the front ends (e.g. "director")."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind
