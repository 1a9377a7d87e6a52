// Providers and their keys: the list with masked keys, keys per namespace, creating a provider and adding a key.
import { useState } from 'preact/hooks';
import { api, seg } from '../api.js';
import { useSession } from '../session.js';
import { CheckField, listOf, Notice, SelectField, TableHead, TextField, useLoad, useSubmit } from '../ui.js';

interface ProviderKey {
  api_key_secret_name: string | null;
  api_key: string | null;
  enabled: boolean | null;
  namespace?: string | null;
}

interface Provider {
  name: string;
  type: string;
  enabled: boolean | null;
  config: { api_base?: string; models?: string[] } | null;
  api_keys: ProviderKey[];
}

function KeysTable(props: { keys: ProviderKey[]; caption: string }) {
  if (props.keys.length === 0) return <p>No keys.</p>;
  return (
    <table>
      <caption>{props.caption}</caption>
      <TableHead columns={['Key name', 'Key (masked)', 'Enabled']} />
      <tbody>
        {props.keys.map((key) => (
          <tr key={key.api_key_secret_name}>
            <td>{key.api_key_secret_name}</td>
            <td class="mono">{key.api_key}</td>
            <td>{key.enabled === false ? 'no' : 'yes'}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function NamespaceKeys(props: { provider: string }) {
  const { canWrite } = useSession();
  const [namespace, setNamespace] = useState('default');
  const [shown, setShown] = useState('default');
  const keys = useLoad(() => api<ProviderKey[]>('GET', `admin/providers/${seg(props.provider)}/keys`, { headers: { 'x-gateway-namespace': shown } }), [props.provider, shown]);
  const [keyName, setKeyName] = useState('');
  const [secret, setSecret] = useState('');
  const { errors, onSubmit: add } = useSubmit(['api_key', 'api_key_secret_name'], async () => {
    await api('POST', `admin/providers/${seg(props.provider)}/keys/${seg(keyName)}`, { headers: { 'x-gateway-namespace': shown }, body: { api_key: secret } });
    setKeyName('');
    setSecret('');
    keys.reload();
    return null;
  });
  return (
    <section aria-label={`Keys of ${props.provider}`}>
      <form
        class="inline"
        onSubmit={(event) => {
          event.preventDefault();
          setShown(namespace);
        }}
      >
        <TextField label="Namespace" value={namespace} onInput={setNamespace} />
        <button type="submit">Show keys</button>
      </form>
      <Notice>{keys.error}</Notice>
      {keys.data && <KeysTable keys={keys.data} caption={`Keys of ${props.provider} in namespace ${shown}`} />}
      {canWrite && (
        <form class="inline" onSubmit={add} aria-label="Add a key">
          <TextField label="New key name" value={keyName} onInput={setKeyName} error={errors.fields.api_key_secret_name} />
          <TextField label="Key value" type="password" value={secret} onInput={setSecret} error={errors.fields.api_key} />
          <button type="submit" disabled={keyName === '' || secret === ''}>
            Add key to {shown}
          </button>
          <Notice>{errors.form}</Notice>
        </form>
      )}
    </section>
  );
}

function CreateProvider(props: { onCreated: () => void }) {
  const types = useLoad(() => api<{ provider: string[] }>('GET', 'admin/plugins'), []);
  const [name, setName] = useState('');
  const [type, setType] = useState('openai');
  const [apiBase, setApiBase] = useState('');
  const [models, setModels] = useState('');
  const [apiKey, setApiKey] = useState('');
  const [enabled, setEnabled] = useState(true);
  const { errors, done, onSubmit: submit } = useSubmit(['name', 'type', 'config.api_base', 'config.models', 'api_keys'], async () => {
    const config: Record<string, unknown> = {};
    if (apiBase !== '') config.api_base = apiBase;
    const modelList = listOf(models);
    if (modelList.length) config.models = modelList;
    const answer = await api<{ message: string }>('POST', 'admin/providers', {
      body: { name, type, enabled, config, ...(apiKey ? { api_keys: [{ api_key: apiKey, api_key_secret_name: 'key-1' }] } : {}) },
    });
    setName('');
    setApiKey('');
    props.onCreated();
    return answer.message;
  });
  return (
    <form onSubmit={submit} aria-label="Create a provider" class="card">
      <h2>Create a provider</h2>
      <TextField label="Provider name" value={name} onInput={setName} error={errors.fields.name} />
      <SelectField label="Provider type" value={type} options={types.data?.provider ?? [type]} onChange={setType} error={errors.fields.type} />
      <TextField label="API base URL" value={apiBase} onInput={setApiBase} error={errors.fields['config.api_base']} hint="For example https://api.openai.com/v1" />
      <TextField label="Models (comma-separated)" value={models} onInput={setModels} error={errors.fields['config.models']} />
      <TextField label="API key" type="password" value={apiKey} onInput={setApiKey} error={errors.fields.api_keys} hint="Stored encrypted when GATEWAY_SECRET is set; shown masked afterwards." />
      <CheckField label="Enabled" checked={enabled} onChange={setEnabled} />
      <Notice>{errors.form}</Notice>
      <Notice kind="ok">{done}</Notice>
      <button type="submit">Create provider</button>
    </form>
  );
}

/** The providers screen. */
export function ProvidersScreen() {
  const { canWrite } = useSession();
  const providers = useLoad(() => api<Provider[]>('GET', 'admin/providers'), []);
  const [open, setOpen] = useState<string | null>(null);
  return (
    <div>
      <Notice>{providers.error}</Notice>
      <table>
        <caption>Providers</caption>
        <TableHead columns={['Name', 'Type', 'API base', 'Enabled', 'Keys (default namespace, masked)', 'Actions']} />
        <tbody>
          {(providers.data ?? []).map((provider) => (
            <tr key={provider.name}>
              <td>{provider.name}</td>
              <td>{provider.type}</td>
              <td class="mono">{provider.config?.api_base ?? '—'}</td>
              <td>{provider.enabled === false ? 'no' : 'yes'}</td>
              <td class="mono">{provider.api_keys.map((key) => `${key.api_key_secret_name}: ${key.api_key}`).join(', ') || '—'}</td>
              <td>
                <button type="button" onClick={() => setOpen(open === provider.name ? null : provider.name)} aria-expanded={open === provider.name}>
                  Keys of {provider.name}
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {open && <NamespaceKeys provider={open} />}
      {canWrite && <CreateProvider onCreated={providers.reload} />}
    </div>
  );
}
