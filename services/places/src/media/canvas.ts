/** An RGB drawing surface (3 bytes a pixel, as the PNG is written) with the few shapes the generated photos use; positions are fractions of the image. */
export type Rgb = readonly [number, number, number];

export function hsl(h: number, s: number, l: number): Rgb {
  const a = s * Math.min(l, 1 - l);
  const f = (n: number) => {
    const k = (n + h / 30) % 12;
    return Math.round(255 * (l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1))));
  };
  return [f(0), f(8), f(4)];
}

export class Canvas {
  readonly data: Buffer;

  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    this.data = Buffer.alloc(width * height * 3, 255);
  }

  /** The whole image, from `top` at y0 to `bottom` at y1 (fractions), flat outside. */
  gradient(top: Rgb, bottom: Rgb, y0 = 0, y1 = 1): void {
    const from = Math.round(y0 * this.height);
    const to = Math.max(from + 1, Math.round(y1 * this.height));
    for (let y = from; y < Math.min(to, this.height); y++) {
      const t = (y - from) / (to - from);
      const c: Rgb = [
        top[0] + (bottom[0] - top[0]) * t,
        top[1] + (bottom[1] - top[1]) * t,
        top[2] + (bottom[2] - top[2]) * t,
      ];
      this.span(y, 0, this.width, c);
    }
  }

  rect(x0: number, y0: number, x1: number, y1: number, c: Rgb): void {
    const ys = this.clampY(y0);
    const ye = this.clampY(y1);
    const xs = this.clampX(x0);
    const xe = this.clampX(x1);
    for (let y = ys; y < ye; y++) this.span(y, xs, xe, c);
  }

  /** A disc at (cx, cy) (fractions of width and height) with radius r (a fraction of the shorter side). */
  circle(cx: number, cy: number, r: number, c: Rgb): void {
    const px = cx * this.width;
    const py = cy * this.height;
    const pr = r * Math.min(this.width, this.height);
    const ys = Math.max(0, Math.floor(py - pr));
    const ye = Math.min(this.height, Math.ceil(py + pr));
    for (let y = ys; y < ye; y++) {
      const dy = y + 0.5 - py;
      const half = Math.sqrt(Math.max(0, pr * pr - dy * dy));
      this.span(y, Math.max(0, Math.round(px - half)), Math.min(this.width, Math.round(px + half)), c);
    }
  }

  /** A triangle pointing up: base from x0 to x1 at y1, apex at the middle at y0. */
  peak(x0: number, x1: number, y0: number, y1: number, c: Rgb): void {
    const top = this.clampY(y0);
    const bottom = this.clampY(y1);
    for (let y = top; y < bottom; y++) {
      const t = (y - top) / Math.max(1, bottom - top);
      const mid = (x0 + x1) / 2;
      const half = ((x1 - x0) / 2) * t;
      this.span(y, this.clampX(mid - half), this.clampX(mid + half), c);
    }
  }

  private clampX = (x: number) => Math.max(0, Math.min(this.width, Math.round(x * this.width)));
  private clampY = (y: number) => Math.max(0, Math.min(this.height, Math.round(y * this.height)));

  private span(y: number, x0: number, x1: number, c: Rgb): void {
    const r = Math.round(c[0]);
    const g = Math.round(c[1]);
    const b = Math.round(c[2]);
    let i = (y * this.width + x0) * 3;
    for (let x = x0; x < x1; x++, i += 3) {
      this.data[i] = r;
      this.data[i + 1] = g;
      this.data[i + 2] = b;
    }
  }
}
