import { lazy, Suspense, useId, type ReactNode } from 'react';
import styled from 'styled-components';
import {
  keyToPath,
  keys,
  readCallKey,
  useCallData,
  type CallKey,
  type KeyData,
} from '@campus/kit/data';
import { withPrefetch } from '@campus/kit/prefetch';
import { Badge, EmptyState, Skeleton } from '@campus/kit/ui';
import { averagePostsPerUser, engagementRate, oneDecimal, todayLabel } from './analytics-math';

/** What each chart counts and how the engagement rate is worked out, in one line each. */
export const EXPLANATIONS = {
  growth: 'Members who signed up on each of the last 30 days.',
  engagement: 'Posts published on each of the last 7 days.',
  engagementRate:
    'Likes plus comments per 100 posts: above 100% means more than one like or comment per post.',
} as const;

// apexcharts is heavy: it comes in its own chunk of this remote, after the figures are shown.
const TrendChart = lazy(() => import('./trend-chart'));

/**
 * Spec §2: while loading, 8 placeholder cards: one in the place of each of the six figure cards
 * and of the two charts, in the same grids, so nothing moves when the figures arrive (issue 22:
 * no layout shift; the panels below the charts simply appear).
 */
export const PLACEHOLDER_CARDS = 8;
const FIGURE_CARDS = 6;

/**
 * The height of a row of figure cards and of a chart card, in the placeholder and in what
 * replaces it: at least the tallest card's content (a detail wrapping to two lines at 1280 px;
 * a chart's title, its 280 px chart and its one-line explanation), so a row does not change
 * height when its cards arrive.
 */
const FIGURE_ROW = '7.5rem';
const CHART_ROW = '25rem';
/** apexcharts draws its 280 px chart in a box of about 295 px (its legend's room). */
const CHART_BOX = '300px';

const Page = styled.section`
  display: grid;
  gap: ${({ theme }) => theme.space(4)};
  padding: ${({ theme }) => theme.space(4)};

  h1 {
    display: flex;
    flex-wrap: wrap;
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

/** The placeholders: the page's own grid, so the rows keep their places. */
const Loading = styled.div`
  display: contents;
`;

const Muted = styled.small`
  color: ${({ theme }) => theme.colors.textMuted};
`;

/** 'Updated: {today}' and, while loading, the Admin Only badge: one line of the badge's height. */
const Note = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: ${({ theme }) => theme.space(2)};
  align-items: center;
  min-height: 20px;
`;

const Grid = styled.div<{ $min?: string; $row?: string }>`
  display: grid;
  grid-template-columns: repeat(auto-fill, minmax(${({ $min = '180px' }) => $min}, 1fr));
  grid-auto-rows: ${({ $row }) => ($row ? `minmax(${$row}, auto)` : 'auto')};
  gap: ${({ theme }) => theme.space(3)};
`;

/** Where a chart is drawn: the same box for its placeholder and for apexcharts' drawing. */
const ChartBox = styled.div`
  min-height: ${CHART_BOX};
`;

const Card = styled.article`
  display: grid;
  align-content: start;
  gap: ${({ theme }) => theme.space(1)};
  min-width: 0;
  padding: ${({ theme }) => theme.space(4)};
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radius.lg};
  background: ${({ theme }) => theme.colors.surface};

  h3 {
    margin: 0;
    font-size: 0.8125rem;
    color: ${({ theme }) => theme.colors.textMuted};
  }
  strong {
    font-size: 1.5rem;
  }
  p {
    margin: 0;
    font-size: 0.8125rem;
    color: ${({ theme }) => theme.colors.textMuted};
  }
`;

const Facts = styled.dl`
  display: grid;
  grid-template-columns: 1fr auto;
  gap: ${({ theme }) => theme.space(2)};
  margin: 0;
  font-size: 0.875rem;

  dt {
    color: ${({ theme }) => theme.colors.textMuted};
  }
  dd {
    margin: 0;
    font-weight: 600;
    text-align: right;
  }
  /* A fact's explanation: its own line under the term and the figure. */
  dd.note {
    grid-column: 1 / -1;
    margin-top: -${({ theme }) => theme.space(1)};
    font-size: 0.8125rem;
    font-weight: 400;
    text-align: left;
    color: ${({ theme }) => theme.colors.textMuted};
  }
`;

/** A panel's line: the term, its figure and, where a figure needs one, how it is worked out. */
type Fact = [term: string, value: ReactNode, note?: string];

function StatCard({ title, value, detail }: { title: string; value: ReactNode; detail: string }) {
  return (
    <Card aria-label={title}>
      <h3>{title}</h3>
      <strong>{value}</strong>
      <p>{detail}</p>
    </Card>
  );
}

function Panel({ title, facts }: { title: string; facts: Fact[] }) {
  return (
    <Card aria-label={title}>
      <h2>{title}</h2>
      <Facts>
        {facts.map(([term, value, note]) => (
          <div key={term} style={{ display: 'contents' }}>
            <dt>{term}</dt>
            <dd>{value}</dd>
            {note && <dd className="note">{note}</dd>}
          </div>
        ))}
      </Facts>
    </Card>
  );
}

/**
 * A chart with the one line that says what it counts (issue 41: the admin reads a figure as it
 * is meant), tied to the chart's card as its description.
 */
