import type { PlacemakersBackend } from '@cairn/placemakers';
import {
  contributorAccuracy,
  editStatus,
  type Places,
  placeDetails,
  placeHistory,
  reviewQueue,
  search,
  searchQuery,
  suggestEdit,
  suggestFlag,
  suggestMerge,
  suggestPlace,
  suggestRemove,
  suggestTip,
  tipsOfPlace,
  vote,
} from '@cairn/places';

const SUGGEST = {
  edit: suggestEdit,
  remove: suggestRemove,
  flag: suggestFlag,
  merge: suggestMerge,
  tip: suggestTip,
} as const;

/** What the editor shows of a tip. */
const TIP_FIELDS_SHOWN = 'fsq_tip_id,created_at,text,lang,agree_count';

/** The editor's view of the places service: the places API's own functions, called in-process. */
export function placesBackend(places: Places): PlacemakersBackend {
  const deps = () => places.deps;
  return {
    search: async (_auth, query) => (await search(deps(), searchQuery(query))).body,
    place: (_auth, id) => placeDetails(deps(), id, {}),
    history: (auth, id) => placeHistory(deps(), auth, { fsq_place_id: id }),
    tips: (_auth, id) => tipsOfPlace(deps(), id, { sort: 'NEWEST', limit: 50, fields: TIP_FIELDS_SHOWN }),
    suggest: (auth, id, kind, params) => SUGGEST[kind](deps(), auth, { ...params, fsq_place_id: id }),
    suggestPlace: (auth, params) => suggestPlace(deps(), auth, params),
    status: (auth, query) => editStatus(deps(), auth, query),
    review: (auth, query) => reviewQueue(deps(), auth, query),
    vote: (auth, editId, params) => vote(deps(), auth, { ...params, edit_id: editId }),
    accuracy: (auth) => contributorAccuracy(deps(), auth),
  };
}
