/**
 * Resolves true once `check` answers true (asked again every 25 ms), or false after `ms`: for
 * outcomes no event of ours announces (a database process back, a stream closed by a client, a
 * burst of another's requests). The deadline only bounds a failure: a busy machine takes longer.
 */
export async function eventually(
  check: () => boolean | Promise<boolean>,
  ms = 60_000,
): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return true;
}
