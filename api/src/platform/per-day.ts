import type { Model } from 'mongoose';

/**
 * How many documents of `model` matching `match` were created on each calendar day (in
 * `timezone`) since `since`, by `YYYY-MM-DD`; days without any are absent.
 */
export async function countPerDay<T>(
  model: Model<T>,
  match: Record<string, unknown>,
  since: Date,
  timezone: string,
): Promise<Map<string, number>> {
  const rows = await model.aggregate<{ _id: string; count: number }>([
    { $match: { ...match, createdAt: { $gte: since } } },
    {
      $group: {
        _id: { $dateToString: { format: '%Y-%m-%d', date: '$createdAt', timezone } },
        count: { $sum: 1 },
      },
    },
  ]);
  return new Map(rows.map((r) => [r._id, r.count]));
}
