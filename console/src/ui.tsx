// Small shared pieces of the console: data loading, labelled fields with their API error, notices, JSON blocks and tabs.
import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useId, useState } from 'preact/hooks';
import { ApiError } from './api.js';

/** Loads data with `load`, again whenever `deps` change or `reload()` is called. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]): { data: T | undefined; error: string | null; reload: () => void } {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<string | null>(null);
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let live = true;
    load().then(
      (value) => {
        if (live) {
          setData(value);
          setError(null);
        }
      },
      (failure: Error) => live && setError(failure.message),
    );
    return () => {
      live = false;
    };
  }, [...deps, tick]);
  return { data, error, reload: useCallback(() => setTick((n) => n + 1), []) };
}

/** Field errors of a failed write: the API's `param` names the field; anything else is a form-level error. */
export interface FormErrors {
  form: string | null;
  fields: Record<string, string>;
}

export const NO_ERRORS: FormErrors = { form: null, fields: {} };

/** Turns a failed write into form errors, placing an {@link ApiError} next to the field it names when that field is shown. */
export function errorsOf(error: unknown, shown: readonly string[], strip = ''): FormErrors {
  if (error instanceof ApiError && error.param) {
    const param = strip && error.param.startsWith(strip) ? error.param.slice(strip.length) : error.param;
    const field = shown.find((name) => param === name || param.startsWith(`${name}.`) || param.startsWith(`${name}[`));
    if (field) return { form: null, fields: { [field]: error.message } };
  }
  return { form: error instanceof Error ? error.message : String(error), fields: {} };
}

/** A field's own error found before sending (e.g. text that is not JSON); placed next to that field. */
export class FieldError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

/** Parses the JSON text of `field`, or throws a {@link FieldError} for it. */
export function parseJsonField(text: string, field: string, what = 'This field'): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new FieldError(field, `${what} must be JSON.`);
  }
}

/**
 * A form's submit handler with its state: `action` runs on submit and answers the success message; a failure shows
 * next to the field it names among `fields` (the API's `param`, or a {@link FieldError}), else above the button.
 */
export function useSubmit(fields: readonly string[], action: () => Promise<string | null | undefined>): { errors: FormErrors; done: string | null; onSubmit: (event: Event) => Promise<void> } {
  const [errors, setErrors] = useState<FormErrors>(NO_ERRORS);
  const [done, setDone] = useState<string | null>(null);
  const onSubmit = async (event: Event) => {
    event.preventDefault();
    setErrors(NO_ERRORS);
    setDone(null);
    try {
      setDone((await action()) ?? null);
    } catch (error) {
      setErrors(error instanceof FieldError ? { form: null, fields: { [error.field]: error.message } } : errorsOf(error, fields));
    }
  };
  return { errors, done, onSubmit };
}

/** The header row of a table: one column header per name. */
export function TableHead(props: { columns: readonly string[] }) {
  return (
    <thead>
      <tr>
        {props.columns.map((column) => (
          <th key={column} scope="col">
            {column}
          </th>
        ))}
      </tr>
    </thead>
  );
}

/** A visible error or notice. Text only: every value is rendered as text, never as HTML. */
export function Notice(props: { kind?: 'error' | 'ok'; children: ComponentChildren }) {
  if (props.children === null || props.children === undefined || props.children === '') return null;
  return (
    <p class={`notice ${props.kind ?? 'error'}`} role={props.kind === 'ok' ? 'status' : 'alert'}>
      {props.children}
    </p>
  );
}

/** A labelled control with its API error under it. `render` gets the id and the described-by id. */
export function Field(props: { label: string; error?: string; hint?: string; render: (id: string, describedBy: string | undefined) => ComponentChildren }) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div class={`field${props.error ? ' invalid' : ''}`}>
      <label for={id}>{props.label}</label>
      {props.render(id, props.error ? errorId : undefined)}
      {props.hint && <small>{props.hint}</small>}
      {props.error && (
        <span class="field-error" id={errorId} role="alert">
          {props.error}
        </span>
      )}
    </div>
  );
}

