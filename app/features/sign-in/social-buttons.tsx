import { useId } from "react";
import { Form } from "react-router";
import { Button } from "#app/components/ui/button.tsx";
import { fillBrowserZone } from "#app/lib/browser-zone.ts";

const PROVIDERS = [
  { id: "google", name: "Google" },
  { id: "github", name: "GitHub" },
  { id: "linkedin", name: "LinkedIn" },
] as const;

/**
 * Continue with Google, GitHub or LinkedIn; `userType` is what a new account becomes. A new
 * account is made only with `ageConfirmed` (the Sign Up tab's 18+ box); without it the
 * provider signs in an existing account only.
 */
export function SocialButtons({
  userType,
  ageConfirmed = false,
  busy,
  available,
}: {
  userType: string;
  ageConfirmed?: boolean;
  busy: boolean;
  /** The providers this server has set up; the others are shown disabled, saying why. */
  available: readonly string[];
}) {
  const reasonId = useId();
  const unavailable = PROVIDERS.filter((p) => !available.includes(p.id));
  const reason = unavailableReason(unavailable.map((p) => p.name));
  return (
    <div className="grid gap-2">
      {PROVIDERS.map((p) =>
        available.includes(p.id) ? (
          <Form method="post" key={p.id} onSubmit={fillBrowserZone}>
            <input type="hidden" name="intent" value="social" />
            <input type="hidden" name="timeZone" />
            <input type="hidden" name="provider" value={p.id} />
            <input type="hidden" name="userType" value={userType} />
            {ageConfirmed && <input type="hidden" name="ageConfirmed" value="on" />}
            <Button type="submit" variant="outline" className="w-full" disabled={busy}>
              {`Continue with ${p.name}`}
            </Button>
          </Form>
        ) : (
          // A disabled button gets no pointer events in some browsers: the wrapper carries the hover text.
          <span key={p.id} title={reason} className="grid">
            <Button type="button" variant="outline" className="w-full" disabled aria-describedby={reasonId}>
              {`Continue with ${p.name}`}
            </Button>
          </span>
        ),
      )}
      {reason ? (
        <p id={reasonId} className="text-center text-sm text-muted-foreground">
          {reason}
        </p>
      ) : null}
    </div>
  );
}

/**
 * Why the disabled buttons are disabled, one line for all of them: shown under the buttons (a
 * touch screen has no hover), their hover text, and their accessible description.
 */
function unavailableReason(names: string[]): string | undefined {
  if (names.length === 0) return undefined;
  const list = names.length === 1 ? names[0] : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
  return `Sign-in with ${list} is not set up on this server yet. Use your e-mail and password instead.`;
}
