// Writes bench/data/benign-requests.json, the benign corpus of the differential harness (issue 40): what
// ordinary users of a shop, a forum and a JSON API send — forms, JSON bodies, markdown, search phrases with
// SQL words and apostrophes — as recorded requests. Deterministic; rerun after editing the lists.
//
// Run: npx tsx bench/waf-benign-corpus.ts
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { RecordedRequest } from '../packages/seclang/test/waf-differential/corpus.ts';

const OUT = fileURLToPath(new URL('./data/benign-requests.json', import.meta.url));

const BROWSER: Array<[string, string]> = [
  ['Host', 'shop.example.test'],
  [
    'User-Agent',
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36',
  ],
  ['Accept', 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8'],
  ['Accept-Language', 'en-GB,en;q=0.9'],
  ['Cookie', 'session=8f14e45fceea167a5a36dedd4bea2543; theme=dark; lang=en-GB'],
];
const API: Array<[string, string]> = [
  ['Host', 'api.example.test'],
  ['User-Agent', 'shop-app/3.2 (Android 14)'],
  ['Accept', 'application/json'],
  ['Authorization', 'Bearer at_Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MGFiY2RlZmdo'],
];

const SEARCHES = [
  "women's hiking boots",
  "men's rain jacket",
  "kids' sleeping bag",
  "O'Neill wetsuit",
  "rock 'n' roll t-shirt",
  'select the best tent for two',
  'drop-in replacement filter',
  'union jack flag',
  'where to buy gas canisters',
  'update firmware gps watch',
  'delete my account',
  'insert for hiking boots',
  'table for camping',
  'order by price',
  'from london to paris by train',
  'and or not',
  'having fun outdoors',
  'group tent 8 person',
  'null pointer keyring',
  '1 + 1 = 2 kids puzzle',
  'size 10 1/2',
  'tent -ultralight',
  '"exact phrase" tent',
  'ski & snowboard wax',
  'café au lait mug',
  'naïve art print',
  'Zürich map',
  'straße sign',
  '東京 guide book',
  'emoji 🏕️ sticker',
  '50% off sale',
  'price < 100',
  'bags > 30l',
  'stove #2',
  'tent (2 person)',
  'what is a bivvy?',
  "don't panic towel",
  "it's raining again umbrella",
  'sleeping mat r-value 4.5',
  'C++ programming book',
  'waterproof; breathable',
  'first-aid kit',
  'sleep well: a guide',
  'how to pitch a tent in wind',
  'script writing notebook',
  'alert whistle',
  'javascript for kids',
  'cat toy',
  'echo chamber book',
];

const NAMES = [
  ['Siobhán', "O'Brien"],
  ['Ada', 'Lovelace'],
  ['Jean-Luc', 'Picard'],
  ["D'Arcy", 'Smith'],
  ['José', 'Núñez'],
  ['Zoë', 'van der Berg'],
  ['Mary-Jane', "O'Connor-Watson"],
  ['Li', 'Wei'],
  ['Åsa', 'Ødegaard'],
  ['Ana', "Dell'Acqua"],
];

const COMMENTS = [
  "Great tent! Survived a storm on Ben Nevis. Wouldn't buy anything else.",
  'I ordered the blue one, but the red one arrived. Can you exchange it?',
  "My son's sleeping bag zip broke after two trips -- is that covered by the warranty?",
  '**Pros:** light, packs small\n**Cons:** condensation\n\n- pitched in 5 min\n- fits 2 + gear',
  '# Review\n\nSee [my blog](https://blog.example.org/tent-review?id=42) for photos.\n\n> Best purchase this year',
  '```\nSELECT * FROM tents WHERE weight < 2;\n```\nJoke aside, the filter on your site is great.',
  'Rating: 5/5. Would recommend to anyone who is "serious" about camping.',
  'Delivery was quick; packaging could be better (lots of plastic).',
  'The stove works at -10°C, tested it in Norway & Sweden.',
  'Use code SUMMER-2024 at checkout? It said "invalid".',
  "Hi, I'd like to update my address: 12 O'Connell St, Dublin 1.",
  'Is the 3-season tent OK for 1-2 nights in the Alps in October?',
  'Question: does the lamp use AA or AAA batteries? Thanks in advance :)',
  'Tip: put the stakes in at 45° and they hold much better.',
  '1. unpack\n2. peg out corners\n3. insert poles\n4. clip on\n5. enjoy',
  'Fits my 65l rucksack; size M/L. 10/10 would order again.',
  'Paid with card ending 4242 but the order shows "pending" -- please check.',
  'Can I select a delivery date? Drop it at the back door if nobody is in.',
  'My union rep says the tent is great for picket lines, lol.',
  'Where is the "from" field in the gift card form?',
];

const reqs: RecordedRequest[] = [];
const get = (url: string, headers = BROWSER) => reqs.push({ method: 'GET', url, headers, source: 'benign' });
const form = (url: string, fields: Record<string, string>) =>
  reqs.push({
    method: 'POST',
    url,
    headers: [
      ...BROWSER,
      ['Content-Type', 'application/x-www-form-urlencoded'],
      ['Origin', 'https://shop.example.test'],
    ],
    body: new URLSearchParams(fields).toString(),
    source: 'benign',
  });
const json = (method: string, url: string, value: unknown) =>
  reqs.push({
    method,
    url,
    headers: [...API, ['Content-Type', 'application/json']],
    body: JSON.stringify(value),
    source: 'benign',
  });

for (const [i, q] of SEARCHES.entries()) {
  get(`/search?q=${encodeURIComponent(q)}&page=${(i % 3) + 1}`);
  json('POST', '/api/v1/search', { query: q, filters: { inStock: i % 2 === 0, maxPrice: 100 + i }, page: 1 });
}
for (const [i, [first, last]] of NAMES.entries()) {
  const email = `${(first as string).toLowerCase().replace(/[^a-z]/g, '')}.${i}@example.org`;
  form('/account/signup', {
    first_name: first as string,
    last_name: last as string,
    email,
    password: `correct horse battery ${i}`,
    newsletter: i % 2 ? 'on' : '',
  });
  form('/checkout/address', {
    name: `${first} ${last}`,
    address1: `${10 + i} O'Connell Street`,
    address2: i % 2 ? 'Flat 3/B' : '',
    city: ['Dublin', 'London', "L'Aquila", 'Zürich', 'São Paulo'][i % 5] as string,
    postcode: ['D01 F5P2', 'SW1A 1AA', '67100', '8001', '01310-100'][i % 5] as string,
    phone: '+44 20 7946 0958',
  });
  json('PUT', `/api/v1/users/${1000 + i}`, {
    name: { first, last },
    email,
    tags: ['hiker', 'camper'],
    preferences: { newsletter: i % 2 === 0, units: 'metric', theme: null },
    addresses: [{ line1: `${10 + i} O'Connell Street`, city: 'Dublin', default: true }],
  });
}
for (const [i, text] of COMMENTS.entries()) {
  form(`/products/${100 + i}/reviews`, {
    rating: String((i % 5) + 1),
    title: text.split(/[.!?\n]/)[0] as string,
    body: text,
  });
  json('POST', `/api/v1/products/${100 + i}/comments`, {
    body: text,
    format: 'markdown',
    rating: (i % 5) + 1,
  });
  get(`/forum/thread/${200 + i}?highlight=${encodeURIComponent(text.split(' ').slice(0, 3).join(' '))}`);
}
for (let i = 0; i < 40; i++) {
  get(
    `/catalog/${['tents', 'stoves', 'lamps', 'bags'][i % 4]}?sort=${['price', '-price', 'rating', 'new'][i % 4]}&page=${i + 1}&per_page=24`,
  );
  json('POST', '/api/v1/orders', {
    order: `A-${1042 + i}`,
    items: [
      {
        sku: `SKU-${1000 + i}`,
        qty: (i % 3) + 1,
        price: 19.99,
        gift: i % 5 === 0,
        note: i % 4 === 0 ? "it's a gift -- no invoice please" : '',
      },
    ],
    shipping: {
      method: i % 2 ? 'express' : 'standard',
      instructions: i % 3 === 0 ? 'Leave at the back door & ring twice' : null,
    },
    total: 19.99 * ((i % 3) + 1),
    coupon: i % 6 === 0 ? 'SUMMER-2024' : null,
  });
  get(
    `/api/v1/places?lat=${(51.5 + i / 100).toFixed(3)}&lng=${(-0.12 - i / 100).toFixed(3)}&radius=${500 + i * 10}&fields=name,address,rating`,
    API,
  );
}
for (const [i, q] of SEARCHES.slice(0, 20).entries()) {
  get(
    `/api/v1/autocomplete?input=${encodeURIComponent(q.slice(0, 8 + i))}&session_token=st_${'a'.repeat(20)}${i}`,
    API,
  );
  form('/contact', {
    subject: `Question about ${q}`,
    message: COMMENTS[i] as string,
    email: `customer${i}@example.org`,
  });
}

writeFileSync(OUT, `${JSON.stringify(reqs, null, 1)}\n`);
console.log(`${reqs.length} benign requests → ${OUT}`);
