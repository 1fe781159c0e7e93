import { linkParts } from "#core/messages.ts";

/** A message's text as text, its http(s) addresses as links that pass no ranking and no opener; never markup. */
export function MessageText({ text }: { text: string }) {
  return (
    <p className="whitespace-pre-wrap [overflow-wrap:anywhere]">
      {linkParts(text).map((part, index) =>
        part.kind === "link" ? (
          <a key={index} href={part.href} rel="nofollow ugc noopener" target="_blank" className="underline underline-offset-2">
            {part.text}
          </a>
        ) : (
          <span key={index}>{part.text}</span>
        ),
      )}
    </p>
  );
}
