// Writes the generated parts of the docs from the built code: the readiness criteria table, the error codes and the webhook event catalogue.
import { readFileSync, writeFileSync } from 'node:fs';
import { withErrorCodesTable } from '../dist/core/http/error-codes.js';
import { withCriteriaTable } from '../dist/readiness/criteria-table.js';
import { withCatalogue } from '../dist/webhooks/catalogue-doc.js';

const page = new URL('../docs/readiness.md', import.meta.url);
writeFileSync(page, withCriteriaTable(readFileSync(page, 'utf8')));

const errorsPage = new URL('../docs/errors.md', import.meta.url);
writeFileSync(errorsPage, withErrorCodesTable(readFileSync(errorsPage, 'utf8')));

const webhooksPage = new URL('../docs/webhooks.md', import.meta.url);
writeFileSync(webhooksPage, withCatalogue(readFileSync(webhooksPage, 'utf8')));
