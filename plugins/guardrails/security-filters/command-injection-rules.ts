// Command injection rules: commands chained after shell separators, substitution, code-exec calls, SSI, shellshock, reverse shells.
import type { PatternRule } from './filter-rule.js';

const re = (source: string): RegExp => new RegExp(source, 'g');

/**
 * Shell separators that start a new command inside a value: `;`, `|`, `&`, `&&`, `||`, an encoded line break, or a
 * literal `\n` escape. A real line break is not one (documentation and scripts put commands on their own lines),
 * and neither is `$(`, which shell scripts use everywhere; substitution has its own, narrower rule.
 */
const SEP = String.raw`(?:[;|&\uE00A]|\\[nr])`;
/** Blanks between words, as injections write them: spaces, tabs, `+` (URL space), `${IFS}`. */
const BLANK = String.raw`(?:[ \t+]|\$\{?IFS\}?)`;
/** Where a command invocation ends: the end, a blank or another separator, a quote or a closing bracket. */
const END = String.raw`(?=$|[\s;&|\x60'")\\\uE00A])`;

/** Reconnaissance commands that need no argument to be an attack, and that are rarely identifiers in code. */
const RECON = 'whoami|ifconfig|ipconfig|systeminfo|sysinfo|tasklist';
/** Reconnaissance commands whose names are also common identifiers: they count with an option (`uname -a`). */
const RECON_WITH_OPTION = String.raw`(?:uname|hostname|netstat)${BLANK}+-[a-zA-Z]+`;
/** Binaries an attack runs by absolute path after a spaced separator; scripts run many others (`&& /usr/bin/test`). */
const ATTACK_BINARY = 'id|whoami|uname|ls|cat|sh|bash|zsh|dash|nc|ncat|netcat|curl|wget|ping|perl|python[23]?';

/**
 * A command-line option (`-o`, `--data=x`): it ends where a blank starts, so a run of options and blanks splits one
 * way only (with any non-blank character allowed, `;curl+-+-+-…` was split every way: exponential).
 */
const OPTION = String.raw`-(?:[^\s+$]|\$(?!\{?IFS))+`;

/** Common commands, which count only with an argument shaped like an attack (a system path, a URL, a count). */
const WITH_ARGUMENTS = [
  String.raw`(?:ls|dir)${BLANK}+(?:-[a-zA-Z]+${BLANK}+)*(?:/|[A-Za-z]:\\|~)[^\s;&|]*`,
  String.raw`(?:cat|type|more|head|tail)${BLANK}+(?:/|[A-Za-z]:\\|%\w+%|~)[^\s;&|]*`,
  String.raw`ping${BLANK}+(?:-[a-z]${BLANK}+\d+${BLANK}+)*(?:\d{1,3}(?:\.\d{1,3}){3}|[\w-]+(?:\.[\w-]+)+)`,
  String.raw`(?:curl|wget)${BLANK}+(?:${OPTION}${BLANK}+)*https?://[^\s;&|]+`,
  String.raw`(?:nc|ncat|netcat)${BLANK}+-\w+`,
  String.raw`(?:sleep|timeout)${BLANK}+\d+(?=[ \t]*(?:$|[;&|\x60'")\uE00A]|\\n))`,
  String.raw`net${BLANK}+(?:users?|view|localgroup|share|use|start|stop|group|accounts|session)\b`,
  String.raw`netsh${BLANK}+\w+`,
  String.raw`(?:bash|sh|zsh|dash)${BLANK}+-[ci]\b`,
  String.raw`(?:perl|python[23]?|ruby|php|node)${BLANK}+-[ecr]\b`,
  String.raw`echo${BLANK}+[^;&|\n]{1,200}?>${BLANK}*[\w./-]+\.(?:php|pl|sh|jsp|aspx?|py|cgi)\b`,
  String.raw`rm${BLANK}+-[rf]{1,2}${BLANK}+[/~*]`,
  String.raw`(?:nslookup|dig)${BLANK}+[\w-]+(?:\.[\w-]+)+`,
  String.raw`certutil${BLANK}+-urlcache|bitsadmin${BLANK}+/transfer`,
  String.raw`reg(?:\.exe)?${BLANK}+(?:add|delete|query)${BLANK}+["']?HK`,
].join('|');

