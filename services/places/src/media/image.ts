import { createHash } from 'node:crypto';
import { PNG } from 'pngjs';
import { Canvas, hsl } from './canvas.ts';
import { Seeded } from './seeded.ts';

/**
 * Draws a derived photo: a scene for its classification (a plate on a table for food_or_drink, a menu card,
 * a landscape for outdoor ones, a framed picture for exhibit, a storefront, a room, products on a shelf),
 * its colours and arrangement from the photo id, at the requested size, as a PNG. Positions are fractions of
 * the image, so every size shows the same picture.
 */
export const RENDER_VERSION = 1;

type Scene = (c: Canvas, s: Seeded) => void;

const plate: Scene = (c, s) => {
  const table = hsl(20 + s.int(30), 0.35, 0.35 + s.next() * 0.15);
  c.gradient(table, hsl(20, 0.3, 0.2));
  c.circle(0.5, 0.5, 0.42, [245, 245, 240]);
  c.circle(0.5, 0.5, 0.34, [225, 225, 220]);
  const food = hsl(s.int(60), 0.7, 0.45);
  c.circle(0.5, 0.5, 0.22, food);
  for (let i = 0; i < 5; i++)
    c.circle(0.38 + s.next() * 0.24, 0.38 + s.next() * 0.24, 0.04, hsl(90 + s.int(60), 0.6, 0.4));
  c.circle(0.12 + s.next() * 0.1, 0.15, 0.1, hsl(200, 0.2, 0.85));
};

const menu: Scene = (c, s) => {
  c.gradient(hsl(30, 0.2, 0.2), hsl(30, 0.2, 0.1));
  c.rect(0.2, 0.08, 0.8, 0.92, [250, 246, 235]);
  c.rect(0.3, 0.13, 0.7, 0.19, hsl(s.int(360), 0.5, 0.3));
  for (let y = 0.26; y < 0.86; y += 0.06) {
    c.rect(0.27, y, 0.27 + 0.25 + s.next() * 0.2, y + 0.018, [70, 60, 50]);
    c.rect(0.66, y, 0.73, y + 0.018, [70, 60, 50]);
  }
};

const landscape: Scene = (c, s) => {
  const hour = s.next();
  c.gradient(hsl(200 + hour * 20, 0.6, 0.75), hsl(30 + hour * 20, 0.7, 0.85), 0, 0.6);
  c.circle(0.2 + s.next() * 0.6, 0.18, 0.07, [255, 236, 170]);
  c.peak(-0.2, 0.6, 0.3, 0.62, hsl(120, 0.2, 0.45));
  c.peak(0.3, 1.2, 0.35, 0.62, hsl(130, 0.25, 0.38));
  c.gradient(hsl(100, 0.4, 0.4), hsl(90, 0.4, 0.25), 0.6, 1);
  for (let i = 0; i < 6; i++) {
    const x = s.next();
    c.rect(x - 0.008, 0.62, x + 0.008, 0.72, [80, 55, 35]);
    c.circle(x, 0.6, 0.05, hsl(110 + s.int(30), 0.5, 0.3));
  }
};

const building: Scene = (c, s) => {
  c.gradient(hsl(205, 0.6, 0.7), hsl(205, 0.5, 0.9), 0, 0.85);
  const wall = hsl(s.int(360), 0.25, 0.6);
  c.rect(0.12, 0.2, 0.88, 0.88, wall);
  c.rect(0.1, 0.16, 0.9, 0.22, hsl(0, 0, 0.3));
  for (let row = 0; row < 3; row++) {
    for (let col = 0; col < 4; col++) {
      const x = 0.18 + col * 0.18;
      const y = 0.28 + row * 0.16;
      c.rect(x, y, x + 0.1, y + 0.1, hsl(200, 0.3, 0.35 + s.next() * 0.3));
    }
  }
  c.rect(0.44, 0.72, 0.56, 0.88, hsl(25, 0.4, 0.25));
  c.rect(0, 0.88, 1, 1, [120, 120, 120]);
};

const room: Scene = (c, s) => {
  c.gradient(hsl(s.int(360), 0.25, 0.75), hsl(40, 0.2, 0.6), 0, 0.65);
  c.gradient(hsl(30, 0.35, 0.4), hsl(30, 0.35, 0.25), 0.65, 1);
  c.rect(0.1, 0.12, 0.35, 0.45, hsl(200, 0.4, 0.85));
  for (let i = 0; i < 3; i++) {
    const x = 0.15 + i * 0.28;
    c.rect(x, 0.7, x + 0.18, 0.74, hsl(25, 0.4, 0.3));
    c.rect(x + 0.08, 0.74, x + 0.1, 0.88, hsl(25, 0.4, 0.2));
  }
  c.circle(0.7, 0.1, 0.05, [255, 240, 200]);
};

const exhibit: Scene = (c, s) => {
  c.gradient(hsl(40, 0.1, 0.9), hsl(40, 0.1, 0.75), 0, 0.8);
  c.rect(0, 0.8, 1, 1, hsl(30, 0.3, 0.35));
  c.rect(0.22, 0.15, 0.78, 0.65, hsl(40, 0.6, 0.35));
  c.rect(0.25, 0.19, 0.75, 0.61, hsl(s.int(360), 0.5, 0.6));
  for (let i = 0; i < 4; i++)
    c.circle(0.3 + s.next() * 0.4, 0.25 + s.next() * 0.3, 0.03 + s.next() * 0.06, hsl(s.int(360), 0.6, 0.45));
};

const shelf: Scene = (c, s) => {
  c.gradient(hsl(s.int(360), 0.15, 0.9), hsl(0, 0, 0.8));
  for (let row = 0; row < 3; row++) {
    const y = 0.3 + row * 0.25;
    c.rect(0.05, y, 0.95, y + 0.02, hsl(30, 0.3, 0.35));
    for (let x = 0.08; x < 0.9; x += 0.1) {
      const h = 0.08 + s.next() * 0.1;
      c.rect(x, y - h, x + 0.07, y, hsl(s.int(360), 0.6, 0.5));
    }
  }
};

const SCENES: Record<string, Scene> = {
  food_or_drink: plate,
  menu,
  outdoor: landscape,
  outdoor_scenery: landscape,
  outdoor_grounds: landscape,
  exhibit,
  monuments_and_landmark_buildings: building,
  outdoor_building_and_grounds: building,
  outdoor_building_exterior: building,
  outdoor_or_storefront: building,
  indoor_general: room,
  indoor_or_ambience: room,
  indoor_facilities_and_classrooms: room,
  facilities: room,
  product: shelf,
  logos: shelf,
};

export function drawPhoto(id: string, classification: string, width: number, height: number): Buffer {
  const canvas = new Canvas(width, height);
  (SCENES[classification] ?? room)(canvas, new Seeded(`${id}:${classification}`));
  const png = new PNG({ width, height, inputHasAlpha: false });
  png.data = canvas.data;
  // RGB in and out (pngjs converts RGBA pixel by pixel, which took twice the CPU); filter "Sub" (flat runs).
  return PNG.sync.write(png, { colorType: 2, inputColorType: 2, inputHasAlpha: false, filterType: 1 });
}

/** A strong validator of one rendering: the same photo, size and drawing code give the same bytes. */
export const photoEtag = (file: string, width: number, height: number) =>
  `"${createHash('sha256').update(`${RENDER_VERSION}:${file}:${width}x${height}`).digest('base64url').slice(0, 22)}"`;
