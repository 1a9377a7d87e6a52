// dlp_cloud: every info type, checksums, strategies, threshold mapping and UTF-8/code point offsets, through a real GuardrailEngine.
import assert from 'node:assert/strict';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import dlpCloud, { INFO_TYPES, minLikelihoodForThreshold, type PiiFinding } from '../../plugins/guardrails/dlp-cloud/index.js';
import { GuardrailEngine, isGatewayError, type GuardrailOutcome } from '../../src/index.js';

interface DlpResults {
  content: string;
  strategy: string;
  reject_prompt?: string;
  findings: PiiFinding[];
}

describe('dlp_cloud guardrail', () => {
  let engine: GuardrailEngine;
  before(async () => {
    engine = new GuardrailEngine();
    await engine.add(dlpCloud);
  });

  const run = (text: string, options: Record<string, unknown> = {}, threshold?: number): Promise<GuardrailOutcome<DlpResults>> =>
    engine.evaluate('dlp_cloud', text, { options, threshold }) as Promise<GuardrailOutcome<DlpResults>>;
  const quotes = async (text: string, options: Record<string, unknown> = {}): Promise<Array<[string, string]>> =>
    (await run(text, { strategy: 'inspect', include_quote: true, ...options })).results.findings.map((f) => [f.info_type, f.quote ?? '']);

  describe('detects every info type on its own example', () => {
    const cases: Array<[string, string, string]> = [
      ['EMAIL_ADDRESS', 'Write to maria.gonzalez@correo.example.org today.', 'maria.gonzalez@correo.example.org'],
      ['PHONE_NUMBER', 'Call me on +44 20 7946 0958 tomorrow.', '+44 20 7946 0958'],
      ['CREDIT_CARD_NUMBER', 'My visa is 4539 1488 0343 6467 thanks', '4539 1488 0343 6467'],
      ['IBAN_CODE', 'Pay to GB82 WEST 1234 5698 7654 32 please', 'GB82 WEST 1234 5698 7654 32'],
      ['US_SOCIAL_SECURITY_NUMBER', 'SSN: 536-90-4399', '536-90-4399'],
      ['IP_ADDRESS', 'the server at 203.0.113.45 is down', '203.0.113.45'],
      ['IP_ADDRESS', 'ping fe80::1ff:fe23:4567:890a now', 'fe80::1ff:fe23:4567:890a'],
      ['MAC_ADDRESS', 'device mac 3C:22:FB:7A:10:9E registered', '3C:22:FB:7A:10:9E'],
      ['DATE_OF_BIRTH', 'Date of birth: 14/03/1987', '14/03/1987'],
      ['PASSPORT', 'passport number: K4821937', 'K4821937'],
      ['US_DRIVERS_LICENSE_NUMBER', "driver's license no. W2847193", 'W2847193'],
      ['PERSON_NAME', 'Hello, my name is Ingrid Solberg.', 'Ingrid Solberg'],
      ['STREET_ADDRESS', 'Ship it to 742 Evergreen Terrace, Apt 3 today', '742 Evergreen Terrace, Apt 3'],
      ['AUTH_TOKEN', 'Authorization: Bearer Zx81kPq0LmN3vB7rT5yW2cE9', 'Zx81kPq0LmN3vB7rT5yW2cE9'],
      ['AUTH_TOKEN', 'token ghp_R8x2Lk9Qw3Zt7Yv1Nb6Mc4Jd0Hf5Gs2Ae8Kp', 'ghp_R8x2Lk9Qw3Zt7Yv1Nb6Mc4Jd0Hf5Gs2Ae8Kp'],
      ['AUTH_TOKEN', 'slack xoxb-2048-4096-Hq8sP1vN3kLm', 'xoxb-2048-4096-Hq8sP1vN3kLm'],
      ['AWS_CREDENTIALS', 'id AKIAQ3EGRT5WZ7NKLM2P here', 'AKIAQ3EGRT5WZ7NKLM2P'],
      ['AWS_CREDENTIALS', 'aws_secret_access_key = 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', 'h7Gk2pLq9Xz4Vb8Nm1Wc5Rt3Ys6Ud0Fe2Ij7Ko9P'],
      ['GCP_API_KEY', 'key=AIzaSyD4r7Qx2Lm9Vb3Nk8Wp1Zt6Yc0Hs5Jg2Ea', 'AIzaSyD4r7Qx2Lm9Vb3Nk8Wp1Zt6Yc0Hs5Jg2Ea'],
      [
        'JSON_WEB_TOKEN',
        'jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1c2VyLTQyIn0.kX2pQ9vL7mN3bR8tY5wC1zE6hJ4gF0sA',
        'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1c2VyLTQyIn0.kX2pQ9vL7mN3bR8tY5wC1zE6hJ4gF0sA',
      ],
      ['PASSWORD', 'db password=Tr0ub4dor&3x', 'Tr0ub4dor&3x'],
      ['PASSWORD', 'pwd: "c0rrectHorse"', 'c0rrectHorse'],
      ['PASSWORD', 'clone https://deploy:Xk29fLq81@git.example.net/repo.git', 'Xk29fLq81'],
      ['BASIC_AUTH_HEADER', 'Authorization: Basic ZGVwbG95OlhrMjlmTHE4MQ==', 'ZGVwbG95OlhrMjlmTHE4MQ=='],
    ];
    for (const [type, text, quote] of cases) {
      it(`${type}: ${quote}`, async () => {
        assert.deepEqual(await quotes(text), [[type, quote]]);
      });
    }

    it('detects PEM private keys as ENCRYPTION_KEY, but not placeholder key blocks', async () => {
      const body = 'MIIEpAIBAAKCAQEAx4Lq2Vb8Nm1Wc5Rt3Ys6Ud0Fe2Ij7Ko9PZx81kPq0LmN3vB7rT5yW2cE9Hq8sP1vN3kLm4Jd0Hf5Gs2Ae8Kp';
      const pem = `-----BEGIN RSA PRIVATE KEY-----\n${body}\n-----END RSA PRIVATE KEY-----`;
      assert.deepEqual(await quotes(`key:\n${pem}\n`), [['ENCRYPTION_KEY', pem]]);
      assert.deepEqual(await quotes('-----BEGIN PRIVATE KEY-----\n...\n-----END PRIVATE KEY-----'), []);
    });

    it('covers every info type in INFO_TYPES with the examples above', () => {
      const covered = new Set([...cases.map(([type]) => type), 'ENCRYPTION_KEY']);
      assert.deepEqual(INFO_TYPES.filter((type) => !covered.has(type)), []);
    });
  });

  describe('checksums and look-alikes', () => {
    it('does not report card numbers that fail Luhn, or pass Luhn without an issuer prefix', async () => {
      assert.deepEqual(await quotes('card 4539 1488 0343 6468'), []);
      assert.deepEqual(await quotes('card 4111111111111112'), []);
      assert.deepEqual(await quotes('ref 9999999999999995'), []);
    });

    it('does not report IBANs that fail mod-97 or have the wrong length for their country', async () => {
      assert.deepEqual(await quotes('IBAN GB82 WEST 1234 5698 7654 33', { info_types: ['IBAN_CODE'] }), []);
      assert.deepEqual(await quotes('IBAN DE89370400440532013001', { info_types: ['IBAN_CODE'] }), []);
      assert.deepEqual(await quotes('IBAN DE8937040044053201300', { info_types: ['IBAN_CODE'] }), []);
      assert.deepEqual(await quotes('IBAN DE89370400440532013000', { info_types: ['IBAN_CODE'] }), [['IBAN_CODE', 'DE89370400440532013000']]);
    });

    it('never finds a valid US or Canadian number that starts with 0 (so those parses are skipped for one)', () => {
      let seed = 7;
      const digit = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % 10;
      for (let k = 0; k < 3000; k += 1) {
        let number = '0';
        const length = 6 + (k % 10);
        for (let i = 0; i < length; i += 1) number += (i % 4 === 3 ? ' ' : '') + String(digit());
        for (const country of ['US', 'CA'] as const) assert.equal(parsePhoneNumberFromString(number, country)?.isValid() ?? false, false, `${country} ${number}`);
      }
    });

    it('does not take dates, version strings, placeholders or SSNs with invalid areas for PII', async () => {
      assert.deepEqual(await quotes('released 2024-05-17 as version 1.2.3.4.5'), []);
      assert.deepEqual(await quotes('password=${DB_PASSWORD} and token: <your-token-here>'), []);
      assert.deepEqual(await quotes('SSN 000-12-3456 or 666-12-3456'), []);
    });
  });

  describe('results and strategies', () => {
    const text = 'Mail ana@example.com, card 4539 1488 0343 6467.';

    it('mask (the default) replaces each character of a finding with the mask character', async () => {
      const outcome = await run(text);
      assert.deepEqual(Object.keys(outcome.results), ['content', 'strategy', 'findings']);
      assert.equal(outcome.results.content, 'Mail ***************, card *******************.');
      assert.equal(outcome.results.strategy, 'mask');
      assert.equal(outcome.transformedText, outcome.results.content);
      assert.equal(outcome.flagged, false);
      assert.deepEqual(outcome.triggered, ['EMAIL_ADDRESS', 'CREDIT_CARD_NUMBER']);
    });

    it('mask keeps the length in code points and uses mask_char', async () => {
      const outcome = await run('to josé@exämple.com 😀', { mask_char: '#' });
      assert.equal(outcome.results.content, `to ${'#'.repeat(16)} 😀`);
    });

    it('redact removes findings', async () => {
      const outcome = await run(text, { strategy: 'redact' });
      assert.equal(outcome.results.content, 'Mail , card .');
      assert.equal(outcome.transformedText, 'Mail , card .');
    });

    it('replace puts the info type in brackets', async () => {
      const outcome = await run(text, { strategy: 'replace' });
      assert.equal(outcome.results.content, 'Mail [EMAIL_ADDRESS], card [CREDIT_CARD_NUMBER].');
    });

    it('inspect leaves the content unchanged and reports findings', async () => {
      const outcome = await run(text, { strategy: 'inspect' });
      assert.equal(outcome.results.content, text);
      assert.equal(outcome.transformedText, undefined);
      assert.equal(outcome.flagged, false);
      assert.equal(outcome.results.findings.length, 2);
    });

    it('reject leaves the content unchanged, adds a reject_prompt naming the types, and flags', async () => {
      const outcome = await run(text, { strategy: 'reject' });
      assert.deepEqual(Object.keys(outcome.results), ['content', 'strategy', 'reject_prompt', 'findings']);
      assert.equal(outcome.results.content, text);
      assert.match(outcome.results.reject_prompt ?? '', /EMAIL_ADDRESS, CREDIT_CARD_NUMBER/);
      assert.doesNotMatch(outcome.results.reject_prompt ?? '', /ana@example/);
      assert.equal(outcome.flagged, true);
      assert.equal(outcome.transformedText, undefined);
    });

    it('does not flag or transform clean text, whatever the strategy', async () => {
      for (const strategy of ['mask', 'redact', 'replace', 'inspect', 'reject']) {
        const outcome = await run('Nothing personal in here.', { strategy });
        assert.equal(outcome.results.content, 'Nothing personal in here.');
        assert.equal(outcome.flagged, false);
        assert.equal(outcome.transformedText, undefined);
        assert.deepEqual(outcome.results.findings, []);
      }
    });

    it('info_types limits what is looked for', async () => {
      const outcome = await run(text, { strategy: 'replace', info_types: ['CREDIT_CARD_NUMBER'] });
      assert.equal(outcome.results.content, 'Mail ana@example.com, card [CREDIT_CARD_NUMBER].');
    });

    it('quotes only with include_quote', async () => {
      const [finding] = (await run(text, { strategy: 'inspect' })).results.findings;
      assert.equal(finding?.quote, undefined);
      assert.deepEqual(await quotes(text), [
        ['EMAIL_ADDRESS', 'ana@example.com'],
        ['CREDIT_CARD_NUMBER', '4539 1488 0343 6467'],
      ]);
    });

    it('rejects unknown strategies and info types with a coded 400', async () => {
      for (const options of [{ strategy: 'shred' }, { info_types: ['SHOE_SIZE'] }, { mask_char: '**' }]) {
        await assert.rejects(run('x', options), (error: unknown) => isGatewayError(error) && error.code === 'invalid_value');
      }
    });
  });

  describe('threshold', () => {
    it('maps a threshold to the lowest likelihood that counts', () => {
      assert.deepEqual([0, 0.1, 0.25, 0.3, 0.5, 0.6, 0.75, 0.8, 1].map(minLikelihoodForThreshold), [1, 2, 2, 3, 3, 4, 4, 5, 5]);
    });

    it('drops findings below the mapped likelihood, so reject flags only above it', async () => {
      // A dashed SSN without context is LIKELY (4); with "SSN" nearby it is VERY_LIKELY (5).
      assert.equal((await run('ref 536-90-4399', { strategy: 'reject' }, 0.75)).flagged, true);
      assert.equal((await run('ref 536-90-4399', { strategy: 'reject' }, 0.8)).flagged, false);
      assert.equal((await run('SSN 536-90-4399', { strategy: 'reject' }, 0.8)).flagged, true);
    });
  });

  describe('locations', () => {
    it('gives UTF-8 byte ranges and code point ranges on text with accents and emoji', async () => {
      // "Héllo 😀 ana@example.com — ☎ +1 415-555-2671"
      // Before the e-mail: H é l l o ␠ 😀 ␠ = 8 code points; bytes 1+2+1+1+1+1+4+1 = 12.
      // The e-mail is 15 ASCII characters: code points [8, 23), bytes [12, 27).
      // Then " — ☎ ": 5 code points, bytes 1+3+1+3+1 = 9, so the phone starts at code point 28, byte 36,
      // and its 15 ASCII characters end at code point 43, byte 51.
      const text = 'Héllo 😀 ana@example.com — ☎ +1 415-555-2671';
      const { findings } = (await run(text, { strategy: 'inspect' })).results;
      assert.deepEqual(
        findings.map((f) => [f.info_type, f.location]),
        [
          ['EMAIL_ADDRESS', { byte_range: { start: 12, end: 27 }, codepoint_range: { start: 8, end: 23 } }],
          ['PHONE_NUMBER', { byte_range: { start: 36, end: 51 }, codepoint_range: { start: 28, end: 43 } }],
        ],
      );
    });

    it('counts a combining accent as its own code point and a finding made of multi-byte letters in bytes', async () => {
      // "Rene\u0301 → rené@exämple.com": R e n e ◌́ ␠ → ␠ = 8 code points, bytes 1+1+1+1+2+1+3+1 = 11.
      // "rené@exämple.com" is 16 code points and 18 bytes (é and ä take two each).
      const text = 'Rene\u0301 → rené@exämple.com';
      const [finding] = (await run(text, { strategy: 'inspect' })).results.findings;
      assert.deepEqual(finding?.location, { byte_range: { start: 11, end: 29 }, codepoint_range: { start: 8, end: 24 } });
    });

    it('reports likelihood as a DLP integer', async () => {
      const [finding] = (await run('SSN: 536-90-4399', { strategy: 'inspect' })).results.findings;
      assert.deepEqual(finding, {
        info_type: 'US_SOCIAL_SECURITY_NUMBER',
        likelihood: 5,
        location: { byte_range: { start: 5, end: 16 }, codepoint_range: { start: 5, end: 16 } },
      });
    });
  });
});