/** A `| command |` that is a cell of a Markdown table, not a pipe. */
function isTableCell(match: RegExpExecArray): boolean {
  if (!/^\s*\|[ \t]/.test(match[0])) return false;
  const rest = match.input.slice(match.index + match[0].length);
  const lineEnd = rest.indexOf('\n');
  return (lineEnd < 0 ? rest : rest.slice(0, lineEnd)).includes('|');
}

/** `|id|` inside a regex alternation such as `(?:name|id|type)`: words on both sides of the bars. */
function isAlternation(match: RegExpExecArray): boolean {
  const before = match.input[match.index - 1] ?? '';
  const after = match.input.slice(match.index + match[0].length, match.index + match[0].length + 2);
  return match[0].startsWith('|') && /[\w(]/.test(before) && /^(?:\)|\|[\w(])/.test(after);
}

/** A binary right after the separator (`;/usr/bin/id`) is an injection; after a blank only an attacker's tool. */
function binaryScore(match: RegExpExecArray): number {
  if (isTableCell(match) || isAlternation(match)) return 0;
  const tight = !/^\S+[ \t'"]/.test(match[0]) || /^\\[nr]/.test(match[0]);
  return tight || new RegExp(`/(?:${ATTACK_BINARY})$`).test(match[0]) ? 0.85 : 0;
}

/** `a || id;` and `x && dir` in (minified) code: a double operator right after an operand is code, not a shell. */
function isCodeOperator(match: RegExpExecArray): boolean {
  if (!/^(?:\|\||&&)/.test(match[0])) return false;
  return /[\w)\]]$/.test(match.input.slice(Math.max(0, match.index - 1), match.index));
}

/** Short commands that are also everyday words or variable names: they count only tight against separators. */
const TIGHT_COMMANDS = 'id|uname|hostname|pwd|ls|dir|whoami|ifconfig|ipconfig|netstat|sysinfo|systeminfo';

/** Functions that run a string as a command or as code. */
const EXEC_CALL = String.raw`(?:system|exec|shell_exec|passthru|popen|proc_open|eval|assert|pcntl_exec|os\.system|os\.popen)\s*\(\s*['"\x60]`;
/** What an attack runs through such a call: reconnaissance, a system file, a download, a shell or a delay. */
const ATTACK_COMMAND = String.raw`(?:(?:/usr)?/s?bin/|(?:id|whoami|pwd|uname|ifconfig|ipconfig|hostname)\b|(?:cat|type)\s+(?:/etc/|[a-z]:\\)|(?:curl|wget)\s|nc\s|(?:ba)?sh\s+-i|sleep\s+\d)`;

