// Polls a check until it passes or a deadline passes: for what the server records just after the client has its answer.

/**
 * Runs `check` (sync or async) until it stops throwing, every 20 ms for at most `deadlineMs`; then rethrows its last error.
 * @example
 * const span = await eventually(() => one('POST /v1/chat/completions'));
 */
export async function eventually<T>(check: () => T | Promise<T>, deadlineMs = 3000): Promise<T> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}
