import { useFormatter, useTranslations } from 'next-intl';
import styles from './day-chart.module.css';

export type DaySeries = {
  label: string;
  values: number[];
  /** `total` draws full bars; `part` draws a subset of the total (failures) over them, from the baseline. */
  role: 'total' | 'part';
};

type Props = {
  id: string;
  title: string;
  /** Local days (YYYY-MM-DD), oldest first; one value per day in every series. */
  days: string[];
  series: DaySeries[];
  empty: string;
};

const BAR = 16;
const GAP = 6;
const HEIGHT = 96;
const AXIS = 18;

/** A day's bar height: the tallest day fills the chart, a day with any count shows at least a sliver. */
function barHeight(value: number, max: number): number {
  if (value <= 0 || max <= 0) return 0;
  return Math.max(2, Math.round((value / max) * HEIGHT));
}

/**
 * A small bar chart of counts per day, drawn on the server as inline SVG (no script, no chart
 * library). The picture is for the eye; the figures are for everyone: the SVG carries a title and
 * a one-sentence summary, and a visually hidden table lists every day's numbers. Nothing to show →
 * an empty state in words instead of a flat chart.
 */
export function DayChart({ id, title, days, series, empty }: Props) {
  const t = useTranslations('overview.charts');
  const format = useFormatter();
  const dayLabel = (day: string) =>
    format.dateTime(new Date(`${day}T12:00:00Z`), { month: 'short', day: 'numeric', timeZone: 'UTC' });
  const max = Math.max(0, ...series.flatMap((s) => s.values));
  const titleId = `${id}-title`;
  const descId = `${id}-desc`;
  const first = days[0];
  const last = days.at(-1);
  const summary =
    first && last
      ? t('summary', {
          title,
          from: dayLabel(first),
          to: dayLabel(last),
          totals: series
            .map((s) => t('total', { series: s.label, total: s.values.reduce((a, b) => a + b, 0) }))
            .join('; '),
        })
      : title;
  const width = days.length * (BAR + GAP) + GAP;

  return (
    <figure className={styles.chart} data-testid={`chart-${id}`} data-max={max} aria-labelledby={titleId}>
      <figcaption id={titleId} className={styles.caption}>
        {title}
      </figcaption>
      {max === 0 ? (
        <p className="empty-state" data-testid={`chart-${id}-empty`}>
          {empty}
        </p>
      ) : (
        <>
          <svg
            viewBox={`0 0 ${width} ${HEIGHT + AXIS}`}
            className={styles.svg}
            role="img"
            aria-labelledby={`${id}-svg-title ${descId}`}
            preserveAspectRatio="none"
          >
            <title id={`${id}-svg-title`}>{title}</title>
            <desc id={descId}>{summary}</desc>
            <line x1={0} x2={width} y1={HEIGHT + 0.5} y2={HEIGHT + 0.5} className={styles.axis} />
            {days.map((day, i) => {
              const x = GAP + i * (BAR + GAP);
              return (
                <g key={day}>
                  {series.map((s) => {
                    const h = barHeight(s.values[i] ?? 0, max);
                    return h === 0 ? null : (
                      <rect
                        key={s.label}
                        x={s.role === 'part' ? x + BAR / 4 : x}
                        y={HEIGHT - h}
                        width={s.role === 'part' ? BAR / 2 : BAR}
                        height={h}
                        className={s.role === 'part' ? styles.part : styles.total}
                      />
                    );
                  })}
                </g>
              );
            })}
          </svg>
          <div className={styles.scale} aria-hidden="true">
            <span>{first ? dayLabel(first) : ''}</span>
            <span>{t('peak', { value: max })}</span>
            <span>{last ? dayLabel(last) : ''}</span>
          </div>
          {series.length > 1 && (
            <ul className={styles.legend} aria-hidden="true">
              {series.map((s) => (
                <li key={s.label}>
                  <span className={s.role === 'part' ? styles.swatchPart : styles.swatchTotal} />
                  {s.label}
                </li>
              ))}
            </ul>
          )}
        </>
      )}
      {max > 0 && (
        <table className="visually-hidden" data-testid={`chart-${id}-table`}>
          <caption>{summary}</caption>
          <thead>
            <tr>
              <th scope="col">{t('day')}</th>
              {series.map((s) => (
                <th scope="col" key={s.label}>
                  {s.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {days.map((day, i) => (
              <tr key={day} data-day={day}>
                <th scope="row">{dayLabel(day)}</th>
                {series.map((s) => (
                  <td key={s.label}>{s.values[i] ?? 0}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </figure>
  );
}
