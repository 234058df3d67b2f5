"""One execution of an agent: the plain loop, the six-step workflow or, for an agent agentui's
own code runs (a scene, a round), its driver; and how it ends.

An agent with a JSON profile has its final answer held to the profile's contract (retried with
the errors; core/profile_contract.py) and its result is the validated payload, as JSON text.
It ends completed (with its result), failed (an error of a kind the front ends name), or, when
its run was stopped or the runtime shut down, cancelled or deleted; it always ends with an event.
"""

from __future__ import annotations

import logging
from typing import Literal

import anyio
import anyio.lowlevel

from agentui.core.agent.agent_run import AgentRun
from agentui.core.agent.loop import AgenticLoop, LoopResult
from agentui.core.agent.workflow_trail import TakeUp
from agentui.core.profile_contract import hold_to_contract
from agentui.core.protocol.agent_status import AgentStatus
from agentui.core.protocol.events import (
    SHUTDOWN_REASON,
    ExecutionCancelled,
    ExecutionCompleted,
    ExecutionFailed,
    ExecutionStarted,
)
from agentui.core.support.errors import (
    ContractError,
    DecisionError,
    DriverError,
    LimitExceededError,
    ProviderError,
    ToolFailedError,
)
from agentui.core.tools.pending_source import ToolsUnavailableError
from agentui.core.workflow.six_step import SixStepWorkflow

WorkflowName = Literal["plain", "six-step"]
WORKFLOWS: tuple[WorkflowName, ...] = ("plain", "six-step")

log = logging.getLogger("agentui.runtime")


async def execute(
    run: AgentRun,
    task: str,
    workflow: WorkflowName,
    take_up: TakeUp | None = None,
    *,
    goes_on: bool = False,
) -> None:
    """Run the agent on `task` (a follow-up run continues its conversation) until it ends.
    `take_up`: a rewound six-step root goes on with its workflow where it says. `goes_on`: a
    resumed session gave the agent back live, and the run it was in goes on (the same run
    number, on the task it had): no message of the person starts it."""
    shared, node, contract = run.shared, run.node, run.contract
    loop = AgenticLoop(
        run,
        shared.provider,
        run.tools,
        shared.hooks,
        shared.limits,
        node.conversation,
        streaming=shared.streaming,
        model=run.model,
        response_schema=contract.schema if contract is not None else None,
        response_example=contract.example if contract is not None else None,
        scene_cue=run.cue,
    )
    execution_id = shared.ids.next("x")
    runner = SixStepWorkflow(run, loop, take_up) if workflow == "six-step" else None
    if not goes_on:
        node.runs += 1
    node.result = node.error = None
    run.payload = None
    node.started_at = shared.clock.now()
    node.ended_at = None
    try:
        with run.scope:
            # A cancel or delete that came before the task ran ends it here, before any
            # model call.
            await anyio.lowlevel.checkpoint()
            if node.status.is_final:  # a follow-up run of an ended agent
                run.set_status(AgentStatus.RUNNING, "continued by the person")
            run.begin_run()
            run.settle("started")
            await run.emit(ExecutionStarted, execution_id=execution_id, task=task, run=node.runs)
            try:
                if run.tools_to_come is not None:  # its profile's tools from a starting server
                    await run.tools_to_come.arrive()
                    run.tools_to_come = None
                if run.driver is not None:
                    result = LoopResult(await run.driver.drive(run), 0, None)
                else:
                    result = await (runner.run(task) if runner is not None else loop.run(task))
                if contract is not None:
                    result, run.payload = await hold_to_contract(
                        run, loop, contract, result, shared.profile_settings
                    )
            except ContractError as exc:
                await _fail(run, execution_id, str(exc), "contract")
            except DriverError as exc:
                await _fail(run, execution_id, str(exc), exc.kind)
            except DecisionError as exc:
                await _fail(run, execution_id, str(exc), "decision")
            except LimitExceededError as exc:
                await _fail(run, execution_id, str(exc), exc.limit)
            except ProviderError as exc:
                await _fail(run, execution_id, str(exc), "provider")
            except (ToolFailedError, ToolsUnavailableError) as exc:
                await _fail(run, execution_id, str(exc), "tool")
            except Exception as exc:
                log.exception("agent %s failed unexpectedly", node.id)
                await _fail(run, execution_id, f"{type(exc).__name__}: {exc}", "internal")
            else:
                node.result = result.text
                if runner is not None and runner.report is not None:
                    run.report = runner.report
                await run.emit(
                    ExecutionCompleted,
                    execution_id=execution_id,
                    result=result.text,
                    iterations=result.iterations,
                    duration_s=run.active_seconds(),
                    stop_reason=result.stop_reason,
                )
                run.set_status(AgentStatus.COMPLETED, "finished")
    finally:
        # Reached on our own cancel/delete and when the whole runtime is torn down from
        # outside (its task group cancelled): either way the agent ends with an event.
        stop = run.stop
        if node.status.is_live:
            reason = stop.reason if stop is not None else SHUTDOWN_REASON
            shared.bus.emit(
                ExecutionCancelled, node.id, reason=reason, partial_text=loop.partial_text
            )
            deleted = stop is not None and stop.delete
            run.set_status(AgentStatus.DELETED if deleted else AgentStatus.CANCELLED, reason)
        if node.status is not AgentStatus.DELETED:
            run.report_unused()
        run.gate.open()  # nothing waits at it any more; its listeners hear the resume
        run.done.set()


async def _fail(run: AgentRun, execution_id: str, error: str, kind: str) -> None:
    run.node.error = error
    await run.emit(ExecutionFailed, execution_id=execution_id, error=error, kind=kind)
    run.set_status(AgentStatus.ERROR, error)
