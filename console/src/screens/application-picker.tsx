// A select of the applications, for the screens that read one application's data (Chronicles, usage, tool graph).
import { api } from '../api.js';
import { Notice, SelectField, useLoad } from '../ui.js';

/** Picks an application; `value` is '' until one is chosen. */
export function ApplicationPicker(props: { value: string; onChange: (name: string) => void; label?: string }) {
  const applications = useLoad(() => api<Array<{ name: string }>>('GET', 'admin/applications'), []);
  return (
    <>
      <Notice>{applications.error}</Notice>
      <SelectField label={props.label ?? 'Application'} value={props.value} options={['', ...(applications.data ?? []).map((a) => a.name)]} onChange={props.onChange} />
    </>
  );
}
