import { invalidValue, noSuchObject } from '../errors.ts';
import { HEX_ID, newHexId } from '../ids.ts';
import { qString } from '../query.ts';
import { type EdgeRoute, type PathParam, route } from '../route.ts';
import { int, obj, oneOf, optional, str } from '../schema.ts';
import type { Zone } from '../zones/store.ts';
import { type DnsRecord, deleteDnsRecord, findDnsRecord, insertDnsRecord, listDnsRecords } from './store.ts';

// DNS records, as much as zone ownership needs: TXT records a zone holds (the real API's
// /zones/{id}/dns_records list, create, read and delete). Other types are refused.

const read = { zone: 'dns', level: 'read' } as const;
const edit = { zone: 'dns', level: 'edit' } as const;
const BASE = '/zones/:zone_id/dns_records';
const recordId: PathParam = {
  schema: { pattern: HEX_ID.source, description: 'The record id (32 lowercase hex characters)' },
  notFound: 'a DNS record id is 32 hex characters',
};

const recordJson = (zone: Zone, r: DnsRecord) => ({
  id: r.id,
  zone_id: zone.id,
  zone_name: zone.name,
  type: r.type,
  name: r.name,
  content: r.content,
  ttl: r.ttl,
  proxiable: false,
  proxied: false,
  locked: false,
  created_on: r.createdOn.toISOString(),
  modified_on: r.modifiedOn.toISOString(),
});

const recordSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    zone_id: { type: 'string' },
    zone_name: { type: 'string' },
    type: { type: 'string', enum: ['TXT'] },
    name: { type: 'string' },
    content: { type: 'string' },
    ttl: { type: 'integer' },
    proxiable: { type: 'boolean' },
    proxied: { type: 'boolean' },
    locked: { type: 'boolean' },
    created_on: { type: 'string', format: 'date-time' },
    modified_on: { type: 'string', format: 'date-time' },
  },
  required: ['id', 'zone_id', 'zone_name', 'type', 'name', 'content', 'ttl', 'created_on', 'modified_on'],
  additionalProperties: false,
};

const CreateRecord = obj({
  type: oneOf(['TXT'], 'The record type: Cairn keeps TXT records (zone ownership verification)'),
  name: str({ min: 1, max: 255, description: 'The record name: the zone name or a name under it' }),
  content: str({ min: 1, max: 2048, description: 'The TXT content' }),
  ttl: optional(int(1, 86_400, 'Time to live in seconds (1 = automatic)')),
  comment: optional(str({ max: 100 })),
});

/** `www` → `www.example.com`; a name already ending in the zone stays; anything outside is refused. */
function recordName(zone: Zone, name: string): string {
  const lower = name.toLowerCase().replace(/\.$/, '');
  const full =
    lower === '@'
      ? zone.name
      : lower === zone.name || lower.endsWith(`.${zone.name}`)
        ? lower
        : `${lower}.${zone.name}`;
  if (!/^(?:[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?\.)*[a-z0-9-]+$/.test(full) || full.length > 253)
    throw invalidValue('/name', name, 'it must be a DNS name such as cloudflare-verify.www.example.com');
  return full;
}

export const dnsRecordRoutes: EdgeRoute[] = [
  route({
    method: 'GET',
    url: BASE,
    summary: 'The zone’s DNS records (TXT)',
    access: read,
    query: { name: qString('Only records of this name'), content: qString('Only records with this content') },
    result: { type: 'array', items: recordSchema },
    async handle({ deps, zone, query }) {
      const records = await listDnsRecords(deps.db, zone.id, {
        ...(query.name === undefined ? {} : { name: query.name.toLowerCase() }),
        ...(query.content === undefined ? {} : { content: query.content }),
      });
      return records.map((r) => recordJson(zone, r));
    },
  }),
  route({
    method: 'POST',
    url: BASE,
    summary: 'Create a TXT record (e.g. to confirm another account’s zone under or over this one)',
    access: edit,
    body: CreateRecord,
    result: recordSchema,
    async handle({ deps, zone, body }) {
      const now = deps.clock.now();
      const record: DnsRecord = {
        id: newHexId(),
        zoneId: zone.id,
        type: 'TXT',
        name: recordName(zone, body.name),
        content: body.content,
        ttl: body.ttl ?? 1,
        createdOn: now,
        modifiedOn: now,
      };
      await insertDnsRecord(deps.db, record);
      return recordJson(zone, record);
    },
  }),
  route({
    method: 'GET',
    url: `${BASE}/:dns_record_id`,
    summary: 'A DNS record',
    access: read,
    params: { dns_record_id: recordId },
    result: recordSchema,
    async handle({ deps, zone, params, path }) {
      const record = await findDnsRecord(deps.db, zone.id, params.dns_record_id!);
      if (!record) throw noSuchObject(path, 'no such DNS record in this zone');
      return recordJson(zone, record);
    },
  }),
  route({
    method: 'DELETE',
    url: `${BASE}/:dns_record_id`,
    summary: 'Delete a DNS record',
    access: edit,
    params: { dns_record_id: recordId },
    result: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
    async handle({ deps, zone, params, path }) {
      if (!(await deleteDnsRecord(deps.db, zone.id, params.dns_record_id!)))
        throw noSuchObject(path, 'no such DNS record in this zone');
      return { id: params.dns_record_id! };
    },
  }),
];
