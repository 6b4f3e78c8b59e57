"use client";

export default function ErrorPage({ reset }: { error: Error; reset: () => void }) {
  return (
    <div className="panel error" role="alert">
      <strong>This page failed to load.</strong>
      <p>The error was logged on the server. Try again, or run <code>npx teammem doctor</code>.</p>
      <button onClick={reset}>Try again</button>
    </div>
  );
}
