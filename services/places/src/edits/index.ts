/** The suggested-edit functions: what the routes, the editing UI (in-process) and the CLI call. */
export { suggestFlag, suggestMerge } from './flag-merge.ts';
export { type HistoryItem, placeHistory } from './history.ts';
export { type SuggestPlaceResponse, suggestPlace } from './new-place.ts';
export type { ApiParams } from './params.ts';
export type { EditView } from './render.ts';
export { type ReviewVenue, reviewQueue } from './review.ts';
export { type RollbackOptions, rollbackEdit } from './rollback.ts';
export { editStatus } from './status.ts';
export { type SuggestResponse, suggestEdit, suggestRemove } from './suggest.ts';
export { suggestTip } from './tip.ts';
export type { Change, EditStatus, EditType, Tally, VoteValue } from './types.ts';
export { vote } from './vote.ts';
