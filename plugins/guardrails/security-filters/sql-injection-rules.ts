// SQL injection rules: tautologies after a quote breakout, UNION SELECT, time delays, stacked queries, dangerous procedures.
import type { PatternRule } from './filter-rule.js';

/** SQL whitespace as injections write it: blanks, encoded line breaks, `+` (URL space) and inline comments. */
const WS = String.raw`(?:[\s\uE00A+]|/\*[^*]{0,40}\*/)`;

/** The same within one line: a condition and the comment that ends it sit on one line. */
const LINE_WS = String.raw`(?:[ \t+]|/\*[^*\n]{0,40}\*/)`;

/**
 * Blanks after a comparison's left operand. Only when the operand is not itself empty after blanks: with an empty
 * operand the blanks before it already took them, and a second run of blanks over the same characters made the
 * search polynomial (cubic) on `' or` followed by a long run of spaces.
 */
const AFTER_OPERAND = String.raw`(?:(?<!\s)\s+)?`;

/**
 * A GRANT's object (`*.*`, `db.table`): no blank, no `+` (a URL-encoded blank) and no comment, so it cannot share
 * characters with the blanks around it (each split of a run of `+` between them was tried, cubic on long runs).
 */
const OBJECT = String.raw`[^\s\uE00A+/]+`;

/** Boolean operators that start an injected condition. */
const BOOL = String.raw`(?:or|and|xor|\|\||&&)(?![a-z0-9_])`;

const re = (source: string): RegExp => new RegExp(source, 'gi');

/** The two operands of a comparison are the same value (`1=1`, `'a'='a`, `''=''`) or the comparison of two numbers holds. */
function tautologyScore(match: RegExpExecArray): number {
  const [, leftQuote = '', left = '', operator = '', rightQuote = '', right = ''] = match;
  if ((left === '' && leftQuote === '') || (right === '' && rightQuote === '')) return 0;
  if (/^(?:=|<=>|like)$/i.test(operator)) return left === right ? 0.85 : 0;
  const [a, b] = [Number(left), Number(right)];
  if (left === '' || right === '' || Number.isNaN(a) || Number.isNaN(b)) return 0;
  const holds = operator === '<' ? a < b : operator === '>' ? a > b : a !== b;
  return holds ? 0.75 : 0;
}

