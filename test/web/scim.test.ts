import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, CHROMIUM, hasChromium } from './browser.js';
import { signedInAs, signedInOwner, type SignedIn } from './signed-in-server.js';

if (!hasChromium) console.warn(`Browser tests skipped: no Chromium at ${CHROMIUM} (apt-get install chromium).`);

describe.skipIf(!hasChromium)('Settings → Members → Provisioning (SCIM) in Chromium against orgctl serve', { timeout: 180_000 }, () => {
  let s: SignedIn;
  let manager: Page;

  beforeAll(async () => {
    s = await signedInOwner();
    manager = await signedInAs(s, 'manager', 'manny@web.test');
  }, 120_000);

  it('an owner makes a SCIM token shown once, which provisions a user, and revokes it', async () => {
    const { page } = s;
    await page.goto(`${s.server.url}/settings/members`);
    const card = page.getByRole('region', { name: 'Provisioning (SCIM)' });
    await card.getByTestId('scim-base-url').waitFor();
    expect(await card.getByTestId('scim-base-url').textContent()).toBe(`${s.server.url}/scim/v2`);
    await card.getByLabel('Token name').fill('Okta');
    await card.getByRole('button', { name: 'Create SCIM token' }).click();
    const token = (await card.getByTestId('new-scim-token').textContent())!;
    expect(token).toMatch(/^ocs_/);
    await card
      .getByRole('row')
      .filter({ hasText: 'Okta' })
      .getByRole('cell', { name: `${token.slice(0, 10)}…` })
      .waitFor();
    expect(await axeViolations(page)).toEqual([]);

    const created = await fetch(`${s.server.url}/scim/v2/Users`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/scim+json' },
      body: JSON.stringify({
        schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
        userName: 'provisioned@web.test',
        name: { givenName: 'Pro', familyName: 'Visioned' },
      }),
    });
    expect(created.status).toBe(201);
    await page.reload();
    await page
      .getByRole('cell', { name: /provisioned@web\.test/ })
      .first()
      .waitFor();

    await card.getByRole('button', { name: 'Revoke Okta' }).click();
    await card.getByRole('row').filter({ hasText: 'Okta' }).getByRole('cell', { name: 'revoked' }).waitFor();
    const refused = await fetch(`${s.server.url}/scim/v2/Users`, { headers: { authorization: `Bearer ${token}` } });
    expect(refused.status).toBe(401);
  });

  it('shows no SCIM card to a manager', async () => {
    await manager.goto(`${s.server.url}/settings/members`);
    await manager.getByRole('heading', { name: 'Members', level: 1 }).waitFor();
    await manager.getByRole('table').first().waitFor();
    expect(await manager.getByRole('region', { name: 'Provisioning (SCIM)' }).count()).toBe(0);
  });
});
