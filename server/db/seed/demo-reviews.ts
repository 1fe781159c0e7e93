/**
 * The demo diggers' past work: closed gigs of the demo clients whose leads they bought, the
 * hires and the reviews those clients left, and a few replies. Pure data and a deterministic
 * plan, no I/O. No figure is typed here: average_rating, total_ratings and completion_rate are
 * what the database computes from these rows (migration 0016, decision 0022).
 */

/** How many past leads each demo digger bought, in the order of demoDiggers (the last one is new). */
const PAST_LEADS = [4, 6, 9, 8, 7, 5, 8, 4, 6, 5, 4, 7, 5, 3, 3, 4, 5, 3, 4, 0]

/** Each digger's usual ratings, cycled over their reviews: the spread between diggers is real. */
const RATING_PATTERNS = [
  [5, 5, 4, 5, 5],
  [5, 4, 5, 5, 4, 3],
  [4, 5, 3, 4, 5, 4],
  [4, 3, 5, 2, 4, 4],
] as const
const PATTERN_OF = [1, 0, 1, 0, 2, 2, 3, 0, 2, 0, 3, 1, 3, 1, 3, 2, 3, 1, 2, 0]

const KINDS = ['one-day job', 'weekend project', 'small repair', 'bigger project', 'follow-up visit', 'quick fix']

const TEXTS: Record<number, string[]> = {
  5: [
    'Showed up exactly when promised, explained what needed doing and finished in one visit. Spotless work and a fair price.',
    'Fantastic from start to finish. Clear written quote, no surprises on the bill, and the result looks better than we hoped.',
    'Friendly, careful and fast. Cleaned up after themselves and even showed me how to avoid the problem next time.',
    'We have hired a few people through the years and this was by far the best experience. Would book again without a second thought.',
  ],
  4: [
    'Good work and fair pricing. Started a day later than planned, but kept me informed and the job itself was done well.',
    'Solid, professional job. A couple of small details needed a second look, which they fixed right away when I asked.',
    'Knew their trade and answered all my questions. The job took a little longer than quoted but the quality is there.',
  ],
  3: [
    'The work is fine, but communication was patchy and I had to chase them twice to get a date. Okay overall.',
    'Did what was asked, nothing more. Price was reasonable; I expected a bit more care with the cleanup afterwards.',
  ],
  2: [
    'Arrived late both days and the first attempt did not fix the problem. They came back to finish it, but it took a week.',
  ],
  1: [
    'Did not turn up on the agreed day and the work had to be redone by someone else. Would not recommend.',
  ],
}

const REPLIES: Record<number, string> = {
  5: 'Thank you for the kind words. It was a pleasure working with you, and I hope to help again.',
  4: 'Thanks for the honest review, and sorry about the delay. Glad you are happy with the result.',
  3: 'Thank you for the feedback. You are right about the scheduling; I have since changed how I confirm dates.',
  2: 'I am sorry the first visit did not solve it. Thank you for giving me the chance to come back and finish the job.',
  1: 'I am sorry we let you down. Please get in touch so I can make it right.',
}

export interface PastLead {
  diggerIndex: number
  clientIndex: number
  title: string
  description: string
  budgetMinCents: number
  /** When the lead was bought; the gig was posted a day before. */
  purchasedDaysAgo: number
  /** Marked as hired two days after the purchase. */
  hired: boolean
  review: { rating: number; body: string; daysAgo: number; reply: string | null } | null
}

/** Every past lead of the demo diggers, with its hire and review when there is one. */
export function pastLeads(diggers: Array<{ profession: string; location: string }>, clients: number): PastLead[] {
  const leads: PastLead[] = []
  // Each rating's texts taken in turn across all reviews, so that one profile rarely repeats one.
  const used: Record<number, number> = { 1: 0, 2: 0, 3: 0, 4: 0, 5: 0 }
  diggers.forEach((digger, i) => {
    const pattern = RATING_PATTERNS[PATTERN_OF[i % PATTERN_OF.length]!]!
    let reviews = 0
    for (let j = 0; j < (PAST_LEADS[i] ?? 0); j++) {
      const kind = KINDS[(i + j) % KINDS.length]!
      const hired = (i + j) % 4 !== 3
      // Most clients who hired review; a few who did not hire review too.
      const reviewed = hired ? j % 3 !== 2 : j % 2 === 0
      const purchasedDaysAgo = 16 + j * 26 + (i % 5) * 3
      let review: PastLead['review'] = null
      if (reviewed) {
        const rating = Math.max(1, pattern[reviews % pattern.length]! - (hired ? 0 : 1))
        const texts = TEXTS[rating]!
        review = {
          rating,
          body: texts[used[rating]!++ % texts.length]!,
          daysAgo: purchasedDaysAgo - 9,
          reply: reviews % 3 === 0 ? REPLIES[rating]! : null,
        }
        reviews += 1
      }
      leads.push({
        diggerIndex: i,
        clientIndex: (i + j) % clients,
        title: `${digger.profession} for a ${kind}`,
        description: `Looking for an experienced ${digger.profession.toLowerCase()} in ${digger.location} for a ${kind}. Details and photos by phone or e-mail.`,
        budgetMinCents: 50_000 * (1 + ((i + j) % 4)),
        purchasedDaysAgo,
        hired,
        review,
      })
    }
  })
  return leads
}
