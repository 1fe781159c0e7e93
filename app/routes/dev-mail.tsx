import type { ReactNode } from "react";
import { PageHeader } from "#app/components/page-header.tsx";
import { Badge } from "#app/components/ui/badge.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "#app/components/ui/card.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { devMailPage } from "#server/mail/recent-emails.ts";
import { serveLoader } from "#server/web/operations.ts";
import type { Route } from "./+types/dev-mail";

/** Local mode only (server/mail/recent-emails.ts): the e-mail the app recorded, newest first. */
export async function loader(args: Route.LoaderArgs) {
  return serveLoader(args, devMailPage);
}

export const meta = () => pageMeta("Mail", "E-mail recorded by the app in local mode.");

export default function DevMail({ loaderData }: Route.ComponentProps) {
  const { emails, to, shown } = loaderData;
  return (
    <>
      <PageHeader title="Mail" subtitle={`The newest ${shown} e-mails the app recorded${to ? ` to ${to}` : ""} (local mode only).`} />
      {emails.length === 0 ? (
        <p className="text-muted-foreground">No e-mail yet.</p>
      ) : (
        <ul className="space-y-6">
          {emails.map((email) => (
            <li key={email.id}>
              <Card>
                <CardHeader>
                  <CardTitle>{email.subject}</CardTitle>
                  <CardDescription>
                    To {email.to}
                    {email.replyTo ? <> · Reply-To <span className="break-all">{email.replyTo}</span></> : null} · <time dateTime={email.createdAt.toISOString()}>{formatTime(email.createdAt)}</time>
                  </CardDescription>
                  <div className="flex gap-2">
                    <Badge variant="secondary">{email.kind}</Badge>
                    <Badge variant={email.status === "pending" ? "destructive" : "outline"}>{email.status}</Badge>
                  </div>
                </CardHeader>
                <CardContent className="grid gap-4 lg:grid-cols-2">
                  <section aria-label="Text" className="min-w-0">
                    <h3 className="mb-2 text-sm font-medium text-muted-foreground">Text</h3>
                    <pre className="text-sm break-words whitespace-pre-wrap">{linkify(email.text)}</pre>
                  </section>
                  {email.html ? (
                    <section aria-label="HTML" className="min-w-0">
                      <h3 className="mb-2 text-sm font-medium text-muted-foreground">HTML</h3>
                      <HtmlPreview html={email.html} title={`HTML of "${email.subject}"`} />
                    </section>
                  ) : null}
                  {email.calendar ? (
                    // The invitation's text as it was sent (text/calendar; method=…): shown as text, never read as markup.
                    <section aria-label="Calendar invitation" className="min-w-0 lg:col-span-2">
                      <h3 className="mb-2 text-sm font-medium text-muted-foreground">{`Calendar invitation (METHOD:${email.calendarMethod})`}</h3>
                      <pre className="max-h-96 overflow-auto rounded-md border bg-muted/40 p-3 text-xs break-all whitespace-pre-wrap">{email.calendar}</pre>
                    </section>
                  ) : null}
                </CardContent>
              </Card>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

/**
 * An e-mail's HTML part as a mail app would show it, kept apart from the page: a sandboxed
 * iframe (no scripts, no same origin, so it can read nothing of the site; links open in a
 * new tab) whose document also carries its own CSP that forbids scripts.
 */
function HtmlPreview({ html, title }: { html: string; title: string }) {
  const guard = `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data: https: http:"><base target="_blank">`;
  const srcDoc = /<head[^>]*>/i.test(html) ? html.replace(/<head[^>]*>/i, (head) => head + guard) : guard + html;
  return (
    <iframe
      title={title}
      srcDoc={srcDoc}
      sandbox="allow-popups allow-popups-to-escape-sandbox"
      referrerPolicy="no-referrer"
      loading="lazy"
      className="h-[36rem] w-full rounded-md border bg-white"
    />
  );
}

/** The same text on the server and in the browser, whatever their time zones. */
function formatTime(date: Date): string {
  return `${date.toISOString().slice(0, 19).replace("T", " ")} UTC`;
}

/** A link that starts a line: the template's actions (a user's line holding a link is indented: server/mail/content.ts). */
const URL_PATTERN = /^(?:[^\s:][^:\n]*: )?(https?:\/\/[^\s<>"']+)/gm;

/** Text with the links of its action lines as links (trailing punctuation stays text); a user's words stay text. */
function linkify(text: string): ReactNode[] {
  const parts: ReactNode[] = [];
  let last = 0;
  for (const match of text.matchAll(URL_PATTERN)) {
    const url = match[1]!.replace(/[.,;:!?)\]]+$/, "");
    const start = match.index + match[0].length - match[1]!.length;
    parts.push(text.slice(last, start));
    parts.push(
      <a key={start} href={url} className="text-primary underline underline-offset-4">
        {url}
      </a>,
    );
    last = start + url.length;
  }
  parts.push(text.slice(last));
  return parts;
}
