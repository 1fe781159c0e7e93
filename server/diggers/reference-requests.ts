/**
 * Reference contact requests (design.md section 1): a signed-in consumer asks for a
 * reference's contact; the digger who owns the reference approves or declines it at
 * /reference-requests. The digger is e-mailed each new request, the consumer the outcome.
 */
import { and, desc, eq, isNull, sql } from "drizzle-orm";
import { data, type AppLoadContext } from "react-router";
import { requireDigger, requireUser } from "../auth/guards.ts";
import { diggerProfiles, diggerReferences, referenceContactRequests, users } from "../db/schema.ts";
import { decodeCursor, exactTimestamp, PAGE_SIZE, toPage } from "../pagination.ts";
import { isUniqueViolation } from "../db/errors.ts";
import { isUuid } from "./ids.ts";

export interface ReferenceRequestResult {
  error?: string;
  success?: string;
}

export const REQUEST_MESSAGES = {
  signIn: "Please sign in to request reference contact",
  duplicate: "You've already requested this reference contact",
  failed: "Failed to send request",
  sent: "Request sent! The digger will be notified.",
} as const;

const result = (body: ReferenceRequestResult, status = 200) => data(body, { status });

/** The action of /digger/{id}: the signed-in consumer asks for one of this digger's references. */
export async function requestReferenceContact(context: AppLoadContext, request: Request, diggerId: string) {
  const page = `/digger/${diggerId}`;
  const user = await requireUser(context, request, {
    signedOut: { message: REQUEST_MESSAGES.signIn, redirectTo: `/auth?redirect=${encodeURIComponent(page)}` },
    userType: { type: "consumer", message: "Only consumers can request reference contacts", redirectTo: page },
  });
  const { db, mailer, config, logger } = context.services;
  const referenceId = (await request.formData()).get("referenceId");
  if (!isUuid(referenceId) || !isUuid(diggerId)) return result({ error: REQUEST_MESSAGES.failed }, 400);

  // The reference must be this digger's; the digger id stored is the reference's own.
  const [reference] = await db
    .select({
      name: diggerReferences.referenceName,
      diggerId: diggerReferences.diggerId,
      diggerUserId: users.id,
      diggerEmail: users.email,
    })
    .from(diggerReferences)
    .innerJoin(diggerProfiles, eq(diggerProfiles.id, diggerReferences.diggerId))
    .innerJoin(users, eq(users.id, diggerProfiles.userId))
    .where(and(eq(diggerReferences.id, referenceId), eq(diggerReferences.diggerId, diggerId), isNull(diggerProfiles.hiddenAt)));
  if (!reference) return result({ error: REQUEST_MESSAGES.failed }, 404);

  try {
    await db.insert(referenceContactRequests).values({ referenceId, consumerId: user.id, diggerId: reference.diggerId });
  } catch (error) {
    if (isUniqueViolation(error, "reference_contact_requests_reference_consumer_key")) {
      return result({ error: REQUEST_MESSAGES.duplicate }, 409);
    }
    logger.error({ err: error }, "reference contact request failed");
    return result({ error: REQUEST_MESSAGES.failed }, 500);
  }
  await mailer.send({
    to: reference.diggerEmail,
    userId: reference.diggerUserId,
    kind: "transactional",
    subject: "New reference contact request",
    text: [
      `${user.name} would like the contact details of your reference ${reference.name}.`,
      "",
      `Approve or decline the request: ${config.publicUrl}/reference-requests`,
    ].join("\n"),
  });
  return result({ success: REQUEST_MESSAGES.sent });
}

const DIGGER_ONLY = {
  userType: { type: "digger", message: "Only diggers can access this page", redirectTo: "/" },
  diggerProfile: { message: "Please complete your digger profile first", redirectTo: "/digger-registration" },
} as const;

export interface ReferenceRequestRow {
  id: string;
  consumerName: string;
  referenceName: string;
  status: "pending" | "approved" | "rejected";
  createdAt: string;
}

/** The signed-in digger's requests, newest first, a page at a time. */
export async function loadReferenceRequests(context: AppLoadContext, request: Request) {
  const { diggerId } = await requireDigger(context, request, DIGGER_ONLY);
  const q = referenceContactRequests;
  const cursor = decodeCursor(new URL(request.url).searchParams.get("cursor"), 2);
  const [createdAt, id] = cursor ?? [];
  const rows = await context.services.db
    .select({
      id: q.id,
      consumerName: users.name,
      referenceName: diggerReferences.referenceName,
      status: q.status,
      createdAt: exactTimestamp(q.createdAt),
    })
    .from(q)
    .innerJoin(users, eq(users.id, q.consumerId))
    .innerJoin(diggerReferences, eq(diggerReferences.id, q.referenceId))
    .where(
      and(
        eq(q.diggerId, diggerId),
        typeof createdAt === "string" && isUuid(id) ? sql`(${q.createdAt}, ${q.id}) < (${createdAt}::timestamptz, ${id}::uuid)` : undefined,
      ),
    )
    .orderBy(desc(q.createdAt), desc(q.id))
    .limit(PAGE_SIZE + 1);
  return toPage<ReferenceRequestRow>(rows, PAGE_SIZE, (row) => [row.createdAt, row.id]);
}

/** Approve or decline: only a pending request for one of the signed-in digger's references. */
export async function resolveReferenceRequest(context: AppLoadContext, request: Request) {
  const { diggerId } = await requireDigger(context, request, DIGGER_ONLY);
  const { db, mailer, config } = context.services;
  const form = await request.formData();
  const requestId = form.get("requestId");
  const decision = form.get("decision");
  if (!isUuid(requestId) || (decision !== "approve" && decision !== "decline")) {
    return result({ error: "Failed to update request" }, 400);
  }
  const q = referenceContactRequests;
  const [updated] = await db
    .update(q)
    .set({ status: decision === "approve" ? "approved" : "rejected", resolvedAt: sql`now()` })
    .where(and(eq(q.id, requestId), eq(q.diggerId, diggerId), eq(q.status, "pending")))
    .returning({ consumerId: q.consumerId, referenceId: q.referenceId });
  if (!updated) {
    const [existing] = await db.select({ id: q.id }).from(q).where(and(eq(q.id, requestId), eq(q.diggerId, diggerId)));
    return existing
      ? result({ error: "This request has already been answered" }, 409)
      : result({ error: "Request not found" }, 404);
  }

  const [details] = await db
    .select({ consumerEmail: users.email, referenceName: diggerReferences.referenceName, handle: diggerProfiles.handle })
    .from(diggerReferences)
    .innerJoin(diggerProfiles, eq(diggerProfiles.id, diggerReferences.diggerId))
    .innerJoin(users, eq(users.id, updated.consumerId))
    .where(eq(diggerReferences.id, updated.referenceId));
  if (details) {
    const approved = decision === "approve";
    await mailer.send({
      to: details.consumerEmail,
      userId: updated.consumerId,
      kind: "transactional",
      subject: approved ? "Your reference contact request was approved" : "Your reference contact request was declined",
      text: [
        approved
          ? `${details.handle} approved your request for the contact details of ${details.referenceName}.`
          : `${details.handle} declined your request for the contact details of ${details.referenceName}.`,
        "",
        approved ? `See them on the profile: ${config.publicUrl}/digger/${diggerId}` : `Profile: ${config.publicUrl}/digger/${diggerId}`,
      ].join("\n"),
    });
  }
  return result({ success: decision === "approve" ? "Request approved" : "Request declined" });
}
