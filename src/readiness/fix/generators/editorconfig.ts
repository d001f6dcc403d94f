import path from 'node:path';
import type { Generator } from '../types.js';

/** Files sampled per extension: enough to see the habit, few enough to stay fast. */
const SAMPLE = 40;
const LANGUAGE_FILE =
  /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs|json|py|go|rs|java|kt|kts|rb|c|cc|cpp|h|hpp|cs|php|swift|scala|ya?ml|toml|md|sh|css|scss|html|vue|svelte)$/;

type Style = { style: 'tab' | 'space'; size?: number; crlf: boolean; finalNewline: boolean };

/** The indentation the file's indented lines use: tabs, or the smallest step between space indents. */
function styleOf(text: string): Style | undefined {
  const lines = text.split('\n');
  const indents = lines.map((l) => /^[ \t]+(?=\S)/.exec(l)?.[0]).filter((i): i is string => i !== undefined);
  if (indents.length < 3) return undefined;
  const tabs = indents.filter((i) => i.startsWith('\t')).length;
  const crlf = text.includes('\r\n');
  const finalNewline = text.endsWith('\n');
  if (tabs * 2 > indents.length) return { style: 'tab', crlf, finalNewline };
  const widths = indents.filter((i) => !i.includes('\t')).map((i) => i.length);
  const steps = new Map<number, number>();
  for (const w of widths) for (const s of [2, 4, 8]) if (w % s === 0) steps.set(s, (steps.get(s) ?? 0) + 1);
  // The largest step every indent (nearly) divides by: 4 when all are multiples of 4, else 2.
  const size = [8, 4, 2].find((s) => (steps.get(s) ?? 0) >= widths.length * 0.95);
  return size ? { style: 'space', size, crlf, finalNewline } : undefined;
}

/** What most sampled files do, or undefined when they disagree. */
function majority(styles: Style[]): Style | undefined {
  const key = (s: Style) => `${s.style}/${s.size ?? ''}`;
  const counts = new Map<string, Style[]>();
  for (const s of styles) counts.set(key(s), [...(counts.get(key(s)) ?? []), s]);
  const [best] = [...counts.values()].sort((a, b) => b.length - a.length);
  if (!best || best.length * 3 < styles.length * 2) return undefined;
  return { ...best[0]!, crlf: best.filter((s) => s.crlf).length * 2 > best.length, finalNewline: best.filter((s) => s.finalNewline).length * 2 > best.length };
}

/**
 * `.editorconfig` with the indentation each kind of file already uses (sampled from the checkout),
 * so every editor and agent writes new lines the way the code is written. No criterion depends on it
 * alone; it is written with the others when the repository has none.
 */
export const editorconfig = {
  id: 'editorconfig',
  when: [],
  existing: /^\.editorconfig$/,
  async generate(ctx) {
    const byExt = new Map<string, string[]>();
    for (const f of ctx.scan.files) {
      if (!LANGUAGE_FILE.test(f)) continue;
      const ext = path.posix.extname(f).slice(1);
      byExt.set(ext, [...(byExt.get(ext) ?? []), f]);
    }
    const sections: string[] = [];
    let finalNewline = true;
    let crlf = false;
    for (const ext of [...byExt.keys()].sort()) {
      const styles: Style[] = [];
      for (const f of byExt.get(ext)!.slice(0, SAMPLE)) {
        const s = styleOf((await ctx.scan.read(f)) ?? '');
        if (s) styles.push(s);
      }
      const s = majority(styles);
      if (!s) continue;
      finalNewline &&= s.finalNewline;
      crlf ||= s.crlf;
      sections.push(`[*.${ext}]`, `indent_style = ${s.style}`, ...(s.size ? [`indent_size = ${s.size}`] : []), '');
    }
    if (!sections.length) return { nothing: 'no file type with a consistent indentation to record' };
    const head = [
      '# Indentation as the code already uses it, sampled by orgctl readiness fix.',
      'root = true',
      '',
      '[*]',
      'charset = utf-8',
      `end_of_line = ${crlf ? 'crlf' : 'lf'}`,
      `insert_final_newline = ${finalNewline}`,
      'trim_trailing_whitespace = true',
      '',
    ];
    return { files: [{ path: '.editorconfig', content: [...head, ...sections].join('\n') }], criteria: [] };
  },
} satisfies Generator;
