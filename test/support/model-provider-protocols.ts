import type { ServerResponse } from 'node:http';
import type { Usage } from './model-provider-test-double.js';

/**
 * The replies of the model provider test double, one writer per wire protocol. Each writes the
 * whole reply (SSE with `Connection: close`, so a client never waits for more) and says whether
 * it was a tool call or text.
 */
export interface Reply {
  protocol: 'anthropic' | 'responses' | 'gemini' | 'chat';
  body: Record<string, unknown>;
  pathname: string;
  stream: boolean;
  usage: Usage;
  text: string;
  command?: string;
}

type Answer = 'tool' | 'text';
type Json = Record<string, unknown>;

/** The shell tools of the clients: Claude Code, Codex, Gemini CLI, Droid. */
const SHELL_TOOLS = ['Bash', 'exec_command', 'shell', 'run_shell_command', 'Execute'];
/** What a request holding the result of a tool call contains, per protocol. */
const TOOL_RESULT_MARKS = ['"tool_result"', '"function_call_output"', '"functionResponse"', '"role":"tool"'];

interface ToolSpec {
  name: string;
  schema: Json;
}

function toolsOf(reply: Reply): ToolSpec[] {
  const tools = (reply.body.tools ?? []) as Json[];
  const specs: ToolSpec[] = [];
  for (const t of tools) {
    if (reply.protocol === 'anthropic') specs.push({ name: t.name as string, schema: (t.input_schema ?? {}) as Json });
    else if (reply.protocol === 'responses') specs.push({ name: t.name as string, schema: (t.parameters ?? {}) as Json });
    else if (reply.protocol === 'chat') {
      const f = (t.function ?? {}) as Json;
      specs.push({ name: f.name as string, schema: (f.parameters ?? {}) as Json });
    } else
      for (const d of (t.functionDeclarations ?? []) as Json[])
        specs.push({ name: d.name as string, schema: (d.parametersJsonSchema ?? d.parameters ?? {}) as Json });
  }
  return specs;
}

/** The shell tool to call with the test's command, when this request should get a tool call. */
function shellCall(reply: Reply): { name: string; args: Json } | undefined {
  if (reply.command === undefined) return undefined;
  const raw = JSON.stringify(reply.body);
  if (TOOL_RESULT_MARKS.some((m) => raw.includes(m))) return undefined;
  const tool = toolsOf(reply).find((t) => SHELL_TOOLS.includes(t.name));
  if (!tool) return undefined;
  const props = (tool.schema.properties ?? {}) as Record<string, Json>;
  const args: Json = {};
  if ('cmd' in props) args.cmd = reply.command;
  else if (String(props.command?.type).toLowerCase() === 'array') args.command = ['bash', '-lc', reply.command];
  else args.command = reply.command;
  for (const name of (tool.schema.required ?? []) as string[]) {
    if (name in args) continue;
    const p = props[name] ?? {};
    const type = String(p.type).toLowerCase();
    if (Array.isArray(p.enum)) args[name] = p.enum[0];
    else if (type === 'boolean') args[name] = false;
    else if (type === 'number' || type === 'integer') args[name] = 30_000;
    else args[name] = 'the command the test chose';
  }
  return { name: tool.name, args };
}