function ChartCard({
  title,
  explanation,
  failed,
  children,
}: {
  title: string;
  explanation: string;
  failed: boolean;
  children: ReactNode;
}) {
  const id = useId();
  return (
    <Card aria-label={title} aria-describedby={id} data-testid="chart-card">
      <h2>{title}</h2>
      {failed ? (
        <p role="alert">Failed to load this chart.</p>
      ) : (
        <ChartBox>
          <Suspense fallback={<Skeleton $height="280px" />}>{children}</Suspense>
        </ChartBox>
      )}
      <p id={id}>{explanation}</p>
    </Card>
  );
}

/**
 * A dashboard read: from the shell's early request when the admin landed on this page (the shell
 * asks for the first figures as soon as the session check says admin: @campus/kit/prefetch), else
 * requested here.
 */
const fetchAnalytics = <K extends CallKey>(key: K): Promise<KeyData<K>> =>
  withPrefetch(keyToPath(key), () => readCallKey(key));

/** Every dashboard read is fetched afresh when the page opens (figures change all the time). */
function useAnalytics<K extends CallKey>(key: K) {
  return useCallData(key, { fetcher: fetchAnalytics, revalidateOnMount: true });
}

/** Spec §2 "Analytics dashboard" (/analytics). The shell loads this remote for the admin only. */
export default function AnalyticsPage() {
  const overview = useAnalytics(keys.analyticsOverview());
  const growth = useAnalytics(keys.analyticsUserGrowth());
  const engagement = useAnalytics(keys.analyticsEngagement());
  const active = useAnalytics(keys.analyticsActiveUsers());
  const o = overview.data;

  return (
    <Page aria-labelledby="analytics-title">
      <div>
        <h1 id="analytics-title">
          Analytics <Badge $tone="primary">Admin Dashboard</Badge>
        </h1>
        <Note>
          <Muted>Updated: {todayLabel()}</Muted>
          {overview.isLoading && <Badge $tone="danger">Admin Only</Badge>}
        </Note>
      </div>
      {overview.isLoading ? (
        <Loading aria-busy="true" aria-label="Loading analytics">
          <Grid $row={FIGURE_ROW}>
            {Array.from({ length: FIGURE_CARDS }, (_, index) => (
              <Skeleton key={index} $height="auto" data-testid="analytics-placeholder" />
            ))}
          </Grid>
          <Grid $min="320px" $row={CHART_ROW}>
            {Array.from({ length: PLACEHOLDER_CARDS - FIGURE_CARDS }, (_, index) => (
              <Skeleton key={index} $height="auto" data-testid="analytics-placeholder" />
            ))}
          </Grid>
        </Loading>
      ) : !o ? (
        <EmptyState title="Failed to fetch analytics" description="Please try again later." />
      ) : (
        <>
          <Grid $row={FIGURE_ROW}>
            <StatCard
              title="Total Users"
              value={o.totalUsers}
              detail={`${oneDecimal(o.verificationRate)}% verified`}
            />
            <StatCard title="New This Week" value={o.newUsersWeek} detail="New registrations" />
            <StatCard
              title="Total Posts"
              value={o.totalPosts}
              detail={`${o.postsMonth} posts this month`}
            />
            <StatCard
              title="Total Engagement"
              value={o.totalLikes + o.totalComments}
              detail={`${o.totalLikes} likes, ${o.totalComments} comments`}
            />
            <StatCard
              title="Daily Active Users"
              value={active.data?.dau ?? '–'}
              detail="Users active in last 24 hours"
            />
            <StatCard
              title="Monthly Active Users"
              value={active.data?.mau ?? '–'}
              detail="Users active in last 30 days"
            />
          </Grid>
          <Grid $min="320px" $row={CHART_ROW}>
            <ChartCard
              title="User Growth (Last 30 Days)"
              explanation={EXPLANATIONS.growth}
              failed={Boolean(growth.error)}
            >
              <TrendChart
                kind="line"
                seriesName="New Users"
                yTitle="Users"
                points={(growth.data ?? []).map(({ date, users }) => ({ date, value: users }))}
              />
            </ChartCard>
            <ChartCard
              title="Daily Engagement (Last 7 Days)"
              explanation={EXPLANATIONS.engagement}
              failed={Boolean(engagement.error)}
            >
              <TrendChart
                kind="bar"
                seriesName="Posts"
                yTitle="Count"
                points={(engagement.data?.posts ?? []).map(({ date, count }) => ({
                  date,
                  value: count,
                }))}
              />
            </ChartCard>
          </Grid>
          <Grid $min="240px">
            <Panel
              title="Platform Health"
              facts={[
                ['Verified Users', o.verifiedUsers],
                ['Verification Rate', `${oneDecimal(o.verificationRate)}%`],
                ['Total Follows', o.totalFollows],
              ]}
            />
            <Panel
              title="Content Stats"
              facts={[
                ['Total Posts', o.totalPosts],
                ['Posts This Month', o.postsMonth],
                ['Avg. Posts/User', averagePostsPerUser(o)],
              ]}
            />
            <Panel
              title="Engagement"
              facts={[
                ['Total Likes', o.totalLikes],
                ['Total Comments', o.totalComments],
                ['Engagement Rate', engagementRate(o), EXPLANATIONS.engagementRate],
              ]}
            />
          </Grid>
        </>
      )}
    </Page>
  );
}
