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
 * An apexcharts line or bar chart over calendar days. This module (and apexcharts with it) is
 * only ever loaded lazily by the analytics page, so no other app and no first paint pays for it.
 */
export default function TrendChart({ kind, seriesName, yTitle, points }: TrendChartProps) {
  const options: ApexOptions = {
    chart: {
      id: seriesName,
      toolbar: { show: false },
      zoom: { enabled: false },
      fontFamily: 'inherit',
    },
    colors: [theme.colors.primary],
    dataLabels: { enabled: false },
    stroke: { curve: 'smooth', width: kind === 'line' ? 3 : 0 },
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
  return (
    <Chart
      type={kind}
      height={280}
      options={options}
      series={[{ name: seriesName, data: points.map((point) => point.value) }]}
    />
  );
}
