/**
 * An `EventSource` double for jsdom (which has none): each `new EventSource(url)` is recorded in
 * `FakeEventSource.instances`, and the test opens it, sends it events, or fails it as the browser
 * would (`fail(true)`: the server refused it, CLOSED; `fail(false)`: the connection dropped and
 * the browser is reconnecting, CONNECTING). Install with `FakeEventSource.install()`.
 */
export class FakeEventSource {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 2;
  static instances: FakeEventSource[] = [];

  readyState = FakeEventSource.CONNECTING;
  onopen: ((event: Event) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;
  private readonly listeners = new Map<string, Array<(event: MessageEvent) => void>>();

  constructor(
    readonly url: string,
    readonly init: EventSourceInit = {},
  ) {
    FakeEventSource.instances.push(this);
  }

  /** Replaces the global EventSource with this double; returns the restore function. */
  static install(): () => void {
    const previous = (globalThis as { EventSource?: unknown }).EventSource;
    FakeEventSource.instances = [];
    Object.assign(globalThis, { EventSource: FakeEventSource });
    return () => Object.assign(globalThis, { EventSource: previous });
  }

  /** The newest instance. */
  static latest(): FakeEventSource {
    const latest = FakeEventSource.instances.at(-1);
    if (!latest) throw new Error('no EventSource was opened');
    return latest;
  }

  addEventListener(name: string, listener: (event: MessageEvent) => void): void {
    this.listeners.set(name, [...(this.listeners.get(name) ?? []), listener]);
  }

  close(): void {
    this.readyState = FakeEventSource.CLOSED;
  }

  get closed(): boolean {
    return this.readyState === FakeEventSource.CLOSED;
  }

  open(): void {
    this.readyState = FakeEventSource.OPEN;
    this.onopen?.(new Event('open'));
  }

  emit(name: string, data: unknown, id = ''): void {
    const event = new MessageEvent(name, {
      data: typeof data === 'string' ? data : JSON.stringify(data),
      lastEventId: id,
    });
    for (const listener of this.listeners.get(name) ?? []) listener(event);
  }

  fail(refused: boolean): void {
    this.readyState = refused ? FakeEventSource.CLOSED : FakeEventSource.CONNECTING;
    this.onerror?.(new Event('error'));
  }
}
