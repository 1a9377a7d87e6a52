// The admin console test fixture: the example server with admin keys of each role, a fake provider, a real MCP server and Chromium, with page helpers.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import OpenAI from 'openai';
import type { Locator, Page } from 'playwright-core';
import { screenshot, startBrowser, type TestBrowser } from './browser.js';
import { buildConsoleIfStale } from './console-build.js';
import { startExampleServer, stopExampleServer, type ExampleServer } from './example-server-process.js';
import { startFakeMcpServer, type FakeMcpServer } from './fake-mcp-server.js';
import { startFakeProvider, type FakeProvider } from './fake-provider.js';

/** One admin key per role, as the example server is started with. */
export const CONSOLE_KEYS = {
  super_admin: 'console-super-admin-key-0123456789',
  admin: 'console-admin-key-0123456789abcdef',
  viewer: 'console-viewer-key-0123456789abcdef',
} as const;
export type ConsoleRole = keyof typeof CONSOLE_KEYS;
export const PROVIDER_SECRET = 'sk-console-provider-secret-9876543210';
export const REGISTRY_TOKEN = 'registry-token-console-0123456789';
/** Set CONSOLE_SCREENSHOTS=1 (npm run docs:console-screenshots) to rewrite the README's screenshots in docs/console/. */
const DOC_SHOTS = process.env.CONSOLE_SCREENSHOTS ? resolve(import.meta.dirname, '../../docs/console') : undefined;

/** What the console tests run against. */
export interface ConsoleFixture {
  fake: FakeProvider;
  mcp: FakeMcpServer;
  server: ExampleServer;
  browser: TestBrowser;
  /** The page of the running test, if it opened one. */
  page: Page | undefined;
  /** The admin API, for setting up what a test does not do through the page. */
  adminApi(method: string, path: string, body?: unknown, key?: string): Promise<any>;
  /** A provider, a chat route on it, an application and a developer key, made through the API. */
  setUpTraffic(suffix: string): Promise<{ route: string; application: string; key: string }>;
  /** A chat request through the official client with a developer key. */
  chat(key: string, route: string, content: string): Promise<OpenAI.Chat.Completions.ChatCompletion>;
  /** Opens the console in a new page and signs in with the role's key. */
  signIn(role: ConsoleRole): Promise<Page>;
  close(): Promise<void>;
}

/** Builds the console if needed and starts everything; {@link ConsoleFixture.close} stops it all. */
export async function startConsoleFixture(): Promise<ConsoleFixture> {
  await buildConsoleIfStale();
  const [fake, mcp, dataDir] = await Promise.all([startFakeProvider(), startFakeMcpServer({ token: REGISTRY_TOKEN }), mkdtemp(join(tmpdir(), 'console-data-'))]);
  const server = await startExampleServer({
    GATEWAY_ADMIN_KEY: CONSOLE_KEYS.super_admin,
    GATEWAY_ADMIN_KEYS: JSON.stringify([
      { key: CONSOLE_KEYS.admin, role: 'admin', name: 'operator' },
      { key: CONSOLE_KEYS.viewer, role: 'viewer', name: 'auditor' },
    ]),
    GATEWAY_DATA_DIR: dataDir,
    GATEWAY_SECRET: 'console-test-secret',
  });
  const browser = await startBrowser();
  const fixture: ConsoleFixture = {
    fake,
    mcp,
    server,
    browser,
    page: undefined,
    async adminApi(method, path, body, key = CONSOLE_KEYS.super_admin) {
      const res = await fetch(`${server.base}/v1/admin/${path}`, {
        method,
        headers: { 'x-api-key': key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      if (res.status >= 400) throw new Error(`${method} ${path}: ${res.status} ${text}`);
      return text ? JSON.parse(text) : null;
    },
    async setUpTraffic(suffix) {
      const names = { provider: `fake-${suffix}`, route: `chat-${suffix}`, application: `app-${suffix}` };
      await fixture.adminApi('POST', 'providers', { name: names.provider, type: 'openai', config: { api_base: fake.url }, api_keys: [{ api_key: PROVIDER_SECRET }] });
      await fixture.adminApi('POST', 'routes', { name: names.route, type: 'chat', models: [{ name: 'gpt-4o-mini', provider: names.provider }] });
      await fixture.adminApi('POST', 'applications', { name: names.application });
      const { key } = await fixture.adminApi('POST', `applications/${names.application}/keys`, {});
      return { route: names.route, application: names.application, key };
    },
    chat(key, route, content) {
      const client = new OpenAI({ baseURL: `${server.base}/v1`, apiKey: 'unused-by-the-gateway', defaultHeaders: { 'x-gateway-apikey': key, 'x-gateway-route': route }, maxRetries: 0 });
      return client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content }] });
    },
    async signIn(role) {
      const page = await browser.newPage();
      fixture.page = page;
      await page.goto(`${server.base}/console/`);
      await page.getByLabel('Admin key').fill(CONSOLE_KEYS[role]);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByText(`(${role})`).waitFor();
      return page;
    },
    async close() {
      await browser.close();
      await stopExampleServer(server.child);
      await Promise.all([fake.close(), mcp.close()]);
      await rm(dataDir, { recursive: true, force: true });
    },
  };
  return fixture;
}

/** Opens a screen from the navigation and waits for its heading. */
export async function openScreen(p: Page, screen: string): Promise<void> {
  await p.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name: screen, exact: true }).click();
  await p.getByRole('heading', { level: 1, name: screen }).waitFor();
}

/** Saves a README screenshot of the page when CONSOLE_SCREENSHOTS is set. */
export async function docShot(p: Page, name: string): Promise<void> {
  if (DOC_SHOTS) await screenshot(p, DOC_SHOTS, name);
}

/** Clicks `button` until `target` shows (the request log is written in batches), up to a deadline. */
export async function clickUntilVisible(p: Page, button: string, target: () => Locator): Promise<void> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    await p.getByRole('button', { name: button }).click();
    try {
      await target().first().waitFor({ timeout: 500 });
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
    }
  }
}

/**
 * Controls without a label or out of the keyboard's reach, on the current screen. Page code reaches the DOM as a
 * string or through globalThis, as the tests compile without DOM types; a string *predicate* would be run with eval
 * in the page, which the console's CSP rightly refuses, so predicates are functions.
 */
export function unlabelledControls(p: Page): Promise<string[]> {
  return p.evaluate(`(() => {
    const bad = [];
    for (const element of document.querySelectorAll('a[href], button, input, select, textarea, [role="tab"], [role="switch"], pre[tabindex]')) {
      const labelled = (element.labels?.length ?? 0) > 0 || element.getAttribute('aria-label') || element.getAttribute('aria-labelledby') ||
        ((element.tagName === 'BUTTON' || element.tagName === 'A') && element.textContent.trim());
      if (!labelled) bad.push('unlabelled ' + element.outerHTML.slice(0, 120));
      if (element.tabIndex < 0) bad.push('not focusable ' + element.outerHTML.slice(0, 120));
    }
    return bad;
  })()`);
}
