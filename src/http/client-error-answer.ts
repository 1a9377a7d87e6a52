// Answers requests Node's HTTP parser refuses (headers too large, malformed HTTP, too slow) in the gateway's error shape instead of Node's empty bodies.
import { maxHeaderSize as defaultMaxHeaderSize, STATUS_CODES, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { Errors, type GatewayError } from '../errors/error-registry.js';

/** The coded error for a parser error of `node:http`, by its `code`. */
function clientErrorOf(error: NodeJS.ErrnoException, maxHeaderSize: number): GatewayError {
  if (error.code === 'HPE_HEADER_OVERFLOW') return Errors.headersTooLarge([String(maxHeaderSize)]);
  if (error.code === 'HPE_REQUEST_TIMEOUT' || error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return Errors.requestTimeout();
  // The parser's code only (HPE_INVALID_METHOD, ...), never its message, which may quote the request's bytes.
  return Errors.malformedHttp([/^[A-Z_]{1,64}$/.test(error.code ?? '') ? error.code! : 'parse error']);
}

/**
 * Listens for `clientError` on `server` and answers it as Node would (431, 408 or 400, then closes the connection), but
 * with a JSON body `{"error": {message, type, code, param}}`. As Node does, a socket that is reset, or whose answer
 * has begun, is destroyed without a word. `maxHeaderSize` is the server's (for the message only).
 * @example
 * answerClientErrors(createServer(app));
 */
export function answerClientErrors(server: Server, maxHeaderSize: number = defaultMaxHeaderSize): Server {
  return server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } | null })._httpMessage;
    if (error.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    const answer = clientErrorOf(error, maxHeaderSize);
    const body = JSON.stringify(answer.toJSON());
    socket.end(
      `HTTP/1.1 ${answer.statusCode} ${STATUS_CODES[answer.statusCode] ?? ''}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}
