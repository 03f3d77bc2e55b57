import Chart from 'react-apexcharts';
import type { ApexOptions } from 'apexcharts';
import { theme } from '@campus/kit/theme';
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
 */
export function trendChartOptions({
  kind,
  seriesName,
  yTitle,
  points,
}: TrendChartProps): ApexOptions {
  return {
    chart: {
      id: seriesName,
      toolbar: { show: false },
      zoom: { enabled: false },
      fontFamily: 'inherit',
    },
    colors: [theme.colors.primary],
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
    tooltip: { y: { title: { formatter: () => `${seriesName}:` } } },
    grid: { borderColor: theme.colors.border },
  };
}

/**
 * An apexcharts line or bar chart over calendar days. This module (and apexcharts with it) is
 * only ever loaded lazily by the analytics page, so no other app and no first paint pays for it.
 */
export default function TrendChart(props: TrendChartProps) {
  const { kind, seriesName, points } = props;
  return (
    <Chart
      type={kind}
      height={280}
      options={trendChartOptions(props)}
      series={[{ name: seriesName, data: points.map((point) => point.value) }]}
    />
  );
}
