import { useEffect, useState } from 'preact/hooks';
import { api, type Session } from './api.ts';
import { IpDatabaseNote } from './components/ip-database-note.tsx';
import { Link } from './components/link.tsx';
import { ConfigurationPage } from './pages/configuration-page.tsx';
import { EventsPage } from './pages/events-page.tsx';
import { SignInPage } from './pages/sign-in-page.tsx';
import { ZonePage } from './pages/zone-page.tsx';
import { ZonesPage } from './pages/zones-page.tsx';
import { useRoute } from './router.ts';

export function App() {
  const route = useRoute();
  const [session, setSession] = useState<Session | null | undefined>(undefined);
  const [error, setError] = useState<string | undefined>();
  useEffect(() => {
    api.session().then(
      (s) => setSession(s ?? null),
      (e: Error) => setError(e.message),
    );
  }, []);

  if (error) {
    return (
      <main>
        <p class="error" role="alert">
          {error}
        </p>
      </main>
    );
  }
  if (session === undefined) return <main aria-busy="true" />;
  if (session === null) return <SignInPage onSignedIn={setSession} />;

  const signOut = async () => {
    await api.signOut().catch(() => undefined);
    setSession(null);
  };

  return (
    <>
      <header class="top">
        <nav aria-label="Dashboard">
          <Link to={{ name: 'zones' }} class="brand">
            Cairn edge
          </Link>
          <Link to={{ name: 'zones' }} current={route.name === 'zones'}>
            Zones
          </Link>
        </nav>
        <span class="who" data-testid="who">
          {session.actor.type === 'api_token' ? `API token “${session.actor.name}”` : session.actor.name} ·{' '}
          {session.account.name}
          <button type="button" class="link" onClick={signOut}>
            Sign out
          </button>
        </span>
      </header>
      <main>
        {route.name === 'zones' && <ZonesPage />}
        {route.name === 'zone' && <ZonePage id={route.id} />}
        {route.name === 'upgrade' && <ConfigurationPage id={route.id} session={session} />}
        {route.name === 'events' && <EventsPage id={route.id} />}
      </main>
      <IpDatabaseNote />
    </>
  );
}
