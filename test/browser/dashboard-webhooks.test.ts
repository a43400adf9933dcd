import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startServer, tempDir, type ServerProcess } from '../e2e/helpers.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';
import { axeViolations, clipboardText, desktop, launchBrowser, setUpOwner, settled, SKIP_REASON } from './browser.js';

const suite = SKIP_REASON ? describe.skip : describe;

suite(`the dashboard's webhooks screen in Chromium, with axe${SKIP_REASON ? ` (${SKIP_REASON})` : ''}`, () => {
  const dir = tempDir('quire-browser-');
  // The receiver is on loopback, which only this flag lets an endpoint name.
  const env = { QUIRE_DATA_DIR: dir.dataDir, QUIRE_WEBHOOK_ALLOW_PRIVATE: 'true' };
  let server: ServerProcess;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let receiver: Receiver;
  let workspaceId: string;

  beforeAll(async () => {
    [server, browser, receiver] = await Promise.all([startServer(env), launchBrowser(), startReceiver()]);
    // axe is injected as a script tag, which the dashboard's Content-Security-Policy would (rightly) block.
    context = await browser.newContext({ ...desktop, bypassCSP: true });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    page = await context.newPage();
    workspaceId = (await setUpOwner(page, server.url, 'owner@example.com', 'Hooked')).id;
  });
  afterAll(async () => {
    await browser?.close().catch(() => undefined);
    await server?.stop().catch(() => undefined);
    await receiver?.close();
    dir.remove();
  });

  const row = () => page.locator('tr[data-webhook-id]');

  it('adds an endpoint and shows its secret once, with a Copy button that copies it', async () => {
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('heading', { name: 'Webhooks', level: 1 }).waitFor();
    expect(page.url()).toBe(`${server.url}/dashboard/w/${workspaceId}/webhooks`);
    await page.getByText('No endpoints yet.').waitFor();
    expect(await axeViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await page.getByLabel('URL').fill(receiver.url('/browser'));
    await page.getByLabel('Event types (optional)').fill('post.created, post.exploded');
    await page.getByRole('button', { name: 'Add endpoint' }).last().click();
    // The server names the unknown type; the form shows it at its field.
    await page
      .getByText(/Event types/)
      .first()
      .waitFor();
    await page.locator('.field-error').first().waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await page.getByLabel('Event types (optional)').fill('');
    await page.getByRole('button', { name: 'Add endpoint' }).last().click();

    const secret = page.getByLabel('Signing secret', { exact: true });
    await secret.waitFor();
    const value = await secret.inputValue();
    expect(value).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    receiver.secrets.set('/browser', value);
    await page.getByRole('button', { name: 'Copy' }).click();
    expect(await clipboardText(page)).toBe(value);
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Done' }).click();
    await row().first().waitFor();
    expect(await row().count()).toBe(1);
    expect(await row().first().textContent()).toContain('All events');
    expect(await page.content()).not.toContain(value);
  });

  it('sends a test event the receiver verifies, lists the delivery with its answer, and redelivers it', async () => {
    await page.getByRole('button', { name: /^Deliveries/ }).click();
    await page.getByText('No deliveries yet.').waitFor();
    await page.getByRole('button', { name: 'Send test' }).click();
    const [received] = await receiver.waitFor(1, (r) => r.path === '/browser');
    expect(received!.verifyError).toBeNull();
    expect(received!.event.type).toBe('webhook.test');

    const delivery = page.locator('tr[data-delivery-id]').first();
    for (let tries = 0; !((await delivery.textContent()) ?? '').includes('succeeded'); tries += 1) {
      expect(tries).toBeLessThan(50);
      await page.getByRole('button', { name: 'Refresh' }).click();
      await settled(page);
    }
    expect(await delivery.textContent()).toMatch(/webhook\.test.*succeeded.*1.*204 in \d+ ms \(attempt 1\)/);
    expect(await axeViolations(page)).toEqual([]);

    await page
      .getByRole('button', { name: /^Redeliver/ })
      .first()
      .click();
    const again = await receiver.waitFor(2, (r) => r.path === '/browser');
    expect(again[1]!.id).toBe(received!.id);
    expect(again[1]!.verifyError).toBeNull();
  });

  it('disables an endpoint and says why, rotates and reveals the secret, and deletes it', async () => {
    await page.getByRole('button', { name: /^Disable/ }).click();
    await row().getByText('Disabled', { exact: true }).waitFor();
    expect(await row().textContent()).toContain('disabled by a user');
    expect(await page.getByRole('button', { name: 'Send test' }).count()).toBe(0);
    await page.getByRole('button', { name: /^Enable/ }).click();
    await row().getByText('Enabled', { exact: true }).waitFor();

    await page.getByRole('button', { name: /^Rotate secret/ }).click();
    await page.getByRole('button', { name: 'Rotate secret' }).last().click();
    const rotated = await page.getByLabel('Signing secret', { exact: true }).inputValue();
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(receiver.secrets.get('/browser'));
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('button', { name: /^Reveal secret/ }).click();
    await page.getByRole('button', { name: 'Reveal secret' }).last().click();
    expect(await page.getByLabel('Signing secret', { exact: true }).inputValue()).toBe(rotated);
    await page.getByRole('button', { name: 'Done' }).click();

    await page.getByRole('button', { name: /^Delete/ }).click();
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Delete endpoint' }).click();
    await page.getByText('No endpoints yet.').waitFor();
  });
});
