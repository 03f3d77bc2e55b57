import { averagePostsPerUser, engagementRate, oneDecimal, shortDate } from './analytics-math';

const overview = {
  totalUsers: 3,
  verifiedUsers: 2,
  verificationRate: 66.67,
  newUsersWeek: 1,
  totalPosts: 7,
  postsMonth: 4,
  totalLikes: 10,
  totalComments: 4,
  totalFollows: 5,
};

describe('analytics figures', () => {
  it('rounds rates to one decimal', () => {
    expect(oneDecimal(66.666)).toBe('66.7');
    expect(oneDecimal(5)).toBe('5.0');
  });

  it('computes the engagement rate as (likes + comments) / posts * 100', () => {
    expect(engagementRate(overview)).toBe('200.0%');
    expect(engagementRate({ ...overview, totalPosts: 0 })).toBe('0.0%');
  });

  it('computes average posts per user', () => {
    expect(averagePostsPerUser(overview)).toBe('2.3');
    expect(averagePostsPerUser({ ...overview, totalUsers: 0 })).toBe('0.0');
  });

  it('shows chart dates as short month and day', () => {
    expect(shortDate('2026-05-03')).toBe('May 3');
  });
});
