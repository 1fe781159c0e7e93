/**
 * The code step (issue 49, /verify-phone): 'We sent a 6-digit code to {number}', the Code field,
 * Verify, and 'Send a new code', which counts down here in the browser until the minute since the
 * last code has passed (the server refuses it before that too). One column, large enough to type
 * into on a phone.
 */
import { useEffect, useState } from "react";
import { Form } from "react-router";
import { Link } from "#app/components/link.tsx";
import { fieldControlProps, FormField } from "#app/components/form-field.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "#app/components/ui/card.tsx";
import { Input } from "#app/components/ui/input.tsx";
import { CODE_LENGTH, CODE_MINUTES, PHONE_TEXTS } from "#core/phone-verification.ts";

export interface CodeStepProps {
  /** The number as the client reads it (displayPhone). */
  number: string;
  resendInSeconds: number;
  /** Where the page goes back to. */
  next: string;
  error?: string;
  busyIntent: string | null;
}

const MARK = "\u0000";

/** A core text with the number in it, the number kept on one line (a phone's narrow screen would break it). */
function NumberInText({ text, number }: { text: string; number: string }) {
  const [before, after] = text.split(MARK);
  return (
    <>
      {before}
      <span className="whitespace-nowrap">{number}</span>
      {after}
    </>
  );
}

/** Seconds left, counted down once a second from the server's figure (the step is keyed by it: a new code, a new count). */
function useCountdown(seconds: number): number {
  const [left, setLeft] = useState(seconds);
  useEffect(() => {
    if (seconds <= 0) return;
    const started = Date.now();
    const timer = setInterval(() => {
      const remaining = Math.max(0, seconds - Math.floor((Date.now() - started) / 1000));
      setLeft(remaining);
      if (remaining === 0) clearInterval(timer);
    }, 1000);
    return () => clearInterval(timer);
  }, [seconds]);
  return left;
}

export function CodeStep({ number, resendInSeconds, next, error, busyIntent }: CodeStepProps) {
  const wait = useCountdown(resendInSeconds);
  const busy = busyIntent !== null;
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-lg leading-snug">
          <NumberInText text={PHONE_TEXTS.codeSent(MARK)} number={number} />
        </CardTitle>
        <CardDescription>{PHONE_TEXTS.codeHint(CODE_MINUTES)}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6">
        <Form method="post" noValidate className="grid gap-4">
          <input type="hidden" name="intent" value="verify" />
          <FormField id="phone-code" label={PHONE_TEXTS.codeLabel} error={error}>
            <Input
              {...fieldControlProps("phone-code", { error })}
              name="code"
              inputMode="numeric"
              autoComplete="one-time-code"
              pattern="[0-9]*"
              maxLength={CODE_LENGTH}
              required
              autoFocus
              className="h-12 max-w-48 text-center font-mono text-2xl tracking-[0.3em]"
            />
          </FormField>
          <Button type="submit" size="lg" className="w-full sm:w-auto sm:justify-self-start" disabled={busy}>
            {busyIntent === "verify" ? "Verifying..." : PHONE_TEXTS.verify}
          </Button>
        </Form>
        <Form method="post" className="grid gap-2 border-t pt-4">
          <input type="hidden" name="intent" value="send-new-code" />
          <Button type="submit" variant="outline" className="w-full sm:w-auto sm:justify-self-start" disabled={busy || wait > 0}>
            {busyIntent === "send-new-code" ? "Sending..." : wait > 0 ? PHONE_TEXTS.sendNewCodeIn(wait) : PHONE_TEXTS.sendNewCode}
          </Button>
          <Link to={next} className="text-sm text-muted-foreground underline underline-offset-4 sm:justify-self-start">
            {PHONE_TEXTS.goBack}
          </Link>
        </Form>
      </CardContent>
    </Card>
  );
}

/** The code step without a waiting code: said plainly, with the way back. */
export function NoCodeStep({ message, next }: { message: string; next: string }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-lg leading-snug">{message}</CardTitle>
      </CardHeader>
      <CardContent>
        <Button asChild variant="outline">
          <Link to={next}>{PHONE_TEXTS.goBack}</Link>
        </Button>
      </CardContent>
    </Card>
  );
}
