import { parse as parseYaml } from 'yaml';
import type { App } from '../apps.js';
import { appFiles, appWhere } from '../evidence.js';
import { parseJson } from '../parse.js';
import { fail, pass, type CheckContext, type Outcome } from '../types.js';

const GIT_HOOKS = /^(pre-commit|pre-push|commit-msg|prepare-commit-msg|pre-merge-commit|post-checkout|post-merge|pre-rebase)$/;

const yamlOf = (text: string | undefined): unknown => {
  try {
    return text === undefined ? undefined : (parseYaml(text, { strict: false }) as unknown);
  } catch {
    return undefined;
  }
};

/**
 * What a committed hook setup runs: a hook file that exists but configures nothing (an empty
 * `.pre-commit-config.yaml`, a Husky directory with only its helper) is not a hook.
 */
async function hookIn(ctx: CheckContext, f: string): Promise<string | undefined> {
  const text = await ctx.scan.read(f);
  if (/(^|\/)\.pre-commit-config\.ya?ml$/.test(f)) {
    const repos = (yamlOf(text) as { repos?: { hooks?: { id?: string }[] }[] } | undefined)?.repos;
    const ids = (Array.isArray(repos) ? repos : []).flatMap((r) => (Array.isArray(r?.hooks) ? r.hooks : [])).map((h) => String(h?.id ?? '?'));
    return ids.length ? `${f} runs ${ids.length} pre-commit hooks (${ids.slice(0, 4).join(', ')})` : undefined;
  }
  if (/(^|\/)\.?lefthook\.ya?ml$/.test(f)) {
    const cfg = yamlOf(text);
    const hooks = cfg && typeof cfg === 'object' ? Object.keys(cfg).filter((k) => GIT_HOOKS.test(k)) : [];
    return hooks.length ? `${f} defines lefthook ${hooks.join(', ')}` : undefined;
  }
  const husky = /(^|\/)\.husky\/([^/.][^/]*)$/.exec(f);
  if (husky) {
    const command = (text ?? '').split('\n').find((l) => l.trim() !== '' && !l.trim().startsWith('#') && !/husky\.sh/.test(l));
    return GIT_HOOKS.test(husky[2]!) && command ? `${f} runs \`${command.trim().slice(0, 60)}\`` : undefined;
  }
  if (/(^|\/)package\.json$/.test(f)) {
    const pkg = parseJson(text) as Record<string, unknown> | undefined;
    const simple = pkg?.['simple-git-hooks'] as Record<string, unknown> | undefined;
    const hooks = simple && typeof simple === 'object' ? Object.keys(simple).filter((k) => GIT_HOOKS.test(k)) : [];
    if (hooks.length) return `${f} simple-git-hooks ${hooks.join(', ')}`;
    const legacy = (pkg?.husky as { hooks?: Record<string, unknown> } | undefined)?.hooks;
    if (legacy && Object.keys(legacy).length) return `${f} husky.hooks ${Object.keys(legacy).join(', ')}`;
  }
  return undefined;
}

const CANDIDATE = /(^|\/)(\.pre-commit-config\.ya?ml|\.?lefthook\.ya?ml|\.husky\/[^/]+|package\.json)$/;

export async function hookOutcome(ctx: CheckContext, app: App): Promise<Outcome> {
  const files = appFiles(ctx, app).filter((f) => CANDIDATE.test(f));
  const empty: string[] = [];
  for (const f of files) {
    const found = await hookIn(ctx, f);
    if (found) return pass(found);
    if (!f.endsWith('package.json')) empty.push(f);
  }
  const also = empty.length ? `; ${empty.slice(0, 3).join(', ')} configure no hook` : '';
  return fail(
    `no committed git hook in ${appWhere(app)}; looked for hook configuration (.pre-commit-config.yaml hooks, .husky/<hook>, lefthook, simple-git-hooks)${also}`,
  );
}
