/**
 * The event path's lint rule bites (issue 46; eslint.config.js): outside the event module, the
 * job queue, the mailer's and push's own delivery and the live hub, no code starts a job or
 * sends a live update by hand, and nothing but emit tells anyone. Linted as throwaway files at
 * paths of the areas, through ESLint's own API and the project's configuration.
 */
import path from "node:path";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

const eslint = new ESLint({ cwd: path.resolve(import.meta.dirname, "../..") });

const code = `
import { publishLive } from "../live/publish.ts";
export async function handMade(tx: never, services: { jobs: { send: Function; sendMany: Function }; mailer: { send: Function } }, jobs: { send: Function }) {
  await jobs.send("refund.send", { refundId: "r" }, { tx });
  await services.jobs.send("alerts.gig", { gigId: "g" }, { tx });
  await services.jobs.sendMany("push.send", [], { tx });
  await publishLive(tx, ["u"], { kind: "thread", threadId: "t" });
  await services.mailer.send({});
}
`;

async function refusals(filePath: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.filter((m) => m.ruleId === "no-restricted-syntax").map((m) => `${m.line}: ${m.message}`);
}

const STARTING = "Declare the event's jobs and live updates in server/events/registry.ts, and emit it.";
const TELLING = "Tell of an event with emit (server/events/): declare it in server/events/registry.ts.";

describe("the event path's lint rule", () => {
  it("refuses every job started, live update sent and e-mail sent by hand in an operation's area", async () => {
    for (const file of ["server/leads/throwaway.ts", "server/conversations/throwaway.ts", "server/workers-throwaway.ts"]) {
      expect(await refusals(file)).toEqual([`4: ${STARTING}`, `5: ${STARTING}`, `6: ${STARTING}`, `7: ${STARTING}`, `8: ${TELLING}`]);
    }
  }, 60_000);

  it("lets the starters start jobs and send live updates, and still never tell by hand", async () => {
    expect(await refusals("server/jobs/throwaway.ts")).toEqual([`8: ${TELLING}`]);
    expect(await refusals("server/live/throwaway.ts")).toEqual([`8: ${TELLING}`]);
    expect(await refusals("server/events/throwaway.ts")).toEqual([]);
    // The mail area is the mailer: it sends e-mail, and starts no job of anyone else's.
    expect(await refusals("server/mail/throwaway.ts")).toEqual([`4: ${STARTING}`, `5: ${STARTING}`, `6: ${STARTING}`, `7: ${STARTING}`]);
  }, 60_000);
});
