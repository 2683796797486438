import { useEffect, useState } from 'preact/hooks';
import { api, type Me } from './api.ts';
import { MapPage } from './pages/map-page.tsx';
import { MyEditsPage } from './pages/my-edits-page.tsx';
import { NewPlacePage } from './pages/new-place-page.tsx';
import { PlacePage } from './pages/place-page.tsx';
import { ReviewPage } from './pages/review-page.tsx';
import { hrefOf, navigate, type Route, useRoute } from './router.ts';

function Link(props: { to: Route; children: preact.ComponentChildren; current?: boolean }) {
  return (
    <a
      href={hrefOf(props.to)}
      aria-current={props.current ? 'page' : undefined}
      onClick={(e) => {
        e.preventDefault();
        navigate(props.to);
      }}
    >
      {props.children}
    </a>
  );
}

export function App() {
  const route = useRoute();
  const [me, setMe] = useState<Me | undefined>();
  const [error, setError] = useState<string | undefined>();
  useEffect(() => {
    api.me().then(setMe, (e: Error) => setError(e.message));
  }, []);

  return (
    <>
      <header class="top">
        <nav aria-label="Editor">
          <Link to={{ name: 'map' }} current={route.name === 'map'}>
            Map
          </Link>
          <Link to={{ name: 'review' }} current={route.name === 'review'}>
            Review queue
          </Link>
          <Link to={{ name: 'my-edits' }} current={route.name === 'my-edits'}>
            My edits
          </Link>
          <Link to={{ name: 'new' }} current={route.name === 'new'}>
            Add a place
          </Link>
        </nav>
        {me && (
          <span class="who" data-testid="who">
            {me.user.display_name} · via {me.app.name}
          </span>
        )}
      </header>
      <main>
        {error && (
          <p class="error" role="alert">
            {error}
          </p>
        )}
        {route.name === 'map' && <MapPage />}
        {route.name === 'place' && <PlacePage id={route.id} />}
        {route.name === 'review' && <ReviewPage />}
        {route.name === 'my-edits' && <MyEditsPage />}
        {route.name === 'new' && <NewPlacePage />}
      </main>
    </>
  );
}
