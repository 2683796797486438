import { defaultOperationId, HTTP_METHODS } from './operation-ids.ts';

type OpenApiDocument = ReturnType<import('fastify').FastifyInstance['swagger']>;

interface Operation {
  operationId?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
}
type PathItem = Record<string, unknown>;
interface Document {
  info: Record<string, unknown>;
  paths?: Record<string, PathItem>;
  components?: { securitySchemes?: Record<string, unknown> } & Record<string, unknown>;
  tags?: { name: string }[];
}

/** The services whose documents /openapi.json links. */
interface DocumentedService {
  name: string;
  title: string;
}

export const LICENSE = { name: 'Apache-2.0', identifier: 'Apache-2.0' } as const;

function isMethod(key: string): boolean {
  return (HTTP_METHODS as readonly string[]).includes(key);
}

function serviceDocumentUrl(publicUrl: string, service: string): string {
  return `${publicUrl}/openapi/${service}.json`;
}

/**
 * The merged document as it is served: every operation named (an explicit `operationId` kept, else one made
 * from its path), the licence, and each service's tag linking that service's own document.
 */
export function completeOpenApi(
  doc: OpenApiDocument,
  publicUrl: string,
  services: readonly DocumentedService[],
): OpenApiDocument {
  const source = doc as unknown as Document;
  const paths: Record<string, PathItem> = {};
  for (const [path, item] of Object.entries(source.paths ?? {})) {
    const methods = new Set(Object.keys(item).filter(isMethod));
    paths[path] = Object.fromEntries(
      Object.entries(item).map(([key, value]) => {
        if (!isMethod(key)) return [key, value];
        const op = value as Operation;
        return [key, { operationId: op.operationId ?? defaultOperationId(key, path, methods), ...op }];
      }),
    );
  }
  const links = services.map((s) => `- [${s.title}](${serviceDocumentUrl(publicUrl, s.name)})`);
  return {
    ...source,
    info: {
      ...source.info,
      description: `Every Cairn API in one document. Each service's own document:\n\n${links.join('\n')}`,
      license: LICENSE,
    },
    tags: services.map((s) => ({
      name: s.name,
      description: s.title,
      externalDocs: { description: `The ${s.name} document`, url: serviceDocumentUrl(publicUrl, s.name) },
    })),
    paths,
  } as unknown as OpenApiDocument;
}

/**
 * Each service tags its operations with its name; the per-service document keeps only those operations
 * (and the security schemes they use), and links back to the merged one.
 */
export function filterOpenApi(
  doc: OpenApiDocument,
  service: DocumentedService,
  publicUrl: string,
): OpenApiDocument {
  const source = doc as unknown as Document;
  const paths: Record<string, PathItem> = {};
  const schemesUsed = new Set<string>();
  for (const [path, item] of Object.entries(source.paths ?? {})) {
    const kept = Object.fromEntries(
      Object.entries(item).filter(([key, op]) => {
        if (!isMethod(key)) return false;
        const tags = (op as Operation).tags;
        return Array.isArray(tags) && tags.includes(service.name);
      }),
    );
    for (const op of Object.values(kept) as Operation[]) {
      for (const requirement of op.security ?? [])
        for (const name of Object.keys(requirement)) schemesUsed.add(name);
    }
    if (Object.keys(kept).length > 0) paths[path] = kept;
  }
  const schemes = Object.entries(source.components?.securitySchemes ?? {}).filter(([name]) =>
    schemesUsed.has(name),
  );
  return {
    ...source,
    info: { ...source.info, title: `Cairn: ${service.title}`, description: service.title },
    externalDocs: { description: 'Every Cairn API in one document', url: `${publicUrl}/openapi.json` },
    tags: (source.tags ?? []).filter((tag) => tag.name === service.name),
    components: { ...source.components, securitySchemes: Object.fromEntries(schemes) },
    paths,
  } as unknown as OpenApiDocument;
}
