// Applications: create one, create and revoke developer keys (the clear key shown once, with a copy button), edit the policy.
import { useState } from 'preact/hooks';
import { api, seg } from '../api.js';
import { useSession } from '../session.js';
import { CheckField, Notice, TableHead, Tabs, TextField, timeText, useLoad, useSubmit } from '../ui.js';
import { PolicyForm, usePolicySchemas } from './policy-form.js';

interface Application {
  name: string;
  description: string | null;
  enabled: boolean | null;
  created_at: string | null;
}

interface DeveloperKey {
  id: string;
  name: string | null;
  created_at: string;
  created_by?: string;
  [field: string]: unknown;
}

function NewKey(props: { value: string }) {
  const [copied, setCopied] = useState<string | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(props.value);
      setCopied('Copied to the clipboard.');
    } catch {
      const field = document.getElementById('new-developer-key') as HTMLInputElement | null;
      field?.select();
      setCopied('Copying is not allowed here: the key is selected, copy it with the keyboard.');
    }
  };
  return (
    <div class="card new-key" role="region" aria-label="Developer key, shown once">
      <p>Store this key now: it is not shown again.</p>
      <label for="new-developer-key">New developer key</label>
      <input id="new-developer-key" class="mono" readOnly value={props.value} />
      <button type="button" onClick={copy}>
        Copy key
      </button>
      <Notice kind="ok">{copied}</Notice>
    </div>
  );
}

function KeysTab(props: { application: string }) {
  const { canWrite } = useSession();
  const keys = useLoad(() => api<DeveloperKey[]>('GET', `admin/applications/${seg(props.application)}/keys`), [props.application]);
  const [label, setLabel] = useState('');
  const [created, setCreated] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const create = async (event: Event) => {
    event.preventDefault();
    setError(null);
    try {
      const answer = await api<{ key: string }>('POST', `admin/applications/${seg(props.application)}/keys`, { body: label ? { name: label } : {} });
      setCreated(answer.key);
      setLabel('');
      keys.reload();
    } catch (failure) {
      setError((failure as Error).message);
    }
  };
  const revoke = async (id: string) => {
    setError(null);
    try {
      await api('DELETE', `admin/applications/${seg(props.application)}/keys/${seg(id)}`);
      keys.reload();
    } catch (failure) {
      setError((failure as Error).message);
    }
  };
  return (
    <div>
      <Notice>{keys.error ?? error}</Notice>
      <table>
        <caption>Developer keys of {props.application}</caption>
        <thead>
          <tr>
            <th scope="col">Key id</th>
            <th scope="col">Label</th>
            <th scope="col">Key (masked)</th>
            <th scope="col">Created</th>
            {canWrite && <th scope="col">Actions</th>}
          </tr>
        </thead>
        <tbody>
          {(keys.data ?? []).map((key) => (
            <tr key={key.id}>
              <td class="mono">{key.id}</td>
              <td>{key.name ?? '—'}</td>
              <td class="mono">{String(key.masked ?? '')}</td>
              <td>{timeText(key.created_at)}</td>
              {canWrite && (
                <td>
                  <button type="button" onClick={() => revoke(key.id)}>
                    Revoke {key.name ?? key.id}
                  </button>
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
      {created && <NewKey value={created} />}
      {canWrite && (
        <form class="inline" onSubmit={create} aria-label="Create a developer key">
          <TextField label="Key label" value={label} onInput={setLabel} />
          <button type="submit">Create developer key</button>
        </form>
      )}
    </div>
  );
}

function PolicyTab(props: { application: string }) {
  const { canWrite } = useSession();
  const schemas = usePolicySchemas();
  const policy = useLoad(() => api<Record<string, unknown>>('GET', `admin/applications/${seg(props.application)}/policy`), [props.application]);
  if (schemas.error || policy.error) return <Notice>{schemas.error ?? policy.error}</Notice>;
  if (!schemas.data || !policy.data) return <p>Loading…</p>;
  return (
    <PolicyForm
      key={props.application}
      title={`Policy of ${props.application}`}
      schema={schemas.data.application}
      processors={schemas.data.processors}
      initial={policy.data}
      readOnly={!canWrite}
      onSave={async (value) => (await api<{ message: string }>('PUT', `admin/applications/${seg(props.application)}/policy`, { body: value })).message}
    />
  );
}

function CreateApplication(props: { onCreated: (name: string) => void }) {
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [enabled, setEnabled] = useState(true);
  const { errors, onSubmit: submit } = useSubmit(['name', 'description'], async () => {
    await api('POST', 'admin/applications', { body: { name, enabled, ...(description ? { description } : {}) } });
    props.onCreated(name);
    setName('');
    setDescription('');
    return null;
  });
  return (
    <form onSubmit={submit} aria-label="Create an application" class="card" noValidate>
      <h2>Create an application</h2>
      <TextField label="Application name" value={name} onInput={setName} error={errors.fields.name} />
      <TextField label="Application description" value={description} onInput={setDescription} error={errors.fields.description} />
      <CheckField label="Application enabled" checked={enabled} onChange={setEnabled} />
      <Notice>{errors.form}</Notice>
      <button type="submit">Create application</button>
    </form>
  );
}

/** The applications screen. */
export function ApplicationsScreen() {
  const { canWrite } = useSession();
  const applications = useLoad(() => api<Application[]>('GET', 'admin/applications'), []);
  const [open, setOpen] = useState<string | null>(null);
  return (
    <div>
      <Notice>{applications.error}</Notice>
      <table>
        <caption>Applications</caption>
        <TableHead columns={['Name', 'Description', 'Enabled', 'Created', 'Actions']} />
        <tbody>
          {(applications.data ?? []).map((application) => (
            <tr key={application.name}>
              <td>{application.name}</td>
              <td>{application.description ?? '—'}</td>
              <td>{application.enabled === false ? 'no' : 'yes'}</td>
              <td>{timeText(application.created_at)}</td>
              <td>
                <button type="button" aria-expanded={open === application.name} onClick={() => setOpen(open === application.name ? null : application.name)}>
                  Open {application.name}
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {open && (
        <section class="card" aria-label={`Application ${open}`} key={open}>
          <h2>Application {open}</h2>
          <Tabs
            label={`Application ${open}`}
            tabs={[
              { id: 'app-keys', title: 'Developer keys', render: () => <KeysTab application={open} /> },
              { id: 'app-policy', title: 'Policy', render: () => <PolicyTab application={open} /> },
            ]}
          />
        </section>
      )}
      {canWrite && (
        <CreateApplication
          onCreated={(name) => {
            applications.reload();
            setOpen(name);
          }}
        />
      )}
    </div>
  );
}
