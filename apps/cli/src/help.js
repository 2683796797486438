// The command catalogue (names and one-line descriptions) and the help built from it, in plain
// JavaScript: bin/cairn.js answers `cairn --help` and `cairn <group> --help` from here without loading
// TypeScript or any service, so help is instant. The TypeScript side (commands/index.ts) uses the same
// catalogue to load each command's module only when that command runs.
import { readFileSync } from 'node:fs';

const FOOTER = 'Every command takes --help; commands that print data take --json.';

/** @returns {import('./help.d.ts').CatalogueEntry[]} */
export function readCatalogue() {
  return JSON.parse(readFileSync(new URL('./commands/catalogue.json', import.meta.url), 'utf8'));
}

/** The leading words of argv, up to the first option. */
function leadingWords(argv) {
  const end = argv.findIndex((a) => a.startsWith('-'));
  return end < 0 ? argv : argv.slice(0, end);
}

function listing(entries) {
  const width = Math.max(...entries.map((c) => c.name.length));
  return entries.map((c) => `  ${c.name.padEnd(width)}  ${c.describe}`);
}

export function overview(catalogue) {
  return ['Usage: cairn <command> [options]', '', 'Commands:', ...listing(catalogue), '', FOOTER].join('\n');
}

/** The commands under a group of words ("edge", "edge zones"); empty when the words name no group. */
export function groupMembers(catalogue, words) {
  const prefix = `${words.join(' ')} `;
  return words.length === 0 ? [] : catalogue.filter((c) => c.name.startsWith(prefix));
}

export function groupHelp(catalogue, words) {
  const group = words.join(' ');
  return [
    `Usage: cairn ${group} <command> [options]`,
    '',
    `Commands of cairn ${group}:`,
    ...listing(groupMembers(catalogue, words)),
    '',
    FOOTER,
  ].join('\n');
}

/**
 * The answer when argv asks only for help (or names a group and nothing more): the text, where it goes
 * and the exit code; undefined when argv names a command (or nothing known), which the TypeScript side runs.
 */
export function helpOnly(argv, catalogue = readCatalogue()) {
  const asksHelp = argv.includes('--help') || argv.includes('-h');
  if (argv.length === 0) return { text: overview(catalogue), code: 2, stream: 'stdout' };
  if (argv[0] === '--help' || argv[0] === '-h' || argv[0] === 'help')
    return { text: overview(catalogue), code: 0, stream: 'stdout' };
  const words = leadingWords(argv);
  if (catalogue.some((c) => c.name === words.join(' '))) return undefined;
  if (groupMembers(catalogue, words).length === 0) return undefined;
  if (asksHelp && argv.length === words.length + 1)
    return { text: groupHelp(catalogue, words), code: 0, stream: 'stdout' };
  if (argv.length === words.length)
    return {
      text: `error: "cairn ${words.join(' ')}" needs a command\n\n${groupHelp(catalogue, words)}`,
      code: 2,
      stream: 'stderr',
    };
  return undefined;
}
