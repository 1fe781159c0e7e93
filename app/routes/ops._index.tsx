import { redirect } from "react-router";
import { consoleFrame } from "#server/ops/access.ts";
import { serveLoader } from "#server/web/operations.ts";
import type { Route } from "./+types/ops._index";

/** /ops opens on the first section of the menu. */
export async function loader(args: Route.LoaderArgs) {
  await serveLoader(args, consoleFrame);
  return redirect("/ops/verification");
}

/** Never shown (the loader redirects); its presence makes /ops a page, so that a refusal renders the 404 page. */
export default function OpsIndex() {
  return null;
}
