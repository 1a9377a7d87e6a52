// A real Chromium for browser tests (playwright-core driving Debian's /usr/bin/chromium): pending when missing, a failure under CI=true.
import { access, constants, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

/** The Chromium the tests drive: CHROMIUM_PATH, or Debian's package. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** The flags the browser tests start Chromium with (Playwright adds its own automation flags). */
export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** Where a failing browser test saves its screenshot. */
export const FAILURE_SCREENSHOTS = resolve(import.meta.dirname, '../../.tmp/browser-failures');

/**
 * Declares, inside a `describe`, that its tests need Chromium: pending with the reason when the executable is
 * missing, or, under `CI=true`, a failing hook (CI installs it: see .ci/run).
 */
export function requireChromium(): void {
  before(async function () {
    try {
      await access(CHROMIUM_PATH, constants.X_OK);
    } catch {
      const reason = `Chromium is not installed at ${CHROMIUM_PATH} (apt-get install -y chromium, or set CHROMIUM_PATH)`;
      if (process.env.CI === 'true') throw new Error(`${reason}; under CI=true the browser tests must run, so this fails`);
      console.warn(`    pending: ${reason}`);
      this.skip();
    }
  });
}

/** A started browser with a fresh profile. */
export interface TestBrowser {
  context: BrowserContext;
  /** Messages the pages logged as errors, and CSP violations, since start. */
  problems: string[];
  newPage(): Promise<Page>;
  close(): Promise<void>;
}

/** Starts Chromium headless with a fresh user data dir, which {@link TestBrowser.close} removes. */
export async function startBrowser(): Promise<TestBrowser> {
  const profile = await mkdtemp(join(tmpdir(), 'chromium-profile-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1280, height: 900 },
    timeout: 60_000,
  });
  context.setDefaultTimeout(15_000);
  const problems: string[] = [];
  const watch = (page: Page) => {
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  };
  context.pages().forEach(watch);
  context.on('page', watch);
  return {
    context,
    problems,
    newPage: () => context.newPage(),
    async close() {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}

/** Saves a screenshot of `page` as `<dir>/<name>.png` (full page). */
export async function screenshot(page: Page, dir: string, name: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  const path = join(dir, `${name.replace(/[^\w.-]+/g, '-').slice(0, 100)}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}
