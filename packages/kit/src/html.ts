/** HTML built from tagged templates: every interpolated value is escaped unless it is already `Html`. */
export class Html {
  constructor(readonly text: string) {}
  toString() {
    return this.text;
  }
}

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

type Part = Html | string | number | boolean | null | undefined | readonly Part[];

function render(part: Part): string {
  if (part === null || part === undefined || part === false) return '';
  if (part instanceof Html) return part.text;
  if (Array.isArray(part)) return part.map(render).join('');
  return escapeHtml(String(part));
}

export function html(strings: TemplateStringsArray, ...values: Part[]): Html {
  let out = strings[0]!;
  values.forEach((value, i) => {
    out += render(value) + strings[i + 1]!;
  });
  return new Html(out);
}

const STYLE = `
*{box-sizing:border-box}body{font:16px/1.5 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:0;background:#f5f5f2;color:#1d232a}
main{max-width:34rem;margin:3rem auto;padding:2rem;background:#fff;border-radius:12px;box-shadow:0 1px 4px #0002}
main.wide{max-width:56rem}h1{font-size:1.5rem;margin-top:0}label{display:block;margin:.8rem 0 .2rem;font-weight:600}
input[type=text],input[type=email],input[type=password],input[type=url],textarea{width:100%;padding:.55rem;border:1px solid #99a;border-radius:6px;font:inherit}
button{font:inherit;padding:.55rem 1.1rem;border-radius:6px;border:1px solid #235;background:#235;color:#fff;cursor:pointer;margin:.8rem .4rem 0 0}
button.secondary{background:#fff;color:#235}button:focus-visible,a:focus-visible,input:focus-visible{outline:3px solid #f90;outline-offset:2px}
.error{background:#fde8e8;border:1px solid #c33;padding:.6rem .8rem;border-radius:6px}.note{color:#555;font-size:.92rem}
.secret{font-family:ui-monospace,monospace;background:#fff6d6;border:1px dashed #b90;padding:.6rem;word-break:break-all}
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.4rem;border-bottom:1px solid #ddd;vertical-align:top}
nav{display:flex;gap:1rem;justify-content:flex-end;font-size:.92rem}ul.permissions li{margin:.3rem 0}
`;

export function page(title: string, body: Html, options: { wide?: boolean; nav?: Html } = {}): string {
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · Cairn</title><style>${new Html(STYLE)}</style></head>
<body><main class="${options.wide ? 'wide' : ''}">${options.nav ?? ''}${body}</main></body></html>`.text;
}