/** The command injection rules, read on the decoded text. */
export const COMMAND_INJECTION_RULES: readonly PatternRule[] = [
  {
    id: 'cmd.chained_recon',
    pattern: re(String.raw`(?:${SEP}|['"][ \t]+)${BLANK}*(?:/(?:usr/)?s?bin/)?(?:(?:${RECON})${END}|${RECON_WITH_OPTION})`),
    score: (match) => (isTableCell(match) ? 0 : 0.85),
    hints: [...RECON.split('|'), 'uname', 'hostname', 'netstat'],
  },
  {
    // Short commands that are common words (`id`, `pwd`, `dir`) count only in tight forms: `;id;`, `|uname|`, `&&pwd`,
    // alone between encoded line breaks, or after a separator at the very end of the text (`; dir`).
    id: 'cmd.chained_recon',
    pattern: re(
      String.raw`(?:\|\||&&|[;|&\uE00A]|\\n)(?:/(?:usr/)?bin/)?(?:${TIGHT_COMMANDS})(?=$|[;|&\x60'"\uE00A]|\\n)|\uE00A[ \t]*(?:${TIGHT_COMMANDS})[ \t]*(?=$|\uE00A)|(?:\|\||&&|[;|&])[ \t]+(?:${TIGHT_COMMANDS})[ \t]*$`,
    ),
    score: (match) => (isAlternation(match) || isCodeOperator(match) || isTableCell(match) ? 0 : 0.85),
    hints: TIGHT_COMMANDS.split('|'),
  },
  {
    // A text that is nothing but a reconnaissance or download command: a payload on its own. The same words inside
    // documentation or prose are left alone.
    id: 'cmd.chained_recon',
    pattern:
      /^\s*(?:whoami|id|pwd|ls|dir|hostname|route|uname(?:\s+-a)?|ifconfig|ipconfig(?:\s+\/all)?|systeminfo|sysinfo|netstat(?:\s+-an?)?|which\s+(?:nc|netcat|ncat|curl|wget|perl|python3?|gcc|bash)|(?:curl|wget)\s+https?:\/\/\S+|cat\s+\/etc\/\S+)\s*$/g,
    score: 0.6,
  },
  {
    // Terminal escape sequences that move the cursor to hide a command typed after them (`\033[2A`).
    id: 'cmd.terminal_escape',
    pattern: /\\(?:033|x1b|e|u001b)\[\d*[A-Za-z]?(?:curl|wget|sleep|echo|whoami|bash|nc)\b/g,
    score: 0.75,
    hints: ['\\033', '\\x1b', '\\e[', '\\u001b'],
  },
  {
    // Account, firewall and registry changes: what an attacker runs once in, rarely what a tool answers.
    id: 'cmd.system_change',
    pattern: /\bnet\s+(?:user|localgroup)\s+[^\n]{1,60}\/add\b|\bnetsh\s+(?:adv)?firewall\s+set\s+[^\n]{0,40}\b(?:disable|off)\b|\breg(?:\.exe)?\s+(?:add|delete)\s+["']?HK(?:LM|CU|EY_)/gi,
    score: 0.75,
    hints: ['net', 'reg'],
  },
  {
    // Reading a credential file with a shell command, even without a separator.
    id: 'cmd.sensitive_read',
    pattern: /\b(?:cat|type|more|head|tail|nl|tac)\s+(?:\/etc\/(?:passwd|shadow|sudoers)|[a-z]:\\(?:boot\.ini|windows\\(?:win\.ini|repair\\)|winnt\\repair\\)|%systemroot%\\repair\\)/gi,
    score: 0.6,
    hints: ['/etc/', 'boot.ini', 'repair', 'win.ini'],
  },
  {
    id: 'cmd.chained_binary',
    pattern: re(String.raw`${SEP}[ \t'"]*/(?:usr/(?:local/)?)?s?bin/[a-z0-9_.-]+`),
    score: binaryScore,
    hints: ['bin/'],
  },
  {
    id: 'cmd.chained_command',
    pattern: re(String.raw`(?:${SEP}|&&|\|\|)${BLANK}*(?:${WITH_ARGUMENTS})`),
    score: (match) => (isTableCell(match) ? 0 : 0.8),
  },
  {
    id: 'cmd.windows_shell',
    pattern: /\bcmd(?:\.exe)?[?\s+]*\/[ck]\b|\bpowershell(?:\.exe)?\s+-(?:e|enc|encodedcommand|c|command|nop|w)\b/gi,
    // Documentation shows these often; alone they stay below the default threshold.
    score: 0.45,
    hints: ['cmd', 'powershell'],
  },
  {
    // Substitution as injections use it: nested backticks, a system file read inside, escaped backticks, `${IFS}`
    // for blanks. Scripts' own `$(cat …)`, `$(id -u)` and `$(uname -s)` are left alone.
    id: 'cmd.substitution',
    pattern: re(
      String.raw`\$\([ \t]*\x60|\$\([ \t]*(?:cat|type)${BLANK}+(?:/etc/(?:passwd|shadow)|[a-z]:\\)|\\\x60(?:pwd|id|whoami|uname)[^\\\x60]{0,20}\\\x60|\x60/(?:usr/)?s?bin/(?:id|whoami|uname|ifconfig)\b[^\x60\n]{0,40}\x60|\$\{IFS\}`,
    ),
    score: 0.8,
    hints: ['$(', '`', '${ifs}'],
  },
  {
    id: 'cmd.code_exec',
    // An attack command through an exec call, or any exec call chained right after a separator (`;system('…')`).
    // Documentation calling exec('ls -lh /usr') is neither.
    pattern: re(String.raw`(?<![\w.])${EXEC_CALL}\s*${ATTACK_COMMAND}|[;&|][ \t]*${EXEC_CALL}|(?<![\w.])(?:system|eval|passthru|shell_exec)\s*\(\s*['"](?:ls|dir)['"]\s*\)`),
    score: 0.85,
    hints: ['system', 'exec', 'passthru', 'popen', 'eval', 'assert'],
  },
  {
    // PHP probes: `;phpinfo()`, `${@print(…)}`, `{${sleep(5)}}` (complex curly syntax runs code), `{$_GET["cmd"]}`.
    id: 'cmd.code_exec',
    pattern: /(?:^|[;&|'"{$])[ \t]*phpinfo\s*\(\s*\)|\$\{@\w+\s*\(|\{\$\{\w+\s*\(|\{\$_(?:GET|POST|REQUEST|COOKIE|SERVER)\s*\[/g,
    score: 0.8,
    hints: ['phpinfo', '${', '{$_'],
  },
  {
    id: 'cmd.php_injection',
    pattern: /<\?(?:php|=)?[^?]{0,200}?\b(?:system|exec|shell_exec|passthru|eval|include|require|assert)\s*\(/gi,
    score: 0.85,
    hints: ['<?'],
  },
  { id: 'cmd.ssi', pattern: /<!--#\s*(?:exec|include|echo|config|fsize|flastmod|printenv)\b/gi, score: 0.9, hints: ['<!--#'] },
  { id: 'cmd.shellshock', pattern: /\(\)\s*\{\s*:\s*(?:;\s*)?\}\s*;/g, score: 0.95, hints: ['()'] },
  {
    id: 'cmd.reverse_shell',
    pattern: re(
      String.raw`\b(?:nc|ncat|netcat)\b[^\n;|&]{0,40}\s-[a-z]*e\s*/bin/(?:ba|z|da)?sh\b|/dev/(?:tcp|udp)/[\w.-]+/\d+|\b(?:ba)?sh\s+-i\s*(?:>&|2>&1|<&)|\bsocket\s*\(\s*S\s*,\s*PF_INET|\bexec\s*\(\s*["']/bin/(?:ba)?sh\b|\bpty\.spawn\s*\(\s*["']/bin/(?:ba)?sh|\bmkfifo\s+/tmp/`,
    ),
    score: 0.95,
    hints: ['nc', '/dev/', 'sh -i', 'pf_inet', '/bin/', 'mkfifo'],
  },
  {
    id: 'cmd.template_injection',
    pattern:
      /\{\{[^{}]{0,120}?(?:__class__|__globals__|__builtins__|__import__|\.popen\(|\bos\.|subprocess|_file\(|\/etc\/(?:passwd|shadow)|\bexec\(|\beval\()[^{}]{0,120}\}\}|\$\{[^}]{0,80}?(?:getRuntime|\.exec\(|jndi:)|\{\{\s*\d+\s*[*+]\s*\d+\s*\}\}/gi,
    score: 0.8,
    hints: ['{{', '${'],
  },
];
