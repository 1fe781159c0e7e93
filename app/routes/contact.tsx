import { CircleHelp, Mail, MessageCircle, Phone, Send, type IconType } from "#app/components/icons.tsx";
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from "react";
import { Form, useNavigation } from "react-router";
import { Link } from "#app/components/link.tsx";
import { PageHeader } from "#app/components/page-header.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Card, CardContent, CardHeader } from "#app/components/ui/card.tsx";
import { Input } from "#app/components/ui/input.tsx";
import { Textarea } from "#app/components/ui/textarea.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { useActionToast, useBrowserCheck, useSchemas } from "#app/lib/use-action-toast.ts";
import { CONTACT_LIMITS, CONTACT_MESSAGE_ROWS, CONTACT_SENT } from "#core/contact-texts.ts";
import { getContactPageData, sendContactMessage } from "#server/contact/contact-form.ts";
import { serveAction } from "#server/web/operations.ts";
import type { Route } from "./+types/contact";
import { fieldControlProps, FormField } from "#app/components/form-field.tsx";

export function loader({ context }: Route.LoaderArgs) {
  return getContactPageData(context.services.config);
}

export async function action(args: Route.ActionArgs) {
  return serveAction(args, sendContactMessage, () => ({ success: CONTACT_SENT }));
}

export const meta = () => pageMeta("Contact Us", "Questions about Digs & Gigs? Send us a message.");

export default function Contact({ loaderData, actionData }: Route.ComponentProps) {
  const { supportEmail, supportPhone } = loaderData;
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formAction === "/contact";
  const formRef = useRef<HTMLFormElement>(null);
  const [message, setMessage] = useState("");
  const failure = actionData && "error" in actionData ? actionData : undefined;
  const { errors: fieldErrors, check } = useBrowserCheck(failure);
  const { prepare, withSchemas } = useSchemas(() => import("#core/contact-schema.ts"));

  useActionToast(actionData);
  // A new response replaces the browser's messages; a success clears the form.
  const [lastActionData, setLastActionData] = useState(actionData);
  if (actionData !== lastActionData) {
    setLastActionData(actionData);
    if (actionData?.success) setMessage("");
  }
  useEffect(() => {
    if (actionData?.success) formRef.current?.reset();
  }, [actionData]);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    const values = Object.fromEntries(new FormData(event.currentTarget));
    withSchemas(event, ({ contactSchema }) => check(event, contactSchema.safeParse(values)));
  }

  return (
    <div>
      <PageHeader title="Contact Us" subtitle="Questions, feedback or trouble with a lead? We usually answer within one business day." />
      <div className="grid gap-8 lg:grid-cols-3">
        <Card className="lg:col-span-2 lg:self-start">
          <CardHeader>
            <h2 className="text-xl font-semibold tracking-tight">Send us a Message</h2>
            <p className="text-sm text-muted-foreground">
              Fields marked <span aria-hidden="true">*</span>
              <span className="sr-only">with an asterisk</span> are required.
            </p>
          </CardHeader>
          <CardContent>
            <Form ref={formRef} method="post" action="/contact" noValidate onSubmit={onSubmit} onFocus={() => void prepare()} className="grid gap-5">
              <div className="grid gap-5 sm:grid-cols-2">
                <FormField id="contact-name" label="Name" required error={fieldErrors.name}>
                  <Input
                    {...fieldControlProps("contact-name", { required: true, error: fieldErrors.name })}
                    name="name"
                    autoComplete="name"
                    maxLength={CONTACT_LIMITS.name}
                  />
                </FormField>
                <FormField id="contact-email" label="Email" required error={fieldErrors.email}>
                  <Input
                    {...fieldControlProps("contact-email", { required: true, error: fieldErrors.email })}
                    name="email"
                    type="email"
                    autoComplete="email"
                    maxLength={CONTACT_LIMITS.email}
                  />
                </FormField>
              </div>
              <FormField id="contact-subject" label="Subject" error={fieldErrors.subject}>
                <Input
                  {...fieldControlProps("contact-subject", { error: fieldErrors.subject })}
                  name="subject"
                  maxLength={CONTACT_LIMITS.subject}
                />
              </FormField>
              <FormField id="contact-message" label="Message" required error={fieldErrors.message}>
                <Textarea
                  {...fieldControlProps("contact-message", {
                    required: true,
                    error: fieldErrors.message,
                    hintId: "contact-message-count",
                  })}
                  name="message"
                  rows={CONTACT_MESSAGE_ROWS}
                  maxLength={CONTACT_LIMITS.message}
                  value={message}
                  onChange={(event) => setMessage(event.target.value)}
                  className="field-sizing-fixed resize-y"
                />
              </FormField>
              <p id="contact-message-count" className="-mt-3 text-right text-xs text-muted-foreground">
                {`${message.length}/${CONTACT_LIMITS.message} characters`}
              </p>
              <Button type="submit" disabled={busy} className="justify-self-start">
                <Send aria-hidden="true" />
                {busy ? "Sending..." : "Send Message"}
              </Button>
            </Form>
          </CardContent>
        </Card>

        <div className="grid content-start gap-6">
          <InfoCard icon={Mail} title="Email Us">
            <p className="text-sm text-muted-foreground">For questions about your account, gigs or leads.</p>
            <a
              href={`mailto:${supportEmail}`}
              className="font-medium text-primary-strong underline underline-offset-4 [overflow-wrap:anywhere]"
            >
              {supportEmail}
            </a>
          </InfoCard>
          <InfoCard icon={Phone} title="Call Us">
            <a href={`tel:${supportPhone.replace(/[^\d+]/g, "")}`} className="font-medium text-primary-strong underline underline-offset-4">
              {supportPhone}
            </a>
            <p className="text-sm text-muted-foreground">Monday to Friday, 9am to 6pm EST</p>
          </InfoCard>
          <InfoCard icon={MessageCircle} title="Live Chat">
            {/* A plain fragment link: the browser moves focus to the form's first field, with or without JavaScript. */}
            <a href="#contact-name" className="font-medium text-primary-strong underline underline-offset-4">
              Start a conversation
            </a>
          </InfoCard>
          <InfoCard icon={CircleHelp} title="Frequently Asked Questions">
            <p className="text-sm text-muted-foreground">Quick answers about posting gigs, buying leads and refunds.</p>
            <Button asChild variant="outline" className="justify-self-start">
              <Link to="/">View FAQs</Link>
            </Button>
          </InfoCard>
        </div>
      </div>
    </div>
  );
}

/** A labelled field: a visible asterisk for required ones (hidden from the accessible name), its message beside it. */

/** The control's side of a field: its id, required mark, and the messages that describe it. */

function InfoCard({ icon: Icon, title, children }: { icon: IconType; title: string; children: ReactNode }) {
  return (
    <Card className="gap-3">
      <CardHeader className="flex items-center gap-3">
        <Icon aria-hidden="true" className="size-5 shrink-0 text-primary-strong" />
        <h2 className="text-lg font-semibold">{title}</h2>
      </CardHeader>
      <CardContent className="grid gap-2">{children}</CardContent>
    </Card>
  );
}
