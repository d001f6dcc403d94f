import { commandsOf, toolchainsOf, type Toolchain } from '../toolchain.js';
import type { Generator } from '../types.js';

/** The dev container feature installing each toolchain, and the version used when the repository pins none. */
const FEATURES: Record<Exclude<Toolchain['language'], 'cpp'>, { feature: string; version: string; extra?: Record<string, unknown> }> = {
  node: { feature: 'ghcr.io/devcontainers/features/node:1', version: 'lts' },
  python: { feature: 'ghcr.io/devcontainers/features/python:1', version: '3.12' },
  go: { feature: 'ghcr.io/devcontainers/features/go:1', version: 'latest' },
  rust: { feature: 'ghcr.io/devcontainers/features/rust:1', version: 'latest' },
  java: { feature: 'ghcr.io/devcontainers/features/java:1', version: '21', extra: { installMaven: 'true', installGradle: 'true' } },
  ruby: { feature: 'ghcr.io/devcontainers/features/ruby:1', version: '3.3' },
};

/**
 * `.devcontainer/devcontainer.json`: the Debian base image (the C/C++ image when the code needs a
 * compiler) with one feature per detected toolchain at the version the repository pins, and the
 * root application's install command run once the container exists.
 */
export const devcontainer = {
  id: 'devcontainer',
  when: ['devcontainer'],
  existing: /^(\.devcontainer\/devcontainer\.json|\.devcontainer\.json|\.devcontainer\/[^/]+\/devcontainer\.json)$/,
  async generate(ctx) {
    const toolchains = await toolchainsOf(ctx);
    const features: Record<string, Record<string, unknown>> = {};
    for (const t of toolchains) {
      if (t.language === 'cpp') continue;
      const f = FEATURES[t.language];
      features[f.feature] = { version: t.version ?? f.version, ...f.extra };
    }
    const root = ctx.apps.find((a) => a.path === '.') ?? ctx.apps[0];
    const install = root ? (await commandsOf(ctx, root)).install : undefined;
    const config = {
      name: ctx.name,
      image: toolchains.some((t) => t.language === 'cpp') ? 'mcr.microsoft.com/devcontainers/cpp:1-bookworm' : 'mcr.microsoft.com/devcontainers/base:bookworm',
      features,
      ...(install ? { postCreateCommand: root && root.path !== '.' ? `cd ${root.path} && ${install}` : install } : {}),
    };
    return {
      files: [{ path: '.devcontainer/devcontainer.json', content: `${JSON.stringify(config, null, 2)}\n` }],
      criteria: ['devcontainer'],
    };
  },
} satisfies Generator;
