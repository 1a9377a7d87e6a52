// A gateway for tests of the application's input policy on translated routes: started and stopped by mocha hooks, with the official clients and the policy setter.
import Anthropic from '@anthropic-ai/sdk';
import type { Express } from 'express';
import OpenAI from 'openai';
import request from 'supertest';
import type { LoopbackServer } from './loopback-server.js';
import { TEST_KEYS } from './test-gateway.js';
import { TEST_GUARDRAILS } from './test-guardrails.js';
import { startDoneGateway, type TrafficFixture } from './traffic-fixture.js';

/** The admin path of the test application's policy. */
export const APP_POLICY_PATH = '/v1/admin/applications/app/policy';

/** What a test of the policy reaches: the clients on each route, the policy setter, and the bodies the provider received. */
export interface PolicyGateway {
  /** Every body the upstream received since the test began. */
  received: Array<Record<string, unknown>>;
  /** The gateway's Express app (for admin requests). */
  app(): Express;
  /** Anthropic's client on route `via-anthropic`, with the developer key. */
  anthropic(): Anthropic;
  /** OpenAI's client on route `via-openai`, with the developer key. */
  openai(): OpenAI;
  /** Sets the test application's policy (200 expected). */
  setPolicy(policy: Record<string, unknown>): Promise<unknown>;
}

/**
 * Registers `before`, `beforeEach` and `after` hooks in the calling `describe`: a {@link startDoneGateway} gateway with
 * the test guardrails, `received` emptied before each test, everything closed after.
 */
export function usePolicyGateway(): PolicyGateway {
  let f: TrafficFixture;
  let server: LoopbackServer;
  let close: () => Promise<void>;
  const received: Array<Record<string, unknown>> = [];
  before(async () => {
    ({ f, server, close } = await startDoneGateway(received, { plugins: TEST_GUARDRAILS }));
  });
  beforeEach(() => {
    received.length = 0;
  });
  after(() => close());
  return {
    received,
    app: () => f.app,
    anthropic: () => new Anthropic({ apiKey: f.developerKey, baseURL: server.base, maxRetries: 0, defaultHeaders: { 'x-gateway-route': 'via-anthropic' } }),
    openai: () => new OpenAI({ apiKey: f.developerKey, baseURL: `${server.base}/v1`, maxRetries: 0, defaultHeaders: { 'x-gateway-route': 'via-openai' } }),
    setPolicy: (policy) => request(f.app).put(APP_POLICY_PATH).set('x-api-key', TEST_KEYS.admin).send(policy).expect(200),
  };
}
