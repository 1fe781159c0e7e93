/** /account's Phone card, Remove (issue 49): no number to reuse; its verification is forgotten unless a gig still gives it. */
import { eq } from "drizzle-orm";
import { users } from "../db/schema.ts";
import { ACCOUNT_FORM } from "../guards.ts";
import { defineOperation } from "../operation.ts";
import { forgetUnusedVerification } from "./forget-verification.ts";

export const removeAccountPhone = defineOperation({
  access: ACCOUNT_FORM,
  async run({ services: { db }, user }) {
    await db.transaction(async (tx) => {
      const [row] = await tx.select({ phone: users.phone }).from(users).where(eq(users.id, user.id)).for("update");
      await tx.update(users).set({ phone: null }).where(eq(users.id, user.id));
      await forgetUnusedVerification(tx, user.id, row?.phone ?? null);
    });
  },
});
