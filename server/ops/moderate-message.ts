/**
 * The console's Messages queue (issue 32): Hide shows a reported message to both parties as
 * 'Message removed by Digs & Gigs'; Keep leaves it. Either closes all its open reports, in one
 * transaction with the audit row.
 */
import { and, eq, isNull, sql } from "drizzle-orm";
import { MESSAGE_TEXTS, messageModerationSchema } from "#core/messages.ts";
import { messageReports, messages, threads } from "../db/schema.ts";
import { AppError } from "../errors.ts";
import { refuseOwnRecord } from "../events/audit.ts";
import { operator } from "../guards.ts";
import { defineOperation } from "../operation.ts";

export const moderateMessage = defineOperation({
  access: operator,
  input: messageModerationSchema,
  async run({ services, user: operator, input: { intent, messageId } }): Promise<{ success: string }> {
    return services.db.transaction(async (tx) => {
      const [message] = await tx
        .select({ id: messages.id, senderId: messages.senderId, diggerUserId: threads.diggerUserId, clientId: threads.clientId })
        .from(messages)
        .innerJoin(threads, eq(threads.id, messages.threadId))
        .where(eq(messages.id, messageId))
        .for("no key update", { of: messages });
      if (!message) throw new AppError("not_found", MESSAGE_TEXTS.messageNotFound);
      // Not a thread of their own, whichever side wrote it.
      refuseOwnRecord(operator.id, message.diggerUserId, message.clientId);
      const closed = await tx
        .update(messageReports)
        .set({ resolvedAt: sql`now()`, resolution: intent === "hide" ? "hidden" : "kept" })
        .where(and(eq(messageReports.messageId, messageId), isNull(messageReports.resolvedAt)))
        .returning({ id: messageReports.id });
      if (closed.length === 0) throw new AppError("conflict", MESSAGE_TEXTS.noOpenReports);
      if (intent === "hide") await tx.update(messages).set({ hiddenAt: sql`now()`, hiddenBy: operator.id }).where(eq(messages.id, messageId));
      await services.emit(tx, { kind: "message.moderated", operatorId: operator.id, messageId, senderUserId: message.senderId, hidden: intent === "hide", reports: closed.length });
      return { success: intent === "hide" ? MESSAGE_TEXTS.hidden : MESSAGE_TEXTS.kept };
    });
  },
});
