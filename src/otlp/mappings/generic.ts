import type { PointInput } from './context.js';
import { counted, IGNORE, NOTHING, text, textOf, tokenCount, tokens, type CounterParts, type Mapped } from './native.js';

/**
 * Sources that are not one client's own: the OpenTelemetry GenAI token metric, and Gemini CLI's
 * `gemini_cli.*` metrics. They feed the same figures where no client-specific row applies.
 */
const client = 'terminal-ui' as const;

/**
 * Gemini CLI's token types. Its `input` count includes the cached tokens, and its points carry
 * nothing to take them out by: they count once, as input, and `cache` is not counted again.
 */
const GEMINI_TOKENS: Record<string, 'input' | 'output'> = { input: 'input', output: 'output', thought: 'output' };

export function genericMetric(p: PointInput): Mapped {
  const { attrs } = p.point;
  // Counted by its parts, as many as its value (a counter's rollups read no session).
  const each = (parts: CounterParts) => counted(p.value, p.ms, client, parts);
  const tokenEvent = (kind: 'input' | 'output' | undefined, model: string | undefined): Mapped => {
    const n = tokens(p.value);
    if (!kind || !model || n === undefined) return { reject: `${p.point.metric} without a known token type, a model or a token count` };
    return n === 0 ? NOTHING : tokenCount(p.ms, client, model, kind, n);
  };
  switch (p.point.metric) {
    case 'gen_ai.client.token.usage': {
      // Gemini CLI sends the same tokens again as gemini_cli.token.usage, its designated signal.
      if (textOf(p.point.resource['service.name']) === 'gemini-cli') return IGNORE;
      const type = text(attrs, 'gen_ai.token.type');
      return tokenEvent(type === 'input' ? 'input' : type === 'output' ? 'output' : undefined, text(attrs, 'gen_ai.request.model', 'gen_ai.response.model'));
    }
    case 'gemini_cli.token.usage': {
      const type = text(attrs, 'type') ?? '';
      if (type === 'cache') return IGNORE;
      return tokenEvent(GEMINI_TOKENS[type], text(attrs, 'model'));
    }
    case 'gemini_cli.session.count':
      return each({ counter: 'sessions', level: 'auto-low' });
    case 'gemini_cli.tool.call.count': {
      const tool = text(attrs, 'function_name', 'tool_name');
      return tool
        ? each({ counter: 'tool_calls', tool, autonomyLevel: 'manual', mcpServer: undefined })
        : { reject: 'gemini_cli.tool.call.count without function_name' };
    }
    case 'gemini_cli.file.operation.count': {
      const op = text(attrs, 'operation');
      const change = op === 'create' ? 'created' : op === 'update' ? 'edited' : undefined;
      if (!change) return IGNORE;
      const ext = text(attrs, 'extension');
      const language = text(attrs, 'programming_language');
      return each({ counter: 'files', change, path: ext ? `file.${ext.replace(/^\./, '')}` : '', language });
    }
    default:
      return IGNORE;
  }
}
