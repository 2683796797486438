/**
 * A place's one-line address as people write it in its country: the postcode before the town in most of Europe
 * and Latin America ("12 Rue de Rivoli, 75004 Paris", "Hauptstraße 5, 10115 Berlin"), after it in Britain
 * and Ireland ("10 High St, London SW1A 1AA"), after the state in North America and Australia ("350 5th Ave,
 * New York, NY 10118"), at the end in Russian ("ул. Тверская, 7, Москва, 125009"), and first, largest part
 * first, in Japan, China, Taiwan and Korea ("〒100-0005 Tokyo 丸の内1-9-1").
 */
export interface AddressParts {
  address: string | null;
  locality: string | null;
  region: string | null;
  postcode: string | null;
  country: string | null;
}

type Style = 'postcode-first' | 'postcode-after' | 'with-region' | 'at-end' | 'largest-first';

const STYLE: Record<string, Style> = {
  GB: 'postcode-after',
  IE: 'postcode-after',
  LV: 'postcode-after',
  US: 'with-region',
  CA: 'with-region',
  AU: 'with-region',
  RU: 'at-end',
  UA: 'at-end',
  BY: 'at-end',
  KZ: 'at-end',
  BR: 'at-end',
  IN: 'at-end',
  JP: 'largest-first',
  CN: 'largest-first',
  TW: 'largest-first',
  KR: 'largest-first',
};

const join = (parts: (string | null | undefined)[], separator: string) =>
  parts.filter((p): p is string => p !== null && p !== undefined && p !== '').join(separator);

export function formatAddress(p: AddressParts): string | undefined {
  let text: string;
  switch (STYLE[p.country ?? ''] ?? 'postcode-first') {
    case 'postcode-after':
      text = join([p.address, join([p.locality, p.postcode], ' ')], ', ');
      break;
    case 'with-region':
      text = join([p.address, p.locality, join([p.region, p.postcode], ' ')], ', ');
      break;
    case 'at-end':
      text = join([p.address, p.locality, p.postcode], ', ');
      break;
    case 'largest-first':
      text = join(
        [p.postcode && p.country === 'JP' ? `〒${p.postcode}` : p.postcode, p.locality, p.address],
        ' ',
      );
      break;
    default:
      text = join([p.address, join([p.postcode, p.locality], ' ')], ', ');
  }
  return text === '' ? undefined : text;
}
