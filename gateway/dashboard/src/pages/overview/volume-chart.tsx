import { useEffect, useRef } from "react";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";
import type { ChartPoint } from "./summary";

const height = 240;

/** A day "2026-11-27" as Unix seconds of the viewer's midnight (uPlot's x values, drawn in the viewer's zone). */
const dayStart = (day: string) => {
  const [year, month, date] = day.split("-").map(Number);
  return new Date(year, month - 1, date).getTime() / 1000;
};

/** The x range: the chosen days (and any period starting before them, a month's first day), half a day either side. */
function xRange(points: ChartPoint[], from: string, to: string): [number, number] {
  const days = [from, to, ...points.map((point) => point.day)].sort();
  return [dayStart(days[0]) - 43_200, dayStart(days[days.length - 1]) + 43_200];
}

function options(width: number, range: [number, number]): uPlot.Options {
  return {
    width,
    height,
    series: [
      {},
      {
        label: "Volume (₱)",
        scale: "pesos",
        stroke: "#1d5fd1",
        fill: "rgba(29, 95, 209, 0.35)",
        paths: uPlot.paths.bars?.({ size: [0.7, 40] }),
        value: (_plot, value) => (value === null ? "—" : `₱${value.toLocaleString("en-PH", { minimumFractionDigits: 2 })}`),
      },
      { label: "Paid payments", scale: "count", stroke: "#17733c", width: 2, points: { show: true } },
    ],
    axes: [
      {},
      { scale: "pesos", values: (_plot, ticks) => ticks.map((tick) => `₱${tick.toLocaleString("en-PH")}`), size: 70 },
      // Whole payments only.
      { scale: "count", side: 1, grid: { show: false }, incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000] },
    ],
    scales: { x: { time: true, range: () => range }, pesos: { range: (_plot, _min, max) => [0, Math.max(max, 100)] }, count: { range: (_plot, _min, max) => [0, Math.max(max, 5)] } },
  };
}

/**
 * Paid volume (bars) and count (line) per period, drawn with uPlot on a canvas. The canvas is
 * hidden from assistive technology: the table beside it holds the same numbers.
 */
export function VolumeChart({ points, from, to }: { points: ChartPoint[]; from: string; to: string }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const data: uPlot.AlignedData = [
      points.map((point) => dayStart(point.day)),
      // Pesos as a float only to place the bars; the table beside it holds the exact amounts.
      points.map((point) => Number(point.paidMinor) / 100),
      points.map((point) => point.paidCount),
    ];
    const plot = new uPlot(options(Math.max(element.clientWidth, 200), xRange(points, from, to)), data, element);
    const observer = new ResizeObserver(() => plot.setSize({ width: Math.max(element.clientWidth, 200), height }));
    observer.observe(element);
    return () => {
      observer.disconnect();
      plot.destroy();
    };
  }, [points, from, to]);
  return <div ref={box} className="chart" aria-hidden="true" />;
}
