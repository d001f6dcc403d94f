import type { Generator } from '../types.js';
import { agentsMd } from './agents-md.js';
import { codeowners } from './codeowners.js';
import { dependencyUpdates } from './dependency-updates.js';
import { devcontainer } from './devcontainer.js';
import { editorconfig } from './editorconfig.js';
import { envExample } from './env-example.js';
import { issueTemplates } from './issue-templates.js';
import { prTemplate } from './pr-template.js';

/** Every generator, in the order their files are listed and committed. */
export const GENERATORS: readonly Generator[] = [codeowners, prTemplate, issueTemplates, dependencyUpdates, envExample, agentsMd, devcontainer, editorconfig];
