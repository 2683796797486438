// What makes markup dangerous for the XSS detector: tags that run or load code, attributes that
// take script or a URL, URL schemes that execute. Names are lower-case.

/** Start tags that execute, embed or re-base content. */
export const DANGEROUS_TAGS: ReadonlySet<string> = new Set([
  'applet',
  'base',
  'bgsound',
  'embed',
  'frame',
  'frameset',
  'iframe',
  'ilayer',
  'import',
  'isindex',
  'layer',
  'link',
  'meta',
  'object',
  'script',
  'style',
  'svg',
  'vmlframe',
  'xml',
  'xsl',
  'xss',
]);

/** Attributes whose value is fetched or navigated to. */
export const URL_ATTRIBUTES: ReadonlySet<string> = new Set([
  'action',
  'background',
  'by',
  'cite',
  'codebase',
  'data',
  'dynsrc',
  'formaction',
  'from',
  'href',
  'icon',
  'longdesc',
  'lowsrc',
  'manifest',
  'ping',
  'poster',
  'profile',
  'src',
  'srcset',
  'to',
  'usemap',
  'values',
  'xlink:href',
  'xml:base',
]);

/** URL schemes that run script or inline a document. */
export const DANGEROUS_SCHEMES: readonly string[] = [
  'javascript:',
  'vbscript:',
  'livescript:',
  'mocha:',
  'data:',
];

/** Fragments of CSS that run script or fetch code. */
export const DANGEROUS_STYLE: readonly string[] = [
  'expression(',
  'url(',
  'javascript:',
  'vbscript:',
  'behavior:',
  '-moz-binding',
  '@import',
];

const STYLE_HINT = /[(:@\\&-]/;

/** `<!…>` declarations of a document type (entity tricks). */
export const DANGEROUS_DECLARATIONS: readonly string[] = [
  'doctype',
  'entity',
  'element',
  'attlist',
  'notation',
];

// Named character references that hide a scheme's letters or separators.
const NAMED_REFERENCES: Record<string, string> = {
  tab: '\t',
  newline: '\n',
  colon: ':',
  lpar: '(',
  rpar: ')',
  sol: '/',
  bsol: '\\',
  amp: '&',
  quot: '"',
  apos: "'",
  lt: '<',
  gt: '>',
  nbsp: ' ',
};

/** Decodes character references (`&#106;`, `&#x6A`, `&colon;`), lenient like browsers. */
export function decodeReferences(value: string): string {
  if (!value.includes('&')) return value;
  return value.replace(
    /&(?:#[xX]([0-9a-fA-F]{1,8})|#([0-9]{1,9})|([a-zA-Z]{2,8}));?/g,
    (whole, hex, dec, name) => {
      if (hex !== undefined || dec !== undefined) {
        const code = hex !== undefined ? Number.parseInt(hex, 16) : Number.parseInt(dec, 10);
        return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '';
      }
      return NAMED_REFERENCES[(name as string).toLowerCase()] ?? whole;
    },
  );
}

/** Lower-case value without spaces and control characters, which browsers skip inside schemes. */
function squeeze(value: string): string {
  let out = '';
  for (let i = 0; i < value.length && out.length < 64; i++) {
    const c = value.charCodeAt(i);
    if (c > 32 && c !== 127) out += value[i]!.toLowerCase();
  }
  return out;
}

export function hasDangerousScheme(value: string): boolean {
  const squeezed = squeeze(decodeReferences(value.length > 256 ? value.slice(0, 256) : value));
  return DANGEROUS_SCHEMES.some((scheme) => squeezed.startsWith(scheme));
}

export function hasDangerousStyle(value: string): boolean {
  if (!STYLE_HINT.test(value)) return false; // every fragment has one of these characters
  const lower = decodeReferences(value.length > 512 ? value.slice(0, 512) : value)
    .toLowerCase()
    .replace(/\/\*[\s\S]*?\*\/|\\|\s+/g, '');
  return DANGEROUS_STYLE.some((fragment) => lower.includes(fragment));
}

// Event-handler attribute names without the "on" (HTML, SVG, DOM, legacy IE).
const EVENTS: ReadonlySet<string> = new Set(
  [
    'abort activate afterprint afterscriptexecute afterupdate animationcancel animationend',
    'animationiteration animationstart auxclick beforeactivate beforecopy beforecut',
    'beforedeactivate beforeeditfocus beforeinput beforematch beforepaste beforeprint',
    'beforescriptexecute beforetoggle beforeunload beforeupdate begin blur bounce cancel',
    'canplay canplaythrough cellchange change click close contentvisibilityautostatechange',
    'contextlost contextmenu contextrestored controlselect copy cuechange cut dataavailable',
    'datasetchanged datasetcomplete dblclick deactivate drag dragdrop dragend dragenter',
    'dragexit dragleave dragover dragstart drop durationchange emptied end ended error',
    'errorupdate filterchange finish focus focusin focusout formdata fullscreenchange',
    'fullscreenerror gotpointercapture hashchange help input invalid keydown keypress keyup',
    'layoutcomplete load loadeddata loadedmetadata loadend loadstart losecapture',
    'lostpointercapture message messageerror mousedown mouseenter mouseleave mousemove',
    'mouseout mouseover mouseup mousewheel move moveend movestart offline online',
    'orientationchange pagehide pageshow paste pause play playing pointercancel pointerdown',
    'pointerenter pointerleave pointermove pointerout pointerover pointerrawupdate pointerup',
    'popstate progress propertychange ratechange readystatechange repeat reset resize',
    'resizeend resizestart rowenter rowexit rowsdelete rowsinserted scroll scrollend',
    'search securitypolicyviolation seeked seeking select selectionchange selectstart',
    'show slotchange stalled start storage submit suspend timeout timeupdate toggle',
    'touchcancel touchend touchmove touchstart transitioncancel transitionend',
    'transitionrun transitionstart unhandledrejection unload volumechange waiting wheel zoom',
  ]
    .join(' ')
    .split(' '),
);

// Families of handler names that grow with new specifications.
const EVENT_FAMILIES: readonly string[] = [
  'mouse',
  'key',
  'touch',
  'pointer',
  'drag',
  'animation',
  'transition',
  'webkit',
  'moz',
  'ms',
];

/** on* event-handler attributes (onload, onerror, onbegin, onwebkitanimationend…). */
export function isEventHandler(name: string): boolean {
  if (name.length < 5 || name.charCodeAt(0) !== 111 || name.charCodeAt(1) !== 110) return false;
  const event = name.slice(2);
  return EVENTS.has(event) || EVENT_FAMILIES.some((family) => event.startsWith(family));
}

/** A dangerous attribute; `hasValue` is false for a bare name (`<b onclick>`). */
export function isDangerousAttribute(name: string, value: string, hasValue: boolean): boolean {
  if (!hasValue) return false;
  if (isEventHandler(name)) return true;
  if (name.startsWith('xmlns')) return true;
  if (name === 'style') return hasDangerousStyle(value);
  if (name === 'srcdoc') return value.includes('<');
  return URL_ATTRIBUTES.has(name) && hasDangerousScheme(value);
}

export function isDangerousTag(name: string): boolean {
  if (DANGEROUS_TAGS.has(name)) return true;
  const colon = name.indexOf(':'); // x:script in an XML namespace
  return colon !== -1 && DANGEROUS_TAGS.has(name.slice(colon + 1));
}
