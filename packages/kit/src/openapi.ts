type OpenApiDocument = ReturnType<import('fastify').FastifyInstance['swagger']>;

/**
 * Each service tags its operations with its name; the per-service document keeps only those operations.
 */
export function filterOpenApi(doc: OpenApiDocument, tag: string): OpenApiDocument {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [path, item] of Object.entries(
    (doc as { paths?: Record<string, Record<string, unknown>> }).paths ?? {},
  )) {
    const kept = Object.fromEntries(
      Object.entries(item).filter(([, op]) => {
        const tags = (op as { tags?: unknown })?.tags;
        return Array.isArray(tags) && tags.includes(tag);
      }),
    );
    if (Object.keys(kept).length > 0) paths[path] = kept;
  }
  return { ...(doc as object), paths } as OpenApiDocument;
}
