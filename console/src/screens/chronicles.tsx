// The Chronicles: an application's request log, filtered by route, model, status and time, page by page, with a detail view.
import { useState } from 'preact/hooks';
import { api, seg } from '../api.js';
import { Notice, SelectField, TextField, timeText, useLoad, TableHead } from '../ui.js';
import { ApplicationPicker } from './application-picker.js';
import { ChronicleDetail } from './chronicle-detail.js';
import type { ChronicleEntry } from './chronicle-types.js';

interface Filters {
  route: string;
  model: string;
  status: string;
  from: string;
  to: string;
  limit: string;
}

const NO_FILTERS: Filters = { route: '', model: '', status: '', from: '', to: '', limit: '20' };

function queryOf(filters: Filters, cursor: string | null): string {
  const query = new URLSearchParams();
  for (const key of ['route', 'model', 'status'] as const) if (filters[key] !== '') query.set(key, filters[key]);
  // datetime-local gives local time without a zone; the API takes ISO 8601 with one.
  if (filters.from !== '') query.set('from', new Date(filters.from).toISOString());
  if (filters.to !== '') query.set('to', new Date(filters.to).toISOString());
  query.set('limit', filters.limit);
  if (cursor) query.set('cursor', cursor);
  return query.toString();
}

/** The Chronicles screen. */
export function ChroniclesScreen() {
  const [application, setApplication] = useState('');
  const [draft, setDraft] = useState<Filters>(NO_FILTERS);
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  // The cursors of the pages before the current one; the current page's own cursor is last.
  const [cursors, setCursors] = useState<Array<string | null>>([null]);
  const [open, setOpen] = useState<ChronicleEntry | null>(null);
  const cursor = cursors[cursors.length - 1] ?? null;
  const page = useLoad(
    () =>
      application === ''
        ? Promise.resolve({ data: [] as ChronicleEntry[], next_cursor: null as string | null })
        : api<{ data: ChronicleEntry[]; next_cursor: string | null }>('GET', `admin/applications/${seg(application)}/chronicles?${queryOf(filters, cursor)}`),
    [application, filters, cursor],
  );
  const set = (key: keyof Filters) => (value: string) => setDraft({ ...draft, [key]: value });
  return (
    <div>
      <ApplicationPicker
        value={application}
        onChange={(name) => {
          setApplication(name);
          setCursors([null]);
          setOpen(null);
        }}
      />
      <form
        class="inline filters"
        aria-label="Filters"
        onSubmit={(event) => {
          event.preventDefault();
          setFilters(draft);
          setCursors([null]);
        }}
      >
        <TextField label="Route" value={draft.route} onInput={set('route')} />
        <TextField label="Model" value={draft.model} onInput={set('model')} />
        <TextField label="Status" type="number" value={draft.status} onInput={set('status')} />
        <TextField label="From" type="datetime-local" value={draft.from} onInput={set('from')} />
        <TextField label="To" type="datetime-local" value={draft.to} onInput={set('to')} />
        <SelectField label="Per page" value={draft.limit} options={['5', '10', '20', '50', '100']} onChange={set('limit')} />
        <button type="submit">Apply filters</button>
      </form>
      <Notice>{page.error}</Notice>
      <table>
        <caption>Requests of {application || '(choose an application)'}, newest first</caption>
        <TableHead columns={['Time', 'Kind', 'Route', 'Model / tool', 'Status', 'Latency (ms)', 'Checks', 'Details']} />
        <tbody>
          {(page.data?.data ?? []).map((entry) => (
            <tr key={entry.id} class={entry.status >= 400 ? 'failed' : ''}>
              <td>{timeText(entry.timestamp)}</td>
              <td>{entry.kind}</td>
              <td>{entry.route ?? '—'}</td>
              <td>{entry.model ?? entry.tool_invocations.map((call) => `${call.registry}/${call.tool}`).join(', ')}</td>
              <td>{entry.status}</td>
              <td>{entry.latency_ms}</td>
              <td>{entry.guardrail_checks.length + entry.tool_invocations.reduce((n, call) => n + call.guardrail_checks.length, 0)}</td>
              <td>
                <button type="button" onClick={() => setOpen(entry)}>
                  Show request {entry.id}
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <div class="pager">
        <button type="button" disabled={cursors.length < 2} onClick={() => setCursors(cursors.slice(0, -1))}>
          Previous page
        </button>
        <span>Page {cursors.length}</span>
        <button type="button" disabled={!page.data?.next_cursor} onClick={() => setCursors([...cursors, page.data!.next_cursor])}>
          Next page
        </button>
      </div>
      {open && <ChronicleDetail key={open.id} entry={open} onClose={() => setOpen(null)} />}
    </div>
  );
}
