import { cpSync, createReadStream, existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { API_VERSION } from './openapi.js';
import { errorResponses } from './error-schema.js';
import { errors } from './errors.js';
import { runProcess } from '../process/run-process.js';

/** The package this service runs from: the directory of its package.json (dist/core/http or src/core/http, three up). */
const PACKAGE_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const TARBALL = `orgctl-${API_VERSION}.tgz`;

let packed: Promise<string> | undefined;

/**
 * The package as a tarball, made once per process with `npm pack`, so a computer installs exactly
 * the orgctl that serves it. It is packed from a copy whose package.json has no scripts and no
 * development dependencies: the build is already in dist/, and an installer should neither run
 * nor be warned about a build step it does not need. A failure is forgotten, so the next
 * download tries again.
 */
function tarball(): Promise<string> {
  packed ??= (async () => {
    const work = mkdtempSync(path.join(tmpdir(), 'orgctl-pack-'));
    const stage = path.join(work, 'package');
    const manifest = JSON.parse(readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8')) as Record<string, unknown>;
    for (const entry of ['dist', 'docs', 'openapi.json', 'README.md']) {
      if (existsSync(path.join(PACKAGE_ROOT, entry)))
        cpSync(path.join(PACKAGE_ROOT, entry), path.join(stage, entry), { recursive: true, filter: (f) => !f.endsWith('.map') });
    }
    // The copy holds exactly what ships, so `files` has nothing left to select.
    const { scripts: _scripts, devDependencies: _dev, files: _files, ...installed } = manifest;
    writeFileSync(path.join(stage, 'package.json'), JSON.stringify(installed, null, 2));
    const r = await runProcess('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], {
      cwd: stage,
      timeoutMs: 120_000,
      killGraceMs: 1000,
      stdout: { first: 16 * 1024 * 1024 },
      stderr: { last: 4096 },
    });
    if (r.startError) throw r.startError;
    if (r.exitCode !== 0 || r.timedOut)
      throw new Error(`npm pack ${r.timedOut ? 'did not finish within 120 s' : `exited with ${r.exitCode ?? r.signal}`}: ${r.stderr.trim()}`);
    const stdout = r.stdout;
    const [info] = JSON.parse(stdout) as { filename: string }[];
    return path.join(work, path.basename(info?.filename ?? TARBALL));
  })().catch((e: unknown) => {
    packed = undefined;
    throw e;
  });
  return packed;
}

/**
 * GET /download/orgctl.tgz (a redirect) and /download/orgctl-VERSION.tgz: the orgctl package a
 * byom machine installs with `npm install -g URL` to run `orgctl agent`, without a public
 * registry. Public: the machine has no key yet when it installs, and the package holds no secret.
 */
export const packageDownloadRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/download/orgctl.tgz',
    {
      config: { access: 'public', rateClass: 'none' },
      schema: {
        operationId: 'download.latest',
        tags: ['download'],
        summary: "Redirect to the package tarball of this service's version",
        security: [],
        response: { 302: Type.Null({ description: `Location: /download/${TARBALL}` }) },
      },
    },
    async (_request, reply) => reply.redirect(`/download/${TARBALL}`, 302),
  );
  app.get(
    '/download/:file',
    {
      config: { access: 'public', rateClass: 'none' },
      schema: {
        operationId: 'download.package',
        tags: ['download'],
        summary: `The orgctl package, built from the files this service runs: npm install -g with this address (/download/${TARBALL} on this service)`,
        security: [],
        params: Type.Object({ file: Type.String({ maxLength: 100, description: `${TARBALL}: only this service's own version` }) }),
        response: {
          200: Type.Unsafe<unknown>({ type: 'string', format: 'binary', description: 'The npm package tarball (application/gzip)' }),
          ...errorResponses(404, 503),
        },
      },
    },
    async (request, reply) => {
      if (request.params.file !== TARBALL) throw errors.notFound(`Package ${request.params.file} (this service offers ${TARBALL})`, 'package_not_found');
      let file: string;
      try {
        file = await tarball();
      } catch (e) {
        request.log.error({ err: e }, 'npm pack failed');
        throw errors.unavailable('The package could not be built on this service (npm pack failed); see its log.', 30);
      }
      return (
        reply
          .type('application/gzip')
          .header('content-length', statSync(file).size)
          // Not cached: a rebuilt service offers other bytes under the same version.
          .header('cache-control', 'no-store')
          .header('content-disposition', `attachment; filename="${TARBALL}"`)
          .send(createReadStream(file))
      );
    },
  );
};
