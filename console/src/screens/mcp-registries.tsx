// MCP registries: the list, registering one, and per registry its Tools tab (switches, scan, pins), policies, token update and tool graph.
import { useState } from 'preact/hooks';
import { api, seg } from '../api.js';
import { useSession } from '../session.js';
import { CheckField, FieldError, Notice, parseJsonField, TableHead, Tabs, TextArea, TextField, timeText, useLoad, useSubmit } from '../ui.js';
import { ApplicationPicker } from './application-picker.js';

interface Registry {
  name: string;
  url: string;
  request_url: string;
  description: string | null;
  authorization_token: string | null;
}

interface ToolView {
  name: string;
  description: string | null;
  enabled: boolean;
  disabled_reason: string | null;
  pinned_at: string | null;
  changed: boolean;
  scan: { risk: string; scanned_at: string; findings: Array<{ rule: string; severity: string; evidence: string; location: string }> };
}

function ToolsTab(props: { registry: string }) {
  const { canWrite } = useSession();
  const tools = useLoad(() => api<ToolView[]>('GET', `admin/mcp/registries/${seg(props.registry)}/tools`), [props.registry]);
  const [error, setError] = useState<string | null>(null);
  const toggle = async (tool: string, enabled: boolean) => {
    setError(null);
    try {
      await api('PUT', `admin/mcp/registries/${seg(props.registry)}/tools/${seg(tool)}`, { body: { enabled } });
    } catch (failure) {
      setError((failure as Error).message);
    }
    tools.reload();
  };
  return (
    <div>
      <Notice>{tools.error ?? error}</Notice>
      <table>
        <caption>Tools of {props.registry} (scanned when this tab opens)</caption>
        <TableHead columns={['Tool', 'Description', 'Access', 'Scan risk', 'Findings', 'Pin']} />
        <tbody>
          {(tools.data ?? []).map((tool) => (
            <tr key={tool.name}>
              <td>{tool.name}</td>
              <td>{tool.description ?? '—'}</td>
              <td>
                <CheckField label={`Enabled: ${tool.name}`} asSwitch checked={tool.enabled} disabled={!canWrite} onChange={(on) => toggle(tool.name, on)} />
                {tool.disabled_reason && <small>disabled: {tool.disabled_reason}</small>}
              </td>
              <td class={`risk-${tool.scan.risk}`}>{tool.scan.risk}</td>
              <td>
                {tool.scan.findings.length === 0
                  ? 'none'
                  : tool.scan.findings.map((finding, index) => (
                      <div key={index}>
                        {finding.severity} {finding.rule} at {finding.location}: <span class="mono">{finding.evidence}</span>
                      </div>
                    ))}
              </td>
              <td>{tool.pinned_at === null ? 'first seen, not pinned yet' : `pinned ${timeText(tool.pinned_at)}${tool.changed ? ' — CHANGED since pinned' : ', unchanged'}`}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function PoliciesTab(props: { registry: string }) {
  const { canWrite } = useSession();
  const policies = useLoad(() => api<unknown>('GET', `admin/mcp/registries/${seg(props.registry)}/policies`), [props.registry]);
  const [text, setText] = useState<string | null>(null);
  const shown = text ?? (policies.data === undefined ? '' : JSON.stringify(policies.data, null, 2));
  const { errors, done: saved, onSubmit: save } = useSubmit(['policies'], async () => {
    const body = parseJsonField(shown, 'policies', 'The policies');
    try {
      const answer = await api<{ message: string }>('PUT', `admin/mcp/registries/${seg(props.registry)}/policies`, { body });
      policies.reload();
      setText(null);
      return answer.message;
    } catch (error) {
      // Every error of this form is about the one JSON field.
      throw new FieldError('policies', (error as Error).message);
    }
  });
  return (
    <form onSubmit={save} aria-label={`Policies of ${props.registry}`}>
      <Notice>{policies.error}</Notice>
      <TextArea label={`Registry policies of ${props.registry} (JSON)`} value={shown} onInput={setText} rows={16} readOnly={!canWrite} error={errors.fields.policies} />
      <Notice kind="ok">{saved}</Notice>
      {canWrite && <button type="submit">Save policies</button>}
    </form>
  );
}

function TokenTab(props: { registry: Registry; onSaved: () => void }) {
  const [token, setToken] = useState('');
  const { errors, done: saved, onSubmit: save } = useSubmit(['authorization_token'], async () => {
    const answer = await api<{ message: string }>('PUT', `admin/mcp/registries/${seg(props.registry.name)}`, { body: { authorization_token: token } });
    setToken('');
    props.onSaved();
    return answer.message;
  });
  return (
    <form onSubmit={save} aria-label={`Update the token of ${props.registry.name}`}>
      <p>The stored token is never shown. {props.registry.authorization_token ? 'A token is set.' : 'No token is set.'}</p>
      <TextField label="New authorization token" type="password" value={token} onInput={setToken} error={errors.fields.authorization_token} />
      <Notice>{errors.form}</Notice>
      <Notice kind="ok">{saved}</Notice>
      <button type="submit" disabled={token === ''}>
        Update token
      </button>
    </form>
  );
}

function GraphTab(props: { registry: string }) {
  const [application, setApplication] = useState('');
  const graph = useLoad(
    () => (application === '' ? Promise.resolve([]) : api<Array<{ tool: string; server: string; requests: number; last_used: string }>>('GET', `admin/applications/${seg(application)}/graph`)),
    [application],
  );
  const nodes = (graph.data ?? []).filter((node) => node.server === props.registry);
  const most = Math.max(1, ...nodes.map((node) => node.requests));
  return (
    <div>
      <ApplicationPicker label="Application of the graph" value={application} onChange={setApplication} />
      <Notice>{graph.error}</Notice>
      <table>
        <caption>Tools of {props.registry} used by {application || '(choose an application)'}</caption>
        <TableHead columns={['Tool', 'Tool server', 'Requests', 'Last used']} />
        <tbody>
          {nodes.map((node) => (
            <tr key={node.tool}>
              <td>{node.tool}</td>
              <td>{node.server}</td>
              <td>
                <meter min={0} max={most} value={node.requests} aria-label={`Requests to ${node.tool}`} /> {node.requests}
              </td>
              <td>{timeText(node.last_used)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function CreateRegistry(props: { onCreated: () => void }) {
  const [name, setName] = useState('');
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [token, setToken] = useState('');
  const { errors, done, onSubmit: submit } = useSubmit(['name', 'url', 'description', 'authorization_token'], async () => {
    const answer = await api<{ message: string; request_url: string }>('POST', 'admin/mcp/registries', {
      body: { name, url, ...(description ? { description } : {}), ...(token ? { authorization_token: token } : {}) },
    });
    setName('');
    setToken('');
    props.onCreated();
    return `${answer.message}: ${answer.request_url}`;
  });
  return (
    <form onSubmit={submit} aria-label="Register an MCP server" class="card" noValidate>
      <h2>Register an MCP server</h2>
      <TextField label="Registry name" value={name} onInput={setName} error={errors.fields.name} />
      <TextField label="Tool server URL" value={url} onInput={setUrl} error={errors.fields.url} />
      <TextField label="Registry description" value={description} onInput={setDescription} error={errors.fields.description} />
      <TextField label="Authorization token" type="password" value={token} onInput={setToken} error={errors.fields.authorization_token} />
      <Notice>{errors.form}</Notice>
      <Notice kind="ok">{done}</Notice>
      <button type="submit">Register</button>
    </form>
  );
}

/** The MCP registries screen. */
export function McpScreen() {
  const { canWrite } = useSession();
  const registries = useLoad(() => api<Registry[]>('GET', 'admin/mcp/registries'), []);
  const [open, setOpen] = useState<string | null>(null);
  const opened = registries.data?.find((registry) => registry.name === open);
  return (
    <div>
      <Notice>{registries.error}</Notice>
      <table>
        <caption>MCP registries</caption>
        <TableHead columns={['Name', 'Tool server URL', 'Request URL', 'Description', 'Actions']} />
        <tbody>
          {(registries.data ?? []).map((registry) => (
            <tr key={registry.name}>
              <td>{registry.name}</td>
              <td class="mono">{registry.url}</td>
              <td class="mono">{registry.request_url}</td>
              <td>{registry.description ?? '—'}</td>
              <td>
                <button type="button" aria-expanded={open === registry.name} onClick={() => setOpen(open === registry.name ? null : registry.name)}>
                  Open {registry.name}
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {opened && (
        <section class="card" aria-label={`Registry ${opened.name}`} key={opened.name}>
          <h2>Registry {opened.name}</h2>
          <Tabs
            label={`Registry ${opened.name}`}
            tabs={[
              { id: 'mcp-tools', title: 'Tools', render: () => <ToolsTab registry={opened.name} /> },
              { id: 'mcp-policies', title: 'Policies', render: () => <PoliciesTab registry={opened.name} /> },
              ...(canWrite ? [{ id: 'mcp-token', title: 'Token', render: () => <TokenTab registry={opened} onSaved={registries.reload} /> }] : []),
              { id: 'mcp-graph', title: 'Application graph', render: () => <GraphTab registry={opened.name} /> },
            ]}
          />
        </section>
      )}
      {canWrite && <CreateRegistry onCreated={registries.reload} />}
    </div>
  );
}
