import { downloadAccountData } from "#server/privacy/export.ts";
import { serveLoader } from "#server/web/operations.ts";
import type { Route } from "./+types/account.data";

/** Download my data: the signed-in user's data as a JSON file (server/privacy/export.ts). */
export async function loader(args: Route.LoaderArgs) {
  return serveLoader(args, downloadAccountData);
}
