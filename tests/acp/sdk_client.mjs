// An ACP client on @agentclientprotocol/sdk (its unstable schema, which validates every
// message it receives): runs `agentui acp`, declares subagents, prompts once, and prints every
// session/update it accepted (one JSON line each), then the prompt's answer.
import { spawn } from "node:child_process";
import { Readable, Writable } from "node:stream";
import { client, methods, ndJsonStream } from "@agentclientprotocol/sdk/unstable";

const [, , command, ...args] = process.argv;
const child = spawn(command, args, { stdio: ["pipe", "pipe", "inherit"] });
const stream = ndJsonStream(Writable.toWeb(child.stdin), Readable.toWeb(child.stdout));
const seen = [];
const app = client({ name: "sdk-check" })
  .onNotification(methods.client.session.update, (ctx) => { seen.push(ctx.params); })
  .onRequest(methods.client.session.requestPermission, (ctx) => {
    seen.push({ permission: ctx.params });
    return { outcome: { outcome: "selected", optionId: ctx.params.options[0].optionId } };
  });
const answer = await app.connectWith(stream, async (agent) => {
  await agent.request(methods.agent.initialize, {
    protocolVersion: 1, clientCapabilities: { subagents: {} },
  });
  const { sessionId } = await agent.request(methods.agent.session.new, { cwd: process.cwd(), mcpServers: [] });
  return await agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: process.env.PROMPT ?? "go" }] });
});
for (const item of seen) console.log(JSON.stringify(item));
console.log(JSON.stringify({ answer }));
child.stdin.end();
