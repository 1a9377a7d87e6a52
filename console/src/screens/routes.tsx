// Routes: models, weights, fallback codes, retries and rate limits; creating a route; the super_admin-only policy tab.
import { useState } from 'preact/hooks';
import { api, seg } from '../api.js';
import { useSession } from '../session.js';
import { CheckField, JsonBlock, listOf, Notice, SelectField, TableHead, Tabs, TextField, useLoad, useSubmit } from '../ui.js';
import { PolicyForm, usePolicySchemas } from './policy-form.js';

interface RouteModel {
  name: string;
  provider: string;
  weight?: number;
  fallback_enabled?: boolean;
  fallback_codes?: number[];
}

interface Route {
  name: string;
  type: string | null;
  enabled: boolean | null;
  models: RouteModel[] | null;
  config: { settings?: { rate_limit?: number; retries?: number }; policy?: Record<string, unknown> & { enabled?: boolean } } | null;
}

interface ModelRow {
  name: string;
  provider: string;
  weight: string;
  fallback: boolean;
  codes: string;
}

const emptyRow = (): ModelRow => ({ name: '', provider: '', weight: '1', fallback: true, codes: '429, 500, 502, 503' });

function CreateRoute(props: { onCreated: () => void }) {
  const providers = useLoad(() => api<Array<{ name: string }>>('GET', 'admin/providers'), []);
  const [name, setName] = useState('');
  const [type, setType] = useState('chat');
  const [rows, setRows] = useState<ModelRow[]>([emptyRow()]);
  const [retries, setRetries] = useState('1');
  const [rateLimit, setRateLimit] = useState('0');
  const shown = ['name', 'type', 'config.settings.retries', 'config.settings.rate_limit', ...rows.flatMap((_, i) => [`models[${i}].name`, `models[${i}].provider`, `models[${i}].weight`, `models[${i}].fallback_codes`]), 'models'];
  const { errors, done, onSubmit: submit } = useSubmit(shown, async () => {
    const models = rows.map((row) => ({
      name: row.name,
      provider: row.provider,
      weight: Number(row.weight),
      fallback_enabled: row.fallback,
      fallback_codes: listOf(row.codes).map(Number),
    }));
    const answer = await api<{ message: string }>('POST', 'admin/routes', {
      body: { name, type, models, config: { settings: { retries: Number(retries), rate_limit: Number(rateLimit) } } },
    });
    setName('');
    setRows([emptyRow()]);
    props.onCreated();
    return answer.message;
  });
  const providerNames = ['', ...(providers.data ?? []).map((p) => p.name)];
  const setRow = (index: number, change: Partial<ModelRow>) => setRows(rows.map((row, i) => (i === index ? { ...row, ...change } : row)));
  return (
    <form onSubmit={submit} aria-label="Create a route" class="card" noValidate>
      <h2>Create a route</h2>
      <TextField label="Route name" value={name} onInput={setName} error={errors.fields.name} />
      <SelectField label="Route type" value={type} options={['chat', 'completions', 'embeddings']} onChange={setType} error={errors.fields.type} />
      {rows.map((row, index) => (
        <fieldset key={index}>
          <legend>Model {index + 1}</legend>
          <TextField label={`Model name ${index + 1}`} value={row.name} onInput={(v) => setRow(index, { name: v })} error={errors.fields[`models[${index}].name`]} />
          <SelectField label={`Provider ${index + 1}`} value={row.provider} options={providerNames} onChange={(v) => setRow(index, { provider: v })} error={errors.fields[`models[${index}].provider`]} />
          <TextField label={`Weight ${index + 1}`} type="number" value={row.weight} onInput={(v) => setRow(index, { weight: v })} error={errors.fields[`models[${index}].weight`]} />
          <CheckField label={`Fallback enabled ${index + 1}`} checked={row.fallback} onChange={(v) => setRow(index, { fallback: v })} />
          <TextField label={`Fallback codes ${index + 1}`} value={row.codes} onInput={(v) => setRow(index, { codes: v })} error={errors.fields[`models[${index}].fallback_codes`]} />
        </fieldset>
      ))}
      <button type="button" onClick={() => setRows([...rows, emptyRow()])}>
        Add a model
      </button>
      <TextField label="Retries" type="number" value={retries} onInput={setRetries} error={errors.fields['config.settings.retries']} />
      <TextField label="Rate limit (requests per second, 0 for none)" type="number" value={rateLimit} onInput={setRateLimit} error={errors.fields['config.settings.rate_limit']} />
      <Notice>{errors.fields.models ?? errors.form}</Notice>
      <Notice kind="ok">{done}</Notice>
      <button type="submit">Create route</button>
    </form>
  );
}

