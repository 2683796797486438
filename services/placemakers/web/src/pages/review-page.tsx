import { useEffect, useState } from 'preact/hooks';
import { api, type ReviewVenue } from '../api.ts';
import { EditCard } from '../components/edit-card.tsx';
import { navigate } from '../router.ts';

/** Pending edits near the last place looked at (or everywhere), with approve / reject / skip. */
export function ReviewPage(props: { around?: { latitude: number; longitude: number } | undefined }) {
  const [venues, setVenues] = useState<ReviewVenue[] | undefined>();
  const [message, setMessage] = useState<string | undefined>();
  const [error, setError] = useState<string | undefined>();

  function load() {
    const query: Record<string, string> = props.around
      ? { ll: `${props.around.latitude},${props.around.longitude}`, radius: '100000' }
      : {};
    api.review(query).then(
      (r) => setVenues(r.venues),
      (e: Error) => setError(e.message),
    );
  }
  useEffect(load, []);

  async function vote(editId: string, choice: 'approve' | 'reject' | 'skip') {
    setError(undefined);
    try {
      const result = await api.vote(editId, choice);
      const status = result.suggested_edits[0]?.status;
      setMessage(
        choice === 'skip'
          ? 'Skipped.'
          : status && status !== 'pending'
            ? `Thank you! With your vote the edit is now ${status}.`
            : 'Thank you for your vote.',
      );
      load();
    } catch (e) {
      setError((e as Error).message);
    }
  }

  return (
    <>
      <h1>Review queue</h1>
      {message && (
        <p class="ok" role="status">
          {message}
        </p>
      )}
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {venues === undefined && <p class="muted">Loading…</p>}
      {venues?.length === 0 && <p>No edits wait for a vote here. Thank you for checking!</p>}
      {venues?.map((venue) => (
        <section key={venue.fsq_place_id} aria-label={venue.venue_name}>
          <h2>
            <a
              href={`/placemakers/place/${encodeURIComponent(venue.fsq_place_id)}`}
              onClick={(e) => {
                e.preventDefault();
                navigate({ name: 'place', id: venue.fsq_place_id });
              }}
            >
              {venue.venue_name}
            </a>
          </h2>
          {venue.woes.map((edit) => (
            <EditCard key={edit.id} edit={edit}>
              {edit.own ? (
                <p class="muted">This is your own edit: other people vote on it.</p>
              ) : (
                <div class="actions">
                  <button
                    type="button"
                    onClick={() => vote(edit.id, 'approve')}
                    aria-label={`Approve edit ${edit.id}`}
                  >
                    Approve
                  </button>
                  <button
                    type="button"
                    class="secondary"
                    onClick={() => vote(edit.id, 'reject')}
                    aria-label={`Reject edit ${edit.id}`}
                  >
                    Reject
                  </button>
                  <button
                    type="button"
                    class="secondary"
                    onClick={() => vote(edit.id, 'skip')}
                    aria-label={`Skip edit ${edit.id}`}
                  >
                    Skip
                  </button>
                </div>
              )}
            </EditCard>
          ))}
        </section>
      ))}
    </>
  );
}
