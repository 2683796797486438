import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { type Static, Type } from 'typebox';
import type { PlacesDeps } from '../deps.ts';
import { errorResponses, PlacesHeaders, stringify } from './schemas.ts';

const CategoryItem = Type.Object(
  {
    fsq_category_id: Type.String({
      description: '24 hex digits, as fsq_category_ids takes and answers give it',
    }),
    numeric_id: Type.Optional(
      Type.String({ description: 'The v3 API’s id, also taken by fsq_category_ids' }),
    ),
    name: Type.String(),
    label: Type.String({ description: 'The path from the top, e.g. "Dining and Drinking > Bar > Pub"' }),
    level: Type.Integer({ minimum: 1, maximum: 6 }),
    parent_id: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);

const CategoriesResponse = Type.Object(
  { categories: Type.Array(CategoryItem) },
  { additionalProperties: false },
);

/**
 * The category taxonomy that `fsq_category_ids` takes, with both forms of each id (our extension: the real
 * 2025-06-17 API publishes its taxonomy as a document, not an endpoint; docs/places-categories.md is the same
 * list). The same for every caller and every call, so it is worked out once.
 */
export function categoriesRoute(app: FastifyInstance, deps: PlacesDeps) {
  let body: Static<typeof CategoriesResponse> | undefined;
  app.withTypeProvider<TypeBoxTypeProvider>().get(
    '/places/categories',
    {
      schema: {
        tags: ['places'],
        summary: 'The category taxonomy: ids in both forms, names, levels and parents (our extension)',
        security: [{ bearer: [] }],
        headers: PlacesHeaders,
        response: { 200: CategoriesResponse, ...errorResponses },
      },
      serializerCompiler: stringify,
    },
    async () => {
      body ??= {
        categories: [...deps.reference().fsq.byId.values()].map((c) => ({
          fsq_category_id: c.id,
          ...(c.numericId !== null ? { numeric_id: c.numericId } : {}),
          name: c.name,
          label: c.label,
          level: c.level,
          ...(c.parentId !== null ? { parent_id: c.parentId } : {}),
        })),
      };
      return body;
    },
  );
}
