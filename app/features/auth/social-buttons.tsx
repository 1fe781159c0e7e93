import { Form } from "react-router";
import { Button } from "#app/components/ui/button.tsx";

const PROVIDERS = [
  { id: "google", label: "Continue with Google" },
  { id: "github", label: "Continue with GitHub" },
  { id: "linkedin", label: "Continue with LinkedIn" },
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
  return (
    <div className="grid gap-2">
      {PROVIDERS.map((p) =>
        available.includes(p.id) ? (
        <Form method="post" key={p.id}>
          <input type="hidden" name="intent" value="social" />
          <input type="hidden" name="provider" value={p.id} />
          <input type="hidden" name="userType" value={userType} />
          {ageConfirmed && <input type="hidden" name="ageConfirmed" value="on" />}
          <Button type="submit" variant="outline" className="w-full" disabled={busy}>
            {p.label}
          </Button>
        </Form>
        ) : (
          <UnavailableProvider key={p.id} id={p.id} label={p.label} />
        ),
      )}
    </div>
  );
}

/** A provider the server has no credentials for: disabled, with the reason on hover and for screen readers. */
function UnavailableProvider({ id, label }: { id: string; label: string }) {
  const name = label.replace("Continue with ", "");
  const reason = `${name} sign-in is not set up on this server yet. Use your e-mail and password instead.`;
  return (
    // A disabled button gets no pointer events in some browsers: the wrapper carries the hover text.
    <span title={reason} className="grid">
      <Button type="button" variant="outline" className="w-full" disabled aria-describedby={`${id}-unavailable`}>
        {label}
      </Button>
      <span id={`${id}-unavailable`} className="sr-only">
        {reason}
      </span>
    </span>
  );
}
