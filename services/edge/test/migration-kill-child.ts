// A separate process that upgrades one zone on PostgreSQL, for the kill-in-the-middle test:
//   node --import tsx migration-kill-child.ts <database url> <zone id> <entry point body as JSON>
// With CAIRN_TEST_WAF_UPGRADE_PAUSE_MS set, it prints "waf-upgrade: paused <zone id>" inside the
// upgrade's transaction, after every write, and waits there (the test kills it then).
import { openPostgres, systemClock } from '@cairn/kit';
import { upgradeZone } from '../src/api/migration/service.ts';
import { Catalogue } from '../src/managed/catalogue.ts';

const [url, zoneId, body] = process.argv.slice(2);
if (!url || !zoneId || !body)
  throw new Error('usage: migration-kill-child.ts <database url> <zone id> <body>');
const db = openPostgres(url, { max: 2 });
const deps = { db, clock: systemClock, catalogue: new Catalogue('/usr/share/modsecurity-crs') };
await upgradeZone(deps, zoneId, {
  mode: 'pending',
  phaseTwo: true,
  input: JSON.parse(body),
  actor: { type: 'system', id: null, name: 'migration-kill-child' },
});
process.stdout.write(`waf-upgrade: committed ${zoneId}\n`);
await db.close();
