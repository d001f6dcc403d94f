import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, hasChromium } from './browser.js';
import { apiCall, signedInAs, signedInOwner, type SignedIn } from './signed-in-server.js';

const MIA = 'mia@web.test';
const NOAH = 'noah@web.test';

type Teams = { teams: { id: string; name: string; monthlyBudget: number | null; members: { email: string }[] }[] };

describe.skipIf(!hasChromium)('Settings → Teams in Chromium against orgctl serve', { timeout: 180_000 }, () => {
  let s: SignedIn;
  let member: Page;

  beforeAll(async () => {
    s = await signedInOwner();
    member = await signedInAs(s, 'member', MIA);
    await signedInAs(s, 'manager', NOAH).then((p) => p.context().close());
  }, 120_000);

  const teams = async () => (await apiCall<Teams>(s, 'GET', '/api/v0/organization/teams')).body.teams;

  it('an owner creates a team, adds and removes members, renames it (a name taken in another case is refused) and deletes it after a confirmation', async () => {
    const { page } = s;
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Teams' }).click();
    await page.getByRole('heading', { name: 'Teams', level: 1 }).waitFor();
    await page.getByText('No teams yet.').waitFor();

    await page.getByLabel('Team name').fill('Platform');
    await page.getByRole('button', { name: 'Create team' }).click();
    const card = page.getByRole('region', { name: 'Platform', exact: true });
    await card.getByText('0 members').waitFor();
    await card.getByLabel('Add to Platform').selectOption({ label: MIA });
    await card.getByRole('button', { name: 'Add member' }).click();
    await card.getByRole('row').filter({ hasText: MIA }).waitFor();
    await card.getByLabel('Add to Platform').selectOption({ label: NOAH });
    await card.getByRole('button', { name: 'Add member' }).click();
    await card.getByText('2 members').waitFor();
    expect((await teams())[0]!.members.map((m) => m.email)).toEqual([MIA, NOAH]);
    expect(await axeViolations(page)).toEqual([]);

    await card.getByRole('button', { name: `Remove ${NOAH} from Platform` }).click();
    await card.getByText(/^1 member;/).waitFor();
    expect((await teams())[0]!.members.map((m) => m.email)).toEqual([MIA]);

    // A monthly budget: below the minimum the API says why; set, then removed; both audited.
    const budget = card.getByLabel('Monthly budget of Platform (Standard Credits, at least 1,000,000)');
    await budget.fill('5000');
    await card.getByRole('button', { name: 'Set budget of Platform' }).click();
    await card
      .getByRole('alert')
      .filter({ hasText: /1000000/ })
      .waitFor();
    await budget.fill('4,000,000');
    await card.getByRole('button', { name: 'Set budget of Platform' }).click();
    await card
      .getByTestId('team-budget')
      .filter({ hasText: /^monthly budget 4\D?000\D?000 Standard Credits$/ })
      .waitFor();
    expect((await teams())[0]).toMatchObject({ monthlyBudget: 4_000_000 });
    await card.getByRole('button', { name: 'Remove budget of Platform' }).click();
    await card.getByTestId('team-budget').filter({ hasText: 'no monthly budget' }).waitFor();
    const audit = await apiCall<{ entries: { scope: string; targetTeamName: string; oldLimit: number | null; newLimit: number | null }[] }>(
      s,
      'GET',
      '/api/v0/organization/usage/limits/audit',
    );
    expect(audit.body.entries.map((e) => [e.scope, e.targetTeamName, e.oldLimit, e.newLimit])).toEqual([
      ['team', 'Platform', 4_000_000, null],
      ['team', 'Platform', null, 4_000_000],
    ]);

    // A second team, then a rename onto the first one's name in other letters: the API's 409 is shown and nothing changes.
    await page.getByLabel('Team name').fill('Mobile');
    await page.getByRole('button', { name: 'Create team' }).click();
    const mobile = page.getByRole('region', { name: 'Mobile', exact: true });
    await mobile.getByLabel('New name for Mobile').fill('PLATFORM');
    await mobile.getByRole('button', { name: 'Rename Mobile' }).click();
    await mobile
      .getByRole('alert')
      .filter({ hasText: /taken|already/i })
      .waitFor();
    expect((await teams()).map((t) => t.name)).toEqual(['Mobile', 'Platform']);
    await mobile.getByLabel('New name for Mobile').fill('Apps');
    await mobile.getByRole('button', { name: 'Rename Mobile' }).click();
    await page.getByRole('region', { name: 'Apps', exact: true }).waitFor();
    expect((await teams()).map((t) => t.name)).toEqual(['Apps', 'Platform']);

    // A dismissed confirmation keeps the team; an accepted one deletes it.
    const apps = page.getByRole('region', { name: 'Apps', exact: true });
    page.once('dialog', (d) => void d.dismiss());
    await apps.getByRole('button', { name: 'Delete team Apps' }).click();
    expect(await teams()).toHaveLength(2);
    page.once('dialog', (d) => void d.accept());
    await apps.getByRole('button', { name: 'Delete team Apps' }).click();
    await apps.waitFor({ state: 'detached' });
    expect((await teams()).map((t) => t.name)).toEqual(['Platform']);
  });

  it('a member sees the teams and who is in them, with no control to change them; a guest has no Teams link and is told the page is not for them', async () => {
    await member.goto(`${s.server.url}/settings/teams`);
    const card = member.getByRole('region', { name: 'Platform', exact: true });
    await card.getByRole('row').filter({ hasText: MIA }).waitFor();
    expect(await member.getByLabel('Team name').count()).toBe(0);
    expect(await card.getByRole('button').count()).toBe(0);
    expect(await axeViolations(member)).toEqual([]);

    const guest = await signedInAs(s, 'guest', 'guest@web.test');
    expect(await guest.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Teams' }).count()).toBe(0);
    await guest.goto(`${s.server.url}/settings/teams`);
    await guest
      .getByRole('alert')
      .filter({ hasText: /owner, manager, member/ })
      .waitFor();
    await guest.context().close();
  });
});
