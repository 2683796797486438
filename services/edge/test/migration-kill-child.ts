// A separate process that upgrades one zone on PostgreSQL, for the kill-in-the-middle test:
//   node --import tsx migration-kill-child.ts <database url> <zone id> <entry point body as JSON>
// Inside the upgrade's transaction, after every write, it prints "waf-upgrade: paused <zone id>" and
// waits for a line on stdin (the test kills it there, or writes "commit"), then commits and says so.
import { createInterface } from 'node:readline';
import { openPostgres, systemClock } from '@cairn/kit';
import { upgradeZone } from '../src/api/migration/service.ts';
import { Catalogue } from '../src/managed/catalogue.ts';

const [url, zoneId, body] = process.argv.slice(2);
if (!url || !zoneId || !body)
  throw new Error('usage: migration-kill-child.ts <database url> <zone id> <body>');
const db = openPostgres(url, { max: 2 });
const lines = createInterface({ input: process.stdin });
const deps = {
  db,
  clock: systemClock,
  catalogue: new Catalogue('/usr/share/modsecurity-crs'),
  upgradeHooks: {
    async beforeCommit(id: string) {
      process.stdout.write(`waf-upgrade: paused ${id}\n`);
      await new Promise((resolve) => lines.once('line', resolve));
    },
  },
};
await upgradeZone(deps, zoneId, {
  mode: 'pending',
  phaseTwo: true,
  input: JSON.parse(body),
  actor: { type: 'system', id: null, name: 'migration-kill-child' },
});
lines.close();
process.stdout.write(`waf-upgrade: committed ${zoneId}\n`);
await db.close();
