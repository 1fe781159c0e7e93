import { credentialDocument } from "#server/diggers/credential-documents.ts";
import { serveLoader } from "#server/web/operations.ts";
import type { Route } from "./+types/credentials.$id.document";

/** A proof's file, for its digger and operators; 404 for anyone else and any other id (server/diggers/credential-documents.ts). */
export async function loader(args: Route.LoaderArgs) {
  return serveLoader(args, credentialDocument);
}
