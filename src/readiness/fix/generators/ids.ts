/**
 * The generators' ids, in the order their files are listed and committed: `readiness fix --help`
 * names them without loading the generators (index.ts holds one generator per id, in this order).
 */
export const GENERATOR_IDS = [
  'codeowners',
  'pr-template',
  'issue-templates',
  'dependency-updates',
  'env-example',
  'agents-md',
  'devcontainer',
  'editorconfig',
] as const;

export type GeneratorId = (typeof GENERATOR_IDS)[number];
