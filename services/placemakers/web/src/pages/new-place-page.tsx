import { useState } from 'preact/hooks';
import { api } from '../api.ts';
import { Field, placeError } from '../components/field.tsx';

const FIELDS = [
  ['name', 'Name', true],
  ['latitude', 'Latitude', true],
  ['longitude', 'Longitude', true],
  ['address', 'Street address', false],
  ['locality', 'Town or city', false],
  ['postcode', 'Postcode', false],
  ['country_code', 'Country code (two letters)', false],
  ['categories', 'Category ids (comma separated)', false],
  ['tel', 'Phone', false],
  ['website', 'Website', false],
] as const;

/** Suggest a place that is missing. */
export function NewPlacePage(props: { around?: { latitude: number; longitude: number } | undefined }) {
  const [values, setValues] = useState<Record<string, string>>(() => ({
    latitude: props.around ? props.around.latitude.toFixed(5) : '',
    longitude: props.around ? props.around.longitude.toFixed(5) : '',
  }));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | undefined>();
  const [notice, setNotice] = useState<string | undefined>();

  async function submit(e: Event) {
    e.preventDefault();
    setErrors({});
    setFormError(undefined);
    try {
      const params = Object.fromEntries(Object.entries(values).filter(([, v]) => v.trim() !== ''));
      const result = await api.suggestPlace(params);
      const status =
        result.suggested_edits[0]?.status ??
        (result.new_place_suggestion as { status?: string } | undefined)?.status;
      setNotice(
        status === 'accepted'
          ? 'Thank you! The place was added.'
          : 'Thank you! The new place waits for votes.',
      );
    } catch (error) {
      const where = placeError(
        error,
        FIELDS.map(([f]) => f),
      );
      if (where.field) setErrors({ [where.field]: where.message });
      else setFormError(where.message);
    }
  }

  return (
    <>
      <h1>Add a place</h1>
      {notice && (
        <p class="ok" role="status">
          {notice}
        </p>
      )}
      {formError && (
        <p class="error" role="alert">
          {formError}
        </p>
      )}
      <form class="card" onSubmit={submit} aria-label="Suggest a new place" noValidate>
        {FIELDS.map(([name, label, required]) => (
          <Field
            key={name}
            name={name}
            label={label}
            value={values[name] ?? ''}
            onInput={(v) => setValues({ ...values, [name]: v })}
            error={errors[name]}
            required={required}
          />
        ))}
        <div class="actions">
          <button type="submit">Suggest this place</button>
        </div>
      </form>
    </>
  );
}
