// The guardrail check runner's hook into metrics and tracing: a leaf module (it imports only the shared record types).
import type { GuardrailCheck } from '../records/request-records.js';

/** Hook of the guardrail check runner: one processor's check, done. `startedAt` is a `performance.now()` reading. */
export interface GuardrailObserver {
  checked(check: GuardrailCheck, startedAt: number): void;
}
