/** The words of the (b) query + ll scenario, shared by the HTTP benchmark and the queries-alone one. */
export const QUERY_WORDS = [
  'pizza',
  'cafe',
  'bank',
  'hotel',
  'pharmacy',
  'bakery',
  'bar',
  'supermarket',
  'golden',
  'market',
];
