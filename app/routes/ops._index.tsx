import { redirect } from "react-router";
import { requireOperator } from "#server/ops/access.ts";
import { runLoader } from "#server/web/respond.ts";
import type { Route } from "./+types/ops._index";

/** /ops opens on the first section of the menu. */
export async function loader({ context }: Route.LoaderArgs) {
  return runLoader(context, async () => {
    await requireOperator(context);
    return redirect("/ops/verification");
  });
}

/** Never shown (the loader redirects); its presence makes /ops a page, so that a refusal renders the 404 page. */
export default function OpsIndex() {
  return null;
}
