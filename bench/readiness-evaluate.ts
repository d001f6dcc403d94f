/**
 * Readiness evaluation of a large checkout: a repository of 10,000 files must evaluate
 * in seconds. Builds a git repository of N files (an npm-workspaces monorepo of 50 packages with
 * sources, tests, docs and configuration), commits it, then times evaluateRepository (scan,
 * discovery, all 84 checks) several times, and then this repository itself as a baseline of
 * ordinary size. Prints wall times and the process's peak memory (maxRSS). No forge token, so
 * nothing leaves the machine. Targets: under 5 s and under 300 MB for 10,000 files.
 * Usage: npm run bench:evaluate -- [--files 10000] [--packages 50] [--runs 5]
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { evaluateRepository } from '../src/readiness/evaluate/evaluate.js';

const { values } = parseArgs({
  options: { files: { type: 'string', default: '10000' }, packages: { type: 'string', default: '50' }, runs: { type: 'string', default: '5' } },
});
const N = Number(values.files);
const RUNS = Number(values.runs);
const PACKAGES = Number(values.packages);
const peakMb = () => Math.round(process.resourceUsage().maxRSS / 1024);

const dir = mkdtempSync(path.join(tmpdir(), 'orgctl-bench-evaluate-'));
try {
  const put = (name: string, content: string) => {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), content);
  };
  put('package.json', JSON.stringify({ name: 'bench', private: true, workspaces: ['packages/*'], devDependencies: { eslint: '9.0.0', vitest: '4.0.0' } }));
  put('README.md', '# Bench\n\n## Install\n\nnpm ci\nnpm run dev\n');
  put('.gitignore', 'node_modules/\ndist/\n.env\n.idea/\n.DS_Store\n');
  const body = 'export function f(x: number): number {\n  return x * 2;\n}\n'.repeat(20);
  let written = 3;
  for (let p = 0; written < N; p = (p + 1) % PACKAGES) {
    const pkg = `packages/p${p}`;
    if (written < PACKAGES + 3)
      put(`${pkg}/package.json`, JSON.stringify({ name: `p${p}`, scripts: { start: 'node .', test: 'vitest run' }, dependencies: { pino: '9.0.0' } }));
    else {
      const i = written;
      put(
        i % 5 === 0 ? `${pkg}/test/m${i}.test.ts` : i % 17 === 0 ? `${pkg}/docs/n${i}.md` : `${pkg}/src/dir${i % 30}/m${i}.ts`,
        i % 17 === 0 ? `# Note ${i}\n` : body,
      );
    }
    written++;
  }
  const git = (...a: string[]) =>
    execFileSync('git', ['-c', 'user.name=bench', '-c', 'user.email=bench@example.com', '-c', 'init.defaultBranch=main', ...a], { cwd: dir, stdio: 'pipe' });
  git('init', '-q');
  git('remote', 'add', 'origin', 'https://github.com/acme/bench.git');
  git('add', '-A');
  git('commit', '-q', '-m', 'bench');
  const files = execFileSync('git', ['ls-files'], { cwd: dir, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
    .split('\n')
    .filter(Boolean).length;
  console.log(`${files} files in ${PACKAGES} packages; ${RUNS} evaluations`);
  const ms: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    const t0 = performance.now();
    const { report, scores } = await evaluateRepository({ dir });
    ms.push(performance.now() - t0);
    if (r === 0) console.log(`apps ${Object.keys(report.apps).length}, level ${scores.level}, pass rate ${(scores.passRate * 100).toFixed(0)} %`);
    console.log(`run ${r + 1}: ${ms[r]!.toFixed(0)} ms`);
  }
  ms.sort((a, b) => a - b);
  const median = ms[Math.floor(ms.length / 2)]!;
  console.log(`median ${median.toFixed(0)} ms, max ${ms.at(-1)!.toFixed(0)} ms, peak memory ${peakMb()} MB (targets: 5000 ms, 300 MB)`);
  // This repository, measured the same way: the ratio says how much the large checkout costs more.
  const self = fileURLToPath(new URL('../../', import.meta.url));
  const t0 = performance.now();
  await evaluateRepository({ dir: self, repoUrl: 'https://github.com/orgctl/orgctl' });
  const own = performance.now() - t0;
  console.log(`this repository: ${own.toFixed(0)} ms; the 10,000-file checkout takes ${(median / own).toFixed(1)}x as long`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