function RoutePolicyTab(props: { route: Route; onSaved: () => void }) {
  const schemas = usePolicySchemas();
  if (schemas.error) return <Notice>{schemas.error}</Notice>;
  if (!schemas.data) return <p>Loading…</p>;
  return (
    <PolicyForm
      title={`Policy of route ${props.route.name}`}
      schema={schemas.data.route}
      processors={schemas.data.processors}
      initial={props.route.config?.policy ?? { enabled: false }}
      readOnly={false}
      errorPrefix="config.policy."
      onSave={async (policy) => {
        const answer = await api<{ message: string }>('PUT', `admin/routes/${seg(props.route.name)}`, { body: { config: { ...props.route.config, policy } } });
        props.onSaved();
        return answer.message;
      }}
    />
  );
}

function RouteDetail(props: { route: Route; onChanged: () => void }) {
  const { isSuperAdmin } = useSession();
  const tabs = [{ id: 'route-settings', title: 'Settings', render: () => <JsonBlock value={props.route} label={`Route ${props.route.name}`} /> }];
  // The policy tab exists for super_admin only: other roles neither see nor change route policies.
  if (isSuperAdmin) tabs.push({ id: 'route-policy', title: 'Policy', render: () => <RoutePolicyTab route={props.route} onSaved={props.onChanged} /> });
  return (
    <section class="card" aria-label={`Route ${props.route.name}`}>
      <h2>Route {props.route.name}</h2>
      <Tabs label={`Route ${props.route.name}`} tabs={tabs} />
    </section>
  );
}

/** The routes screen. */
export function RoutesScreen() {
  const { canWrite } = useSession();
  const routes = useLoad(() => api<Route[]>('GET', 'admin/routes'), []);
  const [open, setOpen] = useState<string | null>(null);
  const opened = routes.data?.find((route) => route.name === open);
  return (
    <div>
      <Notice>{routes.error}</Notice>
      <table>
        <caption>Routes</caption>
        <TableHead columns={['Name', 'Type', 'Models (provider, weight)', 'Fallback codes', 'Retries', 'Rate limit', 'Policy override', 'Enabled', 'Actions']} />
        <tbody>
          {(routes.data ?? []).map((route) => (
            <tr key={route.name}>
              <td>{route.name}</td>
              <td>{route.type ?? 'unified'}</td>
              <td>{(route.models ?? []).map((m) => `${m.name} (${m.provider}, ${m.weight ?? 1})`).join('; ') || '—'}</td>
              <td>{(route.models ?? []).map((m) => (m.fallback_enabled === false ? 'off' : (m.fallback_codes ?? []).join(' '))).join('; ') || '—'}</td>
              <td>{route.config?.settings?.retries ?? 1}</td>
              <td>{route.config?.settings?.rate_limit ? `${route.config.settings.rate_limit}/s` : 'none'}</td>
              <td>{route.config?.policy?.enabled ? 'on' : 'off'}</td>
              <td>{route.enabled === false ? 'no' : 'yes'}</td>
              <td>
                <button type="button" aria-expanded={open === route.name} onClick={() => setOpen(open === route.name ? null : route.name)}>
                  Open {route.name}
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {opened && <RouteDetail key={opened.name} route={opened} onChanged={routes.reload} />}
      {canWrite && <CreateRoute onCreated={routes.reload} />}
    </div>
  );
}
