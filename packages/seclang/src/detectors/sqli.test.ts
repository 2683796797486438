import { describe, expect, it } from 'vitest';
import { detectSQLi } from './sqli.ts';

// CRS v3.3.4 regression payloads for 942100/942101, after t:urlDecodeUni.
const CRS_ATTACKS = [
  '1234 OR 1=1',
  "-1839' or '1'='1",
  '-1839" or "1"="2',
  "2010-01-01'+sleep(20.to_i)+'",
  "EmptyValue' and 526=527",
  "foo') UNION ALL select NULL --",
  "foo')waitfor delay'5:0:20'--",
  "JKGHUKGDI8TDHLFJH72FZLFJSKFH' and sleep(12) --",
  "/path/to/file/unitests.txt') UNION ALL select NULL --",
  "1'||(select extractvalue(xmltype('<?xml version",
  'sleep(20)',
  'unittests@coreruleset.org" sleep(10.to_i) "',
  '" | type %SystemDrive%\\\\config.ini | "',
  '"unittests@coreruleset.org"\')) and (select*from(select(sleep(5)))x) --',
];

const BENIGN = [
  "O'Brien",
  'select a color',
  'john@example.com',
  '{"a":1,"b":"x"}',
  '2024-01-01',
  '$19.99',
  "it's a dog's life",
  'http://example.com/a?b=c',
];

describe('detectSQLi', () => {
  it.each(CRS_ATTACKS)('flags CRS payload %s', (payload) => {
    expect(detectSQLi(payload).match).toBe(true);
  });

  it.each(BENIGN)('passes benign %s', (text) => {
    expect(detectSQLi(text)).toEqual({ match: false });
  });
});
