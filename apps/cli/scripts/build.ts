// The package build (npm pack runs it as "prepack"): compiles the cairn command and cairn/testing into plain
// JavaScript under dist/, with the workspaces (@cairn/*) bundled in and every other package left as an import
// of the installed dependency; copies what the services read from disk at run time (migrations, the built web
// apps, the command catalogue) and the OWASP CRS rules. The installed package runs without tsx.
//   node --import tsx apps/cli/scripts/build.ts
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildDashboardUi } from '@cairn/edge/build';
import { buildEditorUi } from '@cairn/placemakers/build';
import { DEFAULT_CRS_DIR } from '@cairn/seclang';
import { build, type Plugin } from 'esbuild';

const CLI = fileURLToPath(new URL('..', import.meta.url));
const REPO = resolve(CLI, '..', '..');
const DIST = join(CLI, 'dist');

/** The package name of a bare import ("@scope/name/sub" → "@scope/name"). */
function packageName(path: string): string {
  const parts = path.split('/');
  return path.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? path);
}

/**
 * `new URL('../migrations', import.meta.url)` in a source file names a file or folder next to it; in the
 * bundle, import.meta.url is the bundle's. Rewrites each to the same path under dist/ (repo-relative), and
 * records it so it is copied there.
 */
function relocateFileUrls(assets: Set<string>): Plugin {
  return {
    name: 'relocate-file-urls',
    setup(b) {
      b.onLoad({ filter: /\.(ts|js)$/ }, (args) => {
        if (args.path.includes('node_modules')) return undefined;
        const source = readFileSync(args.path, 'utf8');
        if (!source.includes('import.meta.url')) return undefined;
        const contents = source.replace(
          /new URL\('(\.\.?\/[^']*)', import\.meta\.url\)/g,
          (whole, rel: string) => {
            const target = resolve(dirname(args.path), rel);
            if (!existsSync(target)) return whole; // a file that exists only in the package (dist/crs)
            const inRepo = relative(REPO, target);
            assets.add(inRepo);
            return `new URL('./${inRepo}', import.meta.url)`;
          },
        );
        return { contents, loader: args.path.endsWith('.ts') ? 'ts' : 'js' };
      });
    },
  };
}

/** Bundles the workspaces; every other package stays an import, and is recorded. */
function externals(used: Set<string>): Plugin {
  const builtins = new Set(builtinModules);
  return {
    name: 'externals',
    setup(b) {
      b.onResolve({ filter: /^[^./]/ }, (args) => {
        if (args.path.startsWith('@cairn/')) return undefined;
        if (args.path.startsWith('node:') || builtins.has(args.path)) return { external: true };
        used.add(packageName(args.path));
        return { external: true };
      });
    },
  };
}

/** The range each workspace declares for a package (they agree; the first one found). */
function declaredRanges(): Map<string, string> {
  const ranges = new Map<string, string>();
  for (const dir of [
    'packages/kit',
    'packages/rules',
    'packages/seclang',
    'services/identity',
    'services/places',
    'services/placemakers',
    'services/edge',
  ]) {
    const pkg = JSON.parse(readFileSync(join(REPO, dir, 'package.json'), 'utf8')) as {
      dependencies?: Record<string, string>;
    };
    for (const [name, range] of Object.entries(pkg.dependencies ?? {}))
      if (!ranges.has(name)) ranges.set(name, range);
  }
  return ranges;
}

function copyAsset(inRepo: string): void {
  const from = join(REPO, inRepo);
  const to = join(DIST, inRepo);
  // A web app's folder: only its build output is served.
  if (statSync(from).isDirectory() && existsSync(join(from, 'vite.config.ts'))) {
    if (!existsSync(join(from, 'dist', 'index.html'))) throw new Error(`${inRepo} is not built`);
    cpSync(join(from, 'dist'), join(to, 'dist'), { recursive: true });
    return;
  }
  mkdirSync(dirname(to), { recursive: true });
  cpSync(from, to, { recursive: true });
}

const started = Date.now();
await buildEditorUi({ quiet: true });
await buildDashboardUi({ quiet: true });
rmSync(DIST, { recursive: true, force: true });

const assets = new Set<string>();
const used = new Set<string>();
await build({
  entryPoints: {
    help: join(CLI, 'src/help.js'),
    main: join(CLI, 'src/main.ts'),
    index: join(CLI, 'src/index.ts'),
    // the edge engine's CRS worker thread (engine/pool/crs-pool.ts starts ./edge-waf-worker.js beside it)
    'edge-waf-worker': join(REPO, 'services/edge/src/engine/pool/worker.ts'),
    ...(existsSync(join(CLI, 'src/testing.ts')) ? { testing: join(CLI, 'src/testing.ts') } : {}),
  },
  outdir: DIST,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // Chunks sit beside the entries, so a path relative to import.meta.url means the same in every file.
  chunkNames: '[name]-[hash]',
  sourcemap: false,
  legalComments: 'none',
  logLevel: 'warning',
  plugins: [externals(used), relocateFileUrls(assets)],
});
// Packages loaded at run time by name (createRequire, require.resolve), which esbuild does not see as imports.
for (const file of readdirSync(DIST).filter((f) => f.endsWith('.js'))) {
  const code = readFileSync(join(DIST, file), 'utf8');
  // esbuild renames a local require (require2, createRequire3(import.meta.url)).
  const loads =
    /(?:require\d*(?:\.resolve)?|createRequire\d*\(import\.meta\.url\))\(\s*["'`]([@a-z][^"'`$]*)["'`]/g;
  for (const m of code.matchAll(loads)) used.add(packageName(m[1]!));
}
// geo/database.ts resolves these from a list of names (`${name}/package.json`).
used.add('@ip-location-db/asn');
used.add('@ip-location-db/geo-whois-asn-country-mmdb');
for (const asset of assets) copyAsset(asset);

// The OWASP CRS rules (Apache-2.0) the edge's managed rulesets are compiled from, as Debian's modsecurity-crs
// installs them: the package does not depend on the system having them.
const crsRules = join(process.env.CAIRN_CRS_DIR || DEFAULT_CRS_DIR, 'rules');
if (!existsSync(join(crsRules, 'REQUEST-901-INITIALIZATION.conf')))
  throw new Error(
    `no OWASP CRS in ${crsRules} to ship (apt-get install modsecurity-crs, or set CAIRN_CRS_DIR)`,
  );
cpSync(crsRules, join(DIST, 'crs', 'rules'), { recursive: true, dereference: true });

// Every package the bundle imports must be a dependency of the package, at the range its workspace declares.
const manifest = JSON.parse(readFileSync(join(CLI, 'package.json'), 'utf8')) as {
  dependencies?: Record<string, string>;
};
const ranges = declaredRanges();
const problems: string[] = [];
for (const name of [...used].sort()) {
  const want = ranges.get(name);
  const have = manifest.dependencies?.[name];
  if (!have)
    problems.push(`"${name}": "${want ?? '?'}" is imported but not in apps/cli/package.json dependencies`);
  else if (want && want !== have)
    problems.push(`"${name}" is "${have}" in apps/cli, "${want}" in its workspace`);
}
for (const name of Object.keys(manifest.dependencies ?? {}))
  if (!used.has(name))
    problems.push(`"${name}" is in apps/cli/package.json dependencies but the bundle does not import it`);
if (problems.length > 0) {
  process.stderr.write(`${problems.join('\n')}\n`);
  process.exit(1);
}
process.stderr.write(`built apps/cli/dist in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
