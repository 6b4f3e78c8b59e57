import Markdown from "react-markdown";
import remarkGfm from "remark-gfm";

/**
 * A memory body rendered as Markdown. Raw HTML is not rendered and unsafe link targets are
 * dropped (react-markdown's defaults): memory text is written by people and by agents alike.
 */
export function MarkdownBody({ text }: { text: string }) {
  return (
    <div className="markdown" data-testid="memory-body">
      <Markdown remarkPlugins={[remarkGfm]}>{text}</Markdown>
    </div>
  );
}
