import type { Command } from '../command.ts';
import { appsCreate, appsList, appsRevoke } from './apps.ts';
import { edgeExport } from './edge-export.ts';
import { edgeTokensCreate, edgeTokensList, edgeTokensRevoke } from './edge-tokens.ts';
import { edgeUsersCreate, edgeUsersList, edgeUsersResetPassword } from './edge-users.ts';
import { edgeZonesCreate, edgeZonesList } from './edge-zones.ts';
import { editsRollback } from './edits.ts';
import { keysCreate, keysGenerate, keysList, keysRevoke } from './keys.ts';
import { migrateCommand } from './migrate.ts';
import { orgsAddMember, orgsCreate, orgsList } from './orgs.ts';
import { placesGenerate, placesImport } from './places.ts';
import { serve } from './serve.ts';
import { usageCommand } from './usage.ts';

/** Every cairn command; a name given twice is a programming error caught at load. */
export const commands: readonly Command[] = register([
  serve,
  migrateCommand,
  orgsCreate,
  orgsList,
  orgsAddMember,
  keysCreate,
  keysList,
  keysRevoke,
  keysGenerate,
  placesGenerate,
  placesImport,
  editsRollback,
  usageCommand,
  appsCreate,
  appsList,
  appsRevoke,
  edgeZonesCreate,
  edgeZonesList,
  edgeTokensCreate,
  edgeTokensList,
  edgeTokensRevoke,
  edgeUsersCreate,
  edgeUsersList,
  edgeUsersResetPassword,
  edgeExport,
]);

function register(list: Command[]): Command[] {
  const names = new Set<string>();
  for (const c of list) {
    if (names.has(c.name)) throw new Error(`command "${c.name}" is registered twice`);
    names.add(c.name);
  }
  return list;
}
