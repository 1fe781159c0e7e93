import { attachmentResponse } from "#server/messages/attachments.ts";
import { actsAsOperator } from "#server/auth/guards.ts";
import { runLoader } from "#server/web/respond.ts";
import type { Route } from "./+types/messages.$threadId.attachments.$id";

/**
 * A message's attachment, for the thread's two parties and, when the message was reported,
 * operators; the 404 page for anyone else and any other id (server/messages/attachments.ts).
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  return runLoader(context, async () => {
    const { user } = await context.session();
    return attachmentResponse(context.services, user, actsAsOperator(context.services.config, user), params.threadId, params.id);
  });
}
