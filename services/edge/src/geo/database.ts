import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { IpAddress } from '@cairn/rules';
import { type CountryResponse, Reader } from 'mmdb-lib';
import { AsnTable } from './asn-table.ts';
import { continentOf, inEuropeanUnion } from './countries.ts';

/** What the database knows of an address: the ip.src.* geolocation fields. */
export interface GeoInfo {
  country?: string;
  continent?: string;
  asnum?: number;
  /** The AS number's organisation, as the ASN table names it (GraphQL's clientASNDescription). */
  asName?: string;
  isInEuropeanUnion?: boolean;
}

/** Where the data comes from, for /readyz and the dashboard. */
export interface GeoSource {
  package: string;
  version: string;
  license: string;
  /** The data's date (YYYY-MM-DD): the MMDB build time, or the date in the package version. */
  date: string;
}

export interface GeoDatabaseInfo {
  sources: GeoSource[];
  /** The oldest source's date: how current the database is. */
  date: string;
}

/** A record of the country MMDB: `{country_code}` (the Response type asks for MaxMind's shape). */
type CountryRecord = CountryResponse & { readonly country_code?: string };

const COUNTRY_PACKAGE = '@ip-location-db/geo-whois-asn-country-mmdb';
const ASN_PACKAGE = '@ip-location-db/asn';
const require = createRequire(import.meta.url);

function packageDir(name: string): { dir: string; version: string; license: string } {
  const file = require.resolve(`${name}/package.json`);
  const pkg = JSON.parse(readFileSync(file, 'utf8')) as { version: string; license?: string };
  return { dir: dirname(file), version: pkg.version, license: pkg.license ?? '' };
}

/** `2.3.2026061719` → `2026-06-17`: these packages put the data's date in the patch number. */
function dateOfVersion(version: string): string {
  const m = /\.(\d{4})(\d{2})(\d{2})\d*$/.exec(version);
  return m ? `${m[1]}-${m[2]}-${m[3]}` : 'unknown';
}

/**
 * IP geolocation from open data shipped in npm packages: the country from the GeoFeed + WHOIS + ASN
 * country MMDB (NRO data, CC BY 4.0), read with mmdb-lib; the AS number from the RouteViews / RIR / DB-IP
 * table (CC BY 4.0); continent and EU membership derived from the country.
 */
export class GeoDatabase {
  private constructor(
    private readonly countries: Reader<CountryRecord>,
    private readonly asns: AsnTable,
    readonly info: GeoDatabaseInfo,
  ) {}

  static load(): GeoDatabase {
    const country = packageDir(COUNTRY_PACKAGE);
    const asn = packageDir(ASN_PACKAGE);
    const reader = new Reader<CountryRecord>(readFileSync(join(country.dir, 'geo-whois-asn-country.mmdb')));
    const table = AsnTable.load(join(asn.dir, 'asn-ipv4-num.csv'), join(asn.dir, 'asn-ipv6-num.csv'));
    const sources: GeoSource[] = [
      {
        package: COUNTRY_PACKAGE,
        version: country.version,
        license: `${country.license}; data CC-BY-4.0 (NRO)`,
        date: reader.metadata.buildEpoch.toISOString().slice(0, 10),
      },
      {
        package: ASN_PACKAGE,
        version: asn.version,
        license: 'CC-BY-4.0 (RouteViews, DB-IP, NRO)',
        date: dateOfVersion(asn.version),
      },
    ];
    const date = sources.map((s) => s.date).sort()[0] ?? 'unknown';
    return new GeoDatabase(reader, table, { sources, date });
  }

  /** The location of an address (text); undefined for an address that is not valid or not known. */
  lookup(address: string): GeoInfo | undefined {
    const ip = IpAddress.parse(address);
    if (!ip) return undefined;
    const mapped =
      ip.version === 6 && ip.v6 >> 32n === 0xffffn ? IpAddress.v4(Number(ip.v6 & 0xffffffffn)) : ip;
    const asnum = mapped.version === 4 ? this.asns.lookupV4(mapped.v4) : this.asns.lookupV6(mapped.v6 >> 64n);
    const country = this.countries.get(mapped.toString())?.country_code;
    if (country === undefined && asnum === undefined) return undefined;
    const info: GeoInfo = {};
    if (country !== undefined) {
      info.country = country;
      const continent = continentOf(country);
      if (continent !== undefined) info.continent = continent;
      info.isInEuropeanUnion = inEuropeanUnion(country);
    }
    if (asnum !== undefined) {
      info.asnum = asnum;
      const name = this.asns.nameOf(asnum);
      if (name) info.asName = name;
    }
    return info;
  }
}

let shared: GeoDatabase | undefined;

/** The process's database, loaded on first use (about half a second; the files are read once). */
export function geoDatabase(): GeoDatabase {
  shared ??= GeoDatabase.load();
  return shared;
}
