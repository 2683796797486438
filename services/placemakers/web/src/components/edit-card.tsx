import type { SuggestedEdit } from '../api.ts';

const TYPE_NAMES: Record<string, string> = {
  edit: 'Edit',
  remove: 'Removal',
  flag: 'Flag',
  merge: 'Merge',
  place: 'New place',
  new_place: 'New place',
  tip: 'Tip',
};

function show(value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** One suggested edit: what it changes (from → to), its state and its votes. */
export function EditCard(props: { edit: SuggestedEdit; children?: preact.ComponentChildren }) {
  const { edit } = props;
  const changes = edit.changes ?? [];
  const extras = Object.entries(edit.details ?? {}).filter(
    ([, v]) => v !== undefined && v !== null && v !== '',
  );
  return (
    <article
      class="card edit"
      aria-label={`${TYPE_NAMES[edit.suggested_edit_type] ?? edit.suggested_edit_type} ${edit.id}`}
    >
      <div>
        <strong>{TYPE_NAMES[edit.suggested_edit_type] ?? edit.suggested_edit_type}</strong>{' '}
        <span class="badge" data-status={edit.status}>
          {edit.status}
        </span>{' '}
        <span class="muted">{new Date(edit.created_at).toLocaleString()}</span>
      </div>
      {changes.length > 0 && (
        <table>
          <thead>
            <tr>
              <th>Field</th>
              <th>Now</th>
              <th>Suggested</th>
            </tr>
          </thead>
          <tbody>
            {changes.map((change) => (
              <tr key={change.field}>
                <td>{change.field}</td>
                <td>{show(change.from)}</td>
                <td>{show(change.to)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {extras.map(([k, v]) => (
        <div key={k} class="muted">
          {k}: {show(v)}
        </div>
      ))}
      {edit.votes && (
        <div class="muted">
          Votes: {edit.votes.approve} approve · {edit.votes.reject} reject · {edit.votes.skip} skip
          {edit.my_vote ? ` · you voted ${edit.my_vote}` : ''}
        </div>
      )}
      {edit.resolution && <div class="muted">{edit.resolution.reason}</div>}
      {props.children}
    </article>
  );
}
