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
import type { RequestsInFlight } from './requests-in-flight.js';

/**
 * The handler that watches one model request to its end and queues its entry (the recorder router's only step).
 * `inFlight` counts the request from its start until its entry is queued, so `gateway.close()` can wait for it.
 */
export function chronicleWatcher(recorder: ChroniclesRecorder, logger?: GatewayLogger, meter?: EntryMeter, inFlight?: RequestsInFlight): RequestHandler {
  return function recordChronicle(req, res, next) {
    const startedAt = Date.now();
    inFlight?.enter();
    res.once('close', () => {
      let left = false;
      const record = (entry: ChronicleEntry, secrets: readonly string[]): void => {
        recorder.record(entry, secrets);
        left = true;
        inFlight?.leave();
      };
      try {
        const context = modelContextOf(req);
        const entry = buildModelEntry(req, res, context, startedAt, randomUUID);
        if (!entry) return;
        const secrets = requestSecrets(req);
        const unmetered = (error: Error): void => {
          logger?.error('the usage of a request could not be counted', { request_id: requestIdOf(req), error: error.message });
          record(entry, secrets);
        };
        let metering: Promise<void> | undefined;
        try {
          metering = meter?.(entry, context);
        } catch (error) {
          unmetered(error as Error);
          return;
        }
        if (!metering) record(entry, secrets);
        else {
          left = true; // the promise below leaves, whichever way it settles
          metering.then(() => record(entry, secrets), unmetered);
        }
      } catch (error) {
        logger?.error('a request log entry could not be built', { request_id: requestIdOf(req), error: (error as Error).message });
      } finally {
        if (!left) inFlight?.leave();
      }
    });
    next();
  };
}

/**
 * Creates the recorder router. Mount it before the route resolver: it watches each model request
 * to its end (answered, rejected, failed, rate-limited or abandoned) and queues its entry.
 */
export function chroniclesRecorderRouter(recorder: ChroniclesRecorder, logger?: GatewayLogger, meter?: EntryMeter, inFlight?: RequestsInFlight): Router {
  const router = Router();
  router.post([...Object.values(ENDPOINT_PATHS), RESPONSES_PATH], chronicleWatcher(recorder, logger, meter, inFlight));
  return router;
}
