/** A labelled input whose error message sits right under it, announced and tied to it for screen readers. */
export function Field(props: {
  name: string;
  label: string;
  value: string;
  onInput: (value: string) => void;
  error?: string | undefined;
  type?: string;
  hint?: string;
  required?: boolean;
  multiline?: boolean;
}) {
  const id = `field-${props.name}`;
  const describedBy =
    [props.hint ? `${id}-hint` : '', props.error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  const common = {
    id,
    name: props.name,
    value: props.value,
    required: props.required,
    'aria-invalid': props.error ? ('true' as const) : undefined,
    'aria-describedby': describedBy,
  };
  return (
    <div class="field">
      <label for={id}>{props.label}</label>
      {props.hint && (
        <div id={`${id}-hint`} class="muted">
          {props.hint}
        </div>
      )}
      {props.multiline ? (
        <textarea {...common} rows={3} onInput={(e) => props.onInput(e.currentTarget.value)} />
      ) : (
        <input
          {...common}
          type={props.type ?? 'text'}
          onInput={(e) => props.onInput(e.currentTarget.value)}
        />
      )}
      {props.error && (
        <div id={`${id}-error`} class="field-error" role="alert">
          {props.error}
        </div>
      )}
    </div>
  );
}

/** Where a server error belongs: the field its `parameter` names, or the form as a whole. */
export function placeError(error: unknown, fields: readonly string[]): { field?: string; message: string } {
  const e = error as { message?: string; parameter?: string };
  const message = e.message ?? String(error);
  return e.parameter && fields.includes(e.parameter) ? { field: e.parameter, message } : { message };
}
