// A real MCP server (the official SDK) whose answers carry text beyond text parts: structured content, embedded resources, resources and prompts; resumable.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { EventStore } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';
import { serveSdkSessions } from '../helpers/sdk-session-server.js';

/** A running content tool server. */
export interface ContentToolServer {
  url: string;
  close(): Promise<void>;
}

/** An event store numbering events in order, so a replay after an event id is deterministic. */
function orderedEventStore(): EventStore {
  let count = 0;
  const events: Array<{ id: string; stream: string; message: unknown }> = [];
  return {
    async storeEvent(stream, message) {
      const id = `${stream}_${String(++count).padStart(8, '0')}`;
      events.push({ id, stream, message });
      return id;
    },
    async replayEventsAfter(lastEventId, { send }) {
      const at = events.findIndex((event) => event.id === lastEventId);
      if (at < 0) return '';
      const stream = events[at]!.stream;
      for (const event of events.slice(at + 1)) if (event.stream === stream) await send(event.id, event.message as never);
      return stream;
    },
  };
}

/**
 * Starts a server whose every answer carries `text(): string`: tool `record` in `structuredContent` (its text part only
 * points at it), tool `readfile` in an embedded resource, tool `lookup` in a text part, tool `link` in a resource link's
 * description, resource `doc://notes` and prompt `brief`. Sessions keep their events, so a client may resume a stream
 * with `Last-Event-ID`.
 */
export async function startContentToolServer(text: () => string): Promise<ContentToolServer> {
  const build = (): McpServer => {
    const server = new McpServer({ name: 'content-tools', version: '1.0.0' });
    server.registerTool('record', { description: 'Reads a customer record.', inputSchema: { id: z.string() } }, async () => ({
      content: [{ type: 'text' as const, text: 'The record is in the structured content.' }],
      structuredContent: { record: { id: 'c-1', notes: [text()] } },
    }));
    server.registerTool('readfile', { description: 'Reads a file.', inputSchema: { path: z.string() } }, async () => ({
      content: [{ type: 'resource' as const, resource: { uri: 'file:///notes.txt', mimeType: 'text/plain', text: text() } }],
    }));
    server.registerTool('link', { description: 'Links a file.', inputSchema: { path: z.string() } }, async () => ({
      content: [{ type: 'resource_link' as const, uri: 'file:///notes.txt', name: 'notes.txt', title: 'Notes', description: text() }],
    }));
    server.registerTool('lookup', { description: 'Looks up a fact.', inputSchema: { query: z.string() } }, async () => ({ content: [{ type: 'text' as const, text: text() }] }));
    server.registerResource('notes', 'doc://notes', { description: 'Team notes.' }, async (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/plain', text: text() }] }));
    server.registerPrompt('brief', { description: 'A briefing.' }, async () => ({ messages: [{ role: 'user' as const, content: { type: 'text' as const, text: text() } }] }));
    return server;
  };
  return serveSdkSessions(build, { eventStore: orderedEventStore });
}
