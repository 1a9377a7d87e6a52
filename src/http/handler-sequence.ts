// Runs Express handlers in sequence inside one handler: the router's contract (next, next(error), rejected promises) without its per-layer matching.
import type { NextFunction, Request, RequestHandler, Response } from 'express';

/**
 * One handler that calls `handlers` in order, as a router would for one matched route: each calls `next()`
 * to go on; `next(error)`, a throw or a rejected promise passes the error to the outer `next`; after the last,
 * the outer `next()` runs. It saves the per-layer path matching of a router on hot paths.
 * @example
 * router.post('/v1/chat/completions', handlerSequence([authenticate, parseBody, resolve]));
 */
export function handlerSequence(handlers: readonly RequestHandler[]): RequestHandler {
  return function runHandlerSequence(req: Request, res: Response, next: NextFunction): void {
    let index = 0;
    const step = (error?: unknown): void => {
      if (error !== undefined && error !== null && error !== 'route') {
        next(error);
        return;
      }
      const handler = handlers[index++];
      if (!handler || error === 'route') {
        next();
        return;
      }
      try {
        const result = handler(req, res, step) as unknown;
        if (result instanceof Promise) result.then(undefined, (rejection: unknown) => step(rejection ?? new Error('rejected')));
      } catch (thrown) {
        step(thrown ?? new Error('thrown'));
      }
    };
    step();
  };
}
