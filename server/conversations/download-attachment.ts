/**
 * A message's attachment: the thread's parties while the message is shown, operators when it
 * was reported (the console's rule, `actsAsOperator`); the 404 page for anyone else.
 */
import { actsAsOperator, anyone } from "../guards.ts";
import { defineOperation } from "../operation.ts";
import { attachmentResponse } from "./attachments.ts";

export const messageAttachment = defineOperation({
  access: anyone,
  run: ({ services, user, params }) => attachmentResponse(services, user, actsAsOperator(services.config, user), params.threadId ?? "", params.id ?? ""),
});
