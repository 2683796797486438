import { useEffect, useState } from 'preact/hooks';
import { api, type Place } from '../api.ts';

/** One place: its details (and, with the edits API, its history and the forms to suggest changes). */
export function PlacePage(props: { id: string }) {
  const [place, setPlace] = useState<Place | undefined>();
  const [error, setError] = useState<string | undefined>();
  useEffect(() => {
    setPlace(undefined);
    api.place(props.id).then(setPlace, (e: Error) => setError(e.message));
  }, [props.id]);

  if (error) {
    return (
      <p class="error" role="alert">
        {error}
      </p>
    );
  }
  if (!place) return <p class="muted">Loading…</p>;
  return (
    <>
      <h1>{place.name}</h1>
      <section class="card" aria-label="Details">
        <dl class="details">
          <dt>Address</dt>
          <dd>{place.location?.formatted_address ?? place.location?.address ?? '—'}</dd>
          <dt>Categories</dt>
          <dd>{place.categories?.map((c) => c.name).join(', ') || '—'}</dd>
          <dt>Phone</dt>
          <dd>{place.tel ?? '—'}</dd>
          <dt>Website</dt>
          <dd>{place.website ? <a href={place.website}>{place.website}</a> : '—'}</dd>
          <dt>Coordinates</dt>
          <dd>
            {place.latitude?.toFixed(5)}, {place.longitude?.toFixed(5)}
          </dd>
        </dl>
      </section>
    </>
  );
}
