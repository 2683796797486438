/** Case-, accent- and punctuation-insensitive form of a name: "Sant Julià de Lòria" → "sant julia de loria". */
export function normalizeName(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}
