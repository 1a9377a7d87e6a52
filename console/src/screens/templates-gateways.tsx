// Templates and gateway records: their lists and a create form for each.
import { useState } from 'preact/hooks';
import { api, seg } from '../api.js';
import { useSession } from '../session.js';
import { CheckField, Notice, parseJsonField, TableHead, TextArea, TextField, timeText, useLoad, useSubmit } from '../ui.js';

interface Item {
  name: string;
  type: string | null;
  description?: string | null;
  enabled: boolean | null;
  config: unknown;
  modified_at: string | null;
  modified_by: string | null;
}

function ItemTable(props: { caption: string; items: Item[] }) {
  return (
    <table>
      <caption>{props.caption}</caption>
      <TableHead columns={['Name', 'Type', 'Description', 'Enabled', 'Config', 'Modified']} />
      <tbody>
        {props.items.map((item) => (
          <tr key={item.name}>
            <td>{item.name}</td>
            <td>{item.type ?? '—'}</td>
            <td>{item.description ?? '—'}</td>
            <td>{item.enabled === false ? 'no' : 'yes'}</td>
            <td class="mono">{JSON.stringify(item.config ?? {})}</td>
            <td>
              {timeText(item.modified_at)} {item.modified_by ? `by ${item.modified_by}` : ''}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function CreateItem(props: { kind: 'template' | 'gateway'; onCreated: () => void }) {
  const [name, setName] = useState('');
  const [type, setType] = useState('');
  const [description, setDescription] = useState('');
  const [enabled, setEnabled] = useState(true);
  const [config, setConfig] = useState('{}');
  const { errors, done, onSubmit: submit } = useSubmit(['name', 'type', 'description', 'config'], async () => {
    const body: Record<string, unknown> = { name, enabled, config: parseJsonField(config, 'config', 'The config'), ...(type ? { type } : {}) };
    if (props.kind === 'template' && description) body.description = description;
    const answer = props.kind === 'template' ? await api<{ message: string }>('POST', `admin/templates/${seg(name)}`, { body }) : await api<string>('POST', 'admin/gateways', { body });
    setName('');
    props.onCreated();
    return typeof answer === 'string' ? answer : answer.message;
  });
  const title = props.kind === 'template' ? 'Create a template' : 'Create a gateway';
  return (
    <form onSubmit={submit} aria-label={title} class="card" noValidate>
      <h2>{title}</h2>
      <TextField label={`${props.kind === 'template' ? 'Template' : 'Gateway'} name`} value={name} onInput={setName} error={errors.fields.name} />
      <TextField label={`${props.kind === 'template' ? 'Template' : 'Gateway'} type`} value={type} onInput={setType} error={errors.fields.type} />
      {props.kind === 'template' && <TextField label="Description" value={description} onInput={setDescription} error={errors.fields.description} />}
      <CheckField label={`${props.kind === 'template' ? 'Template' : 'Gateway'} enabled`} checked={enabled} onChange={setEnabled} />
      <TextArea label={`${props.kind === 'template' ? 'Template' : 'Gateway'} config (JSON)`} value={config} onInput={setConfig} rows={3} error={errors.fields.config} />
      <Notice>{errors.form}</Notice>
      <Notice kind="ok">{done}</Notice>
      <button type="submit">{title}</button>
    </form>
  );
}

/** The templates and gateways screen. */
export function TemplatesGatewaysScreen() {
  const { canWrite } = useSession();
  const templates = useLoad(() => api<Item[]>('GET', 'admin/templates'), []);
  const gateways = useLoad(() => api<{ gateways: Item[] }>('GET', 'admin/gateways'), []);
  return (
    <div>
      <h2>Templates</h2>
      <Notice>{templates.error}</Notice>
      <ItemTable caption="Templates" items={templates.data ?? []} />
      {canWrite && <CreateItem kind="template" onCreated={templates.reload} />}
      <h2>Gateways</h2>
      <Notice>{gateways.error}</Notice>
      <ItemTable caption="Gateways" items={gateways.data?.gateways ?? []} />
      {canWrite && <CreateItem kind="gateway" onCreated={gateways.reload} />}
    </div>
  );
}
