import type { Generator } from '../types.js';
import { GENERATOR_IDS, type GeneratorId } from './ids.js';
import { agentsMd } from './agents-md.js';
import { codeowners } from './codeowners.js';
import { dependencyUpdates } from './dependency-updates.js';
import { devcontainer } from './devcontainer.js';
import { editorconfig } from './editorconfig.js';
import { envExample } from './env-example.js';
import { issueTemplates } from './issue-templates.js';
import { prTemplate } from './pr-template.js';

/** One generator for each id, under that id (the compiler checks both). */
const BY_ID: { [Id in GeneratorId]: Generator & { id: Id } } = {
  codeowners,
  'pr-template': prTemplate,
  'issue-templates': issueTemplates,
  'dependency-updates': dependencyUpdates,
  'env-example': envExample,
  'agents-md': agentsMd,
  devcontainer,
  editorconfig,
};

/** Every generator, in the order their files are listed and committed. */
export const GENERATORS: readonly Generator[] = GENERATOR_IDS.map((id) => BY_ID[id]);
