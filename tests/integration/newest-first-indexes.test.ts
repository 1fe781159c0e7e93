/**
 * Migration 0044 (issue 35, "Nothing grows with the data that should not"): the bell's page and
 * the audit log walk their indexes newest first and stop after their rows, instead of reading
 * every row of a user (or the whole trail) and sorting it. The statements are the ones
 * `notificationsPage` and `auditLog` send, EXPLAINed with sorting priced out.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { notifications } from "../../server/db/schema.ts";
import { notificationsPage } from "../../server/notifications/view-notifications.ts";
import { auditLog } from "../../server/ops/audit-log.ts";
import { signUpAs } from "../support/accounts.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { plan, recordingDb, type Statement } from "../support/query-plans.ts";

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app.close());

describe("newest-first lists read their indexes in order", () => {
  it("the bell's page walks the user's notifications index newest first, without sorting", async () => {
    const user = await signUpAs(app, "digger", "Bella Bell");
    await app.database.db.insert(notifications).values(
      Array.from({ length: 3 }, (_, i) => ({ userId: user.id, kind: "test", text: `Note ${i + 1}`, link: "/notifications" })),
    );
    const recorded: Statement[] = [];
    const { page } = await notificationsPage(recordingDb(app, recorded), user.id, null);
    expect(page.items).toHaveLength(3);
    const statement = recorded.find((s) => /from "notifications"/.test(s.sql) && /order by/.test(s.sql));
    expect(statement).toBeDefined();
    const text = await plan(app, statement!);
    expect(text).toContain("notifications_user_newest_idx");
    expect(text).not.toMatch(/Sort Key: .*created_at DESC/);
  });

  it("the audit log, whole and for one user, walks its indexes newest first, without sorting", async () => {
    const user = await signUpAs(app, "consumer", "Audie Audit");
    const none = { action: "", operator: "", user: "" } as const;
    for (const [filters, index] of [
      [none, "operator_actions_newest_idx"],
      [{ ...none, subjectUserId: user.id }, "operator_actions_subject_user_idx"],
    ] as const) {
      const recorded: Statement[] = [];
      await auditLog(recordingDb(app, recorded), filters, null);
      const statement = recorded.find((s) => /from "operator_actions"/.test(s.sql) && /order by/.test(s.sql));
      expect(statement).toBeDefined();
      const text = await plan(app, statement!);
      expect(text, JSON.stringify(filters)).toContain(index);
      expect(text, JSON.stringify(filters)).not.toMatch(/Sort Key/);
    }
  });
});
