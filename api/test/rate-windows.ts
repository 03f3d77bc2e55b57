/**
 * Rate limits count in fixed windows aligned to the clock (platform/rate-limit.ts): a test that
 * makes its attempts across a window's end sees the count start again and no 429. Waits, when
 * fewer than `marginMs` are left in the current window of `windowMs`, until the next one starts,
 * so a test's few requests fall in one window.
 */
export async function clearOfWindowEnd(windowMs: number, marginMs = 10_000): Promise<void> {
  const left = windowMs - (Date.now() % windowMs);
  if (left < marginMs) await new Promise((resolve) => setTimeout(resolve, left + 50));
}
