/**
 * Media types of raw uploads: bytes an application stores or serves, never reads as arguments. The
 * managed rules leave their content alone (as ModSecurity runs no body processor on them): the body-limit
 * rule lets them stream past the inspection limit, and the attack rules do not read them as text.
 */
export const RAW_UPLOAD_TYPES: readonly string[] = [
  'application/octet-stream',
  'application/zip',
  'application/gzip',
  'application/x-tar',
  'application/pdf',
];
export const RAW_UPLOAD_FAMILIES: readonly string[] = ['image/', 'audio/', 'video/', 'font/'];

/** Whether a Content-Type (any case, parameters allowed) names a raw upload. */
export function isRawUploadType(contentType: string): boolean {
  const mime = contentType.split(';', 1)[0]!.trim().toLowerCase();
  return RAW_UPLOAD_TYPES.includes(mime) || RAW_UPLOAD_FAMILIES.some((family) => mime.startsWith(family));
}
