// The headers of every /v1/admin answer: never stored by a browser or proxy cache, never sniffed as HTML, never framed.
import type { RequestHandler } from 'express';

/**
 * Admin answers carry secrets shown once (a new developer key), masked keys and the Chronicles (attacker-written
 * prompts): `no-store` keeps them out of every cache (a proxy keys nothing on `x-api-key`), and the JSON is never
 * sniffed as a page, run or framed.
 */
export const ADMIN_ANSWER_HEADERS: Readonly<Record<string, string>> = {
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
};

/** Middleware setting {@link ADMIN_ANSWER_HEADERS}; mounted before authentication, so 401s carry them too. */
export const adminAnswerHeaders: RequestHandler = function setAdminAnswerHeaders(_req, res, next) {
  res.set(ADMIN_ANSWER_HEADERS);
  next();
};
