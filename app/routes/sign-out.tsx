import { redirect } from "react-router";
import { authApiFor } from "#server/auth/api.ts";
import { signOut } from "#server/auth/sign-out.ts";
import { redirectWithFlash } from "#server/web/flash.ts";
import { runAction } from "#server/web/respond.ts";
import type { Route } from "./+types/sign-out";

export function loader() {
  return redirect("/");
}

/** Ends the session on the server and clears its cookies. */
export async function action({ request, context }: Route.ActionArgs) {
  return runAction(context, async () => {
    const { setCookies } = await signOut(authApiFor(context, request));
    return redirectWithFlash(context.services.config, "/", "success", "Signed out successfully", setCookies);
  });
}
