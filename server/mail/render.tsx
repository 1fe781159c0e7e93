/**
 * Every e-mail's HTML part, rendered on the server with React Email: the sender's own body
 * (`OutgoingEmail.body`, a React Email element) or, when it gave only text, that text's
 * structure (templates/text-email.tsx), inside the one layout (templates/layout.tsx).
 */
import { render } from "@react-email/components";
import type { ReactNode } from "react";
import { EmailLayout } from "./templates/layout.tsx";
import { TextEmailBody } from "./templates/text-email.tsx";

export interface RenderableEmail {
  subject: string;
  text: string;
  body?: ReactNode;
  /** A heading other than the subject. */
  heading?: string;
}

/** The first sentence-ish of the text: what a mail app shows beside the subject. */
function previewOf(text: string): string {
  const first = text.split("\n").find((line) => line.trim() !== "" && !/^hello\b/i.test(line.trim())) ?? "";
  return first.length > 140 ? `${first.slice(0, 139)}…` : first;
}

export function renderEmailHtml(email: RenderableEmail, { publicUrl, unsubscribeUrl = null }: { publicUrl: string; unsubscribeUrl?: string | null }): Promise<string> {
  return render(
    <EmailLayout heading={email.heading ?? email.subject} preview={previewOf(email.text)} publicUrl={publicUrl} unsubscribeUrl={unsubscribeUrl}>
      {email.body ?? <TextEmailBody text={email.text} />}
    </EmailLayout>,
  );
}
