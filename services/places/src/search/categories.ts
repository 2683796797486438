import { invalidParameter } from '../errors.ts';
import type { Reference } from '../reference/reference.ts';

/**
 * `fsq_category_ids` as the store filters it: every stored category the ids asked for match (a real id in
 * either form, with the categories below it; or one of Cairn's own ids), and the topmost of those, whose
 * category-and-slot tokens the open_now search asks the index for. An id that names no category is a 400, as
 * the real service answers, rather than a search that silently finds nothing.
 */
export function categoryFilter(reference: Reference, requested: readonly string[]) {
  const ids = new Set<string>();
  for (const id of requested) {
    const stored = reference.storedIdsFor(id);
    if (!stored) {
      throw invalidParameter(
        'fsq_category_ids',
        `"${id.slice(0, 40)}" is not a category id; give ids of the category taxonomy, 24 hex digits (4bf58dd8d48988d1e0931735) or numeric (13035), as GET /places/categories lists them`,
      );
    }
    for (const s of stored) ids.add(s);
  }
  const categoryIds = [...ids];
  return { categoryIds, categoryRoots: reference.topmostOf(categoryIds) };
}
