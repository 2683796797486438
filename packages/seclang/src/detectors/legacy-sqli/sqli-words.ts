// SQL word table for the SQLi detector: lower-case word → token class.
// Classes (see sqli-tokenizer.ts): q statement, u set operator, g having/limit,
// k clause keyword, l logic, i comparison word, a arithmetic word, n literal, v value keyword,
// f function (only when "(" follows at once), F distinctive function ("(" may follow after spaces).
// Written from the MySQL, PostgreSQL, SQL Server, Oracle and SQLite manuals; a word absent here is
// an identifier (class w).

export type WordClass = 'q' | 'u' | 'g' | 'k' | 'l' | 'i' | 'a' | 'n' | 'v' | 'f' | 'F';

const STATEMENTS = [
  'alter',
  'backup',
  'call',
  'create',
  'dbcc',
  'declare',
  'delete',
  'drop',
  'exec',
  'execute',
  'grant',
  'handler',
  'insert',
  'kill',
  'merge',
  'rename',
  'restore',
  'revoke',
  'select',
  'shutdown',
  'truncate',
  'update',
  'upsert',
  'waitfor',
  'xp_cmdshell',
  'sp_executesql',
  'sp_configure',
  'sp_oacreate',
  'sp_makewebtask',
];

const SET_OPERATORS = ['union', 'intersect', 'except'];

// Clauses that may follow a complete query: 1 order by 5, x' having 1=1, 1 limit 1.
const TAIL_CLAUSES = ['having', 'limit'];

const CLAUSE_KEYWORDS = [
  'all',
  'analyse',
  'any',
  'as',
  'asc',
  'begin',
  'case',
  'collate',
  'column',
  'columns',
  'cross',
  'database',
  'databases',
  'delay',
  'desc',
  'distinct',
  'distinctrow',
  'dumpfile',
  'else',
  'elseif',
  'end',
  'exists',
  'fetch',
  'for',
  'from',
  'full',
  'index',
  'infile',
  'information_schema',
  'inner',
  'interval',
  'into',
  'join',
  'lock',
  'natural',
  'offset',
  'on',
  'outer',
  'outfile',
  'pg_catalog',
  'procedure',
  'rownum',
  'schema',
  'set',
  'some',
  'straight_join',
  'sysobjects',
  'syscolumns',
  'table',
  'tables',
  'then',
  'top',
  'using',
  'values',
  'when',
  'where',
  'while',
  'with',
];

const LOGIC = ['and', 'or', 'xor'];

const COMPARISON_WORDS = ['between', 'glob', 'ilike', 'in', 'is', 'like', 'regexp', 'rlike'];

// NOT is a prefix operator like unary minus: `x' or not 1=2` folds to `x' or 1=2`.
const ARITHMETIC_WORDS = ['div', 'mod', 'not'];

const LITERALS = ['false', 'null', 'true', 'unknown'];

const VALUE_KEYWORDS = [
  'current_date',
  'current_time',
  'current_timestamp',
  'current_user',
  'localtime',
  'localtimestamp',
  'session_user',
  'system_user',
  'utc_date',
  'utc_time',
  'utc_timestamp',
];

const FUNCTIONS = [
  'abs',
  'acos',
  'aes_decrypt',
  'aes_encrypt',
  'array_agg',
  'ascii',
  'asin',
  'atan',
  'atan2',
  'avg',
  'bin',
  'bit_and',
  'bit_count',
  'bit_length',
  'bit_or',
  'bit_xor',
  'cast',
  'ceil',
  'ceiling',
  'char',
  'char_length',
  'character_length',
  'charindex',
  'chr',
  'coalesce',
  'compress',
  'concat',
  'concat_ws',
  'connection_id',
  'conv',
  'convert',
  'cos',
  'cot',
  'count',
  'crc32',
  'curdate',
  'current_database',
  'current_schema',
  'curtime',
  'database',
  'date',
  'date_add',
  'date_format',
  'date_sub',
  'datediff',
  'day',
  'db_name',
  'decode',
  'degrees',
  'des_decrypt',
  'des_encrypt',
  'elt',
  'encode',
  'encrypt',
  'exists',
  'exp',
  'export_set',
  'field',
  'file_name',
  'find_in_set',
  'floor',
  'format',
  'found_rows',
  'from_base64',
  'from_unixtime',
  'greatest',
  'group_concat',
  'hex',
  'host_name',
  'hour',
  'if',
  'ifnull',
  'iif',
  'inet_aton',
  'inet_ntoa',
  'insert',
  'instr',
  'is_srvrolemember',
  'isnull',
  'json_extract',
  'json_keys',
  'last_insert_id',
  'lcase',
  'least',
  'left',
  'len',
  'length',
  'ln',
  'locate',
  'log',
  'log10',
  'log2',
  'lower',
  'lpad',
  'ltrim',
  'make_set',
  'max',
  'md5',
  'mid',
  'min',
  'minute',
  'mod',
  'month',
  'nchar',
  'now',
  'nullif',
  'nvl',
  'object_id',
  'oct',
  'octet_length',
  'old_password',
  'ord',
  'password',
  'pi',
  'position',
  'pow',
  'power',
  'quote',
  'quotename',
  'radians',
  'rand',
  'random',
  'rawtohex',
  'repeat',
  'replace',
  'replicate',
  'reverse',
  'right',
  'round',
  'row_count',
  'rpad',
  'rtrim',
  'schema',
  'sec_to_time',
  'second',
  'sha',
  'sha1',
  'sha2',
  'sign',
  'sin',
  'soundex',
  'space',
  'sqrt',
  'std',
  'stddev',
  'str',
  'strcmp',
  'string_agg',
  'stuff',
  'substr',
  'substring',
  'substring_index',
  'sum',
  'suser_name',
  'sysdate',
  'system_user',
  'tan',
  'to_base64',
  'to_char',
  'to_number',
  'trim',
  'truncate',
  'typeof',
  'ucase',
  'uncompress',
  'unhex',
  'unicode',
  'upper',
  'user',
  'user_name',
  'uuid',
  'version',
  'week',
  'year',
];

