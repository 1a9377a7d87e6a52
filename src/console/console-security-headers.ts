// The security headers of every admin console answer: a strict Content-Security-Policy, no framing, no sniffing, no referrer.
import type { RequestHandler } from 'express';

/**
 * The console's Content-Security-Policy: its own scripts and styles only (no inline code, no eval), API calls
 * to the gateway itself, nothing from another host, and no framing.
 */
export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const HEADERS: Record<string, string> = {
  'content-security-policy': CONSOLE_CSP,
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};

/** Middleware setting {@link CONSOLE_CSP} and the other console headers on every answer, errors included. */
export const consoleSecurityHeaders: RequestHandler = function setConsoleSecurityHeaders(_req, res, next) {
  res.set(HEADERS);
  next();
};
