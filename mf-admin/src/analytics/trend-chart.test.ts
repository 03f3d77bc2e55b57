import { colorSchemes } from '@campus/kit/theme';
import { trendChartOptions } from './trend-chart';

// apexcharts draws nothing in jsdom; what can go wrong is the options this module gives it.
jest.mock('react-apexcharts', () => ({ __esModule: true, default: () => null }));

describe('trendChartOptions', () => {
  const points = [
    { date: '2026-05-01', value: 9 },
    { date: '2026-05-02', value: 0 },
    { date: '2026-05-03', value: 0 },
    { date: '2026-05-04', value: 7 },
  ];

  it('when the growth line drops to zero, then it is drawn with a curve that cannot overshoot below it', () => {
    const options = trendChartOptions({
      kind: 'line',
      seriesName: 'New Users',
      yTitle: 'Users',
      points,
    });
    // 'smooth' (a Catmull-Rom spline) dips below zero between 9 and 0; monotone cubic cannot.
    expect(options.stroke?.curve).toBe('monotoneCubic');
    expect(options.yaxis).toMatchObject({ min: 0 });
  });

  it('when the chart is drawn, then one category per day is labelled', () => {
    const options = trendChartOptions({
      kind: 'bar',
      seriesName: 'Posts',
      yTitle: 'Posts',
      points,
    });
    expect((options.xaxis?.categories as string[]).length).toBe(4);
  });

  it("when the page is dark, then the chart's text, grid, series and tooltip are the dark scheme's", () => {
    const props = { kind: 'line', seriesName: 'Posts', yTitle: 'Posts', points } as const;
    const dark = trendChartOptions(props, 'dark');
    expect(dark.theme?.mode).toBe('dark');
    expect(dark.tooltip?.theme).toBe('dark');
    expect(dark.chart?.foreColor).toBe(colorSchemes.dark.textMuted);
    expect(dark.grid?.borderColor).toBe(colorSchemes.dark.border);
    expect(dark.colors).toEqual([colorSchemes.dark.primary]);
    const light = trendChartOptions(props);
    expect(light.theme?.mode).toBe('light');
    expect(light.chart?.foreColor).toBe(colorSchemes.light.textMuted);
    expect(light.colors).toEqual([colorSchemes.light.primary]);
  });
});
