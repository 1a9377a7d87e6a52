// Test policy for external services (PostgreSQL, later Redis): pending with the reason when unreachable, a failure under CI=true.

/** The address of `url` without its password, for messages. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(an unparsable URL)';
  }
}

/**
 * Declares, inside a `describe`, that its tests need the service `name` at `url`: a `before` hook runs `probe`
 * (a real connection, never a mock). When it fails, the tests are reported pending with the reason, or, under
 * `CI=true`, the hook fails, so a CI run can never skip them silently.
 * @example
 * describe('postgresStorage', () => {
 *   requireService('postgres', url, () => probePostgres(url));
 *   it('...', async () => {});
 * });
 */
export function requireService(name: string, url: string, probe: () => Promise<void>): void {
  before(async function () {
    this.timeout(15_000);
    try {
      await probe();
    } catch (error) {
      const reason = `${name} is not reachable at ${redactUrl(url)} (${(error as Error).message || String(error)})`;
      if (process.env.CI === 'true') throw new Error(`${reason}; under CI=true the tests that need ${name} must run, so this fails`);
      console.warn(`    pending: ${reason}`);
      this.skip();
    }
  });
}
