// Usage charts (uPlot): requests, tokens and cost over time per route and model, for one application.
import { useEffect, useRef, useState } from 'preact/hooks';
import uPlot from 'uplot';
import { Notice, SelectField, useLoad } from '../ui.js';
import { ApplicationPicker } from './application-picker.js';
import { loadUsage, type UsageSeries } from './usage-data.js';

const COLORS = ['#2563eb', '#dc2626', '#16a34a', '#9333ea', '#ea580c', '#0891b2', '#4b5563'];

function Chart(props: { title: string; times: number[]; groups: UsageSeries['metrics'][number]['groups'] }) {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!host.current) return undefined;
    const plot = new uPlot(
      {
        title: props.title,
        width: Math.max(320, Math.min(900, host.current.clientWidth || 900)),
        height: 260,
        series: [{}, ...props.groups.map((group, i) => ({ label: group.label, stroke: COLORS[i % COLORS.length], width: 2, points: { show: true } }))],
        // Small values (a cost of a few millionths of a dollar) keep two significant digits instead of reading 0.
        axes: [{}, { label: '', values: (_plot: uPlot, ticks: number[]) => ticks.map((tick) => (tick !== 0 && Math.abs(tick) < 1 ? Number(tick.toPrecision(2)).toString() : tick.toLocaleString('en'))) }],
      },
      [props.times, ...props.groups.map((group) => group.values)],
      host.current,
    );
    return () => plot.destroy();
  }, [props.title, props.times, props.groups]);
  return (
    <figure class="chart">
      <div ref={host} role="img" aria-label={`${props.title}: ${props.groups.map((g) => `${g.label} ${g.values.reduce((a, b) => a + b, 0)}`).join(', ')}`} />
      <figcaption>
        {props.title}, in total: {props.groups.map((g) => `${g.label} ${g.values.reduce((a, b) => a + b, 0)}`).join('; ') || 'nothing yet'}
      </figcaption>
    </figure>
  );
}

/** The usage screen. */
export function UsageScreen() {
  const [application, setApplication] = useState('');
  const [bucket, setBucket] = useState('60');
  const usage = useLoad(() => (application === '' ? Promise.resolve(undefined) : loadUsage(application, Number(bucket))), [application, bucket]);
  return (
    <div>
      <div class="inline">
        <ApplicationPicker value={application} onChange={setApplication} />
        <SelectField
          label="Bucket"
          value={bucket}
          options={[
            { value: '60', label: 'minute' },
            { value: '3600', label: 'hour' },
            { value: '86400', label: 'day' },
          ]}
          onChange={setBucket}
        />
      </div>
      <Notice>{usage.error}</Notice>
      {usage.data && (
        <>
          <p class="source">Counted from the {usage.data.source}.</p>
          {usage.data.times.length === 0 && <p>No requests yet.</p>}
          {usage.data.times.length > 0 && usage.data.metrics.map((metric) => <Chart key={metric.title} title={metric.title} times={usage.data!.times} groups={metric.groups} />)}
        </>
      )}
    </div>
  );
}
