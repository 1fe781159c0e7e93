/**
 * /account's Phone card, Remove (issue 49): no number to reuse; its verification is forgotten
 * unless a gig still gives it, and a code waiting for it goes.
 */
import { and, eq } from "drizzle-orm";
import { phoneCodes, users } from "../db/schema.ts";
import { ACCOUNT_FORM } from "../guards.ts";
import { defineOperation } from "../operation.ts";
import { forgetUnusedVerification } from "./forget-verification.ts";

export const removeAccountPhone = defineOperation({
  access: ACCOUNT_FORM,
  async run({ services: { db }, user }) {
    await db.transaction(async (tx) => {
      const [row] = await tx.select({ phone: users.phone }).from(users).where(eq(users.id, user.id)).for("update");
      await tx.update(users).set({ phone: null }).where(eq(users.id, user.id));
      // A code still waiting for the account's number would put it back: it goes.
      await tx.delete(phoneCodes).where(and(eq(phoneCodes.userId, user.id), eq(phoneCodes.forAccount, true)));
      await forgetUnusedVerification(tx, user.id, row?.phone ?? null);
    });
  },
});
