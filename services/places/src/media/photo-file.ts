import { CairnError } from '@cairn/kit';
import { drawPhoto, photoEtag } from './image.ts';
import { PHOTO_CLASSIFICATIONS } from './kinds.ts';
import { photoSize } from './photo-size.ts';
import { ORIGINAL_LONG_SIDE } from './photos.ts';

/**
 * One derived photo at one size (`/places-photos/<size>/<file>`): the file names what to draw
 * (`<id>-<classification>-<w>x<h>.png`, see media/photos.ts), the size how large. Drawing a 1440×1080 photo
 * costs ~50 ms of CPU, so the last renderings are kept (up to 32 MB), and a repeated request with the
 * ETag is answered 304 before anything is drawn.
 */
const FILE = /^([0-9a-f]{24})-([a-z_]{1,40})-([1-9]\d{0,3})x([1-9]\d{0,3})\.png$/;
const CLASSIFICATIONS = new Set<string>(PHOTO_CLASSIFICATIONS);
const CACHE_BYTES = 32 * 1024 * 1024;

export interface PhotoFile {
  etag: string;
  render(): Buffer;
}

const noSuchPhoto = (file: string) =>
  new CairnError(404, 'not_found', `No photo "${file.slice(0, 80)}": the suffix is not one this server gave`);

/** What a request names: the rendering's ETag, and how to draw it (from the cache when drawn before). */
export function photoFile(size: string, file: string): PhotoFile {
  const m = FILE.exec(file);
  const width = Number(m?.[3]);
  const height = Number(m?.[4]);
  if (!m || !CLASSIFICATIONS.has(m[2]!) || width > ORIGINAL_LONG_SIDE || height > ORIGINAL_LONG_SIDE)
    throw noSuchPhoto(file);
  const sized = photoSize(size, { width, height });
  if (!sized.ok) throw new CairnError(400, 'bad_request', `Invalid size: ${sized.message}`);
  const etag = photoEtag(file, sized.width, sized.height);
  return {
    etag,
    render: () => cached(etag, () => drawPhoto(m[1]!, m[2]!, sized.width, sized.height)),
  };
}

const cache = new Map<string, Buffer>();
let cachedBytes = 0;

function cached(key: string, draw: () => Buffer): Buffer {
  const hit = cache.get(key);
  if (hit) {
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  const bytes = draw();
  cache.set(key, bytes);
  cachedBytes += bytes.length;
  for (const [oldKey, old] of cache) {
    if (cachedBytes <= CACHE_BYTES) break;
    cache.delete(oldKey);
    cachedBytes -= old.length;
  }
  return bytes;
}