// Functions that hardly occur outside SQL: matched even with spaces before "(".
const DISTINCTIVE_FUNCTIONS = [
  'benchmark',
  'dbms_pipe',
  'extractvalue',
  'geometrycollection',
  'get_lock',
  'gtid_subset',
  'linestring',
  'load_file',
  'multilinestring',
  'multipoint',
  'multipolygon',
  'name_const',
  'opendatasource',
  'openquery',
  'openrowset',
  'pg_read_file',
  'pg_sleep',
  'polygon',
  'randomblob',
  'sleep',
  'sqlite_version',
  'updatexml',
  'utl_http',
  'utl_inaddr',
  'xmltype',
];

function build(): Map<string, WordClass> {
  const map = new Map<string, WordClass>();
  const add = (words: readonly string[], cls: WordClass): void => {
    for (const word of words) map.set(word, cls);
  };
  // Later lists win: a word that is both a keyword and a function keeps the function class
  // only when "(" follows; the tokenizer asks FUNCTION_WORDS for that.
  add(CLAUSE_KEYWORDS, 'k');
  add(VALUE_KEYWORDS, 'v');
  add(LITERALS, 'n');
  add(ARITHMETIC_WORDS, 'a');
  add(TAIL_CLAUSES, 'g');
  add(COMPARISON_WORDS, 'i');
  add(LOGIC, 'l');
  add(SET_OPERATORS, 'u');
  add(STATEMENTS, 'q');
  add(DISTINCTIVE_FUNCTIONS, 'F');
  return map;
}

// Two-word keywords (the gap between may hold spaces and /* comments */): first → second → class.
const COMPOUNDS: Record<string, Record<string, string>> = {
  union: { all: 'u', distinct: 'u' },
  order: { by: 'b' },
  group: { by: 'b' },
  procedure: { analyse: 'b' },
  waitfor: { delay: 't', time: 't' },
  into: { outfile: 'e', dumpfile: 'e' },
  not: { like: 'i', in: 'i', between: 'i', regexp: 'i', rlike: 'i', ilike: 'i', similar: 'i' },
  sounds: { like: 'i' },
  similar: { to: 'i' },
  is: { not: 'i' },
};

export const COMPOUND_WORDS: ReadonlyMap<string, ReadonlyMap<string, string>> = new Map(
  Object.entries(COMPOUNDS).map(([first, seconds]) => [first, new Map(Object.entries(seconds))]),
);

/** Word classes, without plain functions (see FUNCTION_WORDS). */
export const SQL_WORDS: ReadonlyMap<string, WordClass> = build();

/** Words that are function calls when "(" follows at once (MySQL's default IGNORE_SPACE=off). */
export const FUNCTION_WORDS: ReadonlySet<string> = new Set([...FUNCTIONS, ...DISTINCTIVE_FUNCTIONS]);

/** Longest entry, so the tokenizer skips the lookup for longer words. */
export const LONGEST_WORD = Math.max(
  ...[...SQL_WORDS.keys()].map((w) => w.length),
  ...[...FUNCTION_WORDS].map((w) => w.length),
);

// (first letter, length) pairs of all entries: most identifiers fail this test, which is much
// cheaper than lower-casing the word and looking it up.
const SHAPES = new Uint8Array(27 * (LONGEST_WORD + 1));

function shapeIndex(first: number, length: number): number {
  const letter = first | 32;
  const row = letter >= 97 && letter <= 122 ? letter - 97 : first === 95 ? 26 : -1;
  return row < 0 || length > LONGEST_WORD ? -1 : row * (LONGEST_WORD + 1) + length;
}

for (const word of [
  ...SQL_WORDS.keys(),
  ...FUNCTION_WORDS,
  ...COMPOUND_WORDS.keys(),
  'n',
  'x',
  'b',
  'e',
  '_utf8',
  '_latin1',
]) {
  SHAPES[shapeIndex(word.charCodeAt(0), word.length)] = 1;
}

/** False when no table entry has this word's first letter and length. */
export function mayBeListed(s: string, start: number, end: number): boolean {
  const index = shapeIndex(s.charCodeAt(start), end - start);
  return index >= 0 && SHAPES[index] === 1;
}
