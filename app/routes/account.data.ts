import { requireUser } from "#server/auth/guards.ts";
import { exportUserData } from "#server/privacy/export.ts";
import { runLoader } from "#server/web/respond.ts";
import type { Route } from "./+types/account.data";

/** Download my data: the signed-in user's data as a JSON file (server/privacy/export.ts). */
export async function loader({ request, context }: Route.LoaderArgs) {
  return runLoader(context, async () => {
    const user = await requireUser(context, request, { signedOut: { message: "Please sign in to download your data" } });
    const exported = await exportUserData(context.services.db, user.id);
    context.logger.info({ userId: user.id }, "account data exported");
    return new Response(JSON.stringify(exported, null, 2), {
      headers: {
        "Content-Type": "application/json; charset=utf-8",
        "Content-Disposition": `attachment; filename="digs-and-gigs-data-${exported.exportedAt.slice(0, 10)}.json"`,
        "Cache-Control": "no-store",
      },
    });
  });
}
