import {
  createIdentity,
  createOrganization,
  createServiceKey,
  type Identity,
  identityMigrations,
} from '@cairn/identity';
import { createFakeClock } from '@cairn/kit';
import { createTestDeps, serveOnLoopback, type TestDeps } from '@cairn/kit/testing';
import { createPlacemakers } from '@cairn/placemakers';
import {
  createPlaces,
  DEFAULT_PLACES_CONFIG,
  gazetteer,
  generatePlaces,
  type Places,
  placesMigrations,
} from '@cairn/places';
import { placesBackend } from '../src/places-backend.ts';

export interface EditorStack {
  deps: TestDeps;
  identity: Identity;
  places: Places;
  baseUrl: string;
  orgId: string;
  serviceKey: string;
  close(): Promise<void>;
}

/** Identity, places (with places around Paris) and the editor, wired as the composition root wires them. */
export async function startEditorStack(count = 120): Promise<EditorStack> {
  // A real browser drops cookies that have expired by its own clock: the fake clock starts at now.
  const deps = await createTestDeps([...identityMigrations, ...placesMigrations], {
    clock: createFakeClock(Date.now()),
  });
  const identity = createIdentity(deps);
  await identity.start();
  const places = createPlaces(deps, {
    authenticate: identity.authenticate,
    config: { ...DEFAULT_PLACES_CONFIG, rateLimit: 10_000, rateBurst: 10_000, demoCount: 0 },
  });
  await places.start();
  await generatePlaces(deps.db, { count, seed: 'editor', cities: [gazetteer().resolve('Paris, FR')!] });
  const placemakers = createPlacemakers(identity.deps, placesBackend(places), deps.config.publicUrl);
  await placemakers.start();
  const server = await serveOnLoopback(deps, [identity.module, places.module, placemakers.module]);
  const org = await createOrganization(identity.deps, 'Trail Co');
  const serviceKey = (await createServiceKey(identity.deps, { organizationId: org.id })).secret;
  return {
    deps,
    identity,
    places,
    baseUrl: server.baseUrl,
    orgId: org.id,
    serviceKey,
    async close() {
      await server.close();
      await places.stop();
      await identity.stop();
      await deps.db.close();
    },
  };
}
