import { arcFor } from '../data/earth.ts';
import { hoursDisplay, isOpenAt, localMinuteOfWeek, weekIntervals } from '../data/hours.ts';
import { CALLING } from '../generate/addresses.ts';
import {
  IN_PLACE,
  listPhotos,
  listTips,
  placePhotos,
  placeStats,
  placeTips,
  TIP_FIELDS,
} from '../media/place-media.ts';
import { NO_STORED_MEDIA, type StoredMedia } from '../media/source.ts';
import { formatAddress } from '../reference/address-format.ts';
import { pluralOf } from '../reference/category.ts';
import type { Reference } from '../reference/reference.ts';
import type { PlaceRow } from '../store/places-read.ts';
import type { FieldName } from './fields.ts';

/** A stored place as the 2025-06-17 API shows it: only the requested fields, and only those with a value. */
export interface RenderContext {
  reference: Reference;
  fields: ReadonlySet<FieldName>;
  now: Date;
  /** This Cairn's public address (CAIRN_PUBLIC_URL): `placemaker_url` points at its editor. */
  publicUrl: string;
  telFormat?: 'NATIONAL' | 'E164';
  /** The places' stored tips and photos, read when `tips`, `photos` or `stats` is asked for (store/media.ts). */
  media?: StoredMedia;
}

/** The place in this Cairn's editor (the dataset's own column keeps the upstream address, for export). */
export const placeEditorUrl = (publicUrl: string, id: string) =>
  `${publicUrl}/placemakers/place/${encodeURIComponent(id)}`;

/** Preset icons are Maki or Temaki names; both sets are published on npm and served by public CDNs. */
function icon(name: string | null): { prefix: string; suffix: string } | undefined {
  const m = /^(maki|temaki)-(.+)$/.exec(name ?? '');
  if (!m) return undefined;
  const pkg = m[1] === 'maki' ? '@mapbox/maki/icons' : '@rapideditor/temaki/icons';
  return { prefix: `https://cdn.jsdelivr.net/npm/${pkg}/${m[2]}`, suffix: '.svg' };
}

/**
 * A place's categories as the real taxonomy's (reference/osm-to-fsq.ts): its id, name and plural, with the
 * stored category's icon. Two stored categories that are one real category show once.
 */
function categories(row: PlaceRow, reference: Reference) {
  const shown = new Map<string, Record<string, unknown>>();
  row.fsq_category_ids.forEach((id, i) => {
    const real = reference.realCategory(id);
    if (!real) {
      const name = row.fsq_category_labels[i]?.split(' > ').pop() ?? id;
      if (!shown.has(id)) shown.set(id, { fsq_category_id: id, name, short_name: name, plural_name: name });
      return;
    }
    if (shown.has(real.id)) return;
    shown.set(
      real.id,
      compact({
        fsq_category_id: real.id,
        name: real.name,
        short_name: real.name,
        plural_name: real.level === 1 ? real.name : pluralOf(real.name),
        icon: icon(reference.categories.get(id)?.icon ?? null),
      }),
    );
  });
  return [...shown.values()];
}

function telephone(tel: string | null, country: string | null, format: 'NATIONAL' | 'E164' | undefined) {
  if (!tel || !format || !tel.startsWith('+')) return tel;
  if (format === 'E164') return tel;
  const code = country ? CALLING[country] : undefined;
  if (!code || !tel.startsWith(`+${code}`)) return tel;
  const national = tel.slice(code.length + 1);
  if (code === '1' && national.length === 10) {
    return `(${national.slice(0, 3)}) ${national.slice(3, 6)}-${national.slice(6)}`;
  }
  return `0${national}`;
}

/** Leaves out null, undefined, empty arrays and empty objects. */
function compact<T extends Record<string, unknown>>(object: T): Partial<T> {
  const out: Record<string, unknown> = {};
  for (const k in object) {
    const v = object[k];
    if (v === null || v === undefined) continue;
    if (typeof v === 'object' && isEmpty(v)) continue;
    out[k] = v;
  }
  return out as Partial<T>;
}

function isEmpty(v: object): boolean {
  if (Array.isArray(v)) return v.length === 0;
  for (const _ in v) return false;
  return true;
}

export function renderPlace(row: PlaceRow, ctx: RenderContext): Record<string, unknown> {
  const f = ctx.fields;
  const all: Record<string, unknown> = {};
  const put = (name: FieldName, value: () => unknown) => {
    if (f.has(name)) all[name] = value();
  };
  put('fsq_place_id', () => row.fsq_place_id);
  put('name', () => row.name);
  put('latitude', () => row.latitude);
  put('longitude', () => row.longitude);
  // distance before the others: the order in which the response schema lists a Place's fields.
  put('distance', () =>
    row.chord === null || row.chord === undefined ? null : Math.round(arcFor(row.chord)),
  );
  put('categories', () => categories(row, ctx.reference));
  put('chains', () =>
    row.fsq_chain_ids.map((id) => compact({ fsq_chain_id: id, name: ctx.reference.chains.get(id)?.name })),
  );
  put('location', () =>
    compact({
      address: row.address,
      locality: row.locality,
      region: row.region,
      postcode: row.postcode,
      admin_region: row.admin_region,
      post_town: row.post_town,
      po_box: row.po_box,
      country: row.country,
      formatted_address: formatAddress(row),
    }),
  );
  put('tel', () => telephone(row.tel, row.country, ctx.telFormat));
  put('email', () => row.email);
  put('website', () => row.website);
  put('social_media', () =>
    compact({ facebook_id: row.facebook_id, instagram: row.instagram, twitter: row.twitter }),
  );
  put('link', () => `/places/${row.fsq_place_id}`);
  put('date_closed', () => row.date_closed);
  put('date_created', () => row.date_created);
  put('date_refreshed', () => row.date_refreshed);
  put('placemaker_url', () => placeEditorUrl(ctx.publicUrl, row.fsq_place_id));
  put('unresolved_flags', () => row.unresolved_flags);
  put('description', () => row.description);
  put('price', () => row.price);
  put('rating', () => (row.rating === null ? null : Math.round(row.rating * 10) / 10));
  put('popularity', () => row.popularity);
  put('hours', () =>
    row.hours && row.hours.length > 0
      ? {
          display: hoursDisplay(row.hours),
          is_local_holiday: false,
          open_now: isOpenAt(weekIntervals(row.hours), localMinuteOfWeek(ctx.now, row.time_zone)),
          regular: row.hours,
        }
      : null,
  );
  put('tips', () =>
    listTips(placeTips(row, ctx.media ?? NO_STORED_MEDIA, ctx.publicUrl), {
      sort: 'POPULAR',
      limit: IN_PLACE,
      fields: TIP_FIELDS,
    }),
  );
  put('photos', () =>
    listPhotos(placePhotos(row, ctx.media ?? NO_STORED_MEDIA, ctx.publicUrl), {
      sort: 'POPULAR',
      limit: IN_PLACE,
    }),
  );
  put('stats', () => placeStats(row, ctx.media ?? NO_STORED_MEDIA));
  return compact(all);
}
