// A guardrail policy form built from the JSON Schema the API validates policies with (GET /v1/admin/schemas/policy).
import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { CheckField, Field, listOf, Notice, SelectField, TextField, useLoad, type FormErrors } from '../ui.js';

/** The parts of JSON Schema the policy schemas use. */
export interface SchemaNode {
  type?: string;
  enum?: readonly unknown[];
  default?: unknown;
  minimum?: number;
  maximum?: number;
  properties?: Record<string, SchemaNode>;
  additionalProperties?: SchemaNode | boolean;
  items?: SchemaNode;
}

/** What GET /v1/admin/schemas/policy answers. */
export interface PolicySchemas {
  application: SchemaNode;
  route: SchemaNode;
  processors: Array<{ name: string; default_threshold: number; options_schema: SchemaNode | null }>;
}

/** Loads the policy schemas once per screen. */
export const usePolicySchemas = () => useLoad(() => api<PolicySchemas>('GET', 'admin/schemas/policy'), []);

type Value = Record<string, unknown>;

const LABELS: Record<string, string> = {
  enabled: 'Enabled',
  mode: 'Mode',
  on_error: 'When a guardrail fails',
  timeout_ms: 'Timeout (ms)',
  processors: 'Processors',
  dlp: 'Data loss prevention',
  strategy: 'DLP strategy',
  info_types: 'Info types (comma-separated)',
  threshold: 'Threshold',
  apply_to: 'Apply to',
  unreadable_content: 'Images, audio and PDFs (which input checks cannot read)',
};

const labelOf = (name: string, path: string): string =>
  path === 'enabled' ? 'Override Application Policies' : `${LABELS[name] ?? name}${path.includes('.') ? ` (${path.split('.').slice(0, -1).join(' ')})` : ''}`;

/** `value` with the schema's defaults filled in where absent (as the API fills them when it validates), recursively. */
export function withDefaults(schema: SchemaNode, value: Value): Value {
  const filled: Value = { ...value };
  for (const [name, child] of Object.entries(schema.properties ?? {})) {
    if (filled[name] === undefined && child.default !== undefined) filled[name] = structuredClone(child.default);
    const inner = filled[name];
    if (inner === null || typeof inner !== 'object' || Array.isArray(inner)) continue;
    if (child.properties) filled[name] = withDefaults(child, inner as Value);
    else if (typeof child.additionalProperties === 'object') {
      const entries = child.additionalProperties;
      filled[name] = Object.fromEntries(Object.entries(inner as Value).map(([key, entry]) => [key, withDefaults(entries, entry as Value)]));
    }
  }
  return filled;
}

/** The error shown for a field: its own, or one about a part of it. */
const errorAt = (errors: FormErrors, path: string): string | undefined =>
  errors.fields[path] ?? Object.entries(errors.fields).find(([param]) => param.startsWith(`${path}.`) || param.startsWith(`${path}[`))?.[1];

function Node(props: { name: string; path: string; schema: SchemaNode; value: unknown; onChange: (value: unknown) => void; errors: FormErrors; readOnly: boolean; processors: PolicySchemas['processors'] }) {
  const { name, path, schema, value, onChange, errors, readOnly } = props;
  const label = labelOf(name, path);
  const error = schema.properties || typeof schema.additionalProperties === 'object' ? undefined : errorAt(errors, path);
  if (schema.enum) {
    const options = [...(schema.default === undefined ? [''] : []), ...schema.enum.map(String)];
    return <SelectField label={label} value={value === undefined ? '' : String(value)} options={options} disabled={readOnly} error={error} onChange={(next) => onChange(next === '' ? undefined : next)} />;
  }
  if (schema.type === 'boolean') return <CheckField label={label} checked={value === true} disabled={readOnly} error={error} onChange={onChange} asSwitch={name === 'enabled'} />;
  if (schema.type === 'integer' || schema.type === 'number') {
    return (
      <TextField
        label={label}
        type="number"
        value={value === undefined ? '' : String(value)}
        readOnly={readOnly}
        error={error}
        hint={schema.minimum !== undefined && schema.maximum !== undefined ? `${schema.minimum} to ${schema.maximum}` : undefined}
        onInput={(text) => onChange(text === '' ? undefined : Number(text))}
      />
    );
  }
  if (schema.type === 'array' && schema.items?.enum) {
    const chosen = Array.isArray(value) ? (value as string[]) : [];
    return (
      <fieldset>
        <legend>{label}</legend>
        {schema.items.enum.map((option) => (
          <CheckField
            key={String(option)}
            label={`${label}: ${String(option)}`}
            checked={chosen.includes(String(option))}
            disabled={readOnly}
            onChange={(on) => onChange(on ? [...chosen, String(option)] : chosen.filter((item) => item !== option))}
          />
        ))}
        {error && <span class="field-error" role="alert">{error}</span>}
      </fieldset>
    );
  }
  if (schema.type === 'array') {
    return <TextField label={label} value={Array.isArray(value) ? value.join(', ') : ''} readOnly={readOnly} error={error} onInput={(text) => onChange(text.trim() === '' ? undefined : listOf(text))} />;
  }
  if (schema.type === 'object' && typeof schema.additionalProperties === 'object') {
    // A map of entries (processors): one entry per registered processor, switched on or off.
    const entries = (value as Value | undefined) ?? {};
    const entrySchema = schema.additionalProperties;
    return (
      <fieldset>
        <legend>{label}</legend>
        {props.processors.map((processor) => {
          const entry = entries[processor.name] as Value | undefined;
          const entryPath = `${path}.${processor.name}`;
          return (
            <div class="entry" key={processor.name}>
              <CheckField
                label={`Use ${processor.name}`}
                checked={entry !== undefined}
                disabled={readOnly}
                error={errors.fields[entryPath]}
                onChange={(on) => {
                  const next = { ...entries };
                  if (on) next[processor.name] = withDefaults(entrySchema, { threshold: processor.default_threshold });
                  else delete next[processor.name];
                  onChange(next);
                }}
              />
              {entry && (
                <ObjectFields path={entryPath} schema={entrySchema} value={entry} onChange={(next) => onChange({ ...entries, [processor.name]: next })} errors={errors} readOnly={readOnly} processors={props.processors} />
              )}
            </div>
          );
        })}
      </fieldset>
    );
  }
  if (schema.type === 'object' && schema.properties) {
    return (
      <fieldset>
        <legend>{label}</legend>
        <ObjectFields path={path} schema={schema} value={(value as Value | undefined) ?? {}} onChange={onChange} errors={errors} readOnly={readOnly} processors={props.processors} />
      </fieldset>
    );
  }
  return <Field label={label} error={error} render={(id) => <output id={id}>{JSON.stringify(value)}</output>} />;
}

