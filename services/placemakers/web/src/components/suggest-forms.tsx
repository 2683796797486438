import { useState } from 'preact/hooks';
import { api, type Mutation, type Place, type Suggestion } from '../api.ts';
import { Field, placeError } from './field.tsx';

export const EDIT_FIELDS = [
  ['name', 'Name'],
  ['address', 'Street address'],
  ['locality', 'Town or city'],
  ['region', 'Region'],
  ['postcode', 'Postcode'],
  ['country_code', 'Country code (two letters)'],
  ['tel', 'Phone'],
  ['website', 'Website'],
  ['email', 'Email'],
  ['latitude', 'Latitude'],
  ['longitude', 'Longitude'],
  ['hours', 'Opening hours (day,start,end; … e.g. 1,0900,1700)'],
  ['description', 'Description'],
] as const;

function outcome(result: Mutation): string {
  const edit = result.suggested_edits[0];
  if (!edit) return 'Nothing was suggested.';
  if (edit.status === 'accepted')
    return edit.suggested_edit_type === 'tip'
      ? 'Thank you! Your tip was added at once.'
      : 'Thank you! Your edit was applied at once.';
  return 'Thank you! Your suggestion waits for other people to vote on it.';
}

function useSubmit(
  fields: readonly string[],
  run: () => Promise<Mutation>,
  onDone: (message: string) => void,
) {
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  async function submit(e: Event) {
    e.preventDefault();
    setBusy(true);
    setErrors({});
    setFormError(undefined);
    try {
      onDone(outcome(await run()));
    } catch (error) {
      const where = placeError(error, fields);
      if (where.field) setErrors({ [where.field]: where.message });
      else setFormError(where.message);
    } finally {
      setBusy(false);
    }
  }
  return { errors, formError, busy, submit };
}

const FormError = (props: { message: string | undefined }) =>
  props.message ? (
    <p class="error" role="alert">
      {props.message}
    </p>
  ) : null;

/** Suggest changed details: only the fields that differ from the place are sent. */
export function EditForm(props: { place: Place; onDone: (message: string) => void }) {
  const initial = (field: string): string => {
    const p = props.place as Record<string, unknown>;
    const location = (props.place.location ?? {}) as Record<string, unknown>;
    const value = p[field] ?? location[field] ?? (field === 'country_code' ? location.country : undefined);
    return value === undefined || value === null ? '' : String(value);
  };
  const [values, setValues] = useState<Record<string, string>>(() =>
    Object.fromEntries(EDIT_FIELDS.map(([f]) => [f, initial(f)])),
  );
  const names = EDIT_FIELDS.map(([f]) => f);
  const changed = () => Object.fromEntries(Object.entries(values).filter(([f, v]) => v !== initial(f)));
  const { errors, formError, busy, submit } = useSubmit(
    names,
    () => {
      const params = changed();
      if (Object.keys(params).length === 0)
        return Promise.reject(new Error('Change at least one field first.'));
      return api.suggest(props.place.fsq_place_id, 'edit', params);
    },
    props.onDone,
  );
  return (
    <form onSubmit={submit} aria-label="Suggest an edit" noValidate>
      <FormError message={formError} />
      {EDIT_FIELDS.map(([name, label]) => (
        <Field
          key={name}
          name={name}
          label={label}
          value={values[name] ?? ''}
          onInput={(v) => setValues({ ...values, [name]: v })}
          error={errors[name]}
          multiline={name === 'description'}
        />
      ))}
      <div class="actions">
        <button type="submit" disabled={busy}>
          Suggest edit
        </button>
      </div>
    </form>
  );
}

const REASONS = [
  ['CLOSED', 'It has closed'],
  ['DOESNT_EXIST', 'It never existed'],
  ['INAPPROPRIATE', 'It is inappropriate'],
  ['PRIVATE', 'It is a private place'],
  ['OTHER', 'Another reason'],
] as const;

