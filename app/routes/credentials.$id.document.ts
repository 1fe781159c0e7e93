import { credentialDocumentResponse } from "#server/diggers/credential-documents.ts";
import { isActingOperator } from "#server/ops/access.ts";
import { runLoader } from "#server/web/respond.ts";
import type { Route } from "./+types/credentials.$id.document";

/** A proof's file, for its digger and operators; 404 for anyone else and any other id (server/diggers/credential-documents.ts). */
export async function loader({ params, context }: Route.LoaderArgs) {
  return runLoader(context, async () => {
    const { user } = await context.session();
    return credentialDocumentResponse(context.services, user, await isActingOperator(context), params.id);
  });
}
