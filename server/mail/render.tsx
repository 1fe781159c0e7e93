/**
 * Every e-mail's HTML part, rendered on the server with React Email: the e-mail's parts
 * (templates/email-body.tsx) inside the one layout (templates/layout.tsx).
 */
import { render } from "@react-email/components";
import { emailPreview, type EmailMessage } from "./content.ts";
import { EmailBody } from "./templates/email-body.tsx";
import { EmailLayout } from "./templates/layout.tsx";

export function renderEmailHtml(email: EmailMessage, { publicUrl, unsubscribeUrl = null }: { publicUrl: string; unsubscribeUrl?: string | null }): Promise<string> {
  return render(
    <EmailLayout heading={email.heading ?? email.subject} preview={emailPreview(email.content)} publicUrl={publicUrl} unsubscribeUrl={unsubscribeUrl}>
      <EmailBody content={email.content} />
    </EmailLayout>,
  );
}
