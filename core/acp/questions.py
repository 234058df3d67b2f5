"""What an agent asks the person, as ACP asks a client: permission requests and elicitations.

An approval (a tool that needs one) is a permission request with agentui's three choices: allow
once, allow always (the rest of this session) and reject.

A question (ask_user, the workflow's clarification and final question) wants free text. ACP's
form elicitation (unstable in protocol 1) can ask for it: a client that declares
`elicitation.form` gets a form with one text field, and declining it declines the question. A
permission request cannot carry an answer, so a client without forms (Toad, 0.6.20) gets the
question (as the call's title and content) with three choices: answer it in the next prompt (the
turn ends with the question still open, and the person's next prompt is the answer: session.py),
go on without an answer (the question is declined and the agent proceeds on its own, as it does
when a person declines in the app) or stop the task (the whole prompt is cancelled).

A request shows its text as the content of the call it points at, which the client puts in
place of what the call showed, and the call's title (a client may show the request apart from
the call): an approval of python code keeps the code, as code, under the question; any other
tool's (an MCP server's) shows its arguments as JSON under the question, which stays text.
"""

from __future__ import annotations

import json
from typing import Literal

from acp.helpers import text_block, tool_content
from acp.schema import (
    AcceptElicitationResponse,
    AllowedOutcome,
    ClientCapabilities,
    CreateElicitationResponse,
    ElicitationFormSessionMode,
    ElicitationSchema,
    ElicitationStringPropertySchema,
    PermissionOption,
    RequestPermissionResponse,
    ToolCallUpdate,
)

from agentui.core.acp.markdown import one_line
from agentui.core.agent.approval import ApprovalChoice
from agentui.core.protocol import events as ev
from agentui.core.support.markdown_fence import fenced

ANSWER_FIELD = "answer"

APPROVAL_OPTIONS = [
    PermissionOption(option_id="once", name="Allow once", kind="allow_once"),
    PermissionOption(option_id="always", name="Allow always (this session)", kind="allow_always"),
    PermissionOption(option_id="reject", name="Reject", kind="reject_once"),
]
_APPROVALS: dict[str, ApprovalChoice] = {"once": "once", "always": "always", "reject": "reject"}

QuestionChoice = Literal["answer", "proceed", "stop"]
QUESTION_OPTIONS = [
    # First: a client selects the first option by default (Toad does).
    PermissionOption(option_id="answer", name="Answer it in your next prompt", kind="allow_once"),
    PermissionOption(option_id="proceed", name="Go on without an answer", kind="allow_once"),
    PermissionOption(option_id="stop", name="Stop the task", kind="reject_once"),
]


def approval_call(call_id: str, title: str, query: ev.QueryRaised) -> ToolCallUpdate:
    """The call an approval is about, as the permission request shows it: titled as the call
    was (a client may show the request apart from it), the question as text and what would
    run fenced under it (python code as python, any other tool's arguments as JSON)."""
    arguments = query.arguments or {}
    code = arguments.get("code") if query.tool == "python" else None
    if isinstance(code, str):
        shown, language = code.strip("\n"), "python"
    else:  # as approval.prompt writes them
        shown, language = json.dumps(arguments, ensure_ascii=False, indent=None), "json"
    if shown and query.prompt.endswith(shown):
        question = query.prompt.removesuffix(shown).rstrip("\n")
        content = [text_block(question), text_block(fenced(shown, language))]
    else:
        content = [text_block(fenced(query.prompt))]
    return ToolCallUpdate(
        tool_call_id=call_id,
        status="pending",
        title=title,
        content=[tool_content(b) for b in content],
    )


def question_call(call_id: str, asker: str, query: ev.QueryRaised) -> ToolCallUpdate:
    """The call a question without a form points at: the question as its title and content
    (the choices alone would not say what was asked)."""
    return ToolCallUpdate(
        tool_call_id=call_id,
        status="pending",
        title=f"{asker} asks: {one_line(query.prompt)}",
        content=[tool_content(text_block(query.prompt))],
    )


def approval_choice(response: RequestPermissionResponse) -> ApprovalChoice:
    """The person's choice; a request the client cancelled (its prompt was cancelled) rejects."""
    outcome = response.outcome
    if isinstance(outcome, AllowedOutcome):
        return _APPROVALS.get(outcome.option_id, "reject")
    return "reject"


def question_choice(response: RequestPermissionResponse) -> QuestionChoice:
    """The person's choice; a request the client cancelled, or an unknown option, declines."""
    outcome = response.outcome
    if isinstance(outcome, AllowedOutcome) and outcome.option_id in ("answer", "stop"):
        return "answer" if outcome.option_id == "answer" else "stop"
    return "proceed"


def deferred_question(asker: str, query: ev.QueryRaised) -> str:
    """What the conversation shows of a question the next prompt answers (the permission
    request that asked it is gone once chosen)."""
    return f"\n\n**{asker} asks:** {query.prompt}\n\n*Your next prompt is the answer.*\n\n"


def reopened_question(asker: str, query: ev.QueryRaised) -> str:
    """What the conversation shows of a question still open when the client came back (it
    left while the question waited): the next prompt answers it."""
    return (
        f"\n\n**{asker} asks:** {query.prompt}\n\n*This question was still open when you left; "
        "your next prompt is the answer.*\n\n"
    )


def reopened_answered(asker: str) -> str:
    """What the conversation shows when a prompt answers a question left open across a
    reconnect (the person may not know the prompt was taken as an answer)."""
    return f"*(Your prompt answers {asker}'s open question.)*\n\n"


def withdrawn_question(asker: str, goes_to: str) -> str:
    """What the conversation shows when the question it last said the next prompt answers was
    withdrawn and none other waits (else that prompt would go elsewhere unannounced)."""
    return f"\n\n*({asker}'s question was withdrawn; your next prompt goes to {goes_to})*\n\n"


def takes_forms(capabilities: ClientCapabilities | None) -> bool:
    """The client can show a form for a free-text answer."""
    elicitation = capabilities.elicitation if capabilities is not None else None
    return elicitation is not None and elicitation.form is not None


def answer_form(session_id: str, tool_call_id: str, prompt: str) -> ElicitationFormSessionMode:
    return ElicitationFormSessionMode(
        session_id=session_id,
        tool_call_id=tool_call_id,
        requested_schema=ElicitationSchema(
            properties={
                ANSWER_FIELD: ElicitationStringPropertySchema(
                    type="string", title="Your answer", description=prompt
                )
            },
            required=[ANSWER_FIELD],
        ),
    )


def form_answer(response: CreateElicitationResponse) -> str | None:
    """The text the person gave; None (declined) when they declined, cancelled or left it
    empty."""
    if not isinstance(response, AcceptElicitationResponse) or not response.content:
        return None
    answer = response.content.get(ANSWER_FIELD)
    return answer if isinstance(answer, str) and answer.strip() else None
