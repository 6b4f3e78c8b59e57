import { compareIndexOrder, indexLineOf, type ProjectIndexHeader } from "./regenerate-project-index";
import { spliceRecords } from "./spliced-records";

/**
 * A project's MEMORY.md as bytes, with the headers it lists (in index order) and where each line
 * starts. A commit changes one memory of up to 10,000: its line is spliced out of the last
 * commit's bytes and in at its place, where regenerating the text from every header, checking
 * their order and encoding 1.5 MB took ~25 ms of each commit inside the store lease. The bytes
 * are exactly regenerateProjectIndexFromHeaders' text (a test compares them). Immutable.
 */
export class ProjectIndex {
  private constructor(
    readonly headers: readonly ProjectIndexHeader[],
    readonly bytes: Buffer,
    /** Line i (with its newline) spans starts[i] to starts[i + 1]. */
    private readonly starts: Uint32Array,
  ) {}

  static fromHeaders(headers: readonly ProjectIndexHeader[]): ProjectIndex {
    const listed = headers.filter((header) => indexLineOf(header) !== null).sort(compareIndexOrder);
    const lines = listed.map((header) => `${indexLineOf(header)!}\n`);
    const starts = new Uint32Array(lines.length + 1);
    lines.forEach((line, index) => (starts[index + 1] = starts[index]! + Buffer.byteLength(line, "utf8")));
    return new ProjectIndex(listed, Buffer.from(lines.join(""), "utf8"), starts);
  }

  get text(): string {
    return this.bytes.toString("utf8");
  }

  /** The index without the memory at `path` (retired, or about to be listed again). */
  without(path: string): ProjectIndex {
    const index = this.headers.findIndex((header) => header.path === path);
    return index === -1 ? this : this.splice(index, 1, null);
  }

  /** The index with `header` listed at its place (newest first), replacing the memory's old line. */
  with(header: ProjectIndexHeader): ProjectIndex {
    const rest = this.without(header.path);
    return indexLineOf(header) === null ? rest : rest.splice(rest.placeOf(header), 0, header);
  }

  /** The first position whose header comes after `header` in index order. */
  private placeOf(header: ProjectIndexHeader): number {
    let low = 0;
    let high = this.headers.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (compareIndexOrder(this.headers[middle]!, header) <= 0) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  private splice(index: number, removeCount: number, inserted: ProjectIndexHeader | null): ProjectIndex {
    const line = inserted === null ? null : Buffer.from(`${indexLineOf(inserted)!}\n`, "utf8");
    const { bytes, starts } = spliceRecords({ bytes: this.bytes, starts: this.starts }, index, removeCount, line);
    const headers = [...this.headers.slice(0, index), ...(inserted ? [inserted] : []), ...this.headers.slice(index + removeCount)];
    return new ProjectIndex(headers, bytes, starts);
  }

}
