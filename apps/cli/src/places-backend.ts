import { CairnError } from '@cairn/kit';
import type { PlacemakersBackend } from '@cairn/placemakers';
import { type Places, placeDetails, search } from '@cairn/places';

const notYet = async (): Promise<never> => {
  throw new CairnError(501, 'not_implemented', 'Suggested edits are not available in this build yet');
};

/** The editor's view of the places service: the places API's own functions, called in-process. */
export function placesBackend(places: Places): PlacemakersBackend {
  return {
    search: async (_auth, query) => (await search(places.deps, query)).body,
    place: (_auth, id) => placeDetails(places.deps, id, {}),
    history: notYet,
    suggest: notYet,
    suggestPlace: notYet,
    status: notYet,
    review: notYet,
    vote: notYet,
    accuracy: notYet,
  };
}