export function RemoveForm(props: { place: Place; onDone: (message: string) => void }) {
  const [reason, setReason] = useState('CLOSED');
  const [comment, setComment] = useState('');
  const { errors, formError, busy, submit } = useSubmit(
    ['reason', 'comment'],
    () => api.suggest(props.place.fsq_place_id, 'remove', { reason, ...(comment ? { comment } : {}) }),
    props.onDone,
  );
  return (
    <form onSubmit={submit} aria-label="Suggest a removal">
      <FormError message={formError} />
      <label for="remove-reason">Why should it be removed?</label>
      <select id="remove-reason" value={reason} onChange={(e) => setReason(e.currentTarget.value)}>
        {REASONS.map(([value, label]) => (
          <option key={value} value={value}>
            {label}
          </option>
        ))}
      </select>
      {errors.reason && <div class="field-error">{errors.reason}</div>}
      <Field
        name="comment"
        label="Comment (optional)"
        value={comment}
        onInput={setComment}
        error={errors.comment}
        multiline
      />
      <div class="actions">
        <button type="submit" disabled={busy}>
          Suggest removal
        </button>
      </div>
    </form>
  );
}

const PROBLEMS = [
  ['name', 'The name is wrong'],
  ['address', 'The address is wrong'],
  ['latitude', 'It is in the wrong place on the map'],
  ['tel', 'The phone number is wrong'],
  ['website', 'The website is wrong'],
  ['placeActions', 'Something else about it is wrong'],
] as const;

export function FlagForm(props: { place: Place; onDone: (message: string) => void }) {
  const [chosen, setChosen] = useState<string[]>([]);
  const [comment, setComment] = useState('');
  const { errors, formError, busy, submit } = useSubmit(
    ['fields', 'comment'],
    () =>
      api.suggest(props.place.fsq_place_id, 'flag', {
        fields: chosen.join(','),
        ...(comment ? { comment } : {}),
      }),
    props.onDone,
  );
  return (
    <form onSubmit={submit} aria-label="Flag a problem">
      <FormError message={formError} />
      <fieldset>
        <legend>What is wrong?</legend>
        {PROBLEMS.map(([value, label]) => (
          <label key={value} style="font-weight:normal">
            <input
              type="checkbox"
              style="width:auto;margin-right:.4rem"
              checked={chosen.includes(value)}
              onChange={(e) =>
                setChosen(e.currentTarget.checked ? [...chosen, value] : chosen.filter((c) => c !== value))
              }
            />
            {label}
          </label>
        ))}
      </fieldset>
      {errors.fields && <div class="field-error">{errors.fields}</div>}
      <Field
        name="comment"
        label="Comment (optional)"
        value={comment}
        onInput={setComment}
        error={errors.comment}
        multiline
      />
      <div class="actions">
        <button type="submit" disabled={busy}>
          Flag
        </button>
      </div>
    </form>
  );
}

export function MergeForm(props: { place: Place; onDone: (message: string) => void }) {
  const [duplicate, setDuplicate] = useState('');
  const { errors, formError, busy, submit } = useSubmit(
    ['duplicate_fsq_place_ids'],
    () => api.suggest(props.place.fsq_place_id, 'merge', { duplicate_fsq_place_ids: duplicate.trim() }),
    props.onDone,
  );
  return (
    <form onSubmit={submit} aria-label="Suggest a merge">
      <FormError message={formError} />
      <Field
        name="duplicate_fsq_place_ids"
        label="Id of the duplicate place"
        hint="The other place is the same as this one; it will be merged into this one."
        value={duplicate}
        onInput={setDuplicate}
        error={errors.duplicate_fsq_place_ids}
        required
      />
      <div class="actions">
        <button type="submit" disabled={busy}>
          Suggest merge
        </button>
      </div>
    </form>
  );
}

/** A tip for visitors: decided like an edit, and shown with the place's tips once accepted. */
export function TipForm(props: { place: Place; onDone: (message: string) => void }) {
  const [text, setText] = useState('');
  const [url, setUrl] = useState('');
  const { errors, formError, busy, submit } = useSubmit(
    ['text', 'url'],
    () => api.suggest(props.place.fsq_place_id, 'tip', { text, ...(url.trim() ? { url } : {}) }),
    props.onDone,
  );
  return (
    <form onSubmit={submit} aria-label="Add a tip">
      <FormError message={formError} />
      <Field
        name="text"
        label="Your tip"
        hint="What should visitors know? At most 500 characters."
        value={text}
        onInput={setText}
        error={errors.text}
        required
        multiline
      />
      <Field name="url" label="Link (optional)" value={url} onInput={setUrl} error={errors.url} type="url" />
      <div class="actions">
        <button type="submit" disabled={busy}>
          Add tip
        </button>
      </div>
    </form>
  );
}

export type SuggestionKind = Suggestion;
