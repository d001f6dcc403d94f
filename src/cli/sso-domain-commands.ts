import type { Config } from '../config.js';
import { LOCAL } from './local-specs.js';
import { parseCommand } from './model.js';
import { output, required, UsageError } from '../core/cli/args.js';
import { CliError } from '../core/cli/cli-error.js';
import { withServices } from '../services.js';

/**
 * orgctl sso verify-domain DOMAIN --token TOKEN [--json]: the instance operator, on the host,
 * verifies an organization's claim of a domain. The token is what the claiming organization's
 * owners were shown; the operator checks by their own means (a DNS record, a message from the
 * domain's administrators) that the organization really holds the domain before running it.
 */
export async function ssoVerifyDomain(argv: string[], config: Config): Promise<number> {
  const { values, positionals } = parseCommand(argv, LOCAL.ssoVerifyDomain);
  if (!positionals[0]) throw new UsageError('Name the domain: orgctl sso verify-domain DOMAIN --token TOKEN');
  const token = required(values.token, 'token').trim();
  const { result, orgName } = await withServices(config, async ({ sso, operatorIdentity }) => {
    const found = await sso.verifyDomain(positionals[0]!, token);
    const org = found.orgId === undefined ? undefined : (await operatorIdentity.listOrganizations()).find((o) => o.id === found.orgId);
    return { result: found, orgName: org ? `"${org.name}" (${org.id})` : found.orgId };
  });
  const { domain } = result;
  switch (result.outcome) {
    case 'not_claimed':
      throw new CliError(`No organization claims ${domain}: an owner adds it to the organization's single sign-on first.`);
    case 'wrong_token':
      throw new CliError(
        `The token is not the one of any claim of ${domain}: nothing was verified. Ask the organization's owners for the token shown with it.`,
      );
    case 'taken':
      throw new CliError(`${domain} is verified for organization ${orgName}: a domain signs in to one organization at most. Nothing was changed.`);
    default:
      output(values.json, { domain, orgId: result.orgId, verified: true, alreadyVerified: result.outcome === 'already' }, [
        result.outcome === 'already'
          ? `${domain} was already verified for organization ${orgName}.`
          : `${domain} verified for organization ${orgName}: its people sign in there with single sign-on from now on.`,
      ]);
      return 0;
  }
}