function sse(res: ServerResponse, events: [string | undefined, unknown][]): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'close' });
  for (const [event, data] of events) res.write(`${event ? `event: ${event}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`);
  res.end();
}

function json(res: ServerResponse, body: unknown): void {
  res.writeHead(200, { 'content-type': 'application/json', connection: 'close' });
  res.end(JSON.stringify(body));
}

const modelOf = (reply: Reply, fallback: string) => (typeof reply.body.model === 'string' ? reply.body.model : fallback);

/** Anthropic Messages: input excludes the cache reads and writes, which are reported apart. */
export function anthropicMessages(reply: Reply, res: ServerResponse): Answer {
  const call = shellCall(reply);
  const model = modelOf(reply, 'claude-sonnet-4-5');
  const u = reply.usage;
  const usage = { input_tokens: u.input, output_tokens: u.output, cache_read_input_tokens: u.cacheRead, cache_creation_input_tokens: u.cacheWrite };
  const block = call ? { type: 'tool_use', id: `toolu_${Date.now()}`, name: call.name, input: call.args } : { type: 'text', text: reply.text };
  const stopReason = call ? 'tool_use' : 'end_turn';
  const id = `msg_${Date.now()}`;
  if (!reply.stream) {
    json(res, { id, type: 'message', role: 'assistant', model, content: [block], stop_reason: stopReason, stop_sequence: null, usage });
    return call ? 'tool' : 'text';
  }
  const start = call ? { ...block, input: {} } : { type: 'text', text: '' };
  const delta = call ? { type: 'input_json_delta', partial_json: JSON.stringify(call.args) } : { type: 'text_delta', text: reply.text };
  sse(res, [
    [
      'message_start',
      {
        type: 'message_start',
        message: { id, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { ...usage, output_tokens: 0 } },
      },
    ],
    ['content_block_start', { type: 'content_block_start', index: 0, content_block: start }],
    ['content_block_delta', { type: 'content_block_delta', index: 0, delta }],
    ['content_block_stop', { type: 'content_block_stop', index: 0 }],
    ['message_delta', { type: 'message_delta', delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: u.output } }],
    ['message_stop', { type: 'message_stop' }],
  ]);
  return call ? 'tool' : 'text';
}

/** OpenAI Responses (SSE): input includes the cached tokens. */
export function openaiResponses(reply: Reply, res: ServerResponse): Answer {
  const call = shellCall(reply);
  const model = modelOf(reply, 'gpt-5');
  const id = `resp_${Date.now()}`;
  const u = reply.usage;
  const item = call
    ? {
        type: 'function_call',
        id: `fc_${Date.now()}`,
        call_id: `call_${Date.now()}`,
        name: call.name,
        arguments: JSON.stringify(call.args),
        status: 'completed',
      }
    : {
        type: 'message',
        id: `msg_${Date.now()}`,
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: reply.text, annotations: [] }],
      };
  const usage = {
    input_tokens: u.input + u.cacheRead,
    input_tokens_details: { cached_tokens: u.cacheRead },
    output_tokens: u.output,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: u.input + u.cacheRead + u.output,
  };
  const response = { id, object: 'response', model, status: 'in_progress', output: [] as unknown[] };
  sse(res, [
    ['response.created', { type: 'response.created', response }],
    ['response.output_item.added', { type: 'response.output_item.added', output_index: 0, item }],
    ...(call
      ? []
      : ([['response.output_text.delta', { type: 'response.output_text.delta', output_index: 0, content_index: 0, item_id: item.id, delta: reply.text }]] as [
          string,
          unknown,
        ][])),
    ['response.output_item.done', { type: 'response.output_item.done', output_index: 0, item }],
    ['response.completed', { type: 'response.completed', response: { ...response, status: 'completed', output: [item], usage } }],
  ]);
  return call ? 'tool' : 'text';
}

/** A value that fits a JSON schema (Gemini CLI's routing call asks for JSON of a schema and retries on anything else). */
function fitting(schema: Json): unknown {
  const type = String(schema.type).toLowerCase();
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if (type === 'object') {
    const props = (schema.properties ?? {}) as Record<string, Json>;
    return Object.fromEntries(Object.entries(props).map(([k, v]) => [k, fitting(v)]));
  }
  if (type === 'array') return [];
  if (type === 'number' || type === 'integer') return typeof schema.minimum === 'number' ? schema.minimum : 1;
  if (type === 'boolean') return false;
  return 'the test double';
}

/** Gemini generateContent and streamGenerateContent: the prompt count includes the cached tokens. */
export function geminiGenerate(reply: Reply, res: ServerResponse): Answer {
  const call = shellCall(reply);
  const model = /models\/([^:]+):/.exec(reply.pathname)?.[1] ?? 'gemini-2.5-pro';
  const u = reply.usage;
  const config = (reply.body.generationConfig ?? {}) as Json;
  const schema = (config.responseJsonSchema ?? config.responseSchema) as Json | undefined;
  const text = schema ? JSON.stringify(fitting(schema)) : reply.text;
  const part = call ? { functionCall: { name: call.name, args: call.args } } : { text };
  const body = {
    candidates: [{ content: { role: 'model', parts: [part] }, finishReason: 'STOP', index: 0 }],
    usageMetadata: {
      promptTokenCount: u.input + u.cacheRead,
      candidatesTokenCount: u.output,
      cachedContentTokenCount: u.cacheRead,
      totalTokenCount: u.input + u.cacheRead + u.output,
    },
    modelVersion: model,
  };
  if (reply.stream) sse(res, [[undefined, body]]);
  else json(res, body);
  return call ? 'tool' : 'text';
}

/** Chat Completions, stream or not: the prompt count includes the cached tokens. */
export function chatCompletions(reply: Reply, res: ServerResponse): Answer {
  const call = shellCall(reply);
  const model = modelOf(reply, 'gpt-4o');
  const id = `chatcmpl-${Date.now()}`;
  const created = Math.floor(Date.now() / 1000);
  const u = reply.usage;
  const usage = {
    prompt_tokens: u.input + u.cacheRead,
    completion_tokens: u.output,
    total_tokens: u.input + u.cacheRead + u.output,
    prompt_tokens_details: { cached_tokens: u.cacheRead },
  };
  const toolCalls = call
    ? [{ index: 0, id: `call_${Date.now()}`, type: 'function', function: { name: call.name, arguments: JSON.stringify(call.args) } }]
    : undefined;
  const finish = call ? 'tool_calls' : 'stop';
  if (!reply.stream) {
    const message = call ? { role: 'assistant', content: null, tool_calls: toolCalls } : { role: 'assistant', content: reply.text };
    json(res, { id, object: 'chat.completion', created, model, choices: [{ index: 0, message, finish_reason: finish }], usage });
    return call ? 'tool' : 'text';
  }
  const chunk = (choices: unknown[], extra: Json = {}) => ({ id, object: 'chat.completion.chunk', created, model, choices, ...extra });
  const delta = call ? { role: 'assistant', tool_calls: toolCalls } : { role: 'assistant', content: reply.text };
  sse(res, [
    [undefined, chunk([{ index: 0, delta, finish_reason: null }])],
    [undefined, chunk([{ index: 0, delta: {}, finish_reason: finish }])],
    [undefined, chunk([], { usage })],
    [undefined, '[DONE]'],
  ]);
  return call ? 'tool' : 'text';
}
