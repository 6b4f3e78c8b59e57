import Link from "next/link";

export default function MemoryNotFound() {
  return (
    <div className="panel error" role="alert" data-testid="memory-not-found">
      <strong>There is no memory at this address.</strong>
      <p>
        A memory address names a <code>.md</code> file inside a memory directory you can see: a relative path, without
        <code>..</code> segments, absolute paths, backslashes or NUL characters. <code>MEMORY.md</code> has its own index page.
      </p>
      <p><Link href="/memories">Back to Memories</Link></p>
    </div>
  );
}
