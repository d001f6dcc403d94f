// The pre-commit hook: Prettier and ESLint on the files being committed. simple-git-hooks installs
// it from package.json ("simple-git-hooks") on `npm install`; after changing that entry, run
// `npx simple-git-hooks` to update the installed hook.
//
// Each file is checked as it is staged, not as it is in the work tree, so a partly staged file is
// judged by what the commit will hold. Nothing is rewritten: the hook says what to run (`npm run
// format`, `npx eslint --fix FILE`), then `git add` again. To skip it once: `git commit --no-verify`
// (CI runs the same checks in `npm run lint`).
import { execFileSync } from 'node:child_process';
import { ESLint } from 'eslint';
import * as prettier from 'prettier';

const LINTED = /\.(ts|tsx|js|mjs|cjs)$/;

const git = (...args) => execFileSync('git', args, { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
const stagedText = (file) => git('show', `:${file}`);
const staged = git('diff', '--cached', '--name-only', '--diff-filter=ACMR', '-z').split('\0').filter(Boolean);

const unformatted = [];
for (const file of staged) {
  const info = await prettier.getFileInfo(file, { ignorePath: ['.gitignore', '.prettierignore'] });
  if (info.ignored || !info.inferredParser) continue;
  const options = await prettier.resolveConfig(file, { editorconfig: true });
  if (!(await prettier.check(stagedText(file), { ...options, filepath: file }))) unformatted.push(file);
}

const eslint = new ESLint();
const results = [];
for (const file of staged.filter((f) => LINTED.test(f))) {
  if (await eslint.isPathIgnored(file)) continue;
  results.push(...(await eslint.lintText(stagedText(file), { filePath: file })));
}
const lintErrors = results.reduce((n, r) => n + r.errorCount, 0);

if (unformatted.length) {
  process.stderr.write(
    `Not formatted by Prettier (run \`npm run format\`, or \`npx prettier --write FILE\`, then git add):\n${unformatted.map((f) => `  ${f}\n`).join('')}`,
  );
}
if (lintErrors) {
  const stylish = await eslint.loadFormatter('stylish');
  process.stderr.write(`${await stylish.format(results.filter((r) => r.errorCount > 0))}\n`);
}
if (unformatted.length || lintErrors) process.exit(1);
