/** Who may use My Leads (the page and its issue reports), with the spec's message and destination for everyone else. */
import { digger } from "../guards.ts";

export const MY_LEADS_ACCESS = digger({
  signedOut: { message: "Please sign in to view your leads", redirectTo: "/auth?type=digger&redirect=/my-leads" },
  // A client has no digger profile either; /digger-registration would only turn them away.
  userType: { type: "digger", message: "My Leads is for diggers", redirectTo: "/" },
  diggerProfile: { message: "Digger profile not found", redirectTo: "/digger-registration" },
});
