// Documents (PDF and plain text) through the official clients: Anthropic document blocks and OpenAI file parts reach every provider type.
import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { startTranslatedGateway, type TrafficFixture } from '../helpers/traffic-fixture.js';
import type { LoopbackServer } from '../helpers/loopback-server.js';

const PDF = Buffer.from('%PDF-1.4 a tiny test document').toString('base64');
const answers: Record<string, unknown> = {
  anthropic: { id: 'msg_01', type: 'message', role: 'assistant', model: 'claude-x', content: [{ type: 'text', text: 'A test.' }], stop_reason: 'end_turn', stop_sequence: null, usage: { input_tokens: 9, output_tokens: 2 } },
  openai: { id: 'chatcmpl-1', object: 'chat.completion', created: 1, model: 'gpt-x', choices: [{ index: 0, message: { role: 'assistant', content: 'A test.' }, finish_reason: 'stop' }], usage: { prompt_tokens: 9, completion_tokens: 2, total_tokens: 11 } },
  gemini: { candidates: [{ content: { role: 'model', parts: [{ text: 'A test.' }] }, finishReason: 'STOP', index: 0 }], usageMetadata: { promptTokenCount: 9, candidatesTokenCount: 2, totalTokenCount: 11 } },
};

describe('documents: Anthropic document blocks and OpenAI file parts', () => {
  let f: TrafficFixture;
  let server: LoopbackServer;
  let sent: Record<string, unknown> | undefined;
  const anthropic = (route: string) => new Anthropic({ apiKey: f.developerKey, baseURL: server.base, maxRetries: 0, defaultHeaders: { 'x-gateway-route': route } });
  const openai = (route: string) => new OpenAI({ apiKey: f.developerKey, baseURL: `${server.base}/v1`, maxRetries: 0, defaultHeaders: { 'x-gateway-route': route } });
  const userContent = (): unknown[] => {
    const messages = sent?.messages as Array<{ role: string; content: unknown[] }> | undefined;
    return messages ? messages.at(-1)!.content : (sent?.contents as Array<{ parts: unknown[] }>).at(-1)!.parts;
  };

  let close: () => Promise<void>;
  before(async () => {
    ({ f, server, close } = await startTranslatedGateway((res: ServerResponse, body, req) => {
      sent = body;
      const format = req.url?.includes('/models/') ? 'gemini' : req.url?.endsWith('/chat/completions') ? 'openai' : 'anthropic';
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(answers[format]));
    }));
  });
  after(() => close());

  it('a base64 PDF and a plain text document reach Anthropic as documents, OpenAI as file parts and Gemini as inline data', async () => {
    const messages: Anthropic.MessageParam[] = [{ role: 'user', content: [
      { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: PDF }, title: 'spec.pdf', cache_control: { type: 'ephemeral' } },
      { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'Plain notes.' } },
      { type: 'text', text: 'Summarise these.' },
    ] }];
    const request = { model: 'any', max_tokens: 256, messages };

    const message = await anthropic('via-anthropic').messages.create(request);
    assert.deepEqual(message.content, [{ type: 'text', text: 'A test.' }]);
    assert.deepEqual(userContent(), [
      { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: PDF }, title: 'spec.pdf', cache_control: { type: 'ephemeral' } },
      { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'Plain notes.' }, title: 'document.txt' },
      { type: 'text', text: 'Summarise these.' },
    ]);

    await anthropic('via-openai').messages.create(request);
    assert.deepEqual(userContent(), [
      { type: 'file', file: { file_data: `data:application/pdf;base64,${PDF}`, filename: 'spec.pdf' } },
      { type: 'file', file: { file_data: `data:text/plain;base64,${Buffer.from('Plain notes.').toString('base64')}`, filename: 'document.txt' } },
      { type: 'text', text: 'Summarise these.' },
    ]);

    await anthropic('via-gemini').messages.create(request);
    assert.deepEqual(userContent(), [
      { inlineData: { mimeType: 'application/pdf', data: PDF } },
      { inlineData: { mimeType: 'text/plain', data: Buffer.from('Plain notes.').toString('base64') } },
      { text: 'Summarise these.' },
    ]);
  });

  it('a document the gateway cannot carry (a URL source, citations, context) is 400 naming the member, before any provider is called', async () => {
    sent = undefined;
    const refused = async (document: Record<string, unknown>, param: RegExp): Promise<void> => {
      const messages = [{ role: 'user', content: [document, { type: 'text', text: 'Read it.' }] }] as unknown as Anthropic.MessageParam[];
      await assert.rejects(anthropic('via-anthropic').messages.create({ model: 'any', max_tokens: 64, messages }), (error: unknown) => {
        assert.ok(error instanceof Anthropic.BadRequestError, String(error));
        assert.match((error.error as { error: { message: string } }).error.message, param);
        return true;
      });
    };
    const pdf = { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: PDF } };
    await refused({ type: 'document', source: { type: 'url', url: 'https://example.com/spec.pdf' } }, /^messages\[0\]\.content\[0\]\.source of type "url" is not translated/);
    await refused({ ...pdf, citations: { enabled: true } }, /^messages\[0\]\.content\[0\]\.citations: cited answers are not translated/);
    await refused({ ...pdf, context: 'Written in 1999.' }, /^messages\[0\]\.content\[0\]\.context is not carried/);
    assert.equal(sent, undefined, 'a provider was called');
  });

  it('an OpenAI client\'s PDF file part reaches Anthropic as a document and Gemini as inline data; a file_id or another type is 400 naming it', async () => {
    const file = { type: 'file' as const, file: { file_data: `data:application/pdf;base64,${PDF}`, filename: 'spec.pdf' } };
    const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: 'user', content: [file, { type: 'text', text: 'Summarise.' }] }];
    await openai('via-anthropic').chat.completions.create({ model: 'any', messages });
    assert.deepEqual(userContent(), [{ type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: PDF }, title: 'spec.pdf' }, { type: 'text', text: 'Summarise.' }]);
    await openai('via-gemini').chat.completions.create({ model: 'any', messages });
    assert.deepEqual(userContent(), [{ inlineData: { mimeType: 'application/pdf', data: PDF } }, { text: 'Summarise.' }]);

    sent = undefined;
    const refused = async (route: string, part: OpenAI.Chat.ChatCompletionContentPart, param: string): Promise<void> => {
      await assert.rejects(openai(route).chat.completions.create({ model: 'any', messages: [{ role: 'user', content: [part] }] }), (error: unknown) => {
        assert.ok(error instanceof OpenAI.BadRequestError, String(error));
        assert.equal(error.param, param);
        return true;
      });
    };
    await refused('via-anthropic', { type: 'file', file: { file_id: 'file-abc123' } }, 'messages[0].content[0].file.file_id');
    await refused('via-gemini', { type: 'file', file: { file_data: 'https://example.com/spec.pdf', filename: 'spec.pdf' } }, 'messages[0].content[0].file.file_data');
    await refused('via-anthropic', { type: 'file', file: { file_data: 'data:image/png;base64,iVBORw0KGgo=', filename: 'a.png' } }, 'messages[0].content[0]');
    assert.equal(sent, undefined, 'a provider was called');
  });
});
