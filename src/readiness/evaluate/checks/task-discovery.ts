import { DAY_MS } from '../../../core/days.js';
import { apiFailure } from '../forge.js';
import { repoCheck } from '../define.js';
import { forgeCheck } from './build.js';
import { fail, pass, skip, type Check } from '../types.js';

const CATEGORIES: [string, RegExp][] = [
  ['priority', /^(priority|prio|p[0-4]\b)/i],
  ['type', /^(type|kind|bug|enhancement|feature|documentation|chore|question)\b/i],
  ['area', /^(area|component|scope|module|pkg)\b/i],
];

const covered = (labels: string[]) => CATEGORIES.filter(([, re]) => labels.some((l) => re.test(l))).map(([c]) => c);

export const taskDiscoveryChecks: Check[] = [
  repoCheck('issue_templates', async (ctx) => {
    const templates = ctx.scan.files.filter((f) =>
      /^(\.github\/ISSUE_TEMPLATE\/(?!config\.ya?ml$)[^/]+\.(md|ya?ml)|\.github\/ISSUE_TEMPLATE\.md|\.gitlab\/issue_templates\/[^/]+\.md)$/i.test(f),
    );
    return templates.length
      ? pass(`issue templates: ${templates.slice(0, 3).join(', ')}`)
      : fail('no issue template under .github/ISSUE_TEMPLATE/ or .gitlab/issue_templates/');
  }),
  repoCheck('issue_labeling_system', async (ctx) => {
    const file = ctx.scan.files.find((f) => /^\.github\/(labels|issue-labels)\.(ya?ml|json)$/.test(f));
    if (file) {
      const names = [...((await ctx.scan.read(file)) ?? '').matchAll(/name["']?\s*:\s*["']?([^"'\n,]+)/g)].map((m) => m[1]!.trim());
      const cats = covered(names);
      if (cats.length >= 2) return pass(`${file} defines ${names.length} labels covering ${cats.join(', ')}`);
    }
    if ('unavailable' in ctx.forge)
      return fail(`no label definitions (.github/labels.yml) covering two of priority/type/area, and labels not read: ${ctx.forge.unavailable}`);
    try {
      const labels = await ctx.forge.labels();
      const cats = covered(labels);
      const text = `${labels.length} labels on ${ctx.forge.name} cover ${cats.length ? cats.join(', ') : 'no category'}`;
      return cats.length >= 2 ? pass(text) : fail(`${text} (two of priority, type, area needed)`);
    } catch (e) {
      return fail(apiFailure(e));
    }
  }),
  forgeCheck('backlog_health', async (forge) => {
    const issues = await forge.openIssues();
    if (!issues.length) return skip(`no open issues on ${forge.name}`);
    const yearAgo = Date.now() - 365 * DAY_MS;
    const good = issues.filter((i) => i.title.trim().split(/\s+/).length >= 3 && i.labels > 0).length;
    const stale = issues.filter((i) => Date.parse(i.updatedAt) < yearAgo).length;
    const text = `${good} of ${issues.length} open issues on ${forge.name} have a descriptive title and a label; ${stale} untouched for a year`;
    return good / issues.length > 0.7 && stale / issues.length <= 0.5 ? pass(text) : fail(text);
  }),
  repoCheck('pr_templates', async (ctx) => {
    const f = ctx.scan.files.find((x) =>
      /^(\.github\/|docs\/)?(pull_request_template\.md|PULL_REQUEST_TEMPLATE\/[^/]+\.md)$|^\.gitlab\/merge_request_templates\/[^/]+\.md$/i.test(x),
    );
    if (!f) return fail('no pull request template (.github/pull_request_template.md, PULL_REQUEST_TEMPLATE/, .gitlab/merge_request_templates/)');
    const text = (await ctx.scan.read(f)) ?? '';
    const sections = [/descri|summary|what|changes/i, /test/i, /context|why|motivation|related|issue/i].filter((re) => re.test(text)).length;
    return sections >= 2 ? pass(`${f} has description/testing/context sections`) : fail(`${f} lacks description, testing or context sections`);
  }),
];