/** `sleep(n)` counts when SQL surrounds it (a boolean, ORDER BY, SELECT, a comma list, a comment); elsewhere it is code. */
function sleepScore(match: RegExpExecArray): number {
  const input = match.input;
  const before = input.slice(Math.max(0, match.index - 12), match.index).toLowerCase();
  const after = input.slice(match.index + match[0].length, match.index + match[0].length + 12);
  const sqlBefore = /(?:\bor|\band|\bxor|&&|\|\||\bby|\bselect|\bif|[,(]|['"])\s*$/.test(before);
  const sqlAfter = /^\s*(?:--|#|\/\*|\)|,|(?:or|and)\b)/i.test(after);
  return sqlBefore || sqlAfter ? 0.8 : 0.3;
}

/** The SQL injection rules, read on the decoded text. */
export const SQL_INJECTION_RULES: readonly PatternRule[] = [
  {
    id: 'sql.tautology',
    pattern: re(
      String.raw`(?:^|[\s'"\x60)(\uE00A+]|/\*[^*]{0,40}\*/)${BOOL}${WS}*(?:\(+\s*)?(['"]?)([\w@.$-]{0,20})\1\)*${AFTER_OPERAND}(=|<=>|\blike\b|<>|!=|<|>)\s*(?:\(+\s*)?(['"]?)([\w@.$-]{0,20})`,
    ),
    score: tautologyScore,
    hints: ['or', 'and', '||', '&&'],
  },
  {
    // A quote closes the string, a short condition follows, and a comment cuts off the rest of the query.
    id: 'sql.boolean_comment',
    pattern: re(
      String.raw`['"]\)*[ \t]*${BOOL}[ \t]*(?:\(+[ \t]*)?(?:['"]?[\w@.]{1,20}['"]?[ \t]*[=<>!]{1,2}[ \t]*['"]?[\w@.]{1,20}['"]?|true|false|not[ \t]+\w+|\d+)[ \t]*(?:\)+[ \t]*)?(?:--|#|/\*)`,
    ),
    score: 0.8,
    hints: ['--', '#', '/*'],
  },
  {
    id: 'sql.boolean_comment',
    pattern: re(String.raw`\b(?:and|or)${LINE_WS}+(?:\d+[ \t]*[=<>][ \t]*\d+|true|false)[ \t]*(?:--|#|/\*)`),
    score: 0.75,
    hints: ['--', '#', '/*'],
  },
  {
    // Error-based extraction (`extractvalue(1, concat(0x7e, …))`), HAVING and CASE probes, subqueries glued to strings.
    id: 'sql.error_based',
    pattern: re(
      String.raw`\b(?:extractvalue|updatexml)\s*\(\s*\w+\s*,\s*concat\s*\(|\bconcat\s*\(\s*0x7e\b|\bhaving${WS}+(\d+)\s*=\s*\1\b|\bcase${WS}+when${WS}*(?:\(\s*)?(\d+)\s*=\s*\2\b|\brlike${WS}*\(\s*select\b|'\s*\|\|\s*\(\s*select\b`,
    ),
    score: 0.8,
    hints: ['extractvalue', 'updatexml', 'concat', 'having', 'case', 'rlike', '||'],
  },
  {
    // A quote closes the string, then `or ''-'`: an always-true expression built from empty strings.
    id: 'sql.tautology',
    pattern: /['"][ \t]*or[ \t]+(['"])\1(?:[ \t]*[-&^*+|][ \t]*|\t*[ ][ \t]*)\1/gi,
    score: 0.75,
    hints: ['or'],
  },
  {
    // A word, a closing quote and a comment that cuts off the rest of the query, at the end of the text (`admin' --`).
    id: 'sql.comment_truncation',
    pattern: /\w(['"])[ \t]?(?:--|#|\/\*)[ \t]*$/g,
    // Only an unbalanced quote breaks out: `'HIGH:MEDIUM' #` in a config file opens and closes its string.
    score: (match) => {
      const line = match.input.slice(match.input.lastIndexOf('\n', match.index) + 1, match.index + 2);
      return line.split(match[1] ?? "'").length % 2 === 0 ? 0.6 : 0;
    },
    hints: ['--', '#', '/*'],
  },
  { id: 'sql.union_select', pattern: re(String.raw`\bunion${WS}+(?:(?:all|distinct)${WS}+)?(?:\(${WS}*)?select(?![a-z_])`), score: 0.85, hints: ['union'] },
  { id: 'sql.time_delay', pattern: re(String.raw`\bwaitfor${WS}+delay${WS}+['"]?\d`), score: 0.9, hints: ['waitfor'] },
  { id: 'sql.time_delay', pattern: re(String.raw`\bbenchmark\s*\(\s*\d{4,}\s*,`), score: 0.85, hints: ['benchmark'] },
  { id: 'sql.time_delay', pattern: re(String.raw`\b(?:pg_sleep\s*\(\s*\d|dbms_lock\.sleep\s*\(|dbms_pipe\.receive_message\s*\()`), score: 0.85, hints: ['sleep', 'dbms_pipe'] },
  { id: 'sql.time_delay', pattern: re(String.raw`(?<![\w.$>:])sleep\s*\(\s*\d+\s*\)`), score: sleepScore, hints: ['sleep'] },
  {
    id: 'sql.dangerous_procedure',
    pattern: re(
      String.raw`\b(?:xp_cmdshell|xp_reg(?:read|write)|xp_dirtree|xp_fileexist|sp_addsrvrolemember|sp_addlogin|sp_configure|sp_oacreate|sp_oamethod|sp_password|sp_makewebtask|sp_execute_external_script)\b|\bexec(?:ute)?${WS}+(?:master\.(?:dbo)?\.)?(?:xp|sp)_\w*`,
    ),
    score: 0.85,
    hints: ['xp_', 'sp_'],
  },
  {
    // Server variables read inside a query (`select @@version`, `(@@version,1,1)`); alone, `@@version` is also a build placeholder.
    id: 'sql.fingerprint',
    pattern: re(String.raw`(\bselect${WS}+|[(,]\s*)?@@(?:version|servername|hostname|datadir|basedir|spid)`),
    score: (match) => (match[1] ? 0.75 : 0.4),
    hints: ['@@'],
  },
  {
    id: 'sql.fingerprint',
    pattern: re(
      String.raw`\bselect${WS}+(?:version|user|current_user|session_user|system_user|database|current_database|schema|current_schema)(?:\s*\(\s*\)|(?=\s*(?:;|--|#|$)))|\bcurrent_setting\s*\(\s*'`,
    ),
    score: 0.6,
    hints: ['select', 'current_setting'],
  },
  {
    id: 'sql.system_catalog',
    pattern: re(
      String.raw`(\b(?:from|join)${WS}+)?\b(?:master\.\.sys\w+|information_schema\.\w+|sys\.(?:user\$|all_\w+|dba_\w+|sql_logins|syslogins)|mysql\.user|pg_shadow|sqlite_master|all_tab_columns|dba_role_privs|sysobjects|syscolumns|msysobjects)\b`,
    ),
    score: (match) => (match[1] ? 0.7 : 0.35),
    hints: ['sys', 'information_schema', 'mysql.user', 'pg_shadow', 'sqlite_master', 'all_tab', 'dba_'],
  },
  {
    id: 'sql.out_of_band',
    pattern: re(
      String.raw`\butl_(?:inaddr|http|file|tcp)\.|\bload_file\s*\(\s*(?:['"]|0x)|\binto${WS}+(?:out|dump)file\b|\bload${WS}+data${WS}+(?:local${WS}+)?infile\b|\bopen(?:rowset|datasource)\s*\(|\bbackup${WS}+database${WS}+\w+${WS}+to${WS}+disk`,
    ),
    score: 0.85,
    hints: ['utl_', 'load_file', 'outfile', 'dumpfile', 'infile', 'openrowset', 'opendatasource', 'backup'],
  },
  {
    // A quote closes the string and a second statement follows.
    id: 'sql.stacked_query',
    pattern: re(
      String.raw`['"]\)*[ \t]*;[ \t]*(?:(?:drop|create|alter|truncate)${WS}+(?:table|user|database|procedure|function|view|login|schema)\b|insert${WS}+into\b|update${WS}+\w+${WS}+set\b|delete${WS}+from\b|exec(?:ute)?${WS}+\w|shutdown\b|(?:grant|revoke)${WS}+\w+${WS}+(?:on|to)\b|declare${WS}+@|waitfor${WS}+delay\b)`,
    ),
    score: 0.8,
    hints: [';'],
  },
  {
    // A statement right after a quote: weak alone (SQL strings in documentation), telling next to a privilege change.
    id: 'sql.quoted_statement',
    pattern: re(String.raw`['"]\s*(?:create|grant|drop|exec)${WS}+(?:user|table|database|connect|resource|dba|master|sp_|xp_)`),
    score: 0.35,
    hints: ['create', 'grant', 'drop', 'exec'],
  },
  {
    id: 'sql.privilege_change',
    pattern: re(
      String.raw`\bcreate${WS}+user${WS}+\w+${WS}+identified${WS}+by\b|\bgrant${WS}+(?:connect|resource|dba|sysadmin|all${WS}+privileges)${WS}+(?:on${WS}+${OBJECT}${WS}+)?to${WS}+\w+`,
    ),
    score: 0.5,
    hints: ['create', 'grant'],
  },
  { id: 'sql.order_by_probe', pattern: re(String.raw`\border${WS}+by${WS}+\d+(?!\d)[^\n]{0,120}?(?:--|#|/\*)`), score: 0.75, hints: ['order'] },
  {
    // MySQL's versioned comment `/*!50000 …*/`, or a quote hidden in a comment right after a number (`1/*'*/`).
    id: 'sql.inline_comment',
    pattern: /\/\*!\d{4,6}|\d\/\*!?\d{0,6}['"]\*\//g,
    score: 0.65,
    hints: ['/*'],
  },
  { id: 'sql.string_concat', pattern: /'\s*\|\|\s*'[^'\n]{0,20}'\s*\|\|\s*'/g, score: 0.6, hints: ['||'] },
  {
    id: 'sql.char_encoding',
    pattern: re(String.raw`\b(?:n?char|chr)\s*\(\s*\d{2,3}\s*\)(?:\s*(?:\+|\|\||,|&)\s*(?:n?char|chr)\s*\(\s*\d{2,3}\s*\)){3,}`),
    score: 0.75,
    hints: ['char(', 'chr('],
  },
  {
    id: 'sql.subquery_comparison',
    pattern: re(String.raw`\b(?:and|or)${WS}+\d+\s*=\s*(?:\(\s*)*(?:select|convert|cast|utl_\w+|ascii|substr(?:ing)?|length|count)\b`),
    score: 0.75,
    hints: ['and', 'or'],
  },
];
