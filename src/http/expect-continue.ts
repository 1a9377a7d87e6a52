// Answers `Expect: 100-continue` only when the body is read, so a request refused from its headers (a bad key) is never sent its body.
import type { IncomingMessage, ServerResponse } from 'node:http';

/** The private members of IncomingMessage used here: `_read` starts the socket flowing for the body. */
type ReadableRequest = IncomingMessage & { _read(size: number): void };

/**
 * For a request that sent `Expect: 100-continue` (a `node:http` server's `checkContinue` event): sends
 * `100 Continue` the first time anything reads the body, and never when the answer is written first. A request
 * refused from its headers (401, 403, 404, 415, 413 by its declared length) thus gets its final status instead, and
 * the client does not upload the body; Node then closes the connection after that answer, since the body may
 * still follow. Any reader works unchanged: `on('data')`, `pipe`, body-parser, busboy.
 * @example
 * server.on('checkContinue', (req, res) => {
 *   continueOnRead(req, res);
 *   app(req, res);
 * });
 */
export function continueOnRead(req: IncomingMessage, res: ServerResponse): void {
  const request = req as ReadableRequest;
  const read = request._read;
  request._read = function readAfterContinue(this: ReadableRequest, size: number): void {
    request._read = read;
    // After a final answer, Node itself drains what is left (or closes); a 100 then would be out of order.
    if (!res.headersSent) res.writeContinue();
    read.call(this, size);
  };
}
