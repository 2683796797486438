// What tips and photos cost (issue 20 §3): CPU per call of deriving a generated place's tips and photos (the
// work a /tips or /photos answer or a tips/photos/stats field adds besides its SQL), and of drawing a photo at
// the sizes a client asks for (the public /places-photos/ route, before its cache). Medians of CPU time
// (process.cpuUsage) over rounds, which a loaded machine distorts less than wall time; prints the load.
//
//   npx tsx bench/places-photos.ts [rounds]
import os from 'node:os';
import { drawPhoto } from '../services/places/src/media/image.ts';
import { photoSize } from '../services/places/src/media/photo-size.ts';
import { derivedPhotos } from '../services/places/src/media/photos.ts';
import { listPhotos, listTips, placeStats } from '../services/places/src/media/place-media.ts';
import { type MediaSource, NO_STORED_MEDIA } from '../services/places/src/media/source.ts';
import { derivedTips } from '../services/places/src/media/tips.ts';

const rounds = Number(process.argv[2] ?? 7);
const place = (popularity: number, n: number): MediaSource => ({
  fsq_place_id: n.toString(16).padStart(24, '0'),
  name: 'Le Petit Zinc',
  country: 'FR',
  fsq_category_labels: ['Dining and Drinking > Restaurant'],
  popularity,
  rating: 8.1,
  date_created: '2014-03-02',
  date_refreshed: '2025-01-10',
});
const URL = 'http://127.0.0.1:8080';

function cpuMicros(fn: () => void, calls: number): number {
  const start = process.cpuUsage();
  for (let i = 0; i < calls; i++) fn();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / calls;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function measure(name: string, fn: (i: number) => void, calls: number) {
  let i = 0;
  cpuMicros(() => fn(i++), calls); // warm-up, not counted
  const samples = Array.from({ length: rounds }, () => cpuMicros(() => fn(i++), calls));
  console.log(`${name.padEnd(52)} ${median(samples).toFixed(1).padStart(10)} µs CPU per call`);
}

console.log(
  `load average ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}; ${os.cpus().length} CPUs; ${rounds} rounds`,
);
for (const popularity of [0.1, 0.9]) {
  measure(
    `tips: derive + sort + first 10 (popularity ${popularity})`,
    (i) => {
      const p = place(popularity, i);
      listTips(derivedTips(p, URL), {
        sort: 'POPULAR',
        limit: 10,
        fields: ['fsq_tip_id', 'created_at', 'text'],
      });
    },
    200,
  );
  measure(
    `photos: derive + first 10 (popularity ${popularity})`,
    (i) => {
      listPhotos(derivedPhotos(place(popularity, i), URL), { sort: 'POPULAR', limit: 10 });
    },
    200,
  );
  measure(
    `stats field (popularity ${popularity})`,
    (i) => placeStats(place(popularity, i), NO_STORED_MEDIA),
    2000,
  );
}
const original = { width: 1440, height: 1080 };
for (const size of ['100x100', '300x300', 'cap300', 'width960', 'original']) {
  const { width, height } = photoSize(size, original) as { width: number; height: number };
  let bytes = 0;
  measure(
    `draw ${size} (${width}x${height}) food_or_drink`,
    (i) => {
      bytes = drawPhoto(i.toString(16).padStart(24, '0'), 'food_or_drink', width, height).length;
    },
    size === 'original' || size === 'width960' ? 3 : 20,
  );
  console.log(`${''.padEnd(52)} ${bytes} bytes PNG`);
}
