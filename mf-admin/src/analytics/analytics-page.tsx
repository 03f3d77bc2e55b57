import styled from 'styled-components';
import useSWR from 'swr';
import type { ActiveUsers, AnalyticsOverview, Engagement, UserGrowth } from '@campus/contracts';
import { keys } from '@campus/kit/data';
import { Badge, EmptyState, Skeleton } from '@campus/kit/ui';
import { averagePostsPerUser, engagementRate, oneDecimal, shortDate } from './analytics-math';

const Page = styled.section`
  display: grid;
  gap: ${({ theme }) => theme.space(4)};
  padding: ${({ theme }) => theme.space(4)};

  h1 {
    display: flex;
    gap: ${({ theme }) => theme.space(2)};
    align-items: center;
    margin: 0;
    font-size: 1.5rem;
  }
  h2 {
    margin: 0 0 ${({ theme }) => theme.space(2)};
    font-size: 1rem;
  }
`;

const Grid = styled.div`
  display: grid;
  grid-template-columns: repeat(auto-fill, minmax(180px, 1fr));
  gap: ${({ theme }) => theme.space(3)};
`;

const Card = styled.article`
  display: grid;
  gap: ${({ theme }) => theme.space(1)};
  padding: ${({ theme }) => theme.space(4)};
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radius.lg};

  h3 {
    margin: 0;
    font-size: 0.8125rem;
    color: ${({ theme }) => theme.colors.textMuted};
  }
  strong {
    font-size: 1.5rem;
  }
  span {
    font-size: 0.8125rem;
    color: ${({ theme }) => theme.colors.textMuted};
  }
`;

const Bars = styled.ol`
  display: grid;
  gap: 2px;
  margin: 0;
  padding: 0;
  list-style: none;
  font-size: 0.75rem;

  li {
    display: grid;
    grid-template-columns: 56px 1fr 32px;
    gap: ${({ theme }) => theme.space(2)};
    align-items: center;
  }
  div {
    height: 8px;
    border-radius: 4px;
    background: ${({ theme }) => theme.colors.primary};
  }
`;

function Stat({
  title,
  value,
  detail,
}: {
  title: string;
  value: string | number;
  detail?: string;
}) {
  return (
    <Card>
      <h3>{title}</h3>
      <strong>{value}</strong>
      {detail && <span>{detail}</span>}
    </Card>
  );
}

function Series({
  title,
  label,
  points,
  failed,
}: {
  title: string;
  label: string;
  points: { date: string; value: number }[];
  failed: boolean;
}) {
  const max = Math.max(1, ...points.map((point) => point.value));
  return (
    <Card aria-label={title}>
      <h2>{title}</h2>
      {failed && <span role="alert">Failed to load this chart.</span>}
      <Bars>
        {points.map((point) => (
          <li key={point.date} title={`${label}: ${point.value}`}>
            <span>{shortDate(point.date)}</span>
            <div style={{ width: `${(point.value / max) * 100}%` }} />
            <span>{point.value}</span>
          </li>
        ))}
      </Bars>
    </Card>
  );
}

/** Spec §2 "Analytics dashboard" (/analytics, loaded only for the admin). */
export default function AnalyticsPage() {
  const overview = useSWR<AnalyticsOverview | null, Error>(keys.analyticsOverview(), {
    revalidateOnMount: true,
  });
  const growth = useSWR<UserGrowth | null, Error>(keys.analyticsUserGrowth(), {
    revalidateOnMount: true,
  });
  const engagement = useSWR<Engagement | null, Error>(keys.analyticsEngagement(), {
    revalidateOnMount: true,
  });
  const active = useSWR<ActiveUsers | null, Error>(keys.analyticsActiveUsers(), {
    revalidateOnMount: true,
  });
  const today = new Date().toLocaleDateString('en-US', {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
  });
  const o = overview.data;

  return (
    <Page aria-labelledby="analytics-title">
      <div>
        <h1 id="analytics-title">
          Analytics <Badge $tone="primary">Admin Dashboard</Badge>
        </h1>
        <small>Updated: {today}</small>
      </div>
      {overview.isLoading ? (
        <>
          <Badge $tone="danger">Admin Only</Badge>
          <Grid aria-busy="true" aria-label="Loading analytics">
            {Array.from({ length: 8 }, (_, index) => (
              <Skeleton key={index} $height="96px" />
            ))}
          </Grid>
        </>
      ) : !o || overview.error ? (
        <EmptyState title="Failed to fetch analytics" description="Please try again later." />
      ) : (
        <>
          <Grid>
            <Stat
              title="Total Users"
              value={o.totalUsers}
              detail={`${oneDecimal(o.verificationRate)}% verified`}
            />
            <Stat title="New This Week" value={o.newUsersWeek} detail="new registrations" />
            <Stat title="Total Posts" value={o.totalPosts} detail={`${o.postsMonth} this month`} />
            <Stat
              title="Total Engagement"
              value={o.totalLikes + o.totalComments}
              detail={`${o.totalLikes} likes · ${o.totalComments} comments`}
            />
            <Stat
              title="Daily Active Users"
              value={active.data?.dau ?? '–'}
              detail="Users active in last 24 hours"
            />
            <Stat
              title="Monthly Active Users"
              value={active.data?.mau ?? '–'}
              detail="Users active in last 30 days"
            />
          </Grid>
          <Series
            title="User Growth (Last 30 Days)"
            label="New Users"
            points={(growth.data ?? []).map((point) => ({ date: point.date, value: point.users }))}
            failed={Boolean(growth.error)}
          />
          <Series
            title="Daily Engagement (Last 7 Days)"
            label="Posts"
            points={(engagement.data?.posts ?? []).map((point) => ({
              date: point.date,
              value: point.count,
            }))}
            failed={Boolean(engagement.error)}
          />
          <Grid>
            <Card aria-label="Platform Health">
              <h2>Platform Health</h2>
              <span>Verified Users: {o.verifiedUsers}</span>
              <span>Verification Rate: {oneDecimal(o.verificationRate)}%</span>
              <span>Total Follows: {o.totalFollows}</span>
            </Card>
            <Card aria-label="Content Stats">
              <h2>Content Stats</h2>
              <span>Total Posts: {o.totalPosts}</span>
              <span>Posts This Month: {o.postsMonth}</span>
              <span>Avg. Posts/User: {averagePostsPerUser(o)}</span>
            </Card>
            <Card aria-label="Engagement">
              <h2>Engagement</h2>
              <span>Total Likes: {o.totalLikes}</span>
              <span>Total Comments: {o.totalComments}</span>
              <span>Engagement Rate: {engagementRate(o)}</span>
            </Card>
          </Grid>
        </>
      )}
    </Page>
  );
}
