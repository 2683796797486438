import { EDGE_CODES, edgeError } from '../errors.ts';
import { type EdgeRoute, route } from '../route.ts';
import { checkActivation, verificationRecordName } from './ownership.ts';

/**
 * `PUT /zones/{id}/activation_check` (the real API: "triggers a new activation check for a pending
 * zone"): a pending zone becomes active once every other account whose zone it overlaps holds its TXT
 * record. Answers `{id}`; a zone still waiting gets 400 naming the record and the zones that lack it.
 */
export const activationRoutes: EdgeRoute[] = [
  route({
    method: 'PUT',
    url: '/zones/:zone_id/activation_check',
    summary: 'Check a pending zone’s ownership verification again, and activate it when it passes',
    access: { zone: 'zone', level: 'edit' },
    result: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
    async handle({ deps, zone }) {
      const missing = await checkActivation(deps.db, zone, deps.clock.now());
      if (missing.length > 0) {
        throw edgeError(
          400,
          EDGE_CODES.ownershipUnverified,
          `${zone.name} overlaps ${missing.map((z) => z.name).join(', ')} of another account: it stays pending until that account adds the TXT record ${verificationRecordName(zone.name)} with the zone's verification_key`,
        );
      }
      return { id: zone.id };
    },
  }),
];
