/** The SSE line splitter of `aep live` (client.ts), its own module to keep the wire module's size in bounds. */

/** Lines of chunked text at CRLF, CR or LF in linear time (a CR ending a chunk pairs with an LF opening the next). */
export class LineReader {
  private parts: string[] = [];
  private size = 0;
  private afterCr = false;

  constructor(
    private readonly limit: number,
    private readonly onLine: (line: string) => void,
  ) {}

  /** Feed one chunk; false when the unfinished line has grown past `limit` characters (nothing more should be read). */
  push(chunk: string): boolean {
    const breaks = /\r\n?|\n/g;
    let from = this.afterCr && chunk.startsWith('\n') ? 1 : 0;
    this.afterCr = false;
    breaks.lastIndex = from;
    for (let m = breaks.exec(chunk); m; m = breaks.exec(chunk)) {
      const line = this.parts.length ? this.parts.join('') + chunk.slice(from, m.index) : chunk.slice(from, m.index);
      this.parts = [];
      this.size = 0;
      from = breaks.lastIndex;
      this.afterCr = m[0] === '\r' && from === chunk.length;
      this.onLine(line);
    }
    if (from < chunk.length) {
      this.parts.push(chunk.slice(from));
      this.size += chunk.length - from;
    }
    return this.size <= this.limit;
  }
}
