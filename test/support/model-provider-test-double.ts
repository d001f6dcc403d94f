import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { anthropicMessages, chatCompletions, geminiGenerate, openaiResponses, type Reply } from './model-provider-protocols.js';

/**
 * A test double of the model providers the agent clients talk to: one local HTTP server that
 * speaks Anthropic Messages (`POST /v1/messages`, SSE or not), OpenAI Responses
 * (`POST /v1/responses`, SSE), Gemini (`models/M:streamGenerateContent?alt=sse` and
 * `:generateContent`) and Chat Completions (`POST /v1/chat/completions`, stream or not).
 *
 * Every reply reports the token usage the test chose. When the test names a shell command and
 * the request offers a shell tool and holds no tool result yet, the reply is a call of that
 * tool with the command; otherwise it is text. Every request is recorded, so a test can tell
 * what reached the provider (and what never did).
 */
export interface Usage {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

export interface ModelProviderOptions {
  /** The usage every reply reports. */
  usage?: Partial<Usage>;
  /** The text of a text reply. */
  text?: string;
  /** A shell command to call the client's shell tool with, before the text. */
  command?: string;
}

export interface RecordedRequest {
  method: string;
  /** Path and query, as received. */
  url: string;
  protocol: Reply['protocol'] | 'unknown';
  body: unknown;
  /** What the double answered: a tool call, text, or nothing it knew (404). */
  answered: 'tool' | 'text' | 'not found';
  /** The usage the reply reported (none for a 404). */
  usage?: Usage;
}

export interface ModelProvider {
  /** `http://127.0.0.1:PORT`, no trailing slash. */
  url: string;
  requests: RecordedRequest[];
  /** The sum of the usage of every reply so far. */
  reported(): Usage;
  /** Whether any request's body holds `text` (a prompt that should never have got here). */
  received(text: string): boolean;
  /** Changes the options for the following replies. */
  set(options: ModelProviderOptions): void;
  close(): Promise<void>;
}

const DEFAULT_USAGE: Usage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };

function readBody(req: IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('error', reject);
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      try {
        resolve(text ? JSON.parse(text) : undefined);
      } catch {
        resolve(text);
      }
    });
  });
}

function protocolOf(method: string, pathname: string): Reply['protocol'] | 'unknown' {
  if (method !== 'POST') return 'unknown';
  if (pathname.endsWith('/messages')) return 'anthropic';
  if (pathname.endsWith('/responses')) return 'responses';
  if (pathname.endsWith('/chat/completions')) return 'chat';
  if (/:(stream)?generateContent$/i.test(pathname)) return 'gemini';
  return 'unknown';
}

/** Starts the double on a free port of 127.0.0.1. */
export async function startModelProvider(initial: ModelProviderOptions = {}): Promise<ModelProvider> {
  let options = initial;
  const requests: RecordedRequest[] = [];
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://stub');
    const body = await readBody(req);
    const protocol = protocolOf(req.method ?? 'GET', url.pathname);
    const recorded: RecordedRequest = { method: req.method ?? 'GET', url: req.url ?? '/', protocol, body, answered: 'not found' };
    requests.push(recorded);
    if (protocol === 'unknown') {
      res.writeHead(404, { 'content-type': 'application/json', connection: 'close' });
      res.end(JSON.stringify({ error: { message: `the model provider test double does not serve ${req.method} ${url.pathname}` } }));
      return;
    }
    const usage = { ...DEFAULT_USAGE, ...options.usage };
    const reply: Reply = {
      protocol,
      body: (body ?? {}) as Record<string, unknown>,
      pathname: url.pathname,
      stream: url.searchParams.get('alt') === 'sse' || (body as { stream?: boolean } | undefined)?.stream === true,
      usage,
      text: options.text ?? 'Done.',
      command: options.command,
    };
    const write = { anthropic: anthropicMessages, responses: openaiResponses, gemini: geminiGenerate, chat: chatCompletions }[protocol];
    recorded.answered = write(reply, res);
    recorded.usage = usage;
  };
  const server: Server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      res.writeHead(500, { connection: 'close' });
      res.end(String(err));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    reported: () =>
      requests.reduce<Usage>(
        (sum, r) =>
          r.usage
            ? {
                input: sum.input + r.usage.input,
                output: sum.output + r.usage.output,
                cacheRead: sum.cacheRead + r.usage.cacheRead,
                cacheWrite: sum.cacheWrite + r.usage.cacheWrite,
              }
            : sum,
        { ...DEFAULT_USAGE },
      ),
    received: (text) => requests.some((r) => JSON.stringify(r.body ?? '').includes(text)),
    set: (next) => {
      options = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
