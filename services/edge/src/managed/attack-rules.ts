import { stableId } from '../api/ids.ts';
import { commandInjection } from './attacks/command-injection.ts';
import { deserialization } from './attacks/deserialization.ts';
import { remoteFileInclusion } from './attacks/rfi.ts';
import { sqli } from './attacks/sqli.ts';
import { ssrfInternal, ssrfMetadata } from './attacks/ssrf.ts';
import { localFileInclusion, traversal } from './attacks/traversal.ts';
import type { AttackMatcher, InspectedInput } from './attacks/types.ts';
import { xss } from './attacks/xss.ts';

/** Where a rule looks: the URI (path and query), the body's fields, the headers and cookies. */
export type AttackPart = 'uri' | 'body' | 'header';

type AttackInput = InspectedInput;

/**
 * A rule of the Cloudflare Managed Ruleset that runs a detection over the request's decoded values
 * instead of a Rules-language expression: one attack family in one part of the request, so each can be
 * overridden on its own, as the real ruleset's "… - URI", "… - Body", "… - Header" rules are.
 */
export interface AttackRule {
  slug: string;
  description: string;
  categories: string[];
  action: 'block' | 'log' | 'managed_challenge';
  enabled: boolean;
  /** Which inputs the rule reads. */
  reads: (input: AttackInput) => boolean;
  match: AttackMatcher;
}

/** Headers the CRS reads SQLi and XSS in (942100, 941100): the two a browser or a client fills from elsewhere. */
const SCRIPTED_HEADERS = new Set(['user-agent', 'referer']);

const PARTS: Record<AttackPart, { title: string; reads: (input: AttackInput) => boolean }> = {
  uri: { title: 'URI', reads: (i) => i.location === 'path' || i.location === 'query' },
  body: { title: 'Body', reads: (i) => i.location === 'body' },
  header: { title: 'Header', reads: (i) => i.location === 'header' || i.location === 'cookie' },
};

interface Family {
  slug: string;
  title: string;
  categories: string[];
  match: AttackMatcher;
  parts: AttackPart[];
  /** Narrows a part (e.g. SQLi reads the path not at all, and only two headers). */
  only?: (input: AttackInput) => boolean;
}

const queryOrElsewhere = (i: AttackInput) =>
  i.location !== 'path' && (i.location !== 'header' || SCRIPTED_HEADERS.has(i.name.split(':')[0] ?? ''));

const FAMILIES: Family[] = [
  {
    slug: 'sqli',
    title: 'SQLi',
    categories: ['sqli'],
    match: sqli,
    parts: ['uri', 'body', 'header'],
    only: queryOrElsewhere,
  },
  {
    slug: 'xss',
    title: 'XSS',
    categories: ['xss'],
    match: xss,
    parts: ['uri', 'body', 'header'],
    only: (i) => i.location !== 'header' || SCRIPTED_HEADERS.has(i.name.split(':')[0] ?? ''),
  },
  {
    slug: 'command-execution',
    title: 'Generic Rules - Command Execution',
    categories: ['rce', 'command-injection'],
    match: commandInjection,
    parts: ['uri', 'body', 'header'],
    only: (i) => i.location !== 'path',
  },
  {
    slug: 'directory-traversal',
    title: 'Directory Traversal',
    categories: ['lfi', 'path-traversal'],
    match: traversal,
    parts: ['uri', 'body', 'header'],
  },
  {
    slug: 'file-inclusion',
    title: 'Generic System - File Inclusion',
    categories: ['lfi'],
    match: localFileInclusion,
    parts: ['uri', 'body', 'header'],
  },
  {
    slug: 'remote-file-inclusion',
    title: 'Remote File Inclusion',
    categories: ['rfi'],
    match: remoteFileInclusion,
    // Cookies too (an include path kept in a cookie), not other headers (Referer and Origin are URLs).
    parts: ['uri', 'body', 'header'],
    only: (i) => i.location !== 'path' && i.location !== 'header',
  },
  {
    slug: 'ssrf-cloud-metadata',
    title: 'SSRF - Cloud Metadata',
    categories: ['ssrf'],
    match: ssrfMetadata,
    parts: ['uri', 'body'],
    only: (i) => i.location !== 'path',
  },
  {
    slug: 'ssrf-internal-host',
    title: 'SSRF - Internal Host',
    categories: ['ssrf'],
    match: ssrfInternal,
    parts: ['uri', 'body'],
    only: (i) => i.location !== 'path',
  },
  {
    slug: 'deserialization',
    title: 'Deserialization',
    categories: ['deserialization', 'rce'],
    match: deserialization,
    parts: ['uri', 'body', 'header'],
    only: (i) => i.location !== 'path',
  },
];

export const ATTACK_RULES: readonly AttackRule[] = FAMILIES.flatMap((f) =>
  f.parts.map((part): AttackRule => {
    const inPart = PARTS[part].reads;
    const only = f.only;
    return {
      slug: `${f.slug}-${part}`,
      description: `${f.title} - ${PARTS[part].title}`,
      categories: f.categories,
      action: 'block',
      enabled: true,
      reads: only ? (i) => inPart(i) && only(i) : inPart,
      match: f.match,
    };
  }),
);

export const attackRuleId = (r: AttackRule) => stableId(`managed-rule:${r.slug}`);
