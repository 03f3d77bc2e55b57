import Chart from 'react-apexcharts';
import type { ApexOptions } from 'apexcharts';
import type { ColorScheme } from '@campus/kit/color-scheme';
import { colorSchemes, useColorScheme } from '@campus/kit/theme';
import { shortDate } from './analytics-math';

export interface TrendChartProps {
  kind: 'line' | 'bar';
  /** The series name, which is also what the tooltip calls a value ('New Users', 'Posts'). */
  seriesName: string;
  yTitle: string;
  points: readonly { date: string; value: number }[];
}

/**
 * The chart's options. Lines use monotone cubic interpolation: a 'smooth' spline overshoots
 * between a count and a zero next to it and draws the curve below the axis (fewer than zero
 * new members), while a monotone curve never leaves the range of its two neighbouring points.
 * Its colours are the page's colour scheme's (issue 41, dark mode) as plain values: apexcharts
 * computes shades from them, which it cannot do with the theme's CSS custom properties.
 */
export function trendChartOptions(
  { kind, seriesName, yTitle, points }: TrendChartProps,
  scheme: ColorScheme = 'light',
): ApexOptions {
  const colors = colorSchemes[scheme];
  return {
    chart: {
      id: seriesName,
      toolbar: { show: false },
      zoom: { enabled: false },
      fontFamily: 'inherit',
      foreColor: colors.textMuted,
      background: 'transparent',
    },
    theme: { mode: scheme },
    colors: [colors.primary],
    dataLabels: { enabled: false },
    stroke: { curve: 'monotoneCubic', width: kind === 'line' ? 3 : 0 },
    plotOptions: { bar: { borderRadius: 4, columnWidth: '55%' } },
    xaxis: {
      categories: points.map((point) => shortDate(point.date)),
      title: { text: 'Date' },
      tickAmount: kind === 'line' ? 10 : undefined,
      labels: { rotate: -45, hideOverlappingLabels: true },
    },
    yaxis: {
      title: { text: yTitle },
      min: 0,
      forceNiceScale: true,
      labels: { formatter: (value) => String(Math.round(value)) },
    },
    tooltip: { theme: scheme, y: { title: { formatter: () => `${seriesName}:` } } },
    grid: { borderColor: colors.border },
  };
}

/**
 * An apexcharts line or bar chart over calendar days. This module (and apexcharts with it) is
 * only ever loaded lazily by the analytics page, so no other app and no first paint pays for it.
 * It is redrawn in the other colour scheme when the page's changes.
 */
export default function TrendChart(props: TrendChartProps) {
  const { kind, seriesName, points } = props;
  const scheme = useColorScheme();
  return (
    <Chart
      type={kind}
      height={280}
      options={trendChartOptions(props, scheme)}
      series={[{ name: seriesName, data: points.map((point) => point.value) }]}
    />
  );
}
