#!/usr/bin/env node
// The cairn command. Help comes from the command catalogue in plain JavaScript, without loading any service.
// In a checkout, commands run their TypeScript sources through tsx (no build step), loading only the modules
// they need; in the installed package (npm pack builds dist/, and ships no src/), the compiled JavaScript.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const checkout = existsSync(new URL('../src/main.ts', import.meta.url));
const argv = process.argv.slice(2);
const { helpOnly } = checkout ? await import('../src/help.js') : await import('../dist/help.js');
const help = helpOnly(argv);
if (help) {
  process[help.stream].write(`${help.text}\n`);
  process.exitCode = help.code;
} else if (checkout) {
  const { register } = await import('tsx/esm/api');
  register();
  const { main } = await import('../src/main.ts');
  process.exitCode = await main(argv);
} else {
  // The package ships the OWASP CRS rules the edge's managed rulesets need; CAIRN_CRS_DIR still wins.
  process.env.CAIRN_CRS_DIR ||= fileURLToPath(new URL('../dist/crs', import.meta.url));
  const { main } = await import('../dist/main.js');
  process.exitCode = await main(argv);
}