function ObjectFields(props: { path: string; schema: SchemaNode; value: Value; onChange: (value: Value) => void; errors: FormErrors; readOnly: boolean; processors: PolicySchemas['processors'] }) {
  return (
    <>
      {Object.entries(props.schema.properties ?? {}).map(([name, schema]) => (
        <Node
          key={name}
          name={name}
          path={props.path === '' ? name : `${props.path}.${name}`}
          schema={schema}
          value={props.value[name]}
          errors={props.errors}
          readOnly={props.readOnly}
          processors={props.processors}
          onChange={(next) => {
            const copy = { ...props.value };
            if (next === undefined) delete copy[name];
            else copy[name] = next;
            props.onChange(copy);
          }}
        />
      ))}
    </>
  );
}

/** Every field path the form shows for `schema`, so an API error naming one lands next to it. */
function pathsOf(schema: SchemaNode, prefix: string, processors: PolicySchemas['processors']): string[] {
  const paths: string[] = [];
  for (const [name, child] of Object.entries(schema.properties ?? {})) {
    const path = prefix === '' ? name : `${prefix}.${name}`;
    paths.push(path);
    if (typeof child.additionalProperties === 'object') {
      for (const processor of processors) paths.push(`${path}.${processor.name}`, ...pathsOf(child.additionalProperties, `${path}.${processor.name}`, processors));
    } else if (child.properties) paths.push(...pathsOf(child, path, processors));
  }
  return paths;
}

/**
 * The policy form: one control per schema property, processors from the registered ones. `onSave` throws the API's
 * error; errors naming a field (`param`, after `errorPrefix`) show next to it.
 */
export function PolicyForm(props: { title: string; schema: SchemaNode; processors: PolicySchemas['processors']; initial: Value; readOnly: boolean; errorPrefix?: string; onSave: (policy: Value) => Promise<string> }) {
  const [value, setValue] = useState<Value>(() => withDefaults(props.schema, props.initial));
  const [errors, setErrors] = useState<FormErrors>({ form: null, fields: {} });
  const [saved, setSaved] = useState<string | null>(null);
  const submit = async (event: Event) => {
    event.preventDefault();
    setSaved(null);
    setErrors({ form: null, fields: {} });
    try {
      setSaved(await props.onSave(value));
    } catch (error) {
      const param = (error as { param?: string | null }).param ?? null;
      const stripped = param && props.errorPrefix && param.startsWith(props.errorPrefix) ? param.slice(props.errorPrefix.length) : param;
      const field = stripped
        ? pathsOf(props.schema, '', props.processors)
            .filter((path) => stripped === path || stripped.startsWith(`${path}.`) || stripped.startsWith(`${path}[`))
            .sort((a, b) => b.length - a.length)[0]
        : undefined;
      if (field) setErrors({ form: null, fields: { [field]: (error as Error).message } });
      else setErrors({ form: (error as Error).message, fields: {} });
    }
  };
  return (
    <form onSubmit={submit} aria-label={props.title} class="card policy" noValidate>
      <h3>{props.title}</h3>
      <ObjectFields path="" schema={props.schema} value={value} onChange={setValue} errors={errors} readOnly={props.readOnly} processors={props.processors} />
      <Notice>{errors.form}</Notice>
      <Notice kind="ok">{saved}</Notice>
      {!props.readOnly && <button type="submit">Save policy</button>}
    </form>
  );
}
