import { messageAttachment } from "#server/conversations/download-attachment.ts";
import { serveLoader } from "#server/web/operations.ts";
import type { Route } from "./+types/messages.$threadId.attachments.$id";

/**
 * A message's attachment, for the thread's two parties and, when the message was reported,
 * operators; the 404 page for anyone else and any other id (server/conversations/attachments.ts).
 */
export async function loader(args: Route.LoaderArgs) {
  return serveLoader(args, messageAttachment);
}
