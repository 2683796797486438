import { useState } from 'preact/hooks';
import { api, type Session } from '../api.ts';

type Method = 'password' | 'token';

export function SignInPage(props: { onSignedIn: (session: Session) => void }) {
  const [method, setMethod] = useState<Method>('password');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  async function submit(event: SubmitEvent) {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const text = (name: string) => String(form.get(name) ?? '');
    setBusy(true);
    setError(undefined);
    try {
      const session = await api.signIn(
        method === 'token'
          ? { api_token: text('api_token') }
          : { email: text('email'), password: text('password') },
      );
      props.onSignedIn(session);
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <main class="narrow">
      <h1>Sign in to the edge dashboard</h1>
      <div role="tablist" class="tabs" aria-label="How to sign in">
        <button
          type="button"
          role="tab"
          aria-selected={method === 'password'}
          onClick={() => setMethod('password')}
        >
          Email and password
        </button>
        <button
          type="button"
          role="tab"
          aria-selected={method === 'token'}
          onClick={() => setMethod('token')}
        >
          API token
        </button>
      </div>
      <form class="card" onSubmit={submit} aria-describedby={error ? 'sign-in-error' : undefined}>
        {method === 'password' ? (
          <>
            <label>
              Email
              <input name="email" type="email" autocomplete="username" required />
            </label>
            <label>
              Password
              <input name="password" type="password" autocomplete="current-password" required />
            </label>
          </>
        ) : (
          <label>
            API token
            <input name="api_token" type="password" autocomplete="off" placeholder="cet_…" required />
            <small>The dashboard does what the token may do, until the token is revoked.</small>
          </label>
        )}
        {error && (
          <p class="error" role="alert" id="sign-in-error">
            {error}
          </p>
        )}
        <button type="submit" class="primary" disabled={busy}>
          Sign in
        </button>
      </form>
    </main>
  );
}
