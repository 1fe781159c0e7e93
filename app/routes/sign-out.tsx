import { redirect } from "react-router";
import { callAuth } from "#server/auth/api.ts";
import { redirectWithFlash } from "#server/flash.ts";
import type { Route } from "./+types/sign-out";

export function loader() {
  return redirect("/");
}

/** Ends the session on the server and clears its cookies. */
export async function action({ request, context }: Route.ActionArgs) {
  const result = await callAuth(context, request, "/sign-out", {});
  return redirectWithFlash(context.services.config, "/", "success", "Signed out successfully", result.setCookies);
}
