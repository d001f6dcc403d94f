import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/wait.js';
import { Receiver } from '../webhooks/receiver.js';
import { axeViolations, hasChromium } from './browser.js';
import { apiCall, signedInAs, signedInOwner, type SignedIn } from './signed-in-server.js';

describe.skipIf(!hasChromium)('Settings → Webhooks and Alerts in Chromium against orgctl serve', { timeout: 180_000 }, () => {
  let s: SignedIn;
  let receiver: Receiver;

  beforeAll(async () => {
    receiver = await Receiver.start();
    s = await signedInOwner();
  }, 120_000);
  afterAll(async () => {
    await receiver?.close();
  });

  it('an owner adds an endpoint (its secret shown once), sees the delivery log and sends a delivery again', async () => {
    const { page } = s;
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('heading', { name: 'Webhooks', level: 1 }).waitFor();
    await page.getByText('No endpoints yet.').waitFor();
    await page.getByLabel('Endpoint URL').fill(receiver.url);
    await page.getByRole('checkbox', { name: 'member.added' }).check();
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const secret = (await page.getByTestId('webhook-secret').textContent()) as string;
    expect(secret).toMatch(/^whsec_/);
    const card = page.getByRole('region', { name: receiver.url });
    await card.getByText('No deliveries yet.').waitFor();
    expect(await axeViolations(page)).toEqual([]);

    // A member joins: member.added is delivered, signed with the secret shown.
    const member = await signedInAs(s, 'member', 'mia@web.test');
    await waitFor(async () => (receiver.received.length > 0 ? true : undefined), 20_000, 'the delivery');
    const first = receiver.received[0]!;
    expect(new Webhook(secret).verify(first.body, first.headers as Record<string, string>)).toMatchObject({
      type: 'member.added',
      data: { email: 'mia@web.test' },
    });
    await page.reload();
    const row = page.getByRole('region', { name: receiver.url }).getByRole('row').filter({ hasText: 'member.added' });
    await row.filter({ hasText: 'succeeded' }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await row.getByRole('button', { name: /^Send again msg_\w+$/ }).click();
    await waitFor(async () => (receiver.received.length > 1 ? true : undefined), 20_000, 'the delivery sent again');
    expect(receiver.received[1]!.headers['webhook-id']).toBe(first.headers['webhook-id']);

    // The member sees no Webhooks settings and only their own alerts.
    await member.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Alerts' }).click();
    await member.getByText('Your alerts').waitFor();
    await member.getByText('No alerts.').waitFor();
    expect(await member.getByRole('link', { name: 'Webhooks' }).count()).toBe(0);
    expect(await axeViolations(member)).toEqual([]);
    await member.context().close();
  });

  it("an owner's alerts page lists the organization's alerts", async () => {
    const { page } = s;
    expect((await apiCall(s, 'PUT', '/api/v0/organization/usage/limits/global', { limit: 1_000_000 })).status).toBe(200);
    const sent = await apiCall(s, 'POST', '/api/v1/telemetry/events', {
      events: [
        {
          id: 'web-1',
          type: 'model_request',
          timestamp: Date.now() - 60_000,
          sessionId: 's',
          client: 'web',
          model: 'claude-sonnet-4-5',
          tier: 'standard',
          inputTokens: 700_000,
          outputTokens: 0,
          cacheReadTokens: 0,
          cacheWriteTokens: 0,
        },
      ],
    });
    expect(sent.status).toBe(202);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Alerts' }).click();
    const table = page.getByRole('region', { name: 'Alerts' });
    await table.getByRole('row').filter({ hasText: '80%' }).waitFor();
    expect(await table.getByRole('row').filter({ hasText: s.owner.email }).count()).toBe(2);
    expect(await axeViolations(page)).toEqual([]);
  });
});
