import { index, route, type RouteConfig } from "@react-router/dev/routes";

/** Every screen of the spec (section 2); the catch-all renders the 404 page. */
export default [
  index("routes/home.tsx"),
  route("auth", "routes/auth.tsx"),
  route("digger-registration", "routes/digger-registration.tsx"),
  route("post-gig", "routes/post-gig.tsx"),
  route("browse-diggers", "routes/browse-diggers.tsx"),
  route("browse-gigs", "routes/browse-gigs.tsx"),
  route("digger/:id", "routes/digger.tsx"),
  route("gig/:id", "routes/gig.tsx"),
  route("my-leads", "routes/my-leads.tsx"),
  // The digger's review of a lead's client (issue 51): the dialog's data and its form.
  route("my-leads/:purchaseId/review", "routes/my-leads.$purchaseId.review.tsx"),
  route("my-gigs", "routes/my-gigs.tsx"),
  route("my-gigs/:gigId/issues", "routes/my-gigs.$gigId.issues.tsx"),
  route("my-gigs/:gigId/diggers", "routes/my-gigs.$gigId.diggers.tsx"),
  route("my-gigs/:gigId/edit", "routes/my-gigs.$gigId.edit.tsx"),
  route("my-gigs/:gigId/quotes", "routes/my-gigs.$gigId.quotes.tsx"),
  route("contact", "routes/contact.tsx"),
  route("how-it-works", "routes/how-it-works.tsx"),
  route("terms", "routes/terms.tsx"),
  route("privacy", "routes/privacy.tsx"),
  // Pages beyond the spec's list: account self-service, password reset, e-mail confirmation, sign-out, local mail, notifications (the bell).
  route("account", "routes/account.tsx"),
  route("account/data", "routes/account.data.ts"),
  route("unsubscribe", "routes/unsubscribe.tsx"),
  // A visit's signed Confirm / Need to change link, from the client's 24-hour reminder (issue 50): no sign-in needed.
  route("visit-reply", "routes/visit-reply.tsx"),
  route("reference-requests", "routes/reference-requests.tsx"),
  route("notifications", "routes/notifications.tsx"),
  // Conversations between a lead's digger and its client (issue 32): each party's own threads only.
  route("messages", "routes/messages.tsx"),
  route("messages/:threadId", "routes/messages.$threadId.tsx"),
  route("messages/:threadId/attachments/:id", "routes/messages.$threadId.attachments.$id.ts"),
  // Site visits booked in conversations (issue 50): each party's own, upcoming then past.
  route("visits", "routes/visits.tsx"),
  route("reset-password", "routes/reset-password.tsx"),
  route("verify-email", "routes/verify-email.tsx"),
  // Verified phone numbers (issue 49): the code step every page that sends a code leads to.
  route("verify-phone", "routes/verify-phone.tsx"),
  route("sign-out", "routes/sign-out.tsx"),
  route("dev/mail", "routes/dev-mail.tsx"),
  route("dev/sms", "routes/dev-sms.tsx"),
  route("dev/clock", "routes/dev-clock.tsx"),
  route("checkout/:sessionId", "routes/checkout.tsx"),
  route("credentials/:id/document", "routes/credentials.$id.document.ts"),
  // The operator console (issue 22): the 404 page for everyone but operators.
  route("ops", "routes/ops.tsx", [
    index("routes/ops._index.tsx"),
    route("verification", "routes/ops.verification.tsx"),
    route("users", "routes/ops.users.tsx"),
    route("users/:userId", "routes/ops.users.$userId.tsx"),
    route("gigs", "routes/ops.gigs.tsx"),
    route("reviews", "routes/ops.reviews.tsx"),
    route("messages", "routes/ops.messages.tsx"),
    route("payments", "routes/ops.payments.tsx"),
    route("audit", "routes/ops.audit.tsx"),
  ]),
  route("sitemap.xml", "routes/sitemap.ts"),
  route("robots.txt", "routes/robots.ts"),
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
