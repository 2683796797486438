import type { Queryable } from '@cairn/kit';
import { txtRecordExists } from '../dns-records/store.ts';
import { activateZone, overlappingZones, type Zone } from './store.ts';

// Zone ownership across accounts, after the real service's subdomain zones: a zone whose name is a
// subdomain or a parent domain of another account's active zone takes no traffic until that account
// allows it. The new zone is created `pending` with a verification key; the other account confirms by
// adding, in its own zone, the TXT record `cloudflare-verify.<new zone name>` with the key as content;
// then `PUT /zones/{id}/activation_check` (or the next one) finds the record and activates the zone.
// Zones of the same account never wait; a pending zone owns nothing, so it blocks no one.

/** The TXT record name the overlapped account adds for `zoneName`. */
export const verificationRecordName = (zoneName: string) => `cloudflare-verify.${zoneName}`;

/** Active zones of other accounts whose tree `name` overlaps (above or below it). */
export async function otherAccountsZones(db: Queryable, accountId: string, name: string): Promise<Zone[]> {
  return (await overlappingZones(db, name)).filter(
    (z) => z.accountId !== accountId && z.status === 'active' && z.name !== name,
  );
}

/** The overlapped zones that have not (yet) confirmed `zone` with the TXT record. */
export async function unconfirmedBy(db: Queryable, zone: Zone): Promise<Zone[]> {
  const others = await otherAccountsZones(db, zone.accountId, zone.name);
  const missing: Zone[] = [];
  for (const other of others) {
    const confirmed =
      zone.verificationKey !== null &&
      (await txtRecordExists(db, other.id, verificationRecordName(zone.name), zone.verificationKey));
    if (!confirmed) missing.push(other);
  }
  return missing;
}

/** Activates a pending zone when every overlapped account has confirmed it; answers what is missing. */
export async function checkActivation(db: Queryable, zone: Zone, at: Date): Promise<Zone[]> {
  if (zone.status === 'active') return [];
  const missing = await unconfirmedBy(db, zone);
  if (missing.length === 0) await activateZone(db, zone.id, at);
  return missing;
}

/** The zone object's view of a pending zone (Cairn extension, after the real custom hostnames' shape). */
export function ownershipVerification(zone: Zone) {
  if (zone.status !== 'pending' || zone.verificationKey === null) return null;
  return { type: 'txt', name: verificationRecordName(zone.name), value: zone.verificationKey };
}
