// Per segment, never at the root: a root loading boundary starts streaming (status 200) before a
// page can call notFound(), so unknown memory and proposal addresses answered 200.
export default function Loading() {
  return <p className="muted" role="status">Loading…</p>;
}
