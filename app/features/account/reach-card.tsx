/**
 * The account page's How to reach me table (issue 34): one row per group of events, an E-mail
 * and a Push box each (intent `reach`). E-mail a person must not miss is ticked and cannot be
 * cleared; Push needs a device turned on above (without one the column says so), and is not
 * shown at all when this server sends no pushes (no VAPID keys).
 */
import { Form } from "react-router";
import { Button } from "#app/components/ui/button.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "#app/components/ui/card.tsx";
import { Checkbox } from "#app/components/ui/checkbox.tsx";
import { ALWAYS_EMAILED, REACH_GROUP_LABELS, REACH_MESSAGES, type ReachGroup, type ReachPreferences } from "#core/reach.ts";

const GROUP_HINTS: Record<ReachGroup, string> = {
  messages: "Pushed at once; e-mailed when unread for 5 minutes.",
  quotes: "Quotes accepted or declined, hires, references, reviews, issue decisions.",
  visits: "Times proposed, visits booked, changed or cancelled, and reminders before each visit.",
  "lead-alerts": "Each matching gig when your lead alerts are Instant.",
  purchases: "A digger bought your lead or reported an issue.",
  account: "Sign-in and security, your account's standing, gigs and credentials reviewed by us.",
};

export interface ReachCardData {
  preferences: ReachPreferences;
  /** The rows this person has (instant alerts: diggers; purchases: clients). */
  groups: ReachGroup[];
  /** "hidden": this server pushes nothing; "no-device": no device turned on yet. */
  push: "on" | "no-device" | "hidden";
}

export function ReachCard({ card, busyIntent }: { card: ReachCardData; busyIntent: string | null }) {
  const { preferences, groups, push } = card;
  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2>How to reach me</h2>
        </CardTitle>
        <CardDescription>{REACH_MESSAGES.alwaysEmailed} Everything also shows in the bell.</CardDescription>
      </CardHeader>
      <CardContent>
        {/* Keyed by the saved choices, so the boxes show them again after each save. */}
        <Form method="post" noValidate className="grid gap-4" key={JSON.stringify(preferences) + push}>
          <input type="hidden" name="intent" value="reach" />
          {push === "on" ? <input type="hidden" name="push" value="shown" /> : null}
          <table className="w-full text-sm">
            <thead>
              <tr className="border-b text-left">
                <th scope="col" className="py-2 pr-3 font-medium">
                  Notices about
                </th>
                <th scope="col" className="w-16 px-2 py-2 text-center font-medium">
                  E-mail
                </th>
                {push === "hidden" ? null : (
                  <th scope="col" className="w-16 px-2 py-2 text-center font-medium">
                    Push
                  </th>
                )}
              </tr>
            </thead>
            <tbody>
              {groups.map((group) => {
                const locked = ALWAYS_EMAILED.has(group);
                return (
                  <tr key={group} className="border-b last:border-b-0">
                    <th scope="row" className="py-3 pr-3 text-left font-normal">
                      <span className="font-medium" id={`reach-${group}`}>
                        {REACH_GROUP_LABELS[group]}
                      </span>
                      <span className="block text-muted-foreground">{locked ? "Always e-mailed." : GROUP_HINTS[group]}</span>
                    </th>
                    <td className="px-2 py-3 text-center align-middle">
                      <Checkbox
                        name={`email.${group}`}
                        aria-label={`E-mail: ${REACH_GROUP_LABELS[group]}`}
                        defaultChecked={locked || preferences[group].email}
                        disabled={locked}
                      />
                    </td>
                    {push === "hidden" ? null : (
                      <td className="px-2 py-3 text-center align-middle">
                        {push === "on" ? (
                          <Checkbox name={`push.${group}`} aria-label={`Push: ${REACH_GROUP_LABELS[group]}`} defaultChecked={preferences[group].push} />
                        ) : (
                          <>
                            <span aria-hidden="true">—</span>
                            <span className="sr-only">No device on</span>
                          </>
                        )}
                      </td>
                    )}
                  </tr>
                );
              })}
            </tbody>
          </table>
          {push === "no-device" ? <p className="text-sm text-muted-foreground">{REACH_MESSAGES.pushNeedsDevice}</p> : null}
          <div>
            <Button type="submit" variant="outline" disabled={busyIntent !== null}>
              {busyIntent === "reach" ? "Saving..." : "Save Choices"}
            </Button>
          </div>
        </Form>
      </CardContent>
    </Card>
  );
}
