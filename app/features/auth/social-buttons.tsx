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
export function SocialButtons({ userType, ageConfirmed = false, busy }: { userType: string; ageConfirmed?: boolean; busy: boolean }) {
  return (
    <div className="grid gap-2">
      {PROVIDERS.map((p) => (
        <Form method="post" key={p.id}>
          <input type="hidden" name="intent" value="social" />
          <input type="hidden" name="provider" value={p.id} />
          <input type="hidden" name="userType" value={userType} />
          {ageConfirmed && <input type="hidden" name="ageConfirmed" value="on" />}
          <Button type="submit" variant="outline" className="w-full" disabled={busy}>
            {p.label}
          </Button>
        </Form>
      ))}
    </div>
  );
}
