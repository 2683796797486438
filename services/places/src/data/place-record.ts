import type { HoursEntry } from './hours.ts';

/** The 25 stored columns of the open places dataset (geom and bbox are derived), as the dataset names them. */
export interface OsPlaceColumns {
  fsq_place_id: string;
  name: string;
  latitude: number;
  longitude: number;
  address: string | null;
  locality: string | null;
  region: string | null;
  postcode: string | null;
  admin_region: string | null;
  post_town: string | null;
  po_box: string | null;
  country: string | null;
  /** YYYY-MM-DD */
  date_created: string | null;
  date_refreshed: string | null;
  date_closed: string | null;
  tel: string | null;
  website: string | null;
  email: string | null;
  facebook_id: string | null;
  instagram: string | null;
  twitter: string | null;
  fsq_category_ids: string[];
  fsq_category_labels: string[];
  placemaker_url: string | null;
  unresolved_flags: string[];
}

/** What the store keeps for a place: the dataset's columns plus what search needs. */
export interface PlaceRecord extends OsPlaceColumns {
  fsq_chain_ids: string[];
  /** 1–4 */
  price: number | null;
  /** 0–10 */
  rating: number | null;
  /** 0–1 */
  popularity: number | null;
  hours: HoursEntry[] | null;
  time_zone: string | null;
}

export const OS_COLUMNS = [
  'fsq_place_id',
  'name',
  'latitude',
  'longitude',
  'address',
  'locality',
  'region',
  'postcode',
  'admin_region',
  'post_town',
  'po_box',
  'country',
  'date_created',
  'date_refreshed',
  'date_closed',
  'tel',
  'website',
  'email',
  'facebook_id',
  'instagram',
  'twitter',
  'fsq_category_ids',
  'fsq_category_labels',
  'placemaker_url',
  'unresolved_flags',
] as const satisfies readonly (keyof OsPlaceColumns)[];

/** The dataset's 27 columns, in its order, as import files carry them. */
export const DATASET_COLUMNS = [...OS_COLUMNS, 'geom', 'bbox'] as const;

export const placemakerUrl = (id: string) => `https://foursquare.com/placemakers/review-place/${id}`;
