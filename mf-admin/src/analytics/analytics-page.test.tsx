import { act, render, screen, within } from '@testing-library/react';
import { configureApi } from '@campus/kit/api';
import { mockApi, TEST_API_URL } from '@campus/kit/testing';
import { DataProvider } from '@campus/kit/data';
import { KitThemeProvider } from '@campus/kit/theme';
import type { TrendChartProps } from './trend-chart';
import AnalyticsPage from './analytics-page';

// apexcharts needs a real layout engine; the chart's inputs are what this page decides.
jest.mock('./trend-chart', () => ({
  __esModule: true,
  default: ({ kind, seriesName, yTitle, points }: TrendChartProps) => (
    <figure aria-label={`${kind} chart of ${seriesName}`}>
      <figcaption>{yTitle}</figcaption>
      {points.map((point) => `${point.date}=${point.value}`).join(' ')}
    </figure>
  ),
}));

const overview = {
  totalUsers: 25,
  verifiedUsers: 20,
  verificationRate: 80,
  newUsersWeek: 3,
  totalPosts: 220,
  postsMonth: 40,
  totalLikes: 300,
  totalComments: 111,
  totalFollows: 90,
};

const replies: Record<string, unknown> = {
  '/api/analytics/overview': overview,
  '/api/analytics/user-growth': [
    { date: '2026-05-01', users: 2 },
    { date: '2026-05-02', users: 0 },
  ],
  '/api/analytics/engagement': { posts: [{ date: '2026-05-02', count: 7 }] },
  '/api/analytics/active-users': { dau: 5, mau: 21 },
};

/** Answers the analytics routes from `replies` (the rest is a 404), after `release` if held. */
function serve(hold = false) {
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  mockApi(async ({ path }) => {
    if (hold) await held;
    const body = replies[path];
    return body === undefined ? undefined : { status: 200, body };
  });
  return release;
}

function renderPage() {
  return render(
    <KitThemeProvider>
      <DataProvider>
        <AnalyticsPage />
      </DataProvider>
    </KitThemeProvider>,
  );
}

beforeEach(() => configureApi({ baseUrl: TEST_API_URL }));

describe('AnalyticsPage', () => {
  it("shows the title, the badges, 'Updated: {today}' and 8 placeholder cards while loading", async () => {
    const release = serve(true);
    renderPage();
    expect(screen.getByRole('heading', { name: /Analytics/ })).toHaveTextContent('Admin Dashboard');
    expect(screen.getByText(/^Updated: /)).toHaveTextContent(
      new Date().toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric' }),
    );
    expect(screen.getByText('Admin Only')).toBeInTheDocument();
    expect(screen.getAllByTestId('analytics-placeholder')).toHaveLength(8);
    await act(async () => release());
    expect(await screen.findByRole('article', { name: 'Total Users' })).toBeInTheDocument();
    expect(screen.queryByText('Admin Only')).not.toBeInTheDocument();
  });

  it('shows the six cards with their details', async () => {
    serve();
    renderPage();
    const card = async (name: string) => screen.findByRole('article', { name });
    expect(await card('Total Users')).toHaveTextContent('2580.0% verified');
    expect(await card('New This Week')).toHaveTextContent('3');
    expect(await card('Total Posts')).toHaveTextContent('22040 posts this month');
    expect(await card('Total Engagement')).toHaveTextContent('411300 likes, 111 comments');
    expect(await card('Daily Active Users')).toHaveTextContent('5Users active in last 24 hours');
    expect(await card('Monthly Active Users')).toHaveTextContent('21Users active in last 30 days');
  });

  it('shows the panels with the average to one decimal and the engagement rate', async () => {
    serve();
    renderPage();
    const health = await screen.findByRole('article', { name: 'Platform Health' });
    expect(health).toHaveTextContent('Verified Users20Verification Rate80.0%Total Follows90');
    const content = screen.getByRole('article', { name: 'Content Stats' });
    expect(content).toHaveTextContent('Total Posts220Posts This Month40Avg. Posts/User8.8');
    const engagement = screen.getByRole('article', { name: 'Engagement' });
    // (300 + 111) / 220 * 100 = 186.8...
    expect(engagement).toHaveTextContent('Total Likes300Total Comments111Engagement Rate186.8%');
  });

  it('draws the growth line chart (New Users) and the engagement bar chart (Posts)', async () => {
    serve();
    renderPage();
    const growth = await screen.findByRole('article', { name: 'User Growth (Last 30 Days)' });
    const line = await within(growth).findByRole('figure', { name: 'line chart of New Users' });
    expect(line).toHaveTextContent('Users2026-05-01=2 2026-05-02=0');
    const daily = screen.getByRole('article', { name: 'Daily Engagement (Last 7 Days)' });
    const bar = await within(daily).findByRole('figure', { name: 'bar chart of Posts' });
    expect(bar).toHaveTextContent('Count2026-05-02=7');
  });

  it('explains each chart in one line and how the engagement rate is worked out', async () => {
    serve();
    renderPage();
    const growth = await screen.findByRole('article', { name: 'User Growth (Last 30 Days)' });
    expect(growth).toHaveAccessibleDescription(
      'Members who signed up on each of the last 30 days.',
    );
    const daily = screen.getByRole('article', { name: 'Daily Engagement (Last 7 Days)' });
    expect(daily).toHaveAccessibleDescription('Posts published on each of the last 7 days.');
    const engagement = screen.getByRole('article', { name: 'Engagement' });
    const rate = within(engagement).getByText('Engagement Rate');
    // The explanation follows the rate's figure, in the same description list.
    expect(rate.nextElementSibling).toHaveTextContent('186.8%');
    expect(rate.nextElementSibling?.nextElementSibling).toHaveTextContent(
      'Likes plus comments per 100 posts: above 100% means more than one like or comment per post.',
    );
  });
});
