// The guardrail playground: text, a processor and its config, and the answer of /v1/guardrail/:processor/apply exactly as returned.
import { useState } from 'preact/hooks';
import { api, send, seg, storedKey } from '../api.js';
import { CheckField, Notice, SelectField, TextArea, TextField, useLoad } from '../ui.js';

/** Base64 of the UTF-8 bytes of `text`. */
const base64 = (text: string): string => btoa(String.fromCharCode(...new TextEncoder().encode(text)));

/** The playground screen. The admin key goes in x-gateway-apikey, as the standalone endpoint takes it. */
export function PlaygroundScreen() {
  const plugins = useLoad(() => api<{ guardrail: string[] }>('GET', 'admin/plugins'), []);
  const [processor, setProcessor] = useState('promptinjectiondetection');
  const [text, setText] = useState('');
  const [config, setConfig] = useState('{}');
  const [application, setApplication] = useState('');
  const [encode, setEncode] = useState(false);
  const [filename, setFilename] = useState('');
  const [answer, setAnswer] = useState<{ status: number; text: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const run = async (event: Event) => {
    event.preventDefault();
    setError(null);
    let parsed: unknown;
    try {
      parsed = config.trim() === '' ? undefined : JSON.parse(config);
    } catch {
      setError('The config must be JSON.');
      return;
    }
    const input: Record<string, string> = { text: encode ? base64(text) : text };
    if (filename !== '') input.filename = filename;
    try {
      setAnswer(
        await send('POST', `guardrail/${seg(processor)}/apply`, {
          key: '',
          headers: { 'x-gateway-apikey': storedKey() ?? '', ...(application ? { 'x-gateway-application': application } : {}) },
          body: { input, ...(parsed === undefined ? {} : { config: parsed }) },
        }),
      );
    } catch (failure) {
      setError((failure as Error).message);
    }
  };
  return (
    <div class="playground">
      <form onSubmit={run} aria-label="Evaluate text" class="card" noValidate>
        <SelectField label="Processor" value={processor} options={plugins.data?.guardrail ?? [processor]} onChange={setProcessor} />
        <TextArea label="Text to evaluate" value={text} onInput={setText} rows={6} />
        <CheckField label="Send the text Base64-encoded (model_sanitizer)" checked={encode} onChange={setEncode} />
        <TextField label="File name (model_sanitizer)" value={filename} onInput={setFilename} />
        <TextArea label="Config (JSON)" value={config} onInput={setConfig} rows={3} />
        <TextField label="Application whose policy applies (optional)" value={application} onInput={setApplication} />
        <Notice>{error ?? plugins.error}</Notice>
        <button type="submit">Evaluate</button>
      </form>
      {answer && (
        <section aria-label="Result" class="card">
          <h2>Result: HTTP {answer.status}</h2>
          <pre class="json" tabIndex={0} aria-label="Answer as returned">
            {answer.text}
          </pre>
        </section>
      )}
    </div>
  );
}
