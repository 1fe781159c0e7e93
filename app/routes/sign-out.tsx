import { redirect } from "react-router";
import { signOutForm } from "#server/sign-in/sign-out.ts";
import { redirectWithFlash } from "#server/web/flash.ts";
import { serveAction } from "#server/web/operations.ts";
import type { Route } from "./+types/sign-out";

export function loader() {
  return redirect("/");
}

/** Ends the session on the server and clears its cookies. */
export async function action(args: Route.ActionArgs) {
  return serveAction(args, signOutForm, ({ setCookies }) =>
    redirectWithFlash(args.context.services.config, "/", "success", "Signed out successfully", setCookies),
  );
}
