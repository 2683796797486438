#!/usr/bin/env node
// The cairn command. Help comes from the command catalogue in plain JavaScript, without loading TypeScript
// or any service; every command runs its TypeScript sources through tsx (no build step), loading only
// the modules it needs.
import { helpOnly } from '../src/help.js';

const argv = process.argv.slice(2);
const help = helpOnly(argv);
if (help) {
  process[help.stream].write(`${help.text}\n`);
  process.exitCode = help.code;
} else {
  const { register } = await import('tsx/esm/api');
  register();
  const { main } = await import('../src/main.ts');
  process.exitCode = await main(argv);
}
