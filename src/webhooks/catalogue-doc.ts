import { CATALOGUE, envelope, EVENT_TYPES } from './catalogue.js';

const START = '<!-- event catalogue: generated from src/webhooks/catalogue.ts by `npm run docs`; do not edit by hand -->';
const END = '<!-- end of event catalogue -->';
const EXAMPLE_TIME = new Date('2026-11-27T12:00:00.000Z');

interface Field {
  type?: string;
  format?: string;
  description?: string;
  anyOf?: { const?: string }[];
}

const typeOf = (f: Field): string => (f.anyOf ? f.anyOf.map((a) => `\`${a.const}\``).join(' \\| ') : `${f.type ?? 'any'}${f.format ? ` (${f.format})` : ''}`);

/** The catalogue as Markdown: per event, what it means, its data's fields (from the schema) and an example body. */
function catalogueMarkdown(): string {
  return EVENT_TYPES.map((type) => {
    const { data, summary, example } = CATALOGUE[type];
    const props = (data as unknown as { properties: Record<string, Field>; required?: string[] }).properties;
    const rows = Object.entries(props).map(([name, f]) => `| \`${name}\` | ${typeOf(f)} | ${(f.description ?? '').replace(/\|/g, '\\|')} |`);
    const body = JSON.stringify(envelope(type, EXAMPLE_TIME, example), null, 2);
    return [`### \`${type}\``, '', summary, '', '| field of `data` | type | meaning |', '|---|---|---|', ...rows, '', '```json', body, '```'].join('\n');
  }).join('\n\n');
}

/** The page with its catalogue section written anew. */
export function withCatalogue(page: string): string {
  const start = page.indexOf(START);
  const end = page.indexOf(END);
  if (start < 0 || end < start) throw new Error('docs/webhooks.md has no event catalogue markers');
  return `${page.slice(0, start + START.length)}\n\n${catalogueMarkdown()}\n\n${page.slice(end)}`;
}
