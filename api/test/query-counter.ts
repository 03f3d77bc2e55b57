import type { Connection } from 'mongoose';

/**
 * Counts the database operations mongoose sends on `connection` (each one is a round trip) while
 * `fn` runs: mongoose's debug hook, set on that connection only, so another app's database in the
 * same process is not counted. Works the same against the embedded server and a real MongoDB.
 */
export async function countQueries<T>(
  connection: Connection,
  fn: () => Promise<T>,
): Promise<{ result: T; queries: string[] }> {
  const queries: string[] = [];
  connection.set('debug', (collection: string, method: string) => {
    queries.push(`${collection}.${method}`);
  });
  try {
    const result = await fn();
    return { result, queries };
  } finally {
    connection.set('debug', false);
  }
}
