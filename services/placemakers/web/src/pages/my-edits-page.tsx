import { useEffect, useState } from 'preact/hooks';
import { type Accuracy, api, type SuggestedEdit } from '../api.ts';
import { EditCard } from '../components/edit-card.tsx';

function percent(value: unknown): string {
  return typeof value === 'number' ? `${Math.round(value * 100)}%` : '—';
}

/** The person's own edits with their states, and how accurate their edits have been. */
export function MyEditsPage() {
  const [edits, setEdits] = useState<SuggestedEdit[] | undefined>();
  const [accuracy, setAccuracy] = useState<Accuracy | undefined>();
  const [error, setError] = useState<string | undefined>();
  useEffect(() => {
    api.myEdits().then(
      (r) => setEdits(r.suggested_edits),
      (e: Error) => setError(e.message),
    );
    api.accuracy().then(setAccuracy, () => setAccuracy(undefined));
  }, []);

  return (
    <>
      <h1>My edits</h1>
      {accuracy && (
        <section class="card" aria-label="Your accuracy">
          <p>
            Your accuracy: <strong data-testid="accuracy">{percent(accuracy.accuracy)}</strong>
            {accuracy.organization_accuracy !== undefined && (
              <span class="muted">
                {' '}
                (within this app's organization: {percent(accuracy.organization_accuracy)})
              </span>
            )}
          </p>
          <p class="muted">
            {accuracy.applies_immediately
              ? 'Your edits are applied at once.'
              : 'The more of your edits are accepted, the fewer votes your next edits need.'}
          </p>
        </section>
      )}
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {edits === undefined && !error && <p class="muted">Loading…</p>}
      {edits?.length === 0 && <p>You have not suggested any edits yet.</p>}
      {edits?.map((edit) => (
        <EditCard key={edit.id} edit={edit} />
      ))}
    </>
  );
}
