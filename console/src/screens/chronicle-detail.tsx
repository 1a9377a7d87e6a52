// One request log entry: input, output, the stream cut point, each tool call and each guardrail check with its decision and timing.
import { JsonBlock, timeText, TableHead } from '../ui.js';
import type { ChronicleEntry, GuardrailCheck } from './chronicle-types.js';

function ChecksTable(props: { checks: GuardrailCheck[]; caption: string }) {
  if (props.checks.length === 0) return <p>No guardrail checks.</p>;
  return (
    <table>
      <caption>{props.caption}</caption>
      <TableHead columns={['Processor', 'Phase', 'Decision', 'Triggered', 'Time (ms)', 'Error', 'Results']} />
      <tbody>
        {props.checks.map((check, index) => (
          <tr key={index} class={check.request_reject ? 'rejected' : ''}>
            <td>{check.processor}</td>
            <td>{check.phase}</td>
            <td>{check.request_reject ? 'reject' : 'allow'}</td>
            <td>{check.triggered.join(', ') || '—'}</td>
            <td>{check.latency_ms}</td>
            <td>{check.error ? `${check.error} (${check.on_error ?? ''})` : '—'}</td>
            <td>
              <JsonBlock value={check.results} label={`Results of ${check.processor}`} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The detail view of one entry. Every value is shown as text. */
export function ChronicleDetail(props: { entry: ChronicleEntry; onClose: () => void }) {
  const { entry } = props;
  return (
    <section class="card detail" aria-label={`Request ${entry.id}`}>
      <h2>Request {entry.id}</h2>
      <button type="button" onClick={props.onClose}>
        Close request {entry.id}
      </button>
      <dl>
        <dt>Time</dt>
        <dd>{timeText(entry.timestamp)}</dd>
        <dt>Endpoint</dt>
        <dd>{entry.endpoint}</dd>
        <dt>Route / provider / model</dt>
        <dd>{[entry.route, entry.provider, entry.model].map((part) => part ?? '—').join(' / ')}</dd>
        {entry.mcp && (
          <>
            <dt>MCP exchange</dt>
            <dd>
              {entry.mcp.method} — {entry.mcp.blocked ? 'blocked' : 'allowed'}
            </dd>
          </>
        )}
        <dt>Status</dt>
        <dd>{entry.status}</dd>
        <dt>Latency</dt>
        <dd>{entry.latency_ms} ms</dd>
        <dt>Usage</dt>
        <dd>{entry.usage ? JSON.stringify(entry.usage) : '—'}</dd>
        {entry.error && (
          <>
            <dt>Error</dt>
            <dd>
              {entry.error.code}: {entry.error.message}
            </dd>
          </>
        )}
      </dl>
      <h3>Input</h3>
      <JsonBlock value={entry.input} label="Input" />
      <h3>Output</h3>
      <JsonBlock value={entry.output ?? '(no output)'} label="Output" />
      {entry.stream_cut && (
        <p class="cut" role="note" aria-label="Stream cut point">
          Stream cut point: an output guardrail stopped the stream after {entry.stream_cut.after_chars} characters ({entry.stream_cut.code}). The output above is what the client received; the rest was withheld.
        </p>
      )}
      {entry.stream && !entry.stream_cut && entry.error && <p class="cut">The stream ended with an error: {entry.error.message}</p>}
      <h3>Guardrail checks</h3>
      <ChecksTable checks={entry.guardrail_checks} caption="Guardrail checks of the request" />
      <h3>Tool calls</h3>
      {entry.tool_invocations.length === 0 && <p>No tool calls.</p>}
      {entry.tool_invocations.map((call, index) => (
        <article key={index} class="tool-call" aria-label={`Tool call ${call.registry}/${call.tool}`}>
          <h4>
            {call.registry} / {call.tool} — {call.blocked ? 'blocked' : call.error ? 'failed' : 'ok'}, {call.latency_ms} ms
          </h4>
          {call.error && <p>{call.error}</p>}
          <h5>Arguments</h5>
          <JsonBlock value={call.arguments} label={`Arguments of ${call.tool}`} />
          <h5>Result</h5>
          <JsonBlock value={call.result ?? null} label={`Result of ${call.tool}`} />
          <ChecksTable checks={call.guardrail_checks} caption={`Guardrail checks of ${call.tool}`} />
        </article>
      ))}
      {entry.truncated && <p>Cut to the log's field limit: {entry.truncated.map((t) => `${t.field} (${t.bytes} bytes)`).join(', ')}</p>}
    </section>
  );
}