/** A text input field. */
export function TextField(props: { label: string; value: string; onInput: (value: string) => void; error?: string; type?: string; hint?: string; readOnly?: boolean; autoComplete?: string }) {
  return (
    <Field
      label={props.label}
      error={props.error}
      hint={props.hint}
      render={(id, describedBy) => (
        <input
          id={id}
          type={props.type ?? 'text'}
          value={props.value}
          readOnly={props.readOnly}
          autoComplete={props.autoComplete ?? 'off'}
          aria-invalid={props.error ? 'true' : undefined}
          aria-describedby={describedBy}
          onInput={(event) => props.onInput((event.target as HTMLInputElement).value)}
        />
      )}
    />
  );
}

/** A checkbox with its label. */
export function CheckField(props: { label: string; checked: boolean; onChange: (checked: boolean) => void; disabled?: boolean; error?: string; asSwitch?: boolean }) {
  const id = useId();
  return (
    <div class={`check${props.error ? ' invalid' : ''}`}>
      <input
        id={id}
        type="checkbox"
        role={props.asSwitch ? 'switch' : undefined}
        checked={props.checked}
        disabled={props.disabled}
        onChange={(event) => props.onChange((event.target as HTMLInputElement).checked)}
      />
      <label for={id}>{props.label}</label>
      {props.error && (
        <span class="field-error" role="alert">
          {props.error}
        </span>
      )}
    </div>
  );
}

/** A select with its label. */
export function SelectField(props: { label: string; value: string; options: Array<string | { value: string; label: string }>; onChange: (value: string) => void; error?: string; disabled?: boolean }) {
  return (
    <Field
      label={props.label}
      error={props.error}
      render={(id, describedBy) => (
        <select id={id} value={props.value} disabled={props.disabled} aria-describedby={describedBy} onChange={(event) => props.onChange((event.target as HTMLSelectElement).value)}>
          {props.options.map((option) => {
            const { value, label } = typeof option === 'string' ? { value: option, label: option || '(none)' } : option;
            return (
              <option key={value} value={value}>
                {label}
              </option>
            );
          })}
        </select>
      )}
    />
  );
}

/** A multi-line text field (JSON, prompts). */
export function TextArea(props: { label: string; value: string; onInput: (value: string) => void; error?: string; rows?: number; readOnly?: boolean }) {
  return (
    <Field
      label={props.label}
      error={props.error}
      render={(id, describedBy) => (
        <textarea
          id={id}
          rows={props.rows ?? 6}
          value={props.value}
          readOnly={props.readOnly}
          spellcheck={false}
          aria-describedby={describedBy}
          onInput={(event) => props.onInput((event.target as HTMLTextAreaElement).value)}
        />
      )}
    />
  );
}

/** Any value as indented JSON text (a string is shown as is). */
export function JsonBlock(props: { value: unknown; label?: string }) {
  const text = typeof props.value === 'string' ? props.value : JSON.stringify(props.value, null, 2);
  return (
    <pre class="json" tabIndex={0} aria-label={props.label ?? 'JSON'}>
      {text ?? 'null'}
    </pre>
  );
}

/** Tabs: keyboard-reachable buttons with the tab roles; only the chosen panel renders. */
export function Tabs(props: { label: string; tabs: Array<{ id: string; title: string; render: () => ComponentChildren }>; selected?: string }) {
  const [current, setCurrent] = useState(props.selected ?? props.tabs[0]?.id);
  const active = props.tabs.find((tab) => tab.id === current) ?? props.tabs[0];
  return (
    <div class="tabs">
      <div role="tablist" aria-label={props.label}>
        {props.tabs.map((tab) => (
          <button key={tab.id} type="button" role="tab" id={`tab-${tab.id}`} aria-selected={tab === active} aria-controls={`panel-${tab.id}`} onClick={() => setCurrent(tab.id)}>
            {tab.title}
          </button>
        ))}
      </div>
      {active && (
        <div role="tabpanel" id={`panel-${active.id}`} aria-labelledby={`tab-${active.id}`}>
          {active.render()}
        </div>
      )}
    </div>
  );
}

/** Parses a comma-separated list. */
export const listOf = (text: string): string[] =>
  text
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');

/** A time as the browser's locale shows it, or a dash. */
export const timeText = (value: unknown): string => (typeof value === 'string' && value !== '' ? new Date(value).toLocaleString() : '—');
