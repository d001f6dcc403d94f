import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium, type Browser, type Download, type Page } from 'playwright-core';
import { inject } from 'vitest';

/** Debian's chromium package; nothing here downloads a browser. */
export const CHROMIUM = '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM);

/** As root (containers, CI) Chromium refuses to start with its sandbox. */
export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-dev-shm-usage'];

function launch(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
}

/**
 * The web lane's one Chromium (global-setup.ts), connected to from this file; closing it ends
 * the connection and its contexts, not the browser. Elsewhere, a Chromium of the file's own.
 */
export function sharedBrowser(): Promise<Browser> {
  const lane = inject('webLane');
  return lane ? chromium.connect(lane.browser) : launch();
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[] }[];
}

/**
 * The serious and critical accessibility violations axe-core finds on the page as it is now.
 * axe is evaluated through the DevTools protocol, which the page's CSP does not govern (a
 * script tag would be refused, as it should be).
 */
export async function axeViolations(page: Page): Promise<string[]> {
  await page.evaluate(axeSource);
  // An expression evaluated in the page, where `axe` is a global (this file has no DOM types).
  const { violations } = await page.evaluate<{ violations: AxeViolation[] }>('axe.run(document, { resultTypes: ["violations"] })');
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} at ${JSON.stringify(v.nodes.map((n) => n.target))}`);
}

/** How far the page reaches past the window's right edge, in px: 0 or less when it fits. */
export const overflowPx = (page: Page): Promise<number> => page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');

/** The elements that reach past the window's right edge, for the message of a failed overflow check. */
export const pastTheEdge = (page: Page): Promise<string> =>
  page.evaluate<string>(
    `[...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > window.innerWidth + 0.5).slice(-5).map((e) => e.tagName + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right)).join(', ')`,
  );

/** A download's content: Chromium is reached over a connection, so the file is read through it (`path()` is local only). */
export async function downloaded(file: Download): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of (await file.createReadStream()) as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}
