/**
 * The size part of a photo URL (prefix + size + suffix), as the real API's "assembling a photo URL" guide
 * writes it: `original`, `<width>x<height>` (e.g. 300x500), `cap<n>` (the longer side n, the aspect kept),
 * `width<n>` or `height<n>` (that side n, the other by the aspect). A side is 1 to the original's side: photos
 * are not drawn larger than their original, so no request can ask for more pixels than 1440 × 1080.
 */
export type SizeResult = { ok: true; width: number; height: number } | { ok: false; message: string };

const FORMS = 'original, <width>x<height> (e.g. 300x300), cap<n>, width<n> or height<n>';
const SIDE = '([1-9]\\d{0,4})';
const EXACT = new RegExp(`^${SIDE}x${SIDE}$`);
const ONE_SIDE = new RegExp(`^(cap|width|height)${SIDE}$`);

export function photoSize(size: string, original: { width: number; height: number }): SizeResult {
  const longest = Math.max(original.width, original.height);
  if (size === 'original') return { ok: true, width: original.width, height: original.height };
  const exact = EXACT.exec(size);
  if (exact) {
    const width = Number(exact[1]);
    const height = Number(exact[2]);
    if (width > longest || height > longest) return tooLarge(size, longest);
    return { ok: true, width, height };
  }
  const one = ONE_SIDE.exec(size);
  if (!one) {
    return { ok: false, message: `"${size.slice(0, 40)}" is not a photo size; use ${FORMS}` };
  }
  const n = Number(one[2]);
  const form = one[1] as 'cap' | 'width' | 'height';
  const limit = form === 'width' ? original.width : form === 'height' ? original.height : longest;
  if (n > limit) return tooLarge(size, limit);
  const scale = form === 'width' ? n / original.width : form === 'height' ? n / original.height : n / longest;
  return {
    ok: true,
    width: Math.max(1, Math.round(original.width * scale)),
    height: Math.max(1, Math.round(original.height * scale)),
  };
}

function tooLarge(size: string, limit: number): SizeResult {
  return {
    ok: false,
    message: `"${size}" is larger than the photo: a side can be at most ${limit} pixels (or use original)`,
  };
}
