// An HTTP server for an Express app whose request and response objects are born with the app's prototypes, so Express never re-prototypes them.
import { createServer, IncomingMessage, maxHeaderSize, ServerResponse, type Server, type ServerOptions } from 'node:http';
import type { Socket } from 'node:net';
import type { Express } from 'express';
import { Errors, type GatewayError } from '../errors/error-registry.js';
import { answerClientErrors } from './client-error-answer.js';
import { continueOnRead } from './expect-continue.js';

/**
 * Creates the `node:http` server of an Express app, as `app.listen` does, but with request and response objects
 * that are created with `app.request` and `app.response` as their prototypes.
 *
 * Express 5 gives every request's `req` and `res` the app's prototypes with `Object.setPrototypeOf` as it enters
 * the app. V8 then moves both objects to new hidden classes and drops the prototypes' fast mode, so property reads
 * across the whole request (Express, Node's own `writeHead` and `end`, the gateway) miss their inline caches. When
 * the objects already have those prototypes, the call changes nothing. On the gateway's model route this costs
 * about 40% less CPU per request (see BENCHMARKS.md). Behaviour is the same: the objects are what Express would have
 * made of them. An app mounted inside this one (`app.use(subApp)`) still re-prototypes as usual within it.
 * Requests Node's parser refuses before Express sees them (headers over `maxHeaderSize`, malformed HTTP) are answered
 * 431 or 400 in the gateway's error shape rather than with Node's empty bodies, and so are an HTTP/1.1 request without
 * `Host` (400, unless `requireHostHeader: false`) and an `Expect` other than `100-continue` (417). `100 Continue` is
 * sent when the body is first read, not before the app runs: a request refused from its headers is not sent its body.
 * @example
 * const app = express();
 * app.use(gateway.router);
 * createExpressServer(app).listen(8080);
 */
export function createExpressServer(app: Express, options: ServerOptions = {}): Server {
  // Node's IncomingMessage and ServerResponse are plain constructor functions, so they can be called on `this`.
  function AppRequest(this: IncomingMessage, socket: Socket): void {
    (IncomingMessage as unknown as (this: IncomingMessage, socket: Socket) => void).call(this, socket);
  }
  AppRequest.prototype = app.request;
  function AppResponse(this: ServerResponse, req: IncomingMessage, responseOptions: unknown): void {
    (ServerResponse as unknown as (this: ServerResponse, req: IncomingMessage, responseOptions: unknown) => void).call(this, req, responseOptions);
  }
  AppResponse.prototype = app.response;
  // Node's own answers to a missing Host and to an Expect it does not know have empty bodies: these are the gateway's.
  const requireHost = options.requireHostHeader ?? true;
  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    if (requireHost && req.headers.host === undefined && req.httpVersionMajor === 1 && req.httpVersionMinor === 1) answerError(res, Errors.missingHeader(['Host']));
    else app(req, res);
  };
  const server = createServer(
    { ...options, requireHostHeader: false, IncomingMessage: AppRequest as unknown as typeof IncomingMessage, ServerResponse: AppResponse as unknown as typeof ServerResponse },
    handle,
  );
  // As Node does without this listener, the request is then emitted as 'request', so other listeners see it too.
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
    continueOnRead(req, res);
    server.emit('request', req, res);
  });
  server.on('checkExpectation', (_req: IncomingMessage, res: ServerResponse) => answerError(res, Errors.expectationFailed()));
  return answerClientErrors(server, options.maxHeaderSize ?? maxHeaderSize);
}

/** Answers `error` in the gateway's shape and closes the connection (a body the request announced may follow). */
function answerError(res: ServerResponse, error: GatewayError): void {
  const body = JSON.stringify(error.toJSON());
  res.writeHead(error.statusCode, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body), connection: 'close' }).end(body);
}
