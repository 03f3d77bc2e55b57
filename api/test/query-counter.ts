import mongoose from 'mongoose';

/**
 * Counts the database operations mongoose sends (each one is a round trip) while `fn` runs.
 * Works the same against the embedded server and a real MongoDB.
 */
export async function countQueries<T>(
  fn: () => Promise<T>,
): Promise<{ result: T; queries: string[] }> {
  const queries: string[] = [];
  mongoose.set('debug', (collection: string, method: string) => {
    queries.push(`${collection}.${method}`);
  });
  try {
    const result = await fn();
    return { result, queries };
  } finally {
    mongoose.set('debug', false);
  }
}
