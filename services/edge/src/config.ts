import { ConfigError } from '@cairn/kit';
import { DEFAULT_CRS_DIR } from '@cairn/seclang';

/** The edge service's settings, read once from the environment. */
export interface EdgeConfig {
  /** Directory of the OWASP CRS (holding rules/); CAIRN_CRS_DIR, default /usr/share/modsecurity-crs. */
  crsDir: string;
}

export function loadEdgeConfig(env: Record<string, string | undefined> = process.env): Readonly<EdgeConfig> {
  const crsDir =
    env.CAIRN_CRS_DIR === undefined || env.CAIRN_CRS_DIR === '' ? DEFAULT_CRS_DIR : env.CAIRN_CRS_DIR;
  if (!crsDir.startsWith('/'))
    throw new ConfigError('CAIRN_CRS_DIR', `expected an absolute directory, got "${crsDir}"`);
  return Object.freeze({ crsDir });
}
