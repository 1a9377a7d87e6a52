// The Chronicles recorder router: writes one request log entry for every model request made with a developer key.
import { randomUUID } from 'node:crypto';
import { Router, type RequestHandler } from 'express';
import type { GatewayLogger } from '../errors/error-middleware.js';
import { RESPONSES_PATH } from '../responses/responses-router.js';
import { requestIdOf } from '../observability/request-id.js';
import { ENDPOINT_PATHS } from '../traffic/model-endpoints.js';
import { modelContextOf } from '../traffic/model-request-context.js';
import { buildModelEntry, requestSecrets, type ChronicleEntry } from './chronicle-entry.js';
import type { ModelRequestContext } from '../traffic/model-request-context.js';

/**
 * Runs on each finished entry before it is queued: prices it (sets `cost`) and counts its usage. Answers a promise
 * only when it must wait (a price not yet cached); undefined when the entry is ready.
 */
export type EntryMeter = (entry: ChronicleEntry, context: ModelRequestContext | undefined) => Promise<void> | undefined;
import type { ChroniclesRecorder } from './chronicles-recorder.js';

/** The handler that watches one model request to its end and queues its entry (the recorder router's only step). */
export function chronicleWatcher(recorder: ChroniclesRecorder, logger?: GatewayLogger, meter?: EntryMeter): RequestHandler {
  return function recordChronicle(req, res, next) {
    const startedAt = Date.now();
    res.once('close', () => {
      try {
        const context = modelContextOf(req);
        const entry = buildModelEntry(req, res, context, startedAt, randomUUID);
        if (!entry) return;
        const secrets = requestSecrets(req);
        const unmetered = (error: Error): void => {
          logger?.error('the usage of a request could not be counted', { request_id: requestIdOf(req), error: error.message });
          recorder.record(entry, secrets);
        };
        let metering: Promise<void> | undefined;
        try {
          metering = meter?.(entry, context);
        } catch (error) {
          unmetered(error as Error);
          return;
        }
        if (!metering) recorder.record(entry, secrets);
        else metering.then(() => recorder.record(entry, secrets), unmetered);
      } catch (error) {
        logger?.error('a request log entry could not be built', { request_id: requestIdOf(req), error: (error as Error).message });
      }
    });
    next();
  };
}

/**
 * Creates the recorder router. Mount it before the route resolver: it watches each model request
 * to its end (answered, rejected, failed, rate-limited or abandoned) and queues its entry.
 */
export function chroniclesRecorderRouter(recorder: ChroniclesRecorder, logger?: GatewayLogger, meter?: EntryMeter): Router {
  const router = Router();
  router.post([...Object.values(ENDPOINT_PATHS), RESPONSES_PATH], chronicleWatcher(recorder, logger, meter));
  return router;
}
