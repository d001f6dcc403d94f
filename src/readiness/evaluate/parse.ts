/** Lenient readers for the few configuration formats the checks look into; a malformed file reads as absent. */

export function parseJson(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * The strings of `key = [ ... ]` in TOML table `[table]`. Enough for workspace member lists,
 * which is all the evaluator reads from TOML; it is not a TOML parser.
 */
export function tomlArray(text: string, table: string, key: string): string[] {
  const header = new RegExp(`^\\[${table.replace(/\./g, '\\.')}\\]\\s*$`, 'm');
  const start = text.search(header);
  if (start < 0) return [];
  const rest = text.slice(start).split('\n').slice(1);
  const end = rest.findIndex((l) => /^\[/.test(l));
  const body = (end < 0 ? rest : rest.slice(0, end)).join('\n');
  const m = new RegExp(`^${key}\\s*=\\s*\\[([\\s\\S]*?)\\]`, 'm').exec(body);
  if (!m) return [];
  return [...m[1]!.matchAll(/["']([^"']+)["']/g)].map((x) => x[1]!);
}
