/**
 * The diggers' reviews of the demo clients they worked for (issue 51): on a few past hires of
 * the demo client (whose open gigs top Browse Gigs) and of two others, written within the hire's
 * 14 days and published, in a review window that is over. The plan is pure data; the figures
 * ('4.8 from 3 diggers', the shares of yes) are the database's, from these rows (migration 0056).
 */
import { REVIEW_WINDOW_DAYS } from '#core/two-way-reviews.ts'
import type { Transaction } from '../client.ts'
import { clientReviews, reviewWindows } from '../schema.ts'
import type { PastLead } from './demo-reviews.ts'

/** How many hires of each demo client (by index) their digger reviewed. */
const REVIEWS_OF_CLIENT: Record<number, number> = { 0: 6, 2: 3, 4: 2 }

export interface PastClientReview {
  rating: number
  body: string
  asDescribed: boolean | null
  easyToReach: boolean | null
  paidAsAgreed: boolean | null
  /** Written (and published) this many days after the hire, within the window. */
  daysAfterHire: number
}

/** Cycled over the reviews: texts, ratings and answers that agree with each other. */
const REVIEWS: Array<Omit<PastClientReview, 'daysAfterHire'>> = [
  { rating: 5, body: 'Clear about what they wanted from the first message, had the space ready when I arrived and paid the same day. A pleasure to work for.', asDescribed: true, easyToReach: true, paidAsAgreed: true },
  { rating: 5, body: 'Answered every question quickly and the photos matched the job exactly. Paid as agreed, no haggling at the end.', asDescribed: true, easyToReach: true, paidAsAgreed: true },
  { rating: 4, body: 'Good client. The job grew a little once I was on site, but we agreed the extra before I started and they paid promptly.', asDescribed: false, easyToReach: true, paidAsAgreed: true },
  { rating: 4, body: 'Friendly and flexible on the schedule. Payment took a few days longer than promised, but it arrived in full.', asDescribed: true, easyToReach: null, paidAsAgreed: false },
  { rating: 5, body: 'Kept the pets inside while we worked and checked in at the end of each day. Would happily take another job from them.', asDescribed: null, easyToReach: true, paidAsAgreed: true },
  { rating: 3, body: 'The description left out a second room, so the quote changed on the day. Fair in the end, but more detail up front would help.', asDescribed: false, easyToReach: false, paidAsAgreed: true },
]

/** The planned review of each past lead that gets one: hired leads of the clients above, in the leads' order. */
export function pastClientReviews(leads: PastLead[]): Map<PastLead, PastClientReview> {
  const planned = new Map<PastLead, PastClientReview>()
  const written: Record<number, number> = {}
  for (const lead of leads) {
    const wanted = REVIEWS_OF_CLIENT[lead.clientIndex] ?? 0
    const done = written[lead.clientIndex] ?? 0
    if (!lead.hired || done >= wanted) continue
    written[lead.clientIndex] = done + 1
    // Each client's reviews in turn through the texts: no client shows one twice.
    planned.set(lead, { ...REVIEWS[(done + lead.clientIndex) % REVIEWS.length]!, daysAfterHire: 3 + (planned.size % 8) })
  }
  return planned
}

/** The hire's window, over and published, and the digger's review of the client in it. */
export async function seedClientReview(
  tx: Transaction,
  hire: { gigId: string; diggerId: string; leadPurchaseId: string; clientId: string; hiredAt: Date },
  review: PastClientReview,
): Promise<void> {
  const day = 24 * 3_600_000
  const writtenAt = new Date(hire.hiredAt.getTime() + review.daysAfterHire * day)
  await tx
    .insert(reviewWindows)
    .values({ gigId: hire.gigId, diggerId: hire.diggerId, leadPurchaseId: hire.leadPurchaseId, openedAt: hire.hiredAt, endsAt: new Date(hire.hiredAt.getTime() + REVIEW_WINDOW_DAYS * day), publishedAt: writtenAt })
    .onConflictDoNothing()
  await tx.insert(clientReviews).values({
    gigId: hire.gigId,
    diggerId: hire.diggerId,
    leadPurchaseId: hire.leadPurchaseId,
    clientId: hire.clientId,
    rating: review.rating,
    body: review.body,
    asDescribed: review.asDescribed,
    easyToReach: review.easyToReach,
    paidAsAgreed: review.paidAsAgreed,
    publishedAt: writtenAt,
    createdAt: writtenAt,
    updatedAt: writtenAt,
  })
}
