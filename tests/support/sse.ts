/**
 * A reader of a Server-Sent Events stream (the live stream, /messages/live), as a browser's
 * EventSource parses it: events with their id, name and data, and comments (heartbeats). It
 * reads a fetch Response's body (in-process `app.request()`, or `fetch` over a socket), or
 * chunks fed to it (`node:http`, for the bench).
 */
export interface SseEvent {
  id?: string;
  event: string;
  data: string;
  /** When it was parsed (performance.now()). */
  at: number;
}

export class SseParser {
  readonly events: SseEvent[] = [];
  comments = 0;
  retry?: number;
  private buffer = "";
  private readonly decoder = new TextDecoder();

  constructor(private readonly onEvent?: (event: SseEvent) => void) {}

  feed(chunk: Uint8Array | string) {
    this.buffer += typeof chunk === "string" ? chunk : this.decoder.decode(chunk, { stream: true });
    let end: number;
    while ((end = this.buffer.indexOf("\n\n")) >= 0) {
      const block = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 2);
      let id: string | undefined;
      let event = "message";
      const data: string[] = [];
      let fields = 0;
      for (const line of block.split("\n")) {
        if (line.startsWith(":")) {
          this.comments += 1;
          continue;
        }
        const colon = line.indexOf(":");
        const name = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
        if (name === "id") id = value;
        else if (name === "event") event = value;
        else if (name === "data") data.push(value);
        else if (name === "retry") this.retry = Number(value);
        else continue;
        if (name !== "retry") fields += 1;
      }
      if (fields === 0) continue;
      const parsed = { id, event, data: data.join("\n"), at: performance.now() };
      this.events.push(parsed);
      this.onEvent?.(parsed);
    }
  }
}

/** A live stream read from a Response: its events so far, and waiting for more. */
export class SseStream extends SseParser {
  readonly ended: Promise<void>;
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;

  constructor(readonly response: Response) {
    super();
    if (!response.body) throw new Error(`no stream: ${response.status}`);
    const reader = (this.reader = response.body.getReader());
    this.ended = (async () => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        this.feed(value);
      }
    })().catch(() => {});
  }

  /** The events named `name` so far. */
  named(name: string): SseEvent[] {
    return this.events.filter((e) => e.event === name);
  }

  /** Stops reading, as a browser leaving the page. */
  async cancel() {
    await this.reader.cancel().catch(() => {});
  }
}
