// XML: values of the parsed XML body selected by XPath. CRS uses `XML:/*` (the document's text
// content) and `XML://@*` (every attribute value); those two forms are supported.
// Example: SecRule XML:/* "@rx <script" "id:1,phase:2"
import type { Entry, VariableDef } from '../types.ts';

export const XML_SELECTORS = new Set(['/*', '//@*']);

export const XML: VariableDef = {
  name: 'XML',
  kind: 'collection',
  entries(tx): readonly Entry[] {
    if (!tx.xml) return [];
    return [{ key: '', value: tx.xml.root }];
  },
  byKey(tx, key): readonly Entry[] {
    if (!tx.xml) return [];
    if (key === '/*') return [{ key: '', value: tx.xml.root }];
    if (key === '//@*') return tx.xml.attributes.map((value) => ({ key: '', value }));
    return [];
  },
};
