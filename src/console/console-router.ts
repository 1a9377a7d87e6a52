// The opt-in admin console router: serves the built single-page console under /console with strict security headers.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import express, { Router } from 'express';
import { errorMiddleware, type GatewayLogger } from '../errors/error-middleware.js';
import { Errors } from '../errors/error-registry.js';
import { consoleSecurityHeaders } from './console-security-headers.js';

/** The path the console is served under. */
export const CONSOLE_PATH = '/console';

/** Options of {@link consoleRouter}. */
export interface ConsoleRouterOptions {
  /** The folder holding the built console (index.html and assets/). Default: the package's `console/dist`. */
  assetsDir?: string;
  logger?: GatewayLogger;
}

/**
 * The package's built console: `app/` beside this module in a build (`dist/src/console/app`, copied by
 * scripts/copy-console-assets.ts), else `console/dist` at the repository root when running the sources.
 * Checked once, at creation.
 */
export function defaultConsoleAssetsDir(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const candidates = [resolve(here, 'app'), resolve(here, '../../console/dist')];
  return candidates.find((dir) => existsSync(join(dir, 'index.html'))) ?? candidates[0]!;
}

/**
 * Creates the console router. It serves static files only: every datum the page shows comes from the admin API,
 * which checks the admin key the user signs in with. `index.html` is read once and answered with `no-store`;
 * the hashed assets are cached for a year.
 * @example
 * app.use(gateway.console); // the console at /console
 */
export function consoleRouter(options: ConsoleRouterOptions = {}): Router {
  const dir = options.assetsDir ?? defaultConsoleAssetsDir();
  let page: Promise<Buffer> | undefined;
  const indexHtml = (): Promise<Buffer> => {
    page ??= readFile(join(dir, 'index.html')).catch((error: NodeJS.ErrnoException) => {
      page = undefined;
      throw Errors.consoleNotBuilt([error.code ?? 'unreadable'], { cause: error });
    });
    return page;
  };

  const inner = Router();
  inner.use(consoleSecurityHeaders);
  inner.use(
    '/assets',
    express.static(join(dir, 'assets'), { immutable: true, maxAge: '365d', index: false, redirect: false }),
  );
  inner.get('/', async function consolePage(req, res) {
    // Without the trailing slash the page's relative URLs (assets, ../v1/admin) would resolve one level up.
    const path = req.originalUrl.split('?')[0]!;
    if (!path.endsWith('/')) {
      res.redirect(308, `${req.baseUrl}/`);
      return;
    }
    const html = await indexHtml();
    res.set({ 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).send(html);
  });
  inner.use(function consoleNotFound(req, _res, next) {
    next(Errors.routeNotFound([req.method, `${CONSOLE_PATH}${req.path}`.slice(0, 200)]));
  });
  inner.use(errorMiddleware(options.logger));

  const router = Router();
  router.use(CONSOLE_PATH, inner);
  return router;
}
