import { createSseParser, type SseEvent } from './sse-parser';

function parse(chunks: string[]) {
  const events: SseEvent[] = [];
  const comments: string[] = [];
  const retries: number[] = [];
  const parser = createSseParser({
    onEvent: (event) => events.push(event),
    onComment: (text) => comments.push(text),
    onRetry: (ms) => retries.push(ms),
  });
  for (const chunk of chunks) parser.push(chunk);
  return { events, comments, retries, lastEventId: parser.lastEventId };
}

describe('createSseParser', () => {
  it('dispatches named events with their data and the last id', () => {
    const { events } = parse([
      'id: 41\nevent: notification\ndata: {"id":41}\n\n',
      'event: unread\ndata: {"count":3}\n\n',
    ]);
    expect(events).toEqual([
      { event: 'notification', data: '{"id":41}', id: '41' },
      // the id carries over to later events until the server sends another
      { event: 'unread', data: '{"count":3}', id: '41' },
    ]);
  });

  it('puts together events cut anywhere across chunks, CRLF split between chunks included', () => {
    const whole = 'id: 7\r\nevent: posts\r\ndata: {"tab":"for-you",\r\ndata: "count":2}\r\n\r\n';
    const everySplit = Array.from({ length: whole.length - 1 }, (_, at) =>
      parse([whole.slice(0, at + 1), whole.slice(at + 1)]),
    );
    for (const { events } of everySplit) {
      expect(events).toEqual([{ event: 'posts', data: '{"tab":"for-you",\n"count":2}', id: '7' }]);
    }
    // one character at a time
    expect(parse([...whole]).events).toHaveLength(1);
  });

  it('accepts LF, CRLF and CR line ends', () => {
    expect(
      parse(['data: a\n\n', 'data: b\r\n\r\n', 'data: c\r\r']).events.map((e) => e.data),
    ).toEqual(['a', 'b', 'c']);
  });

  it('treats comments as heartbeats and never dispatches them', () => {
    const { events, comments } = parse([': heartbeat\n\n', ':ping\n']);
    expect(events).toEqual([]);
    expect(comments).toEqual(['heartbeat', 'ping']);
  });

  it('drops one space after the colon only, and reads a field without a colon as empty', () => {
    const { events } = parse(['data:  two spaces\ndata\n\n']);
    expect(events.map((event) => event.data)).toEqual([' two spaces\n']);
  });

  it('names an event without an event field "message" and resets the name after dispatch', () => {
    const { events } = parse(['event: unread\ndata: 1\n\n', 'data: 2\n\n']);
    expect(events.map((e) => e.event)).toEqual(['unread', 'message']);
  });

  it('does not dispatch an event without data, nor an unfinished last event', () => {
    const { events, lastEventId } = parse(['event: unread\n\n', 'id: 9\ndata: half']);
    expect(events).toEqual([]);
    expect(lastEventId).toBe('9');
  });

  it('ignores an id holding NUL, unknown fields and a non-numeric retry', () => {
    const { events, retries } = parse([
      'id: 5\ndata: a\n\n',
      'id: 6\0x\nfoo: bar\nretry: soon\ndata: b\n\n',
      'retry: 3000\n',
    ]);
    expect(events.map((e) => e.id)).toEqual(['5', '5']);
    expect(retries).toEqual([3000]);
  });
});
