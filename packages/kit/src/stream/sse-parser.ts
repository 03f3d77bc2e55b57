/** One dispatched server-sent event (WHATWG HTML "server-sent events", event stream parsing). */
export interface SseEvent {
  /** The `event:` field, 'message' when the event named none. */
  event: string;
  /** The `data:` lines joined with '\n'. */
  data: string;
  /** The last `id:` seen so far on this stream ('' when none): what `Last-Event-ID` resends. */
  id: string;
}

export interface SseParserHandlers {
  onEvent: (event: SseEvent) => void;
  /** A `retry:` field: how long the server asks the client to wait before reconnecting. */
  onRetry?: (ms: number) => void;
  /** A comment line (`: heartbeat`): nothing to dispatch, but the connection is alive. */
  onComment?: (text: string) => void;
}

/**
 * An incremental parser for `text/event-stream`: feed it decoded text as it arrives, in chunks cut
 * anywhere (inside a line, between the CR and LF of a CRLF), and it calls `onEvent` for every
 * complete event. Follows the HTML standard's rules: lines end with CRLF, LF or CR; one space
 * after the colon is dropped; `data` lines accumulate; an event is dispatched on a blank line and
 * only if it has data; an `id` containing NUL is ignored; an incomplete last event is never
 * dispatched.
 */
export function createSseParser({ onEvent, onRetry, onComment }: SseParserHandlers) {
  let buffer = '';
  let eventType = '';
  let data = '';
  let hasData = false;
  let lastEventId = '';
  // The previous chunk ended with CR: a LF at the start of the next one belongs to that line end.
  let skipLeadingLf = false;

  function processLine(line: string) {
    if (line === '') {
      if (hasData) {
        onEvent({ event: eventType || 'message', data, id: lastEventId });
      }
      eventType = '';
      data = '';
      hasData = false;
      return;
    }
    if (line.startsWith(':')) {
      onComment?.(line.slice(1).trimStart());
      return;
    }
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    switch (field) {
      case 'event':
        eventType = value;
        break;
      case 'data':
        data = hasData ? `${data}\n${value}` : value;
        hasData = true;
        break;
      case 'id':
        if (!value.includes('\0')) lastEventId = value;
        break;
      case 'retry':
        if (/^\d+$/.test(value)) onRetry?.(Number(value));
        break;
      default:
      // unknown fields are ignored
    }
  }

  return {
    push(chunk: string) {
      let text = chunk;
      if (skipLeadingLf && text.startsWith('\n')) text = text.slice(1);
      skipLeadingLf = false;
      buffer += text;
      let start = 0;
      for (let index = 0; index < buffer.length; index += 1) {
        const char = buffer[index];
        if (char !== '\n' && char !== '\r') continue;
        processLine(buffer.slice(start, index));
        if (char === '\r') {
          if (index + 1 < buffer.length) {
            if (buffer[index + 1] === '\n') index += 1;
          } else {
            skipLeadingLf = true;
          }
        }
        start = index + 1;
      }
      buffer = buffer.slice(start);
    },
    /** The id to send as `Last-Event-ID` when reconnecting ('' when the server gave none). */
    get lastEventId() {
      return lastEventId;
    },
  };
}
